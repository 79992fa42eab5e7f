"""Pictures of the tables: what people look at every turn, drawn with Pillow.

Pure: no Discord, no live table, no clock. A public picture (a board, a result) is built
from the spectator's view, the table's facts (`Facts`: names, away seats, the clock) and
a result's public events only, so it can never show a hidden card; a hand picture from
the owner's cards only. Each game has a module (`bot.pictures.<game>`) turning a view
into a model (a frozen dataclass: what is drawn); the model draws itself with the shared
toolkit (`kit`, `cards`, `fonts`) and says itself in words (the alt text, naming every
card face drawn). Pictures are cached by their model (`cached`, `remember`), so an
unchanged table costs nothing to draw again; the bot draws them in a worker process
(`bot.pictures.worker.PictureDrawer`), the cache of its own process keeping the results.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Protocol

from bot.pictures.kit import Canvas, png
from bot.pictures.model import Facts, Picture
from bot.render import get_face

__all__ = [
    "Facts",
    "Picture",
    "board_model",
    "cached",
    "hand_model",
    "hand_picture",
    "remember",
    "result_model",
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
    return importlib.import_module(get_face(game).pictures)


def draw_picture(model: Model, kind: str) -> Picture:
    """The picture of `model`, drawn now (not cached: what a worker process runs)."""
    canvas = model.draw()
    return Picture(
        png(canvas.image),
        model.alt(),
        tuple(canvas.faces),
        canvas.image.width,
        canvas.image.height,
        kind,
    )


CACHE_SIZE = 512
"""Pictures kept by their model, hands aside (boards of recent turns, results)."""

HAND_CACHE_BYTES = 32 * 2**20
"""The PNG bytes of hand pictures kept (4-12 KB each: a few thousand hands). Hands have
their own room: a member comes back to the same hand (a pass, the "My hand" button, a
menu choice) after seconds, and at 1,000 busy tables the boards drawn meanwhile pushed
it out of a shared cache of 512, so every such answer waited for the worker to draw it
again."""

_cache: OrderedDict[tuple[Any, str], Picture] = OrderedDict()
_hands: OrderedDict[Any, Picture] = OrderedDict()
_hand_bytes = 0


def cached(model: Model, kind: str) -> Picture | None:
    """The picture of `model` if it was drawn already (in this process or its worker)."""
    if kind == "hand":
        picture = _hands.get(model)
        if picture is not None:
            _hands.move_to_end(model)
        return picture
    key = (model, kind)
    picture = _cache.get(key)
    if picture is not None:
        _cache.move_to_end(key)
    return picture


def remember(model: Model, kind: str, picture: Picture) -> None:
    """Keep `picture` as the picture of `model` (the least recently used go first)."""
    global _hand_bytes
    if kind == "hand":
        old = _hands.pop(model, None)
        _hand_bytes += len(picture.png) - (0 if old is None else len(old.png))
        _hands[model] = picture
        while _hand_bytes > HAND_CACHE_BYTES and len(_hands) > 1:
            _hand_bytes -= len(_hands.popitem(last=False)[1].png)
        return
    _cache[(model, kind)] = picture
    _cache.move_to_end((model, kind))
    while len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)


def clear_cache() -> None:
    """Forget every picture drawn and model built (the benchmark times drawing afresh;
    tests)."""
    global _hand_bytes
    _cache.clear()
    _hands.clear()
    _hand_bytes = 0
    _models.clear()


def render(model: Model, kind: str) -> Picture:
    """The picture of `model`: cached, else drawn now (and kept)."""
    picture = cached(model, kind)
    if picture is None:
        picture = draw_picture(model, kind)
        remember(model, kind, picture)
    return picture


_models: OrderedDict[tuple[str, int, Facts, str], tuple[Any, Model]] = OrderedDict()
"""The last board models built, by (game, view object, facts, language): a board message,
its image's name and its picture ask for the same model (the view is kept with it, so
its id is not reused meanwhile)."""
MODELS_KEPT = 256


def board_model(game: str, view: Any, facts: Facts, lang: str) -> Model | None:
    """What the table picture of `game` for a public (spectator) `view` draws, in `lang`;
    None before the first deal or for a game without pictures."""
    if view is None:
        return None
    key = (game, id(view), facts, lang)
    known = _models.get(key)
    if known is not None and known[0] is view:
        return known[1]
    try:
        module = _module(game)
    except ImportError:
        return None
    model: Model = module.board(view, facts, lang)
    _models[key] = (view, model)
    while len(_models) > MODELS_KEPT:
        _models.popitem(last=False)
    return model


def table_picture(game: str, view: Any, facts: Facts, lang: str) -> Picture | None:
    """The table picture of `game` for a public (spectator) `view`, in `lang`; None before
    the first deal or for a game without pictures."""
    model = board_model(game, view, facts, lang)
    return None if model is None else render(model, "table")


def table_key(game: str, view: Any, facts: Facts) -> str:
    """What the table picture of `view` shows, as a short text that changes whenever the
    picture would (except for the seconds left, which change every second): to re-upload
    a board's picture only when it changed. "" before the first deal."""
    model = board_model(game, view, dataclasses.replace(facts, seconds=None), "en")
    return "" if model is None else format(hash(model) & 0xFFFFFFFFFFFF, "012x")


def result_model(
    game: str, events: Sequence[Any], view: Any, facts: Facts, lang: str
) -> Model | None:
    """What the picture of a deal's result draws: what its public `events` showed (hands,
    pots, the last play) on the deal's last public `view` (None if unknown); None if
    nothing to show."""
    try:
        module = _module(game)
    except ImportError:
        return None
    model: Model | None = module.result(events, view, facts, lang)
    return model


def result_picture(
    game: str, events: Sequence[Any], view: Any, facts: Facts, lang: str
) -> Picture | None:
    """The picture of a deal's result (`result_model`), None if nothing to show."""
    model = result_model(game, events, view, facts, lang)
    return None if model is None else render(model, "result")


def hand_model(cards: Sequence[Any], lang: str, deck: str = "two") -> Model:
    """What the picture of a private hand (the owner's cards, in order) in `deck` colours
    draws."""
    from bot.pictures.hand import HandModel

    return HandModel(tuple(cards), lang, deck)


def hand_picture(cards: Sequence[Any], lang: str, deck: str = "two") -> Picture:
    """The picture of a private hand (the owner's cards, in order) in `deck` colours."""
    return render(hand_model(cards, lang, deck), "hand")


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
