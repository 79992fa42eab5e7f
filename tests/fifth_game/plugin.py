"""High Card's registration: one call to the registry and its catalogs. Imported by the
bot's processes that `DEUCEBOT_EXTRA_GAMES` names it to; tests in this process call
`register_game` for their own duration (`conftest.highcard`)."""

from __future__ import annotations

from pathlib import Path

from bot.i18n import add_catalogs
from engines.registry import register

NAME = "highcard"


def register_game() -> None:
    """Register High Card (its engine module) and its catalogs."""
    register(NAME, "tests.fifth_game.engine")
    add_catalogs(Path(__file__).with_name("locales"))


register_game()
