"""The bot's database is opened in its setup, after logging in: a file it cannot use stops
it with `CannotOpenDatabase` (one line at the entry point), the file unchanged."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.discord.app import serve
from deucebot_dev.discord_standin import FakeDiscord
from storage import CannotOpenDatabase
from tests.e2e.conftest import settings_for


async def test_a_database_that_is_not_the_bots_stops_it_unchanged(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE tables (legs INTEGER)")
    db.close()
    before = path.read_bytes()
    saved = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
    try:
        with pytest.raises(CannotOpenDatabase, match="another program's SQLite database"):
            await serve(settings_for(standin, path))
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved
    assert path.read_bytes() == before
