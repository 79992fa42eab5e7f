"""Five-card hands for draw poker: strength and names (`engines.poker.ranking`), openings.

Opening a jackpot needs "a pair of jacks or better" (then queens, kings, aces,
queens ...): any hand at least as strong as the pair named qualifies. The
proof kept for the end of the deal is the part of the hand that makes the
opening: the pair, both pairs, the trips or fours, or all five cards of a
straight, flush or full house.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engines.cards import Card, Rank
from engines.poker.ranking import hand_value, rank_hand

REQUIREMENT_NAMES = {Rank.JACK: "jacks", Rank.QUEEN: "queens", Rank.KING: "kings", Rank.ACE: "aces"}


def requirement(level: int) -> Rank:
    """The opening rank after `level` consecutive unopened jackpots: J, Q, K, A, Q, K, A, ..."""
    if level < 0:
        raise ValueError("level must be at least 0")
    if level == 0:
        return Rank.JACK
    return (Rank.QUEEN, Rank.KING, Rank.ACE)[(level - 1) % 3]


def strength(cards: Sequence[Card]) -> int:
    """A number that orders five-card poker hands: higher is better, equal ties."""
    return hand_value(cards)


def hand_name(cards: Sequence[Card]) -> str:
    """The hand in words, e.g. "pair of jacks", "two pair, kings and sevens"."""
    return rank_hand(cards).name


def sort_hand(cards: Sequence[Card]) -> list[Card]:
    """The order a hand is shown and numbered in: highest rank first, then suit."""
    return sorted(cards, key=lambda c: (-c.rank, -c.suit))


def _straight(ranks: set[int]) -> bool:
    if len(ranks) != 5:
        return False
    return max(ranks) - min(ranks) == 4 or ranks == {14, 2, 3, 4, 5}


def opening_proof(cards: Sequence[Card], needed: Rank) -> tuple[Card, ...] | None:
    """The cards proving that `cards` may open at `needed`, or None if the hand cannot open."""
    counts = Counter(c.rank for c in cards)
    if len(cards) == 5 and (
        len({c.suit for c in cards}) == 1 or _straight({int(r) for r in counts})
    ):
        return tuple(sort_hand(cards))
    groups = [r for r, n in counts.items() if n >= 2]
    if not groups:
        return None
    if len(groups) == 1 and counts[groups[0]] == 2 and groups[0] < needed:
        return None
    return tuple(sort_hand([c for c in cards if c.rank in groups]))
