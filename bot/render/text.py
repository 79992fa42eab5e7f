"""Action texts, cards and seat names as people read them, the same for every game."""

from __future__ import annotations

from collections.abc import Sequence

from engines.cards import Card, CardParseError, format_cards, parse_card


def _words(text: str) -> list[str | Card]:
    """The words of an action's text, each card word parsed."""
    words: list[str | Card] = []
    for word in text.split():
        try:
            words.append(parse_card(word))
        except CardParseError:
            words.append(word)
    return words


def pretty_cards(cards: Sequence[Card]) -> str:
    """Cards as people read them (``10♠ 3♦``), separated by spaces."""
    return format_cards(cards, pretty=True)


def seat_name(names: Sequence[str], seat: int) -> str:
    """Seat `seat`'s name among `names`, or ``#n`` (counted from 1) for one without."""
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def describe(text: str) -> str:
    """An action's canonical text with suit symbols (``play 3D 3S`` -> ``play 3♦ 3♠``)."""
    return " ".join(w.pretty if isinstance(w, Card) else w for w in _words(text))


def move_cards(text: str) -> list[Card]:
    """The cards an action's canonical text names (``play 3D 3S`` -> 3♦ 3♠; none for ``pass``)."""
    return [w for w in _words(text) if isinstance(w, Card)]


POSITION = "#{n} {card}"
"""How a card's position reads in every game's hand (``#1 3♦``); people type ``#1`` (or a
bare 1 where it cannot be a card's rank)."""


def numbered_cards(hand: Sequence[Card], order: Sequence[Card] | None = None) -> str:
    """A hand's cards with the position numbers people type (``#1 3♦  #2 5♠``), the same in
    every game.

    Positions are those of `hand`, the game's order; `order` is the order the cards are
    shown in (a re-sorted hand), and each card keeps its number there, so a typed position
    means the card labelled with it wherever the hand is shown. A card held twice (the
    duel's two decks) takes the next of its positions."""
    free: dict[Card, list[int]] = {}
    for n, card in enumerate(hand, start=1):
        free.setdefault(card, []).append(n)
    same = order is not None and sorted(c.code for c in order) == sorted(c.code for c in hand)
    shown = order if order is not None and same else hand
    return "  ".join(POSITION.format(n=free[card].pop(0), card=card.pretty) for card in shown)
