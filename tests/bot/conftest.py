"""Fixtures of the terminal tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.terminal import Terminal


@pytest.fixture
def terminal() -> Iterator[list[Terminal]]:
    """A list the test appends each `deucebot play` child to; every one is closed after."""
    started: list[Terminal] = []
    yield started
    for each in started:
        each.close()
