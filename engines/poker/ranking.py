"""Poker hand ranking for five to seven cards, through the eval7 evaluator.

`rank_hand(cards)` returns a `HandRank`: an `int` (higher is better, equal
means a tie: only the best five cards count, so a 6th or 7th card never
breaks a tie) that also knows its `category` and a readable `name`
("two pair, kings and sevens"). Ace is high, or low only in A-2-3-4-5.

`hand_value(cards)` is the bare int, for hot loops (AI equity).

Our `Card` carries the `mask` eval7 reads, so cards are passed to eval7 as they are.
eval7 packs a value as ``category << 24`` followed by up to five 4-bit rank
nibbles (0 = deuce .. 12 = ace), most significant first; `describe` reads the
ranks that name the hand back from those nibbles.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from enum import IntEnum

import eval7

from engines.cards import FULL_DECK, Card, Rank


class Category(IntEnum):
    """Hand categories, low to high (the value is eval7's category number)."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """English name of the category: "two pair", "full house"."""
        return self.name.lower().replace("_", " ")


_E7: dict[Card, eval7.Card] = {
    card: eval7.Card(card.rank.char + card.suit.letter.lower()) for card in FULL_DECK
}
# eval7 reads only each card's `mask` attribute, which our `Card` carries (same bit layout),
# so our cards go to the C evaluator as they are, without conversion.
_evaluate: Callable[[Sequence[Card]], int] = eval7.evaluate


def to_eval7(cards: Iterable[Card]) -> list[eval7.Card]:
    """The eval7 cards for `cards` (for callers that batch their own evaluations)."""
    return [_E7[c] for c in cards]


def hand_value(cards: Sequence[Card]) -> int:
    """The comparable value of the best five of `cards` (5 to 7 cards); higher is better."""
    return _evaluate(cards)


_SINGULAR = {
    Rank.TWO: "deuce",
    Rank.THREE: "three",
    Rank.FOUR: "four",
    Rank.FIVE: "five",
    Rank.SIX: "six",
    Rank.SEVEN: "seven",
    Rank.EIGHT: "eight",
    Rank.NINE: "nine",
    Rank.TEN: "ten",
    Rank.JACK: "jack",
    Rank.QUEEN: "queen",
    Rank.KING: "king",
    Rank.ACE: "ace",
}


def rank_word(rank: Rank, plural: bool = False) -> str:
    """English word for a rank: "king", or "kings" with `plural` ("sixes")."""
    word = _SINGULAR[rank]
    if not plural:
        return word
    return word + ("es" if word.endswith("x") else "s")


def _nibbles(value: int) -> list[Rank]:
    ranks = []
    for shift in (16, 12, 8, 4, 0):
        ranks.append(Rank(((value >> shift) & 0xF) + 2))
    return ranks


def describe(value: int) -> tuple[Category, tuple[Rank, ...]]:
    """The category of `value` and the ranks that name it, most important first:
    pair -> (pair rank, kickers...), two pair -> (high pair, low pair, kicker),
    full house -> (trips, pair), straight/straight flush -> (top card,) (5 for a wheel),
    flush/high card -> the five ranks."""
    category = Category(value >> 24)
    ranks = _nibbles(value)
    if category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        return category, (ranks[0],)
    if category in (Category.FLUSH, Category.HIGH_CARD):
        return category, tuple(ranks)
    if category == Category.PAIR:
        return category, tuple(ranks[:4])
    if category in (Category.TWO_PAIR, Category.FULL_HOUSE):
        return category, tuple(ranks[:3] if category == Category.TWO_PAIR else ranks[:2])
    return category, tuple(ranks[:2])  # three or four of a kind: the set, then a kicker


def hand_name(value: int) -> str:
    """Readable English name of a hand value: "two pair, kings and sevens"."""
    category, ranks = describe(value)
    top = ranks[0]
    if category == Category.STRAIGHT_FLUSH:
        return "royal flush" if top == Rank.ACE else f"straight flush, {rank_word(top)} high"
    if category == Category.FOUR_OF_A_KIND:
        return f"four of a kind, {rank_word(top, True)}"
    if category == Category.FULL_HOUSE:
        return f"full house, {rank_word(top, True)} full of {rank_word(ranks[1], True)}"
    if category == Category.FLUSH:
        return f"flush, {rank_word(top)} high"
    if category == Category.STRAIGHT:
        return f"straight, {rank_word(top)} high"
    if category == Category.THREE_OF_A_KIND:
        return f"three of a kind, {rank_word(top, True)}"
    if category == Category.TWO_PAIR:
        return f"two pair, {rank_word(top, True)} and {rank_word(ranks[1], True)}"
    if category == Category.PAIR:
        return f"pair of {rank_word(top, True)}"
    return f"high card, {rank_word(top)}"


class HandRank(int):
    """A hand's comparable value (an int: higher wins, equal ties) with its name."""

    __slots__ = ()

    @property
    def category(self) -> Category:
        """The hand's category."""
        return Category(int(self) >> 24)

    @property
    def ranks(self) -> tuple[Rank, ...]:
        """The ranks that name the hand (see `describe`)."""
        return describe(int(self))[1]

    @property
    def name(self) -> str:
        """Readable English name: "full house, aces full of sevens"."""
        return hand_name(int(self))

    def __repr__(self) -> str:
        return f"HandRank({int(self):#x}, {self.name!r})"


def rank_hand(cards: Sequence[Card]) -> HandRank:
    """Rank the best five of 5 to 7 cards: a comparable value that also carries its name."""
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"a poker hand is ranked from 5 to 7 cards, not {len(cards)}")
    return HandRank(_evaluate(cards))
