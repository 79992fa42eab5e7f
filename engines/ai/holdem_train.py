"""`deucebot train holdem`: the push/fold chart shipped with the `hard` hold'em player.

1. The 169x169 all-in equity table: for each pair of classes, one representative hand of
   the first against every card-disjoint combo of the second, over `samples` random boards
   (eval7's Monte Carlo in C, its generator seeded from `seed`). By suit symmetry this is
   the exact combo-weighted class equity up to sampling error: the standard error of one
   entry is at most 0.5 / sqrt(samples) (0.0016 at the default 100,000).
2. The push/fold equilibrium (`engines.ai.holdem_pushfold.solve`) at every chart depth.

A tool, not a test: the shipped file is reproduced from the same seed and sample count.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import eval7
import eval7.xorshift_rand
import numpy as np

from engines.ai.holdem_classes import CLASSES, COMBOS
from engines.ai.holdem_e7 import E7 as _E7
from engines.ai.holdem_pushfold import DEPTHS, Array, Solution, solve


def equity_table(seed: int, samples: int, log: Callable[[str], None] = lambda line: None) -> Array:
    """equity[i, j]: class i's all-in equity (ties split) against class j, pre-flop."""
    eval7.xorshift_rand.seed(seed)
    table = np.full((CLASSES, CLASSES), 0.5)
    for i in range(CLASSES):
        a, b = COMBOS[i][0]
        hero = [_E7[a], _E7[b]]
        for j in range(i + 1, CLASSES):
            villain = [((_E7[c], _E7[d]), 1.0) for c, d in COMBOS[j] if not {c, d} & {a, b}]
            value = eval7.py_hand_vs_range_monte_carlo(hero, villain, [], samples)
            table[i, j] = value
            table[j, i] = 1.0 - value
        if i % 13 == 12:
            log(f"equities: {i + 1}/{CLASSES} classes")
    return table


@dataclass(frozen=True)
class TrainReport:
    """What a run did: its settings, the worst depth's exploitability and the time taken."""

    seed: int
    samples: int
    worst_exploitability: float
    seconds: float


def train(
    seed: int,
    samples: int = 100_000,
    iterations: int = 3000,
    log: Callable[[str], None] = lambda line: None,
) -> tuple[Array, list[Solution], TrainReport]:
    """The equity table and the equilibrium at every depth of `DEPTHS`."""
    started = time.perf_counter()
    equity = equity_table(seed, samples, log)
    solutions = []
    for stack in DEPTHS:
        solutions.append(solve(equity, stack, iterations=iterations))
        if stack == int(stack):
            log(f"solved {stack:.0f} bb: exploitability {solutions[-1].exploitability:.2e} bb")
    worst = max(s.exploitability for s in solutions)
    return equity, solutions, TrainReport(seed, samples, worst, time.perf_counter() - started)
