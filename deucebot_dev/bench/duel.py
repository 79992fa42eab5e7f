"""`deucebot bench duel`: the duel's AI levels against each other and against a best
response, and the engine's speed.

Levels (`SPEC.levels`): easy `honest`, normal `strong`, hard `cfr`. Each level against each
other over 2,000 matches (200 with --quick), seats alternating, chips per deal for the row's
level with 95% intervals. Exploitability: the best response's gain against each level in
chips per deal (`engines.ai.duel_exploit`), at 20/20 and at other splits of the 40 chips.
Goals: hard's exploitability at most 0.05 chips/deal at 20/20; hard beats normal and
normal beats easy (intervals above zero); decision p99 at most 20 ms.
Speed: engine actions per second (random against random, decisions included) next to the
cost of one `view` + `check` + `apply`.
"""

from __future__ import annotations

import random

from bot.commands.simulate import simulate
from bot.commands.train_duel import LEVELS, exploitability_table
from deucebot_dev.bench.report import engine_rate, publish
from engines.duel import SPEC, DuelConfig, new_state

EXPLOIT_GOAL = 0.05
P99_GOAL_MS = 20.0


def _engine_rate(seconds: float) -> tuple[float, float]:
    """(actions/s with random players, mean µs per view+check+apply)."""
    players = [SPEC.make_policy("random", random.Random(s)) for s in (1, 2)]
    return engine_rate(lambda rng: new_state(DuelConfig(), rng), players, seconds)


def main(quick: bool, write: bool, matches: int | None = None) -> int:
    """Run the duel benchmarks, print them and (with `write`) put them in docs/benchmarks.md
    (`matches` per match-up: 2,000 by default, 200 with `quick`)."""
    n = matches if matches else 200 if quick else 2000
    header = "| level (policy) | " + " | ".join(f"vs {o}" for o in LEVELS)
    rows = [
        header + " | best response at 20/20 | decision ms p50 / p99 |",
        "| --- |" + " --- |" * (len(LEVELS) + 2),
    ]
    means: dict[tuple[str, str], tuple[float, float, float]] = {}
    """(row, column) -> the row level's chips per deal: mean, 95% interval (low, high)."""
    p99: dict[str, float] = {}
    p50: dict[str, float] = {}
    for row in LEVELS:
        for column in LEVELS:
            if row == column or (column, row) in means:
                continue
            players = [SPEC.level_policy(row), SPEC.level_policy(column)]
            data = simulate(SPEC, players, n, seed=2026, rotate=True).to_json()["seats"]
            chips = data[0]["chips_per_deal"]
            means[(row, column)] = (chips["mean"], chips["low"], chips["high"])
            means[(column, row)] = (-chips["mean"], -chips["high"], -chips["low"])
            for slot, level in ((0, row), (1, column)):
                p50[level] = max(p50.get(level, 0.0), data[slot]["decision_ms"]["p50"])
                p99[level] = max(p99.get(level, 0.0), data[slot]["decision_ms"]["p99"])
    exploit, gains = exploitability_table(quick)
    for row in LEVELS:
        cells = []
        for column in LEVELS:
            if row == column:
                cells.append("-")
                continue
            mean, low, high = means[(row, column)]
            cells.append(f"{mean:+.3f} [{low:+.3f}, {high:+.3f}]")
        rows.append(
            f"| {row} ({SPEC.level_policy(row)}) | "
            + " | ".join(cells)
            + f" | {gains[row]:.4f} | {p50[row]:.3f} / {p99[row]:.3f} |"
        )
    ok = (
        gains["hard"] <= EXPLOIT_GOAL
        and means[("hard", "normal")][1] > 0
        and means[("normal", "easy")][1] > 0
        and max(p99.values()) <= P99_GOAL_MS
    )
    per_s, engine_us = _engine_rate(1.0 if quick else 5.0)
    body = "\n".join(
        [
            f"`deucebot simulate duel -n {n} --players ROW,COLUMN --rotate --seed 2026` "
            "(seats alternate every match): the row level's chips per deal [95%]. Best "
            "response: its gain against the level in chips per deal (below).",
            "",
            *rows,
            "",
            f"Goals: hard's best response <= {EXPLOIT_GOAL} chips/deal, hard beats normal and "
            f"normal beats easy (intervals above 0), decision p99 <= {P99_GOAL_MS:.0f} ms: "
            f"{'met' if ok else 'MISSED'}.",
            "",
            exploit,
            "",
            f"- Engine: {per_s:,.0f} actions/s with random players (decisions included); "
            f"one view + check + apply costs {engine_us:.1f} µs.",
        ]
    )
    publish("Deuce Duel", body, write)
    return 0 if ok or quick else 1
