"""A candidate AI against a pool of opponents: `deucebot simulate bigtwo --players C --against P,Q`.

For each opponent in the pool the candidate plays in each seat in turn against three
copies of it (`simulate` with `--rotate`), every line-up on the same seed, so the same
deals come up in every line-up (paired seeds: the pool's differences are not luck of the
cards). For Big Two each line-up gives the candidate's penalty per deal, its ratio to the
opponents' penalty per deal (with a 95% interval by the delta method over the deals), its
edge and win rate (intervals as `simulate` gives them) and its decision times.

On duplicate deals (`duplicate_lineup`: `simulate --levels`, `bench bigtwo`) every deal is
played once with the candidate in each seat (the same cards, seats rotated), and the
ratio's interval is taken over whole deals (the four plays of a deal summed): the luck of
the cards cancels out. `levels_against_pool` measures each AI level so against every
member of the pool (`BIGTWO_POOL` unless told); `levels_markdown` writes the table, levels
as rows and opponents as columns. `levels_over_seeds` pools several seeds' runs into one
line-up per level and opponent (`simulate --levels --seeds 4-8`). Both run their line-ups
`jobs` at a time in worker processes when asked (`simulate --levels --jobs 2`): a line-up's
figures come from its seed alone, so they are the same either way (`duplicate_lineups`).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import multiprocessing
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Final

from bot.commands.simulate import Z95, SimulationResult, json_text, percentile, simulate
from engines.numbers import is_number
from engines.registry import LEVELS, GameSpec, UnknownName, get_game

BIGTWO_POOL: Final = ("greedy", "net", "pg", "strong2", "hard3")
"""Big Two's sparring pool: `greedy`, the trained `net`, the policy-gradient `pg`, and the
levels frozen on 5 December 2026 (`strong2`: `normal`; `hard3`: `hard`)."""


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
    group: int = 1
    """How many consecutive samples are one deal (4: a duplicate deal, once per seat)."""

    def penalty_ratio(self) -> Ratio:
        """The candidate's penalty per deal over the opponents' average, deal by deal (each
        duplicate deal's plays summed)."""
        samples = self.result.samples
        mine = samples[0]["penalty_per_deal"]
        theirs = [
            sum(samples[s]["penalty_per_deal"][i] for s in range(1, 4)) / 3
            for i in range(len(mine))
        ]
        g = self.group
        return ratio_of_means(
            [math.fsum(mine[i : i + g]) for i in range(0, len(mine), g)],
            [math.fsum(theirs[i : i + g]) for i in range(0, len(theirs), g)],
        )

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


def duplicate_lineup(
    spec: GameSpec,
    candidate: str,
    opponent: str,
    deals: int,
    seed: int = 0,
    clock: Callable[[], float] = time.perf_counter,
) -> LineUp:
    """`candidate` against three `opponent` on `deals` deals, each played once with the
    candidate in each seat (the same cards every time: `simulate` draws the same deals from
    the same seed), slot 0 the candidate; the four plays of a deal are consecutive samples.
    `clock` times the decisions (`time.process_time`: CPU time, for a shared machine)."""
    seats = spec.default_seats
    runs = []
    for at in range(seats):
        players = [opponent] * seats
        players[at] = candidate
        runs.append((at, simulate(spec, players, deals, seed, clock=clock)))
    slots = [[at] + [s for s in range(seats) if s != at] for at, _ in runs]
    figures = sorted(runs[0][1].samples[0])
    samples: list[dict[str, list[float]]] = [{f: [] for f in figures} for _ in range(seats)]
    for deal in range(deals):
        for (_, run), order in zip(runs, slots, strict=True):
            for slot, seat in enumerate(order):
                for f in figures:
                    samples[slot][f].append(run.samples[seat][f][deal])
    result = SimulationResult(
        game=spec.name,
        unit=spec.sim.unit,
        n=deals * seats,
        seconds=sum(run.seconds for _, run in runs),
        policies=[candidate] + [opponent] * (seats - 1),
        samples=samples,
        decision_ms=[
            [
                ms
                for (_, run), order in zip(runs, slots, strict=True)
                for ms in run.decision_ms[order[slot]]
            ]
            for slot in range(seats)
        ],
        seed=seed,
        rotate=True,
    )
    return LineUp(opponent, result, group=seats)


Task = tuple[str, str, int, int]
"""One duplicate line-up to run: candidate policy, opponent, deals, seed."""


def _lineup_in_worker(game: str, task: Task, clock: Callable[[], float]) -> LineUp:
    """`duplicate_lineup` of `task` for the game named `game` (in a worker process)."""
    candidate, opponent, deals, seed = task
    return duplicate_lineup(get_game(game), candidate, opponent, deals, seed, clock)


def duplicate_lineups(
    spec: GameSpec,
    tasks: Sequence[Task],
    clock: Callable[[], float] = time.perf_counter,
    jobs: int = 1,
) -> list[LineUp]:
    """`duplicate_lineup` of each task, in order. With `jobs` > 1, that many at a time, each
    in a worker process of its own ("spawn"; `clock` must pickle: `time.perf_counter` or
    `time.process_time`, which then counts the worker's CPU). A line-up's deals and seats'
    seeds come from its own seed, so every figure but the timings is the same either way."""
    if jobs <= 1 or len(tasks) <= 1:
        return [duplicate_lineup(spec, c, o, n, seed, clock) for c, o, n, seed in tasks]
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(min(jobs, len(tasks)), mp_context=context) as workers:
        running = [workers.submit(_lineup_in_worker, spec.name, task, clock) for task in tasks]
        return [future.result() for future in running]


def levels_against_pool(
    spec: GameSpec,
    deals: Mapping[str, int],
    pool: Sequence[str] = BIGTWO_POOL,
    seed: int = 0,
    clock: Callable[[], float] = time.perf_counter,
    jobs: int = 1,
) -> dict[str, list[LineUp]]:
    """Each level of `deals` (level -> duplicate deals per line-up) against each member of
    `pool`, duplicate deals on `seed` (the same deals for every line-up), decisions timed by
    `clock`; `jobs` line-ups at a time (`duplicate_lineups`)."""
    return levels_over_seeds(spec, deals, pool, [seed], clock, jobs)


def pooled(lineups: Sequence[LineUp]) -> LineUp:
    """One line-up of the runs `lineups` (the same players, each on its own seed): their
    samples one after the other, so the ratio is the runs' summed penalties over each other
    and its interval is taken over all their deals."""
    first = lineups[0]
    runs = [lineup.result for lineup in lineups]
    slots = range(len(first.result.samples))
    result = dataclasses.replace(
        first.result,
        n=sum(run.n for run in runs),
        seconds=sum(run.seconds for run in runs),
        samples=[
            {figure: [x for run in runs for x in run.samples[slot][figure]] for figure in figures}
            for slot, figures in zip(slots, first.result.samples, strict=True)
        ],
        decision_ms=[[ms for run in runs for ms in run.decision_ms[slot]] for slot in slots],
    )
    return LineUp(first.opponent, result, group=first.group)


def levels_over_seeds(
    spec: GameSpec,
    deals: Mapping[str, int],
    pool: Sequence[str],
    seeds: Sequence[int],
    clock: Callable[[], float] = time.perf_counter,
    jobs: int = 1,
) -> dict[str, list[LineUp]]:
    """Each level of `deals` against each member of `pool` on each of `seeds` (each seed's
    first deals), every level's line-up against an opponent pooled over the seeds
    (`pooled`; one seed's is that seed's line-up), decisions timed by `clock`; `jobs`
    line-ups at a time (`duplicate_lineups`)."""
    keys = [(level, opponent, seed) for level in deals for opponent in pool for seed in seeds]
    tasks = [(spec.level_policy(lv), opp, deals[lv], seed) for lv, opp, seed in keys]
    runs = dict(zip(keys, duplicate_lineups(spec, tasks, clock, jobs), strict=True))
    return {
        level: [pooled([runs[level, opponent, seed] for seed in seeds]) for opponent in pool]
        for level in deals
    }


def seed_list(text: str) -> list[int]:
    """`--seeds 4-8` or `--seeds 4,5,9` (or both, `4-6,9`): two seeds or more, each once,
    every one a whole number; refused with what is wrong in `text` otherwise."""
    seeds: list[int] = []
    for part in text.split(","):
        low, dash, high = (word.strip() for word in part.partition("-"))
        if not is_number(low) or (dash and not is_number(high)):
            raise UnknownName(
                f"--seeds takes whole numbers or ranges such as 4-8, separated by commas, "
                f"not {part.strip()!r}"
            )
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise UnknownName(
                f"--seeds: the range {part.strip()!r} runs backwards ({last}-{first}?)"
            )
        twice = sorted(set(seeds).intersection(range(first, last + 1)))
        if twice:
            raise UnknownName(f"--seeds names seed {twice[0]} twice (its deals would count twice)")
        seeds += range(first, last + 1)
    if len(seeds) < 2:
        raise UnknownName(f"--seeds pools two seeds or more: for one, --seed {seeds[0]}")
    return seeds


def seeds_line(seeds: Sequence[int], n: int) -> str:
    """The line above a pooled table: which seeds, how many deals of each."""
    run = list(range(seeds[0], seeds[0] + len(seeds)))
    named = f"{seeds[0]}-{seeds[-1]}" if list(seeds) == run else ",".join(map(str, seeds))
    return (
        f"Seeds {named} pooled: the first {n} duplicate deals of each, "
        f"{n * len(seeds)} per line-up."
    )


def levels_markdown(spec: GameSpec, results: Mapping[str, Sequence[LineUp]]) -> str:
    """The table of levels (rows) against opponents (columns): the level's penalty ratio
    with its 95% interval and the deals played (each in every seat); the level's decision
    p50 / p99 over all its line-ups. An opponent a level did not meet reads "not run"."""
    opponents = list(dict.fromkeys(u.opponent for lineups in results.values() for u in lineups))
    rows = [
        "| level (policy) | " + " | ".join(f"vs 3x `{o}`" for o in opponents) + " | p50 / p99 ms |",
        "| --- | " + " | ".join("---" for _ in opponents) + " | --- |",
    ]
    for level in [lv for lv in LEVELS if lv in results] + [
        lv for lv in results if lv not in LEVELS
    ]:
        met = {u.opponent: u for u in results[level]}
        cells = []
        for opponent in opponents:
            lineup = met.get(opponent)
            if lineup is None:
                cells.append("not run")
                continue
            r = lineup.penalty_ratio()
            cells.append(
                f"{r.mean:.3f} [{r.low:.3f}, {r.high:.3f}] ({lineup.result.n // lineup.group})"
            )
        times = [ms for u in results[level] for ms in u.result.decision_ms[0]]
        policy = spec.level_policy(level) if level in LEVELS else level
        rows.append(
            f"| {level} (`{policy}`) | "
            + " | ".join(cells)
            + f" | {percentile(times, 50):.1f} / {percentile(times, 99):.1f} |"
        )
    return "\n".join(rows)


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
        print(json_text({**data, "lineups": [lineup.to_json() for lineup in lineups]}))
    else:
        print(to_table(candidate, lineups))
    return 0
