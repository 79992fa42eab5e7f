"""Pictures of the tables: what people look at every turn, drawn with Pillow.

Pure: no Discord, no live table, no clock. A public picture (a board, a result) is built
from the spectator's view, the table's facts (`Facts`: names, away seats, the clock) and
a result's public events only, so it can never show a hidden card; a hand picture from
the owner's cards only. Each game has a module (`bot.pictures.<game>`) turning a view
into a model (a frozen dataclass: what is drawn); the model draws itself with the shared
toolkit (`kit`, `cards`, `fonts`) and says itself in words (the alt text, naming every
card face drawn). Pictures are cached by their model, so an unchanged table costs
nothing to draw again.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Protocol

from bot.pictures.kit import Canvas, png
from bot.pictures.model import Facts, Picture

__all__ = [
    "Facts",
    "Picture",
    "hand_picture",
    "result_picture",
    "table_key",
    "table_picture",
]


class Model(Protocol):
    """What a game's module builds from a view: hashable, drawn and said by itself."""

    def draw(self) -> Canvas:
        """The picture."""
        ...

    def alt(self) -> str:
        """The picture in words (every card face it shows named)."""
        ...


def _module(game: str) -> Any:
    return importlib.import_module(f"bot.pictures.{game}")


@lru_cache(maxsize=512)
def render(model: Model, kind: str) -> Picture:
    """The picture of `model` (cached: the same model is drawn once)."""
    canvas = model.draw()
    return Picture(
        png(canvas.image),
        model.alt(),
        tuple(canvas.faces),
        canvas.image.width,
        canvas.image.height,
        kind,
    )


def table_picture(game: str, view: Any, facts: Facts, lang: str) -> Picture | None:
    """The table picture of `game` for a public (spectator) `view`, in `lang`; None before
    the first deal or for a game without pictures."""
    if view is None:
        return None
    try:
        module = _module(game)
    except ImportError:
        return None
    return render(module.board(view, facts, lang), "table")


def table_key(game: str, view: Any, facts: Facts) -> str:
    """What the table picture of `view` shows, as a short text that changes whenever the
    picture would (except for the seconds left, which change every second): to re-upload
    a board's picture only when it changed. "" before the first deal."""
    if view is None:
        return ""
    try:
        module = _module(game)
    except ImportError:
        return ""
    model = module.board(view, dataclasses.replace(facts, seconds=None), "en")
    return format(hash(model) & 0xFFFFFFFFFFFF, "012x")


def result_picture(
    game: str, events: Sequence[Any], view: Any, facts: Facts, lang: str
) -> Picture | None:
    """The picture of a deal's result: what its public `events` showed (hands, pots, the
    last play) on the deal's last public `view` (None if unknown); None if nothing to show."""
    try:
        module = _module(game)
    except ImportError:
        return None
    model = module.result(events, view, facts, lang)
    return None if model is None else render(model, "result")


def hand_picture(cards: Sequence[Any], lang: str, deck: str = "two") -> Picture:
    """The picture of a private hand (the owner's cards, in order) in `deck` colours."""
    from bot.pictures.hand import HandModel

    return render(HandModel(tuple(cards), lang, deck), "hand")


def warm() -> None:
    """Draw what every picture reuses now (card tiles, the palette, fonts; about 100 ms,
    once), so that the first board does not wait."""
    from bot.pictures.cards import DECKS, HAND, MINI, SMALL, TABLE, tile
    from bot.pictures.kit import _palette

    _palette()
    for deck in DECKS:
        for code in range(52):
            tile(code, HAND, deck)
    for size in (TABLE, SMALL):
        for code in range(52):
            tile(code, size)
    for size in (HAND, TABLE, SMALL, MINI):
        tile(None, size)
