"""Start-up against the stand-in: login, intents, command sync with translations."""

from __future__ import annotations

from pathlib import Path

from deucebot_dev.discord_standin import FakeDiscord
from tests.e2e.conftest import bot_running


async def test_bot_logs_in_with_minimal_intents_and_syncs_localised_commands(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    async with bot_running(standin, tmp_path / "db.sqlite3"):
        assert standin.identify is not None
        assert standin.identify["intents"] == 1  # GUILDS only: no privileged intent
        names = {c["name"] for c in standin.commands}
        assert {
            "table",
            "hand",
            "play",
            "pass",
            "hint",
            "back",
            "leaderboard",
            "stats",
            "rules",
        } <= names
        table = next(c for c in standin.commands if c["name"] == "table")
        subs = {o["name"] for o in table["options"]}
        assert subs == {"create", "join", "leave", "start", "stop", "restart", "status"}
        assert table["name_localizations"]["fr"] == "table"
        assert table["name_localizations"]["uk"] == "стіл"
        create = next(o for o in table["options"] if o["name"] == "create")
        assert create["name_localizations"]["fr"] == "créer"
        game = next(o for o in create["options"] if o["name"] == "game")
        assert "bigtwo" in [c["value"] for c in game["choices"]]
        assert game["description_localizations"]["uk"] == "Яка гра"
