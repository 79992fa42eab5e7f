"""The exact best draw of French draw poker: every discard choice of a five-card hand, valued.

The objective (`DrawValues`): the probability that the final hand beats the likely opposing
holding at a showdown, modelled as a random five-card hand of at least a pair of jacks
dealt from the cards the seat has not seen (what it takes to open a jackpot; a player who
stays to the showdown holds about that), ties counting half. Final hands below a pair of
jacks are worth nothing against it; that is why a pair draws three rather than keeping a
kicker, and why a small pair beats four to a flush unless the flush draw holds high cards
(hearts A-K-Q-4 with the four of spades draw to the flush; K-6-3-2 with the deuce of spades
keep the deuces).

The value of each of the 32 discard choices is exact: the final hand is the kept cards
plus a uniformly random draw from the cards the seat has not seen (the deck minus its own
hand minus the `dead` cards it knows are gone), counted by combinatorics instead of dealt
one by one. A final hand's value depends only on its ranks and on whether it is a flush,
so the draws are grouped by the multiset of their ranks (weight: the product of
C(available of a rank, drawn of it)), and the flushes, which only a suited kept part can
make, are corrected in a second, smaller sum over the one suit's ranks. Results are cached
by the hand's suit pattern (suits renamed in order of appearance), which suit permutations
of a hand mostly share.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations
from math import comb

import numpy as np
import numpy.typing as npt

from engines.cards import Card
from engines.draw.actions import Draw
from engines.poker.ranking import hand_value

HAND = 5
RANKS = 13
_BITS = 3  # a rank's count (0-4) in a hand key: three bits per rank, so keys add

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

JACKS = (1 << 24) | ((11 - 2) << 16)
"""The value of the lowest pair of jacks (`hand_value`): the reference holding's floor."""

TIE = 12
"""Decimals two values must share to count as equal (sums in another order differ in the
last bits: a kicker drawn to four aces is worth exactly what the kept one is)."""

_COMB = np.array([[comb(n, k) for k in range(5)] for n in range(5)], dtype=np.int64)
"""C(n, k) for n, k in 0..4: the ways to draw k of the n unseen cards of a rank."""


def _key(counts: Iterable[tuple[int, int]]) -> int:
    """The additive key of (rank index 0-12, count) pairs."""
    return sum(count << (_BITS * rank) for rank, count in counts)


