"""A candidate AI against a pool of opponents: `deucebot simulate bigtwo --players C --against P,Q`.

For each opponent in the pool the candidate plays in each seat in turn against three
copies of it (`simulate` with `--rotate`), every line-up on the same seed, so the same
deals come up in every line-up (paired seeds: the pool's differences are not luck of the
cards). For Big Two each line-up gives the candidate's penalty per deal, its ratio to the
opponents' penalty per deal (with a 95% interval by the delta method over the deals), its
edge and win rate (intervals as `simulate` gives them) and its decision times.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from dataclasses import dataclass
from typing import Any

from bot.commands.simulate import Z95, SimulationResult, percentile, simulate
from engines.registry import GameSpec, get_game


@dataclass(frozen=True)
class Ratio:
    """A ratio of two means with its 95% interval."""

    mean: float
    low: float
    high: float


def ratio_of_means(mine: list[float], theirs: list[float]) -> Ratio:
    """sum(mine) / sum(theirs) for paired samples, with the delta-method 95% interval."""
    n = len(mine)
    if n != len(theirs) or n < 2 or not sum(theirs):
        return Ratio(math.nan, math.nan, math.nan)
    r = math.fsum(mine) / math.fsum(theirs)
    residual = [a - r * b for a, b in zip(mine, theirs, strict=True)]
    se = statistics.stdev(residual) / math.sqrt(n) / (math.fsum(theirs) / n)
    return Ratio(r, r - Z95 * se, r + Z95 * se)


@dataclass(frozen=True)
class LineUp:
    """The candidate (slot 0) against three copies of one opponent."""

    opponent: str
    result: SimulationResult

    def penalty_ratio(self) -> Ratio:
        """The candidate's penalty per deal over the opponents' average, deal by deal."""
        samples = self.result.samples
        mine = samples[0]["penalty_per_deal"]
        theirs = [
            sum(samples[s]["penalty_per_deal"][i] for s in range(1, 4)) / 3
            for i in range(len(mine))
        ]
        return ratio_of_means(mine, theirs)

    def to_json(self) -> dict[str, Any]:
        """The opponent, the ratio and the candidate's seat figures from `simulate`."""
        ratio = self.penalty_ratio()
        seat = self.result.to_json()["seats"][0]
        return {
            "opponent": self.opponent,
            "penalty_ratio": {
                "mean": round(ratio.mean, 4),
                "low": round(ratio.low, 4),
                "high": round(ratio.high, 4),
            },
            **{k: v for k, v in seat.items() if k not in ("seat",)},
        }


def against_pool(
    spec: GameSpec, candidate: str, pool: list[str], n: int, seed: int = 0
) -> list[LineUp]:
    """`candidate` in each seat in turn against three of each opponent of `pool`, `n` deals
    per line-up, every line-up on `seed` (paired deals)."""
    seats = spec.default_seats
    return [
        LineUp(opponent, simulate(spec, [candidate] + [opponent] * (seats - 1), n, seed, True))
        for opponent in pool
    ]


def to_table(candidate: str, lineups: list[LineUp]) -> str:
    """A readable table, one row per line-up."""
    header = ["vs 3x", "penalty ratio", "edge", "win rate", "ms p50", "ms p99", "deals"]
    rows = []
    for lineup in lineups:
        data = lineup.to_json()
        ratio = lineup.penalty_ratio()
        times = lineup.result.decision_ms[0]
        rows.append(
            [
                lineup.opponent,
                f"{ratio.mean:.3f} [{ratio.low:.3f}, {ratio.high:.3f}]",
                _iv(data["edge"]),
                _iv(data["win_rate"]),
                f"{percentile(times, 50):.2f}",
                f"{percentile(times, 99):.2f}",
                str(lineup.result.n),
            ]
        )
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in [header, *rows]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join([f"{candidate} against the pool (seats rotated, paired seeds)", *lines])


def _iv(iv: dict[str, float]) -> str:
    return f"{iv['mean']:.3f} [{iv['low']:.3f}, {iv['high']:.3f}]"


def simulate_against(args: argparse.Namespace, candidate: str, pool: list[str]) -> int:
    """`simulate GAME --players C --against P,Q` for a penalty game: each seat in turn against
    three of each opponent on paired seeds; a table, or JSON with `--json`."""
    lineups = against_pool(get_game(args.game), candidate, pool, args.n, seed=args.seed)
    if args.json:
        data = {"candidate": candidate, "seed": args.seed, "n": args.n}
        print(json.dumps({**data, "lineups": [lineup.to_json() for lineup in lineups]}, indent=2))
    else:
        print(to_table(candidate, lineups))
    return 0
