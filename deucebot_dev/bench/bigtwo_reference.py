"""A straightforward Big Two greedy deal, for the benchmark's speed ratio only.

Cards are (rank, suit) tuples, hands are sorted lists; singles, pairs and
triples come from `itertools.combinations`, five-card hands from the rank and
suit groups, and everything is classified by counting ranks: the way one would
first write it. Same rules and the same greedy player as the engine, no
bitmasks, no caches. Not used by the game.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, product

Card = tuple[int, int]  # (rank 0..12 for 3..2, suit 0..3 for ♦ ♣ ♥ ♠)
STRAIGHTS = [{11, 12, 0, 1, 2}, {12, 0, 1, 2, 3}] + [set(range(i, i + 5)) for i in range(8)]


def classify(cards: tuple[Card, ...]) -> tuple[int, tuple[int, ...]] | None:
    """(size, comparison key) of a legal combination, else None."""
    ranks = [r for r, _ in cards]
    n = len(cards)
    if n == 1:
        return 1, cards[0]
    if n in (2, 3):
        if len(set(ranks)) != 1:
            return None
        return (n, max(cards)) if n == 2 else (3, (ranks[0],))
    if n != 5:
        return None
    flush = len({s for _, s in cards}) == 1
    rank_set = set(ranks)
    for i, straight in enumerate(STRAIGHTS):
        if rank_set == straight:
            top = next(c for c in cards if c[0] == i + 2)
            return 5, (4 if flush else 0, i, top[1])
    if flush:
        return 5, (1, cards[0][1], *sorted(ranks, reverse=True))
    counts = sorted(Counter(ranks).values())
    if counts == [2, 3]:
        return 5, (2, Counter(ranks).most_common(1)[0][0])
    if counts == [1, 4]:
        return 5, (3, Counter(ranks).most_common(1)[0][0])
    return None


def candidates(hand: list[Card], size: int) -> list[tuple[Card, ...]]:
    """Card sets of `size` worth classifying (all of them for 1-3; likely five-card hands)."""
    if size < 5:
        return list(combinations(hand, size))
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[int, list[Card]] = {}
    for card in hand:
        by_rank.setdefault(card[0], []).append(card)
        by_suit.setdefault(card[1], []).append(card)
    found: set[tuple[Card, ...]] = set()
    for straight in STRAIGHTS:
        if all(r in by_rank for r in straight):
            for chosen in product(*(by_rank[r] for r in sorted(straight))):
                found.add(tuple(sorted(chosen)))
    for suited in by_suit.values():
        found.update(combinations(suited, 5))
    for r, cards in by_rank.items():
        if len(cards) >= 3:
            others = [c for c in hand if c[0] != r]
            for three in combinations(cards, 3):
                for two in combinations(others, 2):
                    if two[0][0] == two[1][0]:
                        found.add(tuple(sorted(three + two)))
            if len(cards) == 4:
                found.update(tuple(sorted((*cards, k))) for k in others)
    return sorted(found)


def greedy(hand: list[Card], table: tuple[int, tuple[int, ...]] | None) -> tuple[Card, ...]:
    """The greedy move: the lowest answer that beats `table`, or the lowest card's largest
    combination when leading; () to pass."""
    if table is None:
        low = hand[0]
        for size in (5, 3, 2):
            found = [
                (classify(c), c)
                for c in candidates(hand, size)
                if low in c and classify(c) is not None
            ]
            if found:
                return min(found, key=lambda f: f[0] or (0, ()))[1]
        return (low,)
    size, key = table
    best: tuple[tuple[int, ...], tuple[Card, ...]] | None = None
    for cards in candidates(hand, size):
        combo = classify(cards)
        if combo is not None and combo[1] > key and (best is None or combo[1] < best[0]):
            best = (combo[1], cards)
    return best[1] if best else ()


def play_deal(rng: random.Random) -> int:
    """One greedy deal from the shuffle to the first empty hand; returns the number of turns."""
    deck = [(r, s) for r in range(13) for s in range(4)]
    rng.shuffle(deck)
    hands = [sorted(deck[i::4]) for i in range(4)]
    turn = next(i for i, h in enumerate(hands) if (0, 0) in h)
    table: tuple[int, tuple[int, ...]] | None = None
    last = turn
    passes = 0
    turns = 0
    while True:
        turns += 1
        move = greedy(hands[turn], table)
        if move:
            for card in move:
                hands[turn].remove(card)
            if not hands[turn]:
                return turns
            table, last, passes = classify(move), turn, 0
        else:
            passes += 1
            if passes == 3:
                table, passes, turn = None, 0, last
                continue
        turn = (turn + 1) % 4
