"""Property test: whichever way a human gets the turn (a match start, an action, a join
taking over an AI seat while the AI is thinking, a back, a timeout, a process restart),
their turn has a stored deadline, and when it passes the table moves on. AI turns have
none. The clock is fake; the AI's thinking time is a short real delay, so joins and
leaves land while an AI seat is about to play."""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import REFUSALS
from bot.runtime import FakeClock, Player, RuntimeConfig, Table
from tests.bot.runtime.conftest import open_runtime

PLAYERS = [Player("u-ana", "Ana"), Player("u-bo", "Bo"), Player("u-cy", "Cy")]
TURN_SECONDS = 30
AI_DELAY = 0.004
OPS = st.lists(
    st.tuples(
        st.sampled_from(["act", "join", "join", "leave", "back", "timeout", "wait", "restart"]),
        st.integers(min_value=0, max_value=50),
    ),
    min_size=1,
    max_size=30,
)


def stored_timer(path: Path, table_id: int) -> tuple[float | None, int | None]:
    with sqlite3.connect(path) as db:
        row = db.execute(
            "SELECT deadline, deadline_turn FROM tables WHERE id = ?", (table_id,)
        ).fetchone()
    return row[0], row[1]


def human_to_act(table: Table) -> bool:
    index = table.to_act
    return index is not None and not table.finished and not table.seats[index].ai_plays


async def check_timer(path: Path, table: Table) -> None:
    """The invariant, checked while nobody else holds the table's lock (an AI turn may be
    half-way through its commit otherwise)."""
    async with table._lock:
        check_unlocked(path, table)


def check_unlocked(path: Path, table: Table) -> None:
    assert stored_timer(path, table.id) == (table.deadline, table.deadline_turn)
    if human_to_act(table):
        assert table.deadline is not None, "a human's turn without a deadline"
        assert table.deadline_turn == table.turn
    else:
        assert table.deadline is None


async def session(path: Path, ops: list[tuple[str, int]], seed: int) -> None:
    clock = FakeClock()
    config = RuntimeConfig(ai_delay=AI_DELAY, ai_in_thread=False)

    storage, manager = await open_runtime(path, clock, config)
    try:
        table = await manager.create(
            guild="g",
            place="p",
            game="bigtwo",
            settings={"deals": 2},
            options={"ai_policy": "random", "turn_seconds": TURN_SECONDS},
            owner=PLAYERS[0],
        )
        await table.start(seed=seed)
        await check_timer(path, table)
        for op, n in ops:
            player = PLAYERS[n % len(PLAYERS)]
            try:
                if op == "act" and human_to_act(table) and table.state is not None:
                    index = table.to_act
                    assert index is not None
                    owner = table.seats[index].owner
                    assert owner is not None
                    legal = table.state.legal_actions(index)
                    await table.act(owner.id, str(legal[n % len(legal)]), table.turn)
                elif op == "join":
                    await table.join(player, seat=n % len(table.seats))
                elif op == "leave":
                    await table.leave(player.id)
                elif op == "back":
                    await table.back(player.id)
                elif op == "timeout":
                    async with table._lock:
                        waiting, turn = human_to_act(table), table.turn
                    await clock.advance(TURN_SECONDS + 1)
                    await table.idle()
                    if waiting:
                        assert table.turn > turn, "the table hung on a human's turn"
                elif op == "wait":
                    await asyncio.sleep(AI_DELAY * (1 + n % 4))
                elif op == "restart":
                    await manager.close()
                    await storage.close()
                    storage, manager = await open_runtime(path, clock, config)
                    table = manager.get("p")
            except REFUSALS:
                pass
            await check_timer(path, table)
            if table.finished:
                break
        await table.idle()
        await check_timer(path, table)
    finally:
        await manager.close()
        await storage.close()


@settings(max_examples=20)
@given(ops=OPS, seed=st.integers(min_value=0, max_value=2**32))
def test_every_human_turn_has_a_deadline(ops: list[tuple[str, int]], seed: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(session(Path(tmp) / "t.sqlite3", ops, seed))
