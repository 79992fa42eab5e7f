"""Action texts with suit symbols, the cards a move names, cards and seat names as every
game writes them."""

from __future__ import annotations

from bot.render.text import describe, move_cards, numbered_cards, pretty_cards, seat_name
from engines.cards import parse_card, parse_cards


def test_describe_puts_suit_symbols_on_card_words_only() -> None:
    assert describe("play 3D 10S") == "play 3♦ 10♠"
    assert describe("raise 120") == "raise 120"
    assert describe("pass") == "pass"


def test_move_cards_are_the_card_words_in_order() -> None:
    assert move_cards("play QH 3D") == [parse_card("QH"), parse_card("3D")]
    assert move_cards("bet 60") == []


def test_numbered_cards_keep_their_positions_in_the_order_shown() -> None:
    hand = parse_cards("3D 5S 9H KC")
    assert numbered_cards(hand) == "#1 3♦  #2 5♠  #3 9♥  #4 K♣"
    by_suit = parse_cards("3D 9H 5S KC")
    assert numbered_cards(hand, by_suit) == "#1 3♦  #3 9♥  #2 5♠  #4 K♣"


def test_a_card_held_twice_gets_both_of_its_positions() -> None:
    hand = parse_cards("7C 7C")
    assert numbered_cards(hand, list(reversed(hand))) == "#1 7♣  #2 7♣"
    assert numbered_cards(parse_cards("7C 2D"), parse_cards("2D 7C")) == "#2 2♦  #1 7♣"


def test_an_order_of_other_cards_is_ignored() -> None:
    hand = parse_cards("3D 5S")
    assert numbered_cards(hand, parse_cards("3D AS")) == "#1 3♦  #2 5♠"


def test_cards_and_seat_names_read_the_same_in_every_game() -> None:
    assert pretty_cards(parse_cards("TS 3D AH")) == "10♠ 3♦ A♥"
    assert pretty_cards([]) == ""
    names = ["Ann", "Bo"]
    assert [seat_name(names, s) for s in (0, 1, 2, -1)] == ["Ann", "Bo", "#3", "#0"]
