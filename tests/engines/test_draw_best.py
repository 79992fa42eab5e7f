"""The exact best draw of draw poker (`engines.ai.draw_best`): known answers, exact values
against a brute-force enumeration of every draw, and the chosen draw never worse than any
other; the opponents' ranges `hard` reads (`engines.ai.draw_ranges`)."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.ai.draw_best import best_draw, draw_of, draw_values, showdown_chance
from engines.ai.draw_ranges import RANGES_PATH, STRAIGHT, build_ranges, ranges
from engines.cards import FULL_DECK, Card, Suit, parse_cards
from engines.draw.actions import STAND, Draw
from engines.draw.hands import sort_hand
from engines.poker.ranking import hand_value


def hand(text: str) -> list[Card]:
    return sort_hand(parse_cards(text))


def kept(cards: list[Card], draw: Draw) -> set[Card]:
    return {c for i, c in enumerate(cards) if i + 1 not in draw.positions}


@pytest.mark.parametrize(
    ("cards", "keep"),
    [
        ("9S 9D 2C 5H KD", "9S 9D"),  # a pair draws three
        ("AS AD KC 6H 9D", "AS AD"),  # even aces with a king kicker
        ("JS JD 7C 6H 2D", "JS JD"),
        ("QS QD 5C 5H 9D", "QS QD 5C 5H"),  # two pair draws one
        ("7S 7D 7C 2H 9D", "7S 7D 7C"),  # trips draw two
        ("AH 9H 6H 3H KS", "AH 9H 6H 3H"),  # four to a flush draws one
        ("AH KH QH 4H 4S", "AH KH QH 4H"),  # ... rather than keep a pair of fours
        ("KS QS JS TS 3D", "KS QS JS TS"),  # four to a straight flush, open-ended
        ("JH JS 8H 5H 2H", "JH JS"),  # openers kept rather than drawing to the flush
        ("JH JS TH 9H 8H", "JH TH 9H 8H"),  # ... split for an open-ended straight flush draw
        ("AS KD 7C 4H 2D", "AS KD"),  # nothing: ace-king draws three
        ("2S 3S 4S 5S 7S", "2S 3S 4S 5S 7S"),  # a flush stands pat
        ("9S 9D 9C 4H 4S", "9S 9D 9C 4H 4S"),  # a full house stands pat
        ("8S 8D 8C 8H 2D", "8S 8D 8C 8H 2D"),  # four of a kind: the kicker is worth nothing
    ],
)
def test_known_best_draws(cards: str, keep: str) -> None:
    mine = hand(cards)
    assert kept(mine, best_draw(mine)) == set(parse_cards(keep))


def test_a_straight_stands_pat_and_a_pair_of_nines_is_worth_more_than_a_flush_draw() -> None:
    assert best_draw(hand("9C 8D 7H 6S 5C")) == STAND
    # A pair of nines with four hearts: the pair is worth more than the flush draw.
    mine = hand("9H 9S 6H 3H KH")
    values = draw_values(mine)
    pair = Draw(tuple(i + 1 for i, c in enumerate(mine) if c.rank != 9))
    flush = Draw(tuple(i + 1 for i, c in enumerate(mine) if c.suit != Suit.HEARTS))
    assert values.of(pair) > values.of(flush) > values.of(STAND)


def brute_value(cards: list[Card], draw: Draw, dead: frozenset[Card] = frozenset()) -> float:
    """The draw's value by dealing every possible draw, one by one."""
    keep = [c for i, c in enumerate(cards) if i + 1 not in draw.positions]
    seen = set(cards) | dead
    unseen = [c for c in FULL_DECK if c not in seen]
    draws = list(itertools.combinations(unseen, len(draw.positions)))
    return sum(showdown_chance(keep + list(more), seen) for more in draws) / len(draws)


def test_showdown_chances_match_dealing_every_opposing_hand() -> None:
    # The reference holding, counted one hand at a time: every five cards the seat has not
    # seen worth at least a pair of jacks (27 cards seen gone besides its hand: 15,504 hands).
    rng = random.Random(1)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    mine, dead, unseen = deck[:5], deck[5:32], deck[32:]
    seen = mine + dead
    finals = [mine, hand("KS KD KC 2H 3H"), hand("QH JH 9H 7H 2H"), hand("AS AD 5C 5H 9C")]
    finals += [rng.sample(unseen, 3) + mine[:2] for _ in range(3)]
    values = [hand_value(f) for f in finals]
    beaten = [0.0] * len(finals)
    total = 0
    jacks = hand_value(parse_cards("JS JD 2C 3H 4D"))
    for other in itertools.combinations(unseen, 5):
        theirs = hand_value(other)
        if theirs < jacks:
            continue
        total += 1
        for i, value in enumerate(values):
            beaten[i] += 1.0 if value > theirs else 0.5 if value == theirs else 0.0
    assert total > 1000
    for final, count in zip(finals, beaten, strict=True):
        assert showdown_chance(final, seen) == pytest.approx(count / total, abs=1e-12)


@pytest.mark.parametrize(
    "cards", ["9S 9D 2C 5H KD", "AH 9H 6H 3H KS", "QS QD 5C 5H 9D", "TS 9S 8S 2S 2D"]
)
def test_each_draw_of_up_to_three_cards_has_its_enumerated_value(cards: str) -> None:
    mine = hand(cards)
    values = draw_values(mine)
    for mask in range(32):
        if mask.bit_count() <= 3 and (mask.bit_count() < 3 or mask in (0b00111, 0b11100)):
            draw = draw_of(mask)
            assert values.of(draw) == pytest.approx(brute_value(mine, draw), abs=1e-12)


cards_and_dead = st.lists(st.sampled_from(FULL_DECK), min_size=5, max_size=9, unique=True)


@settings(max_examples=40, deadline=None)
@given(cards_and_dead, st.permutations(list(Suit)))
def test_the_chosen_draw_is_worth_at_least_every_other_and_values_are_exact(
    cards: list[Card], suits: list[Suit]
) -> None:
    mine, dead = cards[:5], frozenset(cards[5:])
    values = draw_values(mine, dead)
    chosen = values.best()
    assert all(values.of(chosen) >= v - 1e-12 for v in values.values)
    # The same enumeration, one card at a time, for every draw of at most one card.
    for mask in (0, 1, 2, 4, 8, 16):
        draw = draw_of(mask)
        assert values.of(draw) == pytest.approx(brute_value(mine, draw, dead), abs=1e-12)
    # Suits are names: renaming them all changes no value.
    renamed = [Card(c.rank, suits[c.suit]) for c in mine]
    renamed_dead = [Card(c.rank, suits[c.suit]) for c in dead]
    again = draw_values(renamed, renamed_dead).values
    assert again == pytest.approx(values.values, abs=1e-12)


def test_a_hand_that_is_not_five_different_cards_is_refused() -> None:
    with pytest.raises(ValueError, match="five different cards"):
        draw_values(hand("AS KS QS JS"))
    with pytest.raises(ValueError, match="five different cards"):
        draw_values([*hand("AS KS QS JS"), Card(14, 3)])


def test_the_shipped_opponent_ranges_are_the_ones_built_from_their_seed() -> None:
    assert RANGES_PATH.exists()
    shipped = ranges()
    assert shipped == build_ranges()
    # A sound player standing pat holds a straight or better; one drawing three, a pair.
    assert min(shipped.of(0).values) >= STRAIGHT
    assert shipped.of(3).beats(hand_value(parse_cards("AS AD 7C 4H 2D"))) > 0.5
    assert shipped.of(1).beats(hand_value(parse_cards("AS AD 7C 4H 2D"))) < 0.5
