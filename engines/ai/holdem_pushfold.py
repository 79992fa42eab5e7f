"""Heads-up push/fold: the small blind shoves or folds, the big blind calls or folds.

`solve` finds the game's Nash equilibrium by CFR+ (regret matching with clipped regrets
and linearly weighted averages) over the 169 starting-hand classes, card removal included
(`engines.ai.holdem_classes.JOINT`). Stacks are effective stacks in big blinds before the
blinds are posted (small blind 0.5, big blind 1, no ante), as in the published charts.

`Chart` holds the shipped result (`holdem_pushfold_v1.npz`, made by
`deucebot train holdem`): the 169x169 all-in equity table and, for every depth from 1 to
20 big blinds in steps of 0.1, each class's shove and call frequencies.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from engines.ai.holdem_classes import JOINT, WEIGHT

Array = npt.NDArray[np.float64]

CHART_VERSION: Final = 1
"""The version of the shipped chart (`holdem_pushfold_v1.npz`)."""
CHART_PATH: Final = Path(__file__).with_name(f"holdem_pushfold_v{CHART_VERSION}.npz")
DEPTHS: Final = tuple(round(1.0 + 0.1 * k, 1) for k in range(191))
"""The effective stacks (big blinds) the chart holds: 1.0, 1.1, ... 20.0."""


@dataclass(frozen=True)
class Solution:
    """One depth's equilibrium: shove and call frequencies per class, and how far from exact.

    `exploitability` is the mean of what each side's best response gains over the
    equilibrium value (big blinds per hand); 0 at an exact equilibrium."""

    stack: float
    shove: Array
    call: Array
    exploitability: float


def _sb_values(equity: Array, joint: Array, call: Array, stack: float) -> Array:
    """Per small-blind class: the shove's value minus the fold's (big blinds, summed over the
    big blind's card-disjoint classes: an unnormalised counterfactual value)."""
    showdown = 2.0 * stack * equity - stack
    per_pair = (1.0 - call)[None, :] * 1.0 + call[None, :] * showdown
    return np.asarray((joint * (per_pair + 0.5)).sum(axis=1))


def _bb_values(equity: Array, joint: Array, shove: Array, stack: float) -> Array:
    """Per big-blind class: the call's value minus the fold's, against the shoves reaching it."""
    showdown = 2.0 * stack * (1.0 - equity) - stack
    return np.asarray((joint * shove[:, None] * (showdown + 1.0)).sum(axis=0))


def exploitability(equity: Array, joint: Array, shove: Array, call: Array, stack: float) -> float:
    """The mean gain (big blinds per hand) of a best response to each side's strategy."""
    total = float(joint.sum())
    sb = _sb_values(equity, joint, call, stack)
    bb = _bb_values(equity, joint, shove, stack)
    sb_now = float((sb * shove).sum())
    bb_now = float((bb * call).sum())
    sb_best = float(np.maximum(sb, 0.0).sum())
    bb_best = float(np.maximum(bb, 0.0).sum())
    return ((sb_best - sb_now) + (bb_best - bb_now)) / (2.0 * total)


def solve(
    equity: Array,
    stack: float,
    joint: Array = JOINT,
    iterations: int = 3000,
) -> Solution:
    """The push/fold equilibrium at `stack` big blinds by CFR+.

    `equity[i, j]` is class i's all-in equity against class j (`equity + equity.T == 1`),
    `joint[i, j]` how many card-disjoint combo pairs the two classes make. Any number of
    classes works (the tests solve a two-class game with a known answer)."""
    n = equity.shape[0]
    # Cumulative clipped regrets of [shove or call, fold] per class, per side.
    regret_sb = np.zeros((2, n))
    regret_bb = np.zeros((2, n))
    sum_sb = np.zeros(n)
    sum_bb = np.zeros(n)
    shove = np.full(n, 0.5)
    call = np.full(n, 0.5)
    for step in range(1, iterations + 1):
        shove = _update(regret_sb, _sb_values(equity, joint, call, stack), shove)
        sum_sb += step * shove
        call = _update(regret_bb, _bb_values(equity, joint, shove, stack), call)
        sum_bb += step * call
    weight = iterations * (iterations + 1) / 2.0
    shove, call = sum_sb / weight, sum_bb / weight
    return Solution(stack, shove, call, exploitability(equity, joint, shove, call, stack))


def _update(regret: Array, gain: Array, current: Array) -> Array:
    """One CFR+ step for a two-action side: `gain` is the action's value minus the fold's;
    returns the next strategy (regret matching on the clipped cumulative regrets)."""
    regret[0] = np.maximum(regret[0] + gain * (1.0 - current), 0.0)
    regret[1] = np.maximum(regret[1] - gain * current, 0.0)
    total = regret[0] + regret[1]
    return np.where(total > 0, regret[0] / np.where(total > 0, total, 1.0), current)


def range_share(frequencies: Array) -> float:
    """The share of all 1326 starting hands a strategy plays (weighted by combos)."""
    return float((frequencies * WEIGHT).sum() / WEIGHT.sum())


@dataclass(frozen=True)
class Chart:
    """The shipped push/fold tables: equities and per-depth shove and call frequencies."""

    equity: Array
    depths: Array
    shove: Array
    call: Array

    def row(self, stack: float) -> int:
        """The index of the chart depth nearest `stack` (clamped to 1-20 big blinds)."""
        return int(np.abs(self.depths - stack).argmin())

    def shove_frequency(self, hand: int, stack: float) -> float:
        """How often the small blind shoves class `hand` at `stack` big blinds effective."""
        return float(self.shove[self.row(stack), hand])

    def call_frequency(self, hand: int, stack: float) -> float:
        """How often the big blind calls a shove with class `hand` at `stack` big blinds."""
        return float(self.call[self.row(stack), hand])


def save_chart(path: Path, equity: Array, solutions: list[Solution]) -> None:
    """Write the equity table and the solutions (uint16 equities, uint8 frequencies)."""
    np.savez_compressed(
        path,
        equity=np.round(equity * 65535).astype(np.uint16),
        depths=np.array([s.stack for s in solutions]),
        shove=np.round(np.array([s.shove for s in solutions]) * 255).astype(np.uint8),
        call=np.round(np.array([s.call for s in solutions]) * 255).astype(np.uint8),
    )


def read_chart(path: Path) -> Chart:
    """Read a chart written by `save_chart`."""
    with np.load(path) as data:
        return Chart(
            equity=data["equity"].astype(np.float64) / 65535.0,
            depths=data["depths"].astype(np.float64),
            shove=data["shove"].astype(np.float64) / 255.0,
            call=data["call"].astype(np.float64) / 255.0,
        )


@cache
def shipped_chart() -> Chart:
    """The shipped chart, read once."""
    return read_chart(CHART_PATH)
