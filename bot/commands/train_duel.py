"""`deucebot train duel`: solve Deuce Duel by CFR+ for the `hard` level, or (`--report`)
measure every level's exploitability against a best response.

Declared by the duel's `GameFace.trainers`; `deucebot bench duel` prints the same table.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from engines.ai.duel_cfr import Array
from engines.ai.duel_exploit import exploitability
from engines.ai.duel_hard import shipped_tables
from engines.duel import SPEC

LEVELS = ("easy", "normal", "hard")
SPLITS = ((20, 20), (25, 15), (30, 10), (35, 5), (38, 2))
"""Chips of the first and second player at a deal's start (the ante is still to pay)."""


def _gain(level: str, chips: tuple[int, int], keep: Array | None) -> float:
    """The best response's gain against `level` (chips per deal, both seats' mean)."""
    name = SPEC.level_policy(level)
    return exploitability(lambda rng: SPEC.make_policy(name, rng), chips, keep=keep)[2]


def exploitability_table(quick: bool) -> tuple[str, dict[str, float]]:
    """The exploitability table (levels as rows, stack splits as columns, chips/deal) and
    each level's figure at 20/20."""
    splits = SPLITS[:2] if quick else SPLITS
    keep = shipped_tables().keep
    head = "| level (policy) | " + " | ".join(f"{a}/{b}" for a, b in splits)
    rows = [head + " | 20/20, this deal's chips only |", "| --- |" + " --- |" * (len(splits) + 1)]
    at_20: dict[str, float] = {}
    start = time.perf_counter()
    for level in LEVELS:
        gains = [_gain(level, (a - 1, b - 1), keep) for a, b in splits]
        at_20[level] = gains[0]
        cells = [f"{gain:.4f}" for gain in gains] + [f"{_gain(level, (19, 19), None):.4f}"]
        rows.append(f"| {level} ({SPEC.level_policy(level)}) | " + " | ".join(cells) + " |")
    seconds = time.perf_counter() - start
    text = "\n".join(
        [
            "Best response's gain against each level, chips per deal, averaged over both "
            "seats and every signal pair, at each split of the chips (first/second player, "
            "before the ante), counting the kept card's value as `cfr` does (chips per "
            "rank: " + " ".join(f"{v:+.2f}" for v in keep) + " for 2 to A), and at 20/20 "
            "this deal's chips alone (`deucebot train duel --report`, "
            f"{seconds:.0f} s; see docs/duel.md):",
            "",
            *rows,
        ]
    )
    return text, at_20


def train(args: argparse.Namespace) -> int:
    """Solve the duel's tables from `args.seed` (or print the exploitability report)."""
    from engines.ai.duel_solve import ITERATIONS, TABLES
    from engines.ai.duel_solve import train as solve_duel

    if args.report:
        print(exploitability_table(quick=False)[0])
        return 0
    target = Path(args.out) if args.out else TABLES
    iterations = args.iterations if args.iterations else ITERATIONS
    reports = solve_duel(args.seed, target, iterations, log=lambda line: print(line, flush=True))
    seconds = sum(r.seconds for r in reports)
    print(f"{len(reports)} stacks solved in {seconds:.0f} s; tables written to {target}")
    return 0
