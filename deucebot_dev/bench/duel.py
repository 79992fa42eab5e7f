"""`deucebot bench duel`: the duel AI's strength and speed, and the engine's speed.

Strength: `strong` against each baseline over 2,000 matches (200 with
--quick), seats alternating, with `honest` against `random` as the reference
for how much a sound but naive player wins. Goals: strong wins at least 85%
against random, 65% against honest; decision p99 at most 20 ms.
Speed: engine actions per second (random against random, decisions
included) next to the cost of one `view` + `check` + `apply`, and the strong
policy's decision time as a ratio of a random decision's in the same run.
"""

from __future__ import annotations

import random

from bot.commands.simulate import SimulationResult, simulate
from deucebot_dev.bench.report import engine_rate, publish
from engines.duel import SPEC, DuelConfig, new_state

GOALS = {"random": 0.85, "honest": 0.65}
P99_GOAL_MS = 20.0


def _engine_rate(seconds: float) -> tuple[float, float]:
    """(actions/s with random players, mean µs per view+check+apply)."""
    players = [SPEC.make_policy("random", random.Random(s)) for s in (1, 2)]
    return engine_rate(lambda rng: new_state(DuelConfig(), rng), players, seconds)


def _row(label: str, result: SimulationResult, goal: float | None) -> tuple[str, bool]:
    data = result.to_json()["seats"][0]
    win = data["match_win_rate"]
    chips = data["chips_per_deal"]
    ms = data["decision_ms"]
    ok = goal is None or win["mean"] >= goal
    goal_text = "-" if goal is None else f">= {goal:.0%} {'met' if ok else 'MISSED'}"
    line = (
        f"| {label} | {result.n} | {win['mean']:.3f} [{win['low']:.3f}, {win['high']:.3f}] | "
        f"{chips['mean']:+.3f} [{chips['low']:+.3f}, {chips['high']:+.3f}] | "
        f"{ms['p50']:.3f} / {ms['p99']:.3f} | {goal_text} |"
    )
    return line, ok and ms["p99"] <= P99_GOAL_MS


def main(quick: bool, write: bool) -> int:
    """Run the duel benchmarks, print them and (with `write`) put them in docs/benchmarks.md."""
    n = 200 if quick else 2000
    rows = [
        "| match-up (seat 0 listed first) | matches | match win rate [95%] | chips/deal [95%] "
        "| decision ms p50 / p99 | goal |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    all_ok = True
    rates: dict[str, float] = {}
    for label, players, goal in (
        ("strong vs random", ["strong", "random"], GOALS["random"]),
        ("strong vs honest", ["strong", "honest"], GOALS["honest"]),
        ("honest vs random (reference)", ["honest", "random"], None),
        ("random vs random (reference)", ["random", "random"], None),
    ):
        result = simulate(SPEC, players, n, seed=2026, rotate=True)
        line, ok = _row(label, result, goal)
        rows.append(line)
        all_ok = all_ok and ok
        rates[label] = result.to_json()["seats"][0]["decision_ms"]["p50"]
    per_s, engine_us = _engine_rate(1.0 if quick else 5.0)
    ratio = rates["strong vs random"] / max(rates["random vs random (reference)"], 1e-9)
    body = "\n".join(
        [
            f"`deucebot simulate duel -n {n} --players strong,X --rotate --seed 2026` "
            "(seats alternate every match; figures are for the first policy listed).",
            "",
            *rows,
            "",
            f"- Engine: {per_s:,.0f} actions/s with random players (decisions included); "
            f"one view + check + apply costs {engine_us:.1f} µs.",
            f"- The strong policy's median decision takes {ratio:.0f}x a random decision's "
            f"(p99 goal {P99_GOAL_MS:.0f} ms).",
        ]
    )
    publish("Deuce Duel", body, write)
    return 0 if all_ok or quick else 1
