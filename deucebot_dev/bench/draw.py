"""`deucebot bench draw`: the draw poker AI's strength and speed, and the engine's speed.

Strength: `strong` against three of each baseline over 20,000 deals (500
with --quick), seats rotated every match, with `calling` against three
`random` as the reference. Goal (issue 7): the 95% interval of strong's
chips per deal is above zero against both baselines; decision p99 at most
50 ms.
Levels (issue 43): `hard` and `normal` against three of each player of the sparring
pool (`bot.commands.draw_pool`) on duplicate deals, 20,000 deals per line-up (200 with
--quick), and hard's margin over normal; goal: that margin's interval above zero
against frozen `strong` (normal itself).
Speed: engine actions per second with random players (decisions included)
next to the cost of one `view` + `check` + `apply`, and the strong policy's
decision time as a ratio of a random decision's in the same run.
"""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor

from bot.commands.draw_pool import (
    DEALS_PER_MATCH,
    LEVELS,
    POOL,
    SEATS,
    Duplicate,
    decision_line,
    duplicate,
    level_table,
    margin,
)
from bot.commands.simulate import SimulationResult, simulate
from deucebot_dev.bench.report import engine_rate, publish
from engines.draw import SPEC, DrawConfig, DrawState

P99_GOAL_MS = 50.0


def _engine_rate(seconds: float) -> tuple[float, float]:
    """(actions/s with random players, mean µs per view+check+apply)."""
    players = [SPEC.make_policy("random", random.Random(s)) for s in range(4)]
    return engine_rate(lambda rng: DrawState(DrawConfig(deals=50), rng), players, seconds)


def _run(players: list[str], n: int) -> SimulationResult:
    return simulate(SPEC, players, n, seed=1, rotate=True)


def _row(label: str, result: SimulationResult, goal: bool) -> tuple[str, bool, float]:
    data = result.to_json()["seats"][0]
    chips = data["chips_per_deal"]
    ms = data["decision_ms"]
    ok = not goal or (chips["low"] > 0 and ms["p99"] <= P99_GOAL_MS)
    goal_text = "-" if not goal else ("met" if ok else "MISSED")
    line = (
        f"| {label} | {result.n} | {chips['mean']:+.2f} [{chips['low']:+.2f}, "
        f"{chips['high']:+.2f}] | {ms['p50']:.2f} / {ms['p99']:.2f} | {goal_text} |"
    )
    return line, ok, ms["p50"]


SEED = 43
"""The duplicate groups' seed (docs/benchmarks.md's figures come from it)."""


def _line_up(job: tuple[str, str, int]) -> Duplicate:
    level, opponent, groups = job
    return duplicate(SPEC.level_policy(level), opponent, groups, seed=SEED)


def pool_report(groups: int, workers: int = 2) -> tuple[list[str], bool]:
    """The levels against the pool over `groups` duplicate groups per line-up: the markdown
    lines and whether hard beat normal (the margin's interval above zero against
    `strong_v1`)."""
    jobs = [(level, opponent, groups) for level in LEVELS for opponent in POOL]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        done = list(pool.map(_line_up, jobs))
    results = {(level, opponent): r for (level, opponent, _), r in zip(jobs, done, strict=True)}
    deals = groups * SEATS * DEALS_PER_MATCH
    lines = [
        f"Levels against the sparring pool: chips per deal of the level's seat [95%], {deals:,} "
        f"deals per line-up ({groups} duplicate groups of {SEATS} rotations x "
        f"{DEALS_PER_MATCH} deals, seed {SEED}), {SEATS} seats, cave 200, blind 2.",
        "",
        *level_table(results, LEVELS, POOL),
        "",
        decision_line(results, "hard"),
    ]
    beat = margin(results["hard", "strong_v1"], results["normal", "strong_v1"]).low > 0
    return lines, beat


def main(quick: bool, write: bool) -> int:
    """Run the draw poker benchmarks, print them and (with `write`) update docs/benchmarks.md."""
    n = 500 if quick else 20000
    rows = [
        "| match-up (slot 0 listed first, seats rotated) | deals | chips/deal of slot 0 [95%] "
        "| decision ms p50 / p99 | goal |",
        "| --- | --- | --- | --- | --- |",
    ]
    all_ok = True
    p50: dict[str, float] = {}
    matchups = (
        ("strong vs 3 random", ["strong", "random", "random", "random"], True),
        ("strong vs 3 calling", ["strong", "calling", "calling", "calling"], True),
        ("calling vs 3 random (reference)", ["calling", "random", "random", "random"], False),
    )
    # The match-ups are independent: run them in two processes.
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(_run, [players for _, players, _ in matchups], [n] * 3))
    for (label, players, goal), result in zip(matchups, results, strict=True):
        line, ok, median = _row(label, result, goal)
        rows.append(line)
        all_ok &= ok
        p50[players[0]] = median
        if players[0] == "calling":
            p50["random"] = result.to_json()["seats"][1]["decision_ms"]["p50"]
    levels, beat = pool_report(2 if quick else 200)
    all_ok &= beat
    actions_per_s, engine_us = _engine_rate(2.0 if quick else 10.0)
    ratio = p50["strong"] / max(p50["random"], 1e-6)
    body = "\n".join(
        [
            f"Strength: `deucebot simulate draw -n {n} --players ... --rotate` (4 seats, "
            "cave 200, blind 2, pot unit 2, 100-deal matches). Goal: the 95% interval of "
            f"strong's chips per deal above zero, decision p99 <= {P99_GOAL_MS:.0f} ms.",
            "",
            *rows,
            "",
            f"Engine: {actions_per_s:,.0f} actions/s with random players (decisions included); "
            f"{engine_us:.1f} µs per view + check + apply. Strong decision p50 is "
            f"{ratio:,.0f}x a random decision's in the same run (Monte Carlo, 100 trials).",
            "",
            *levels,
        ]
    )
    publish("Draw poker (draw)", body, write)
    return 0 if all_ok else 1
