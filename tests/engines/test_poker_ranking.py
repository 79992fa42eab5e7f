"""Hand ranking (engines.poker.ranking): docs/holdem.md, "Hands", checked against phevaluator."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest
from phevaluator import evaluate_cards

from engines.cards import FULL_DECK, parse_cards
from engines.poker.ranking import Category, hand_value, rank_hand


def r(text: str) -> int:
    return rank_hand(parse_cards(text))


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("KH KC 7D 7S 2H 3C 4D", "two pair, kings and sevens"),
        ("AH 2C 3D 4S 5H", "straight, five high"),
        ("AS KS QS JS TS 2D", "royal flush"),
        ("6H 6C 6D 2S 2H", "full house, sixes full of deuces"),
        ("9C 9D 9H 9S 2C", "four of a kind, nines"),
        ("2C 3C 4C 5C 6C", "straight flush, six high"),
        ("KD 9D 7D 4D 2D", "flush, king high"),
        ("QH QC QD 5S 2H", "three of a kind, queens"),
        ("6S 6H 9D 3C 2D", "pair of sixes"),
        ("AS JH 9D 3C 2D", "high card, ace"),
    ],
)
def test_names(cards: str, name: str) -> None:
    assert rank_hand(parse_cards(cards)).name == name


def test_category_order_high_to_low() -> None:
    hands = [
        "9H TH JH QH KH",
        "9C 9D 9H 9S 2C",
        "6H 6C 6D 2S 2H",
        "KD 9D 7D 4D 2D",
        "5C 6D 7H 8S 9C",
        "QH QC QD 5S 2H",
        "KH KC 7D 7S 2H",
        "6S 6H 9D 3C 2D",
        "AS JH 9D 3C 2D",
    ]
    values = [r(h) for h in hands]
    assert values == sorted(values, reverse=True)
    assert [rank_hand(parse_cards(h)).category for h in hands] == list(reversed(Category))


def test_ace_low_only_in_the_wheel() -> None:
    assert r("AH 2C 3D 4S 5H") < r("2H 3C 4D 5S 6H")
    assert rank_hand(parse_cards("AH 2C 3D 4S 5H")).category == Category.STRAIGHT
    # No wrap-around: Q-K-A-2-3 is only ace high.
    assert rank_hand(parse_cards("QH KC AD 2S 3H")).category == Category.HIGH_CARD
    assert r("TH JC QD KS AH") > r("9H TC JD QS KH")


def test_kickers_decide_and_suits_are_equal() -> None:
    assert r("AH AC KD 7S 2H") > r("AD AS QD JS TH")
    assert r("AH AC KD 7S 3H") > r("AD AS KC 7H 2C")
    assert r("AH KH 9H 5H 3H") == r("AS KS 9S 5S 3S")


def test_board_plays_tie() -> None:
    board = "AH KD QC JS TH"
    assert r(f"{board} 2C 3D") == r(f"{board} 4S 5C")


def test_sixth_and_seventh_cards_never_break_a_tie() -> None:
    # Both play A-A-K-Q-J; the unused 9 and 8 against 3 and 2 do not count.
    assert r("AH AC KD QS JH 9C 8D") == r("AD AS KC QH JD 3C 2D")
    assert r("AH AC KD QS JH 9C") == r("AD AS KC QH JD 2C")


def test_wrong_number_of_cards_refused() -> None:
    with pytest.raises(ValueError, match="5 to 7"):
        rank_hand(parse_cards("AH KD QC JS"))


def test_agrees_with_phevaluator_on_100000_random_hands() -> None:
    rng = random.Random(20261129)
    codes = list(range(52))
    by_value: dict[int, set[int]] = defaultdict(set)
    for i in range(102_000):
        size = 5 + i % 3
        hand = rng.sample(codes, size)
        # Card.code is rank-major (2 = 0 .. A = 12) like phevaluator's ids; suits may be
        # permuted between the two libraries, which never changes a hand's value.
        ours = hand_value([FULL_DECK[c] for c in hand])
        by_value[ours].add(evaluate_cards(*hand))
    # Same value -> same phevaluator rank (lower is better there); higher -> strictly better.
    previous = None
    for value in sorted(by_value):
        ranks = by_value[value]
        assert len(ranks) == 1, f"value {value:#x} maps to several phevaluator ranks {ranks}"
        (rank,) = ranks
        if previous is not None:
            assert rank < previous, f"value {value:#x} should beat the previous one"
        previous = rank
    assert len(by_value) > 5000


def test_our_cards_rank_exactly_like_eval7s_own_cards() -> None:
    # Our Card.mask puts suits in another order than eval7's cards; values must not change.
    import eval7

    from engines.poker.ranking import to_eval7

    rng = random.Random(3)
    for i in range(3000):
        hand = rng.sample(FULL_DECK, 5 + i % 3)
        assert hand_value(hand) == eval7.evaluate(to_eval7(hand))
