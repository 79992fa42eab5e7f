"""`classify`, `Combo.beats` and move generation checked against a brute-force reference."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.bigtwo import classify
from engines.bigtwo_combos import all_combos, cards_of_mask, mask_of_cards
from engines.cards import FULL_DECK, Card

ORDER = "3456789TJQKA2"
SUITS = "DCHS"
# Straights as rank strings, lowest first (written out, not computed, on purpose).
STRAIGHTS = [
    "A2345",
    "23456",
    "34567",
    "45678",
    "56789",
    "6789T",
    "789TJ",
    "89TJQ",
    "9TJQK",
    "TJQKA",
]
CATEGORIES = ["straight", "flush", "full_house", "four_of_a_kind", "straight_flush"]


def rank(card: Card) -> int:
    return ORDER.index(card.rank.char)


def suit(card: Card) -> int:
    return SUITS.index(card.suit.letter)


def reference(cards: list[Card]) -> tuple[str, tuple[int, ...]] | None:
    """The kind and a comparison key, from the rule text, written the slow obvious way."""
    if len(set(cards)) != len(cards):
        return None
    ranks = [rank(c) for c in cards]
    if len(cards) == 1:
        return "single", (ranks[0], suit(cards[0]))
    if len(cards) in (2, 3) and len(set(ranks)) == 1:
        if len(cards) == 2:
            return "pair", (ranks[0], max(suit(c) for c in cards))
        return "triple", (ranks[0],)
    if len(cards) != 5:
        return None
    chars = {c.rank.char for c in cards}
    straight = next((i for i, s in enumerate(STRAIGHTS) if set(s) == chars), None)
    flush = len({c.suit for c in cards}) == 1
    if straight is not None:
        top_char = STRAIGHTS[straight][-1]
        top = next(c for c in cards if c.rank.char == top_char)
        category = 4 if flush else 0
        return CATEGORIES[category], (category, straight, suit(top))
    if flush:
        return "flush", (1, suit(cards[0]), *sorted(ranks, reverse=True))
    counts = sorted(Counter(ranks).items(), key=lambda kv: kv[1])
    if [n for _, n in counts] == [2, 3]:
        return "full_house", (2, counts[1][0])
    if [n for _, n in counts] == [1, 4]:
        return "four_of_a_kind", (3, counts[1][0])
    return None


hands = st.lists(st.sampled_from(FULL_DECK), min_size=1, max_size=13, unique=True)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FULL_DECK), min_size=1, max_size=6))
def test_classify_agrees_with_the_reference(cards: list[Card]) -> None:
    expected = reference(cards)
    found = classify(cards)
    if expected is None:
        assert found is None
    else:
        assert found is not None and found.kind == expected[0]
        assert set(found.cards) == set(cards)


def _card(r: str, s: str) -> Card:
    return next(c for c in FULL_DECK if c.rank.char == r and c.suit.letter == s)


def random_combo(rng: random.Random, size: int) -> list[Card]:
    """A random legal combination of `size` cards, built from the rule text."""
    r = rng.choice(ORDER)
    if size < 5:
        return [_card(r, s) for s in rng.sample(SUITS, size)]
    kind = rng.randrange(5)
    if kind == 0:
        return [_card(x, rng.choice(SUITS)) for x in rng.choice(STRAIGHTS)]
    if kind == 1:
        s = rng.choice(SUITS)
        return [_card(x, s) for x in rng.sample(ORDER, 5)]
    if kind == 4:
        s = rng.choice(SUITS)
        return [_card(x, s) for x in rng.choice(STRAIGHTS)]
    other = rng.choice([x for x in ORDER if x != r])
    if kind == 2:
        return [_card(r, s) for s in rng.sample(SUITS, 3)] + [
            _card(other, s) for s in rng.sample(SUITS, 2)
        ]
    return [_card(r, s) for s in SUITS] + [_card(other, rng.choice(SUITS))]


@settings(max_examples=400, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([1, 2, 3, 5]))
def test_beats_agrees_with_the_reference_order(rng: random.Random, size: int) -> None:
    a, b = random_combo(rng, size), random_combo(rng, size)
    ra, rb = reference(a), reference(b)
    ca, cb = classify(a), classify(b)
    assert ra is not None and rb is not None and ca is not None and cb is not None
    assert ca.kind == ra[0] and cb.kind == rb[0]
    assert ca.beats(cb) == (ra[1] > rb[1])
    assert cb.beats(ca) == (rb[1] > ra[1])


@settings(max_examples=100, deadline=None)
@given(
    st.randoms(use_true_random=False), st.sampled_from([1, 2, 3, 5]), st.sampled_from([1, 2, 3, 5])
)
def test_different_sizes_never_beat_each_other(rng: random.Random, m: int, n: int) -> None:
    a, b = classify(random_combo(rng, m)), classify(random_combo(rng, n))
    assert a is not None and b is not None
    if m != n:
        assert not a.beats(b) and not b.beats(a)


def test_every_five_card_set_of_a_small_deck_agrees() -> None:
    # Exhaustive over all 5-card sets of 16 cards spanning straights, flushes and fours.
    deck = [c for c in FULL_DECK if c.rank.char in "A2345" and c.suit.letter in "DS"]
    deck += [c for c in FULL_DECK if c.rank.char in "TJQ" and c.suit.letter in "CH"]
    for cards in itertools.combinations(deck, 5):
        expected = reference(list(cards))
        found = classify(cards)
        assert (found.kind if found else None) == (expected[0] if expected else None), cards


@settings(max_examples=150, deadline=None)
@given(hands)
def test_move_generation_lists_exactly_the_legal_subsets(hand: list[Card]) -> None:
    mask = mask_of_cards(hand)
    generated = sorted(c.mask for c in all_combos(mask))
    assert len(set(generated)) == len(generated)
    brute = sorted(
        mask_of_cards(subset)
        for size in (1, 2, 3, 5)
        for subset in itertools.combinations(hand, size)
        if reference(list(subset)) is not None
    )
    assert generated == brute
    for combo in all_combos(mask):
        assert set(cards_of_mask(combo.mask)) <= set(hand)
