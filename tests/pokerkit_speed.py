"""pokerkit, made fast enough to check thousands of hands against."""

from __future__ import annotations

from typing import Any

import pytest
from pokerkit import StandardHighHand


def memoise_pokerkit(monkeypatch: pytest.MonkeyPatch) -> None:
    """pokerkit re-evaluates the same hands many times per showdown in pure Python; memoise its
    own evaluation (same results, computed once) for the rest of the test."""
    original = StandardHighHand.from_game.__func__  # type: ignore[attr-defined]
    cache: dict[tuple[object, ...], object] = {}

    def from_game(cls: type, hole_cards: Any, board_cards: Any = ()) -> object:
        hole, board = tuple(hole_cards), tuple(board_cards)
        key = (cls, hole, board)
        found = cache.get(key)
        if found is None:
            found = cache[key] = original(cls, hole, board)
        return found

    monkeypatch.setattr(StandardHighHand, "from_game", classmethod(from_game))
