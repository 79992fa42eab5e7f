"""Fixtures of the fifth game's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engines.registry import unregister

PLUGIN = "tests.fifth_game.plugin"
"""What `DEUCEBOT_EXTRA_GAMES` names for a bot process to load the fifth game."""


@pytest.fixture
def highcard() -> Iterator[str]:
    """High Card registered in this process for the test's duration only (other tests must
    never see a fifth game); its name."""
    from tests.fifth_game import plugin

    plugin.register_game()
    yield plugin.NAME
    unregister(plugin.NAME)
