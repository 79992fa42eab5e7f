"""Draw poker levels against the sparring pool, on duplicate (mirrored) deals.

`duplicate(candidate, opponent, groups)` plays `groups` match seeds; each seed is played
once per seat with the candidate in that seat and copies of `opponent` in the others (the
same cards: a deal's deck comes from the match seed and the deal number, whatever was
played before; each seat's opponent draws its mixed choices from the same seed in every
rotation). A group's sample is the candidate's chips per deal over its rotations, so the
luck of the cards and of the seats cancels inside each group; the 95% interval is over
the groups. Two candidates run on the same seeds are paired: `margin` is the interval of
their difference, group by group (`hard` minus `normal`).
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.commands.simulate import Interval, TimedPolicy, json_text, percentile
from engines.base import DealSettled, Event
from engines.draw import SPEC, DrawConfig, DrawState
from engines.play import play_out

LEVELS: tuple[str, ...] = ("hard", "normal")
"""The levels measured, by level name (`SPEC.level_policy` gives the policy)."""

POOL: tuple[str, ...] = ("tag", "lag", "maniac", "calling", "rock", "strong_v1")
"""The sparring pool: four styles, the calling station and frozen `strong`."""

DEALS_PER_MATCH = 25
"""Deals in each match of a group (its cave and rebuys play out over them)."""

SEATS = 4
"""Seats at the table: the candidate and three copies of the opponent."""


@dataclass(frozen=True)
class Duplicate:
    """One candidate against three of one opponent: per-group chips per deal, decision ms."""

    candidate: str
    opponent: str
    groups: list[float]
    deals: int
    decision_ms: list[float]

    def chips(self) -> Interval:
        """The candidate's chips per deal with its 95% interval over the groups."""
        return Interval.of(self.groups)


def margin(first: Duplicate, second: Duplicate) -> Interval:
    """`first` minus `second`, group by group (the same seeds), with its 95% interval."""
    diffs = [a - b for a, b in zip(first.groups, second.groups, strict=True)]
    return Interval.of(diffs)


def duplicate(
    candidate: str,
    opponent: str,
    groups: int,
    seed: int = 0,
    deals_per_match: int = DEALS_PER_MATCH,
    seats: int = SEATS,
    progress: Callable[[int], None] | None = None,
    start: int = 0,
) -> Duplicate:
    """`candidate` (a policy name) in each seat in turn against `seats - 1` of `opponent`,
    over the match seeds of groups `start` to `start + groups - 1` of `seed` (see the
    module docstring)."""
    config = DrawConfig(seats=seats, deals=deals_per_match)
    samples: list[float] = []
    times: list[float] = []
    deals = 0
    for group in range(start, start + groups):
        # Each group's seeds depend on (seed, group) alone: a longer run extends a shorter one.
        master = random.Random(f"draw-duplicate/{seed}/{group}")
        match_seed = master.getrandbits(64)
        policy_seeds = [master.getrandbits(64) for _ in range(seats)]
        chips = 0.0
        dealt = 0
        for seat in range(seats):
            players = [
                TimedPolicy(SPEC.make_policy(candidate, random.Random(policy_seeds[s])), times)
                if s == seat
                else SPEC.make_policy(opponent, random.Random(policy_seeds[s]))
                for s in range(seats)
            ]
            state = DrawState(config, random.Random(match_seed))
            events: list[Event] = play_out(state, players).events
            for event in events:
                if isinstance(event, DealSettled) and event.chips is not None:
                    chips += event.chips[seat]
                    dealt += 1
        samples.append(chips / max(1, dealt))
        deals += dealt
        if progress is not None:
            progress(group - start + 1)
    return Duplicate(candidate, opponent, samples, deals, times)


def level_table(
    results: dict[tuple[str, str], Duplicate], levels: Sequence[str], pool: Sequence[str]
) -> list[str]:
    """Markdown rows: levels as rows, opponents as columns, chips per deal [95%], then the
    margin of the first level over the second against each."""
    header = "| level | " + " | ".join(f"vs 3 {o}" for o in pool) + " |"
    rows = [header, "|" + " --- |" * (len(pool) + 1)]
    for level in levels:
        cells = [_cell(results[level, o].chips()) for o in pool]
        rows.append(f"| {level} | " + " | ".join(cells) + " |")
    if len(levels) == 2:
        first, second = levels
        cells = [_cell(margin(results[first, o], results[second, o])) for o in pool]
        rows.append(f"| {first} - {second} | " + " | ".join(cells) + " |")
    return rows


def _cell(interval: Interval) -> str:
    return f"{interval.mean:+.2f} [{interval.low:+.2f}, {interval.high:+.2f}]"


def decision_line(results: dict[tuple[str, str], Duplicate], level: str) -> str:
    """Decision times of `level` over every line-up: p50 / p99 / max in ms."""
    times = [t for (name, _), r in results.items() if name == level for t in r.decision_ms]
    top = max(times) if times else math.nan
    return (
        f"{level}: decisions p50 {percentile(times, 50):.2f} ms, "
        f"p99 {percentile(times, 99):.2f} ms, max {top:.1f} ms"
    )


def print_pool(candidate: str, pool: Sequence[str], n: int, seed: int, as_json: bool) -> None:
    """`deucebot simulate draw --players C --against P,Q -n N`: the candidate against three
    of each, at least `n` deals per line-up on duplicate deals, printed as a table or JSON."""
    groups = max(1, -(-n // (SEATS * DEALS_PER_MATCH)))
    results = [duplicate(candidate, opponent, groups, seed=seed) for opponent in pool]
    if as_json:
        data = {
            "candidate": candidate,
            "seed": seed,
            "unit": "deal",
            "lineups": [
                {
                    "opponent": r.opponent,
                    "deals": r.deals,
                    "groups": len(r.groups),
                    "chips_per_deal": r.chips().to_json(),
                    "decision_ms": {
                        "p50": round(percentile(r.decision_ms, 50), 3),
                        "p99": round(percentile(r.decision_ms, 99), 3),
                    },
                }
                for r in results
            ],
        }
        print(json_text(data))
        return
    print(f"{candidate} against the pool (duplicate deals: each seat in turn, the same cards)")
    for r in results:
        print(
            f"vs 3 {r.opponent}: {_cell(r.chips())} chips/deal over {r.deals} deals, "
            f"decisions p50 {percentile(r.decision_ms, 50):.2f} ms, "
            f"p99 {percentile(r.decision_ms, 99):.2f} ms"
        )


def simulate_against(args: argparse.Namespace, candidate: str, pool: list[str]) -> int:
    """`simulate draw --players C --against P,Q`: duplicate deals against each opponent."""
    print_pool(candidate, pool, args.n, args.seed, args.json)
    return 0
