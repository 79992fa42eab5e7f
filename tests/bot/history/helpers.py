"""Matches played straight on an engine, as the storage rows a history is built from."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from bot.history.build import MatchLog
from bot.runtime import FakeClock, Player, RecordingFront, RuntimeConfig, TableManager
from bot.runtime.replay import match_state
from engines.registry import get_game
from storage import SqliteStorage
from storage.base import ActionRecord, MatchPlayer, MatchRecord, TableRecord

GAMES: dict[str, dict[str, Any]] = {
    "bigtwo": {"deals": 2},
    "holdem": {"seats": 4, "starting_chips": 200},
    "draw": {"seats": 3, "deals": 4},
    "duel": {"starting_chips": 6},
}
"""Small matches of every game (settings of their tables)."""

Chooser = Callable[[random.Random, Any, int], Any]


def engine_match(
    game: str,
    config: dict[str, Any],
    seed: int,
    choose: Chooser,
    *,
    players: Sequence[str] | None = None,
    finished: bool = True,
    max_actions: int = 5000,
) -> MatchLog:
    """Play a match of `game` with `choose(rng, state, seat)` deciding every turn, and return
    it as the rows storage would hold (no ledgers: histories are built from the log)."""
    spec = get_game(game)
    cfg = spec.make_config(**config)
    # Match 1 of table 1, dealt from `seed` as the runtime deals a stored match.
    state = match_state(spec, MatchRecord(1, 1, 1, seed, cfg.model_dump(mode="json"), 0, 0.0))
    rng = random.Random(seed + 1)
    actions: list[ActionRecord] = []
    while state.to_act is not None and len(actions) < max_actions:
        if not finished and rng.random() < 0.002:
            break
        seat = state.to_act
        action = choose(rng, state, seat)
        state.apply(seat, action)
        actions.append(ActionRecord(1, len(actions), 0, seat, str(action), "ai", 0.0))
    seats = int(cfg.model_dump().get("seats", 4))
    ids = list(players) if players is not None else [f"ai:random{s}" for s in range(seats)]
    done = state.finished
    return MatchLog(
        table=TableRecord(1, "g", "place", spec.name, {}, {}, "finished", 0.0),
        match=MatchRecord(
            1,
            1,
            1,
            seed,
            cfg.model_dump(mode="json"),
            0,
            0.0,
            finished_at=1.0 if done else None,
        ),
        players=[MatchPlayer(s, ids[s], f"P{s}", ids[s].startswith("ai:")) for s in range(seats)],
        actions=actions,
        chips=[],
        penalties=[],
    )


def recorded_log(
    config: dict[str, Any], seats_acting: Sequence[Sequence[Any]], texts: Sequence[str], seed: int
) -> MatchLog:
    """A finished one-hand hold'em match as storage would hold it: `texts` played by the
    seats of `seats_acting` (rows whose first item is the seat)."""
    seats = int(config["seats"])
    return MatchLog(
        table=TableRecord(1, "g", "recorded", "holdem", {}, {}, "finished", 0.0),
        match=MatchRecord(1, 1, 1, seed, config, 0, 0.0, finished_at=1.0),
        players=[MatchPlayer(s, f"p{s}", f"P{s}", False) for s in range(seats)],
        actions=[
            ActionRecord(1, i, 1, int(row[0]), text, "human", 0.0)
            for i, (row, text) in enumerate(zip(seats_acting, texts, strict=True))
        ],
        chips=[],
        penalties=[],
    )


def random_legal(rng: random.Random, state: Any, seat: int) -> Any:
    """Any legal action, amounts anywhere in their range when the game has them."""
    legal = list(state.legal_actions(seat))
    return rng.choice(legal)


def runtime(store: SqliteStorage) -> TableManager:
    """A table manager on `store` whose AI players play at once, in the event loop."""
    return TableManager(
        store,
        RecordingFront(),
        clock=FakeClock(),
        config=RuntimeConfig(ai_delay=0.0, ai_in_thread=False, timers=False),
    )


async def played(
    store: SqliteStorage,
    game: str,
    place: str,
    seed: int,
    *,
    guild: str = "g1",
    player: str = "u1",
) -> int:
    """A match where `player` sits in seat 0, then leaves so the AI plays it out; the table
    is then closed (a bot started on the database has nothing to restore)."""
    manager = runtime(store)
    try:
        table = await manager.create(
            guild=guild,
            place=place,
            game=game,
            settings=GAMES[game],
            options={"ai_policy": "random"},
            owner=Player(player, "Ana"),
        )
        await table.start(seed=seed)
        await table.leave(player)
        await table.idle()
        assert table.finished and table.match is not None
        await table.stop()
        return table.match.id
    finally:
        await manager.close()
