"""Property test over random sessions: whatever mix of legal, illegal, stale and duplicate
actions, leaving, coming back and process restarts happens, the stored log replays to the
live state, refusals write nothing, and turns stay contiguous."""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import REFUSALS
from bot.runtime import FakeClock, Player, RuntimeConfig, replay
from tests.bot.runtime.conftest import open_runtime

ANA = Player("u-ana", "Ana")
OPS = st.lists(
    st.tuples(
        st.sampled_from(
            ["legal", "legal", "legal", "garbage", "stale", "twice", "leave", "back", "restart"]
        ),
        st.integers(min_value=0, max_value=50),
    ),
    min_size=1,
    max_size=25,
)


def count_actions(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("SELECT count(*) FROM actions").fetchone()[0])


async def session(path: Path, ops: list[tuple[str, int]], seed: int) -> None:
    clock = FakeClock()
    config = RuntimeConfig(ai_delay=0.0, ai_in_thread=False)

    storage, manager = await open_runtime(path, clock, config)
    table = await manager.create(
        guild="g",
        place="p",
        game="bigtwo",
        settings={"deals": 1},
        options={"ai_policy": "random"},
        owner=ANA,
    )
    await table.start(seed=seed)
    for op, n in ops:
        await table.idle()
        before = count_actions(path)
        refused = False
        try:
            if op == "legal" and table.to_act == 0 and table.state is not None:
                legal = table.state.legal_actions(0)
                await table.act(ANA.id, str(legal[n % len(legal)]), table.turn)
            elif op == "garbage":
                await table.act(ANA.id, f"play {n}x", table.turn)
            elif op == "stale":
                await table.act(ANA.id, "pass", table.turn - 1 - n % 3)
            elif op == "twice" and table.to_act == 0 and table.state is not None:
                action = str(table.state.legal_actions(0)[0])
                turn = table.turn
                results = await asyncio.gather(
                    table.act(ANA.id, action, turn),
                    table.act(ANA.id, action, turn),
                    return_exceptions=True,
                )
                refusals = [r for r in results if isinstance(r, REFUSALS)]
                assert [r.code for r in refusals] == ["stale_turn"]
                with sqlite3.connect(path) as db:
                    rows = db.execute(f"SELECT seat, actor FROM actions WHERE seq = {turn}")
                    assert rows.fetchall() == [(0, "human")]
            elif op == "leave":
                await table.leave(ANA.id)
            elif op == "back":
                await table.back(ANA.id)
            elif op == "restart" and n % 4 == 0:
                await manager.close()
                await storage.close()
                storage, manager = await open_runtime(path, clock, config)
                table = manager.get("p")
        except REFUSALS:
            refused = True
        if refused:
            assert count_actions(path) == before
        await table.idle()
        assert table.match is not None and table.state is not None
        actions = await storage.actions(table.match.id)
        assert [a.seq for a in actions] == list(
            range(table.match.first_seq, table.match.first_seq + len(actions))
        )
        assert table.turn == table.match.first_seq + len(actions)
        rebuilt, _ = replay(table.spec, table.match, [a.action for a in actions])
        assert rebuilt.snapshot() == table.state.snapshot()
        if table.finished:
            break
    await manager.close()
    await storage.close()


@settings(max_examples=12)
@given(ops=OPS, seed=st.integers(min_value=0, max_value=2**32))
def test_random_sessions_keep_log_and_state_equal(ops: list[tuple[str, int]], seed: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(session(Path(tmp) / "p.sqlite3", ops, seed))
