"""Events read back from a history file: the JSON of `Event.to_json()` turned into the
engine's own event objects again, so the game's renderer can print them as the table did.

Generic over games: the event class is found by its `kind` among the loaded `Event`
subclasses, and every field is rebuilt from the class's type hints (cards from their codes,
tuples, nested dataclasses, enums, optional values).
"""

from __future__ import annotations

import dataclasses
import enum
import sys
import types
import typing
from collections.abc import Iterator
from typing import Any

from engines.base import Event
from engines.cards import Card, parse_card
from engines.registry import get_game


def _subclasses(cls: type[Event]) -> Iterator[type[Event]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def event_classes(game: str) -> dict[str, type[Event]]:
    """Every event class a match of `game` can hold, by `kind` (the game's module loaded)."""
    get_game(game)
    found: dict[str, type[Event]] = {}
    for cls in _subclasses(Event):
        # `dataclass(slots=True)` replaces a class by a new one; the old one lingers among
        # the subclasses, so only the class its module exposes counts.
        module = sys.modules.get(cls.__module__)
        if module is not None and getattr(module, cls.__qualname__, None) is cls:
            found.setdefault(cls.kind, cls)
    return found


def _value(hint: Any, value: Any) -> Any:
    """`value` (plain JSON) as the type `hint` says."""
    if value is None:
        return None
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        return _value(options[0], value) if len(options) == 1 else value
    if hint is Card:
        return parse_card(value)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_value(args[0], v) for v in value)
        return tuple(_value(a, v) for a, v in zip(args, value, strict=True))
    if origin in (list, frozenset, set):
        items = [_value(args[0], v) for v in value] if args else list(value)
        return items if origin is list else origin(items)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(value)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass(hint, value)
    return value


def _dataclass(cls: type[Any], data: dict[str, Any]) -> Any:
    hints = typing.get_type_hints(cls)
    kwargs = {
        f.name: _value(hints[f.name], data[f.name])
        for f in dataclasses.fields(cls)
        if f.name in data
    }
    return cls(**kwargs)


def decode_event(data: dict[str, Any], classes: dict[str, type[Event]]) -> Event | None:
    """The event `data` describes, or None for a kind this version does not know."""
    cls = classes.get(str(data.get("kind")))
    if cls is None:
        return None
    event: Event = _dataclass(cls, data)
    return event
