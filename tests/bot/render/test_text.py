"""Action texts with suit symbols, and the cards a move names."""

from __future__ import annotations

from bot.render.text import describe, move_cards
from engines.cards import parse_card


def test_describe_puts_suit_symbols_on_card_words_only() -> None:
    assert describe("play 3D 10S") == "play 3♦ 10♠"
    assert describe("raise 120") == "raise 120"
    assert describe("pass") == "pass"


def test_move_cards_are_the_card_words_in_order() -> None:
    assert move_cards("play QH 3D") == [parse_card("QH"), parse_card("3D")]
    assert move_cards("bet 60") == []
