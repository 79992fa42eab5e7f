"""The 169 starting-hand classes of hold'em (pairs, suited and offsuit rank pairs).

Class index `r * 13 + c` is the cell of the usual 13x13 chart with aces first: the
diagonal holds the pairs, above it (`r < c`) the suited hands, below it the offsuit ones.
`JOINT[i][j]` counts the card-disjoint pairs of combos of classes `i` and `j`, so the
chance that an opponent holds class `j` when this seat holds class `i` is proportional to
`JOINT[i][j]` (card removal included).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final

import numpy as np
import numpy.typing as npt

from engines.cards import FULL_DECK, Card

CLASSES: Final = 169
"""How many starting-hand classes there are."""

_RANKS: Final = "AKQJT98765432"


def class_name(index: int) -> str:
    """The chart name of a class: `AA`, `AKs`, `AKo`."""
    row, col = divmod(index, 13)
    if row == col:
        return _RANKS[row] * 2
    if row < col:
        return f"{_RANKS[row]}{_RANKS[col]}s"
    return f"{_RANKS[col]}{_RANKS[row]}o"


def class_index(name: str) -> int:
    """The index of a chart name (`AA`, `AKs`, `AKo`); the inverse of `class_name`."""
    high, low = _RANKS.index(name[0]), _RANKS.index(name[1])
    if high == low:
        return high * 13 + high
    if len(name) != 3 or name[2] not in "so":
        raise ValueError(f"{name!r} is not a starting-hand class such as AKs or AKo")
    return high * 13 + low if name[2] == "s" else low * 13 + high


_CARDS: Final = {card.code: card for card in FULL_DECK}


def _row(rank_value: int) -> int:
    # engines.cards ranks run 2..14 (ace high); the chart's rows run ace first.
    return 14 - rank_value


def card_class(a: Card, b: Card) -> int:
    """The class of two hole cards."""
    ra, rb = _row(int(a.rank)), _row(int(b.rank))
    high, low = min(ra, rb), max(ra, rb)
    if high == low:
        return high * 13 + high
    return high * 13 + low if a.suit == b.suit else low * 13 + high


def hole_class(hole: Sequence[Card]) -> int:
    """The class of a seat's two hole cards."""
    return card_class(hole[0], hole[1])


def _build() -> tuple[list[list[tuple[int, int]]], npt.NDArray[np.float64]]:
    pairs = list(combinations(range(52), 2))
    combos: list[list[tuple[int, int]]] = [[] for _ in range(CLASSES)]
    member = np.zeros((CLASSES, len(pairs)))
    cards = np.zeros((len(pairs), 52))
    for n, (a, b) in enumerate(pairs):
        index = card_class(_CARDS[a], _CARDS[b])
        combos[index].append((a, b))
        member[index, n] = 1.0
        cards[n, a] = cards[n, b] = 1.0
    disjoint = (cards @ cards.T == 0).astype(np.float64)
    return combos, member @ disjoint @ member.T


COMBOS, JOINT = _build()
"""COMBOS[i]: the card-code pairs of class i (6, 4 or 12); JOINT: see the module docstring."""
WEIGHT: Final = np.array([len(c) for c in COMBOS], dtype=np.float64)
"""How many combos each class has (6 pairs, 4 suited, 12 offsuit; 1326 in all)."""
