"""Start-up replay against snapshots: what rebuilding one long match costs, per game.

At start-up the runtime rebuilds every unfinished match by replaying its action log from
the match seed (`bot.runtime.replay`); the engines' `snapshot()` / `GameSpec.restore`
could instead rebuild it from a stored state plus a short tail. This measures both on one
long all-AI match per game (the longest a table allows where the game has a limit), so
the choice rests on figures: run by `deucebot bench runtime`, published as its own section.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.runtime import replay
from bot.runtime.replay import match_state
from deucebot_dev.bench.report import publish
from engines.base import Event
from engines.play import play_out
from engines.registry import get_game
from storage.base import MatchRecord

MATCHES: tuple[tuple[str, dict[str, Any], str, int | None, str], ...] = (
    ("bigtwo", {"deals": 100}, "greedy", None, "100 deals, the most a table allows"),
    (
        "draw",
        {"deals": 100},
        "random",
        None,
        "up to 100 deals (fewer once one player has every chip)",
    ),
    ("holdem", {}, "calling", 10_000, "4 seats; calling players never bust: cut at 10,000"),
    ("duel", {}, "strong", None, "a whole match of strong players"),
)
"""(game, table settings, AI policy of every seat, action cap, what the match is)."""


@dataclass(frozen=True, slots=True)
class ReplayCost:
    """One game's long match: its actions, and the best time to rebuild it either way."""

    game: str
    what: str
    actions: int
    replay_ms: float
    restore_ms: float
    snapshot_bytes: int


def _best_ms(work: Callable[[], object], rounds: int) -> float:
    """The fastest of `rounds` runs of `work`, in milliseconds."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def replay_cost(
    game: str, settings: dict[str, Any], policy: str, cap: int | None, what: str, rounds: int = 3
) -> ReplayCost:
    """Play one all-AI match (at most `cap` actions), then time `bot.runtime.replay` of its
    logged action texts and `GameSpec.restore` of its JSON snapshot (best of `rounds`)."""
    spec = get_game(game)
    config = spec.make_config(**settings)
    seats = int(getattr(config, "seats", spec.default_seats))
    match = MatchRecord(
        id=1,
        table_id=1,
        number=1,
        seed=1,
        config=config.model_dump(mode="json"),
        first_seq=0,
        started_at=0.0,
    )
    state = match_state(spec, match)
    players = [spec.make_policy(policy, random.Random(seat)) for seat in range(seats)]
    texts: list[str] = []

    def log(seat: int, action: object, events: list[Event]) -> bool:
        texts.append(str(action))
        return cap is not None and len(texts) >= cap

    play_out(state, players, on_action=log)
    stored = json.dumps(state.snapshot())
    replayed, _ = replay(spec, match, texts)
    assert replayed.snapshot() == state.snapshot(), f"{game}: the replay differs"
    return ReplayCost(
        game=game,
        what=what,
        actions=len(texts),
        replay_ms=_best_ms(lambda: replay(spec, match, texts), rounds),
        restore_ms=_best_ms(lambda: spec.restore(json.loads(stored)), rounds),
        snapshot_bytes=len(stored),
    )


def main(quick: bool, write: bool) -> int:
    """Measure every game's long match, print the table and (with `write`) publish it."""
    rounds = 1 if quick else 3
    costs = [replay_cost(*match, rounds=rounds) for match in MATCHES]
    holdem = next(c for c in costs if c.game == "holdem")
    bounded = max(c.replay_ms for c in costs if c.game != "holdem")
    rows = "\n".join(
        f"| {c.game} | {c.what} | {c.actions:,} | {c.replay_ms:,.1f} | "
        f"{c.replay_ms / c.actions * 1000:.0f} | {c.restore_ms:.2f} | {c.snapshot_bytes:,} |"
        for c in costs
    )
    body = f"""
One long all-AI match per game, rebuilt the way start-up does it (`bot.runtime.replay`:
the match seed, then every logged action text parsed and applied) and, for comparison,
from a JSON snapshot of its last state (`GameSpec.restore`); best of {rounds}.

| game | match | actions | replay ms | µs per action | restore from snapshot ms | snapshot bytes |
| --- | --- | ---: | ---: | ---: | ---: | ---: |
{rows}

Decision: snapshots stay a test and replay tool; nothing stores them. A table replays
only its current match, once, at start-up, and a match with a deal limit replays in
{bounded:,.0f} ms at most here. Hold'em, and draw without a deal limit, have no bound:
{holdem.actions:,} hold'em actions replay in {holdem.replay_ms:,.0f} ms. If such matches
grow that long in practice, a snapshot stored every few thousand actions (restored, then
the short tail of the log replayed) would cut a restart to the restore plus the tail, at
the price of a stored, versioned state format and a migration.
"""
    publish("Start-up replay and snapshots", body, write and not quick)
    return 0