def _multisets(k: int, top: int = RANKS - 1) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every multiset of `k` ranks (each at most four times) as (rank, count) pairs."""
    if k == 0:
        yield ()
        return
    for rank in range(top, -1, -1):
        for count in range(min(4, k), 0, -1):
            for rest in _multisets(k - count, rank - 1):
                yield ((rank, count), *rest)


@dataclass(frozen=True)
class _Multisets:
    """Every multiset of k ranks: keys (sorted) and counts per rank (one row each)."""

    keys: Ints
    counts: Ints


@cache
def _rank_multisets(k: int) -> _Multisets:
    rows = sorted((_key(pairs), pairs) for pairs in _multisets(k))
    counts = np.zeros((len(rows), RANKS), dtype=np.int64)
    for row, (_, pairs) in enumerate(rows):
        for rank, count in pairs:
            counts[row, rank] = count
    return _Multisets(np.array([key for key, _ in rows], dtype=np.int64), counts)


@dataclass(frozen=True)
class _Suited:
    """Every set of k different ranks: keys and rank bit masks."""

    keys: Ints
    masks: Ints


@cache
def _rank_sets(k: int) -> _Suited:
    sets = list(combinations(range(RANKS), k))
    keys = np.array([_key((r, 1) for r in ranks) for ranks in sets], dtype=np.int64)
    masks = np.array([sum(1 << r for r in ranks) for ranks in sets], dtype=np.int64)
    return _Suited(keys, masks)


def _cards_for(counts: Sequence[int], flush: bool) -> list[Card]:
    """Some five cards with these rank counts: one suit if `flush`, else never all one suit."""
    cards = [
        Card(rank + 2, 0 if flush else copy)
        for rank in range(RANKS)
        for copy in range(counts[rank])
    ]
    if not flush and len({c.suit for c in cards}) == 1:
        cards[-1] = Card(cards[-1].rank, 1)
    return cards


@dataclass(frozen=True)
class _Reference:
    """Every five-card rank multiset (rows of `_rank_multisets(5)`): its value as a plain
    hand and as a flush (-1: five ranks not all different), its rank mask, and the order of
    the hands of at least a pair of jacks, weakest first (index < n: plain row, else flush
    row index - n)."""

    plain: Ints
    flush: Ints
    masks: Ints
    order: Ints


@cache
def _reference() -> _Reference:
    five = _rank_multisets(HAND)
    plain = np.array([hand_value(_cards_for(row, False)) for row in five.counts.tolist()])
    distinct = (five.counts == 1).sum(axis=1) == HAND
    flush = np.array(
        [
            hand_value(_cards_for(row, True)) if ok else -1
            for row, ok in zip(five.counts.tolist(), distinct.tolist(), strict=True)
        ]
    )
    masks = ((five.counts > 0) * (1 << np.arange(RANKS))).sum(axis=1)
    values = np.concatenate([plain, flush])
    order = np.argsort(values, kind="stable")
    order = order[values[order] >= JACKS]
    return _Reference(plain.astype(np.int64), flush.astype(np.int64), masks.astype(np.int64), order)


@dataclass(frozen=True)
class _Tables:
    """Per five-card rank multiset (rows of `_rank_multisets(5)`): its chance to beat the
    reference holding as a plain hand and as a flush."""

    plain: Floats
    flush: Floats


@lru_cache(maxsize=256)
def _tables(left: tuple[int, ...], seen_masks: tuple[int, ...]) -> _Tables:
    """Every final hand's chance to beat the reference holding: a random five-card hand
    of at least a pair of jacks dealt from the cards this seat has not seen (so holding
    two aces makes an opposing pair of aces rarer); ties count half. Exact: a rank multiset
    with counts m is dealt in prod C(unseen of rank r, m_r) ways, less its flushes (five
    ranks of one suit, none of them seen). `left[r]`: unseen cards of rank r;
    `seen_masks[s]`: the seen ranks of suit s."""
    ref = _reference()
    five = _rank_multisets(HAND)
    ways = _COMB[np.asarray(left)[None, :], five.counts].prod(axis=1)
    flushes = np.zeros(len(ways), dtype=np.int64)
    for seen in seen_masks:
        flushes += (ref.masks & seen) == 0
    flushes *= ref.flush >= 0
    weights = np.concatenate([ways - flushes, flushes])[ref.order].astype(np.float64)
    below = np.cumsum(weights) - weights
    chances = np.zeros(2 * len(ways))
    chances[ref.order] = (below + weights / 2) / weights.sum()
    return _Tables(chances[: len(ways)], chances[len(ways) :])


@dataclass(frozen=True, slots=True)
class DrawValues:
    """Every discard choice of one hand and its exact value (see the module docstring).

    `values[mask]`: bit i of `mask` set means the card at position i + 1 is changed.
    """

    values: tuple[float, ...]

    def of(self, draw: Draw) -> float:
        """The value of `draw`."""
        return self.values[mask_of(draw)]

    def best(self) -> Draw:
        """The draw of highest value; among equal values the one changing fewest cards,
        then the lowest positions."""
        order = sorted(
            range(1 << HAND),
            key=lambda m: (-round(self.values[m], TIE), m.bit_count(), _positions(m)),
        )
        return draw_of(order[0])


def _positions(mask: int) -> tuple[int, ...]:
    return tuple(i + 1 for i in range(HAND) if mask >> i & 1)


def draw_of(mask: int) -> Draw:
    """The draw changing the cards of `mask` (bit i: position i + 1)."""
    return Draw(_positions(mask))


def mask_of(draw: Draw) -> int:
    """The mask of `draw`'s positions."""
    return sum(1 << (p - 1) for p in draw.positions)


