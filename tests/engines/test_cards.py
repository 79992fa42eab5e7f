"""The card core: one immutable Card, parsing what people type, decks from an injected RNG."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.cards import (
    FULL_DECK,
    Card,
    CardParseError,
    Deck,
    Rank,
    Suit,
    deck_order,
    format_cards,
    parse_card,
    parse_cards,
)


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("3D", Rank.THREE, Suit.DIAMONDS),
        ("10s", Rank.TEN, Suit.SPADES),
        ("TS", Rank.TEN, Suit.SPADES),
        ("qh", Rank.QUEEN, Suit.HEARTS),
        ("3♦", Rank.THREE, Suit.DIAMONDS),
        ("♠A", Rank.ACE, Suit.SPADES),
        ("♣10", Rank.TEN, Suit.CLUBS),
        (" kc ", Rank.KING, Suit.CLUBS),
        ("2♥\ufe0f", Rank.TWO, Suit.HEARTS),
    ],
)
def test_parse_card_accepts_what_people_type(text: str, rank: Rank, suit: Suit) -> None:
    card = parse_card(text)
    assert (card.rank, card.suit) == (rank, suit)


@pytest.mark.parametrize("bad", ["1X", "11S", "AA", "S", "10", "", "3DD", "♠♠", "ZS", "1S"])
def test_parse_card_refuses_and_names_the_token(bad: str) -> None:
    with pytest.raises(CardParseError) as info:
        parse_card(bad)
    assert f"{bad.strip()!r} is not a card" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_parse_cards_splits_on_spaces_and_commas() -> None:
    assert [str(c) for c in parse_cards("3d, 3s  ,♠A 10h")] == ["3D", "3S", "AS", "TH"]
    assert parse_cards("   ") == []


def test_parse_cards_names_the_first_bad_token() -> None:
    with pytest.raises(CardParseError, match="'1X' is not a card"):
        parse_cards("3d 1X 4d")


@given(st.sampled_from(FULL_DECK))
def test_canonical_form_round_trips(card: Card) -> None:
    assert parse_card(str(card)) is card
    assert parse_card(card.pretty) is card
    assert len(str(card)) == 2


def test_cards_are_interned_and_immutable() -> None:
    card = Card(Rank.ACE, Suit.SPADES)
    assert card is Card(14, 3) is parse_card("AS")
    assert copy.deepcopy(card) is card
    assert pickle.loads(pickle.dumps(card)) is card
    assert card != Card(Rank.ACE, Suit.HEARTS)
    with pytest.raises(AttributeError):
        card.rank = Rank.TWO  # type: ignore[misc]
    with pytest.raises(ValueError):
        Card(15, 0)


def test_card_has_no_built_in_order() -> None:
    # The rank order belongs to each game, so cards themselves do not compare.
    with pytest.raises(TypeError):
        _ = Card(Rank.TWO, Suit.SPADES) < Card(Rank.ACE, Suit.SPADES)  # type: ignore[operator]


def test_full_deck_has_52_distinct_cards() -> None:
    assert len(set(FULL_DECK)) == 52
    assert [c.code for c in FULL_DECK] == list(range(52))
    assert all(Card.from_code(c.code) is c for c in FULL_DECK)


def test_two_deck_shoe_and_drawing() -> None:
    shoe = Deck(deck_order(bytes(32), decks=2))
    assert len(shoe) == 104
    top = shoe.cards()[:3]
    assert shoe.draw(3) == top
    assert len(shoe) == 101
    with pytest.raises(ValueError, match="cannot draw 200"):
        shoe.draw(200)


def test_stacked_deck_deals_in_order() -> None:
    cards = parse_cards("3D 4D 5D")
    deck = Deck.stacked(cards)
    assert deck.draw_one() is cards[0]
    assert deck.draw(2) == cards[1:]


def test_format_cards() -> None:
    cards = parse_cards("10s 3d")
    assert format_cards(cards) == "TS 3D"
    assert format_cards(cards, pretty=True) == "10♠ 3♦"
