"""One check for every engine's refusals: the right code, and nothing changed."""

from __future__ import annotations

from typing import Any

import pytest

from engines.base import IllegalAction


def assert_refused(state: Any, seat: int, action: object, code: str) -> IllegalAction:
    """`action` by `seat` is refused with `code` and the state's snapshot is unchanged."""
    before = state.snapshot()
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)
    assert info.value.code == code, info.value.message
    assert state.snapshot() == before
    return info.value