def draw_values(hand: Sequence[Card], dead: Iterable[Card] = ()) -> DrawValues:
    """The exact value of each of the 32 draws of `hand` (five cards, in numbering order),
    the unseen cards being the deck minus `hand` minus `dead` (cards this seat knows are
    gone: from its own view only)."""
    if len(hand) != HAND or len(set(hand)) != HAND:
        raise ValueError("a draw poker hand is five different cards")
    rename: dict[int, int] = {}
    for card in hand:
        rename.setdefault(card.suit, len(rename))
    others = sorted(set(dead) - set(hand), key=lambda c: c.code)
    for card in others:
        rename.setdefault(card.suit, len(rename))
    canonical = tuple((int(c.rank) - 2, rename[c.suit]) for c in hand)
    gone = frozenset((int(c.rank) - 2, rename[c.suit]) for c in others)
    return DrawValues(_values(canonical, gone))


@lru_cache(maxsize=1 << 16)
def _values(
    hand: tuple[tuple[int, int], ...], gone: frozenset[tuple[int, int]]
) -> tuple[float, ...]:
    seen = set(hand) | gone
    left = [4] * RANKS
    seen_masks = [0] * 4
    for rank, suit in seen:
        left[rank] -= 1
        seen_masks[suit] |= 1 << rank
    tables = _tables(tuple(left), tuple(seen_masks))
    keys5 = _rank_multisets(HAND).keys
    unseen = sum(left)
    # Per draw size: the rank multisets that can be drawn, with their number of ways.
    drawable: list[tuple[Ints, Ints]] = []
    for k in range(HAND + 1):
        multisets = _rank_multisets(k)
        ways = _COMB[np.asarray(left)[None, :], multisets.counts].prod(axis=1)
        drawable.append((multisets.keys[ways > 0], ways[ways > 0]))
    values = [0.0] * (1 << HAND)
    for mask in range(1 << HAND):
        kept = [hand[i] for i in range(HAND) if not mask >> i & 1]
        k = HAND - len(kept)
        base = _key((rank, 1) for rank, _ in kept)
        keys, ways = drawable[k]
        rows = np.searchsorted(keys5, base + keys)
        total = float(ways @ tables.plain[rows])
        suits = {s for _, s in kept}
        kept_ranks = sum(1 << rank for rank, _ in kept)
        if len(suits) <= 1 and len({r for r, _ in kept}) == len(kept):
            # A flush is possible: its draws count at their flush value, not their plain one.
            sets = _rank_sets(k)
            for suit in suits or range(4):
                free = (sets.masks & (seen_masks[suit] | kept_ranks)) == 0
                rows = np.searchsorted(keys5, base + sets.keys[free])
                total += float((tables.flush[rows] - tables.plain[rows]).sum())
        values[mask] = total / comb(unseen, k)
    return tuple(values)


def best_draw(hand: Sequence[Card], dead: Iterable[Card] = ()) -> Draw:
    """The draw of highest exact value for `hand` (see `draw_values`)."""
    return draw_values(hand, dead).best()


def showdown_chance(final: Sequence[Card], seen: Iterable[Card]) -> float:
    """The chance that the five cards `final` beat the reference holding dealt from the
    cards outside `seen` (the objective of one final hand; `draw_values` averages it)."""
    left = [4] * RANKS
    seen_masks = [0] * 4
    for card in set(seen):
        left[card.rank - 2] -= 1
        seen_masks[card.suit] |= 1 << (card.rank - 2)
    tables = _tables(tuple(left), tuple(seen_masks))
    key = _key((card.rank - 2, 1) for card in final)
    row = int(np.searchsorted(_rank_multisets(HAND).keys, key))
    flush = len({card.suit for card in final}) == 1
    return float((tables.flush if flush else tables.plain)[row])
