"""Ranges for hold'em players: what the actions seen so far say about an opponent's hand.

A range is a weight per starting-hand class before the flop (169 numbers) and a weight per
concrete two-card combo after it. Classes are ordered by their all-in equity against a
random hand (`STRENGTH`, from the shipped push/fold chart's equity table); an action keeps
a smooth share of that order (a logistic edge, never a hard cut) so a range stays honest
about the hands that could bluff or slow-play. Pure functions of a seat's view.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache

import eval7
import numpy as np

from engines.ai.holdem_classes import CLASSES, COMBOS, JOINT, WEIGHT
from engines.ai.holdem_e7 import E7 as E7
from engines.ai.holdem_pushfold import Array, shipped_chart


@cache
def _strength() -> tuple[Array, Array]:
    equity = shipped_chart().equity
    against_random = (JOINT * equity).sum(axis=1) / JOINT.sum(axis=1)
    order = np.argsort(-against_random)
    top = np.zeros(CLASSES)
    running = 0.0
    for index in order:
        # The share of all hands at least as good, taken at the middle of this class.
        top[index] = (running + WEIGHT[index] / 2) / WEIGHT.sum()
        running += WEIGHT[index]
    return against_random, top


def equity_vs_random(hand: int) -> float:
    """Class `hand`'s all-in equity against one random hand."""
    return float(_strength()[0][hand])


def top_share(hand: int) -> float:
    """Where class `hand` stands: the share of hands at least as strong (0 best, 1 worst)."""
    return float(_strength()[1][hand])


def keep_top(share: float, softness: float = 0.04) -> Array:
    """Class weights keeping about the best `share` of hands, with a logistic edge."""
    share = min(max(share, 0.005), 1.0)
    if share >= 1.0:
        return np.ones(CLASSES)
    top = _strength()[1]
    return np.asarray(1.0 / (1.0 + np.exp((top - share) / softness)))


def equity_vs_classes(hand: int, weights: Array) -> float:
    """Class `hand`'s all-in equity against a class-weighted range (card removal included)."""
    mass = JOINT[hand] * weights
    total = float(mass.sum())
    if total <= 0:
        return equity_vs_random(hand)
    return float((mass * shipped_chart().equity[hand]).sum() / total)


def combo_weights(weights: Array, dead: Sequence[int]) -> tuple[list[tuple[int, int]], list[float]]:
    """The concrete combos of a class-weighted range that avoid the `dead` card codes."""
    gone = set(dead)
    combos: list[tuple[int, int]] = []
    values: list[float] = []
    for index in range(CLASSES):
        weight = float(weights[index])
        if weight < 1e-4:
            continue
        for a, b in COMBOS[index]:
            if a not in gone and b not in gone:
                combos.append((a, b))
                values.append(weight)
    return combos, values


def board_order(combos: Sequence[tuple[int, int]], board: Sequence[int]) -> list[float]:
    """Each combo's place among `combos` on `board` (0 the strongest made hand, 1 the weakest),
    a draw-blind ordering by the hand each combo makes now."""
    cards = [E7[c] for c in board]
    values = [eval7.evaluate([E7[a], E7[b], *cards]) for a, b in combos]
    order = sorted(range(len(values)), key=values.__getitem__, reverse=True)
    place = [0.0] * len(values)
    count = max(1, len(values) - 1)
    for rank, index in enumerate(order):
        place[index] = rank / count
    return place


def narrow(values: list[float], place: Sequence[float], keep: float, floor: float) -> None:
    """Weight the combos in place towards the best `keep` share on the board; `floor` is the
    weight left to the rest (bluffs and slow-plays)."""
    for index, where in enumerate(place):
        edge = 1.0 / (1.0 + math.exp((where - keep) / 0.06))
        values[index] *= floor + (1.0 - floor) * edge
