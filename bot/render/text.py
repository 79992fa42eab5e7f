"""Action texts as people read them, the same for every game."""

from __future__ import annotations

from engines.cards import Card, CardParseError, parse_card


def _words(text: str) -> list[str | Card]:
    """The words of an action's text, each card word parsed."""
    words: list[str | Card] = []
    for word in text.split():
        try:
            words.append(parse_card(word))
        except CardParseError:
            words.append(word)
    return words


def describe(text: str) -> str:
    """An action's canonical text with suit symbols (``play 3D 3S`` -> ``play 3♦ 3♠``)."""
    return " ".join(w.pretty if isinstance(w, Card) else w for w in _words(text))


def move_cards(text: str) -> list[Card]:
    """The cards an action's canonical text names (``play 3D 3S`` -> 3♦ 3♠; none for ``pass``)."""
    return [w for w in _words(text) if isinstance(w, Card)]
