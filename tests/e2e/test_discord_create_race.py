"""Two members open a table in one channel (issue 44, item 17): the one refused is told which
table is there, by the title its board shows, in their own language; never the game they
asked for, never a short name ("bigtwo"). Through the bot's real process and the stand-in."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from deucebot_dev.discord_standin import FakeDiscord
from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import board


async def test_two_creates_at_the_same_moment_the_refusal_names_the_table_being_opened(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    bo = standin.add_user("Bo", locale="fr")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        # Ana's create is held while its table is written: Bo's comes in meanwhile.
        writing, go_on = asyncio.Event(), asyncio.Event()
        create_table = bot.storage.create_table

        async def held(**kwargs: Any) -> Any:
            writing.set()
            await go_on.wait()
            return await create_table(**kwargs)

        bot.storage.create_table = held  # type: ignore[method-assign]
        first = asyncio.create_task(standin.command(ana, "table create", game="bigtwo"))
        await asyncio.wait_for(writing.wait(), 10)
        refused = (await standin.command(bo, "table create", game="holdem")).final()
        go_on.set()
        created = (await first).final()
        assert created is not None and not created.ephemeral
        assert refused is not None and refused.ephemeral
        assert refused.content == (
            "⛔ Une table de Big Two existe déjà dans ce salon ; /table stop la ferme d'abord."
        )
        await settle(bot)
        assert board(standin).embeds[0]["title"].startswith("Big Two")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.game == "bigtwo" and len(bot.tables.tables) == 1
        assert not standin.errors, standin.errors


async def test_a_create_beside_a_table_names_it_by_its_title(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    cy = standin.add_user("Cy", locale="uk")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game="holdem")
        for game in ("duel", "holdem"):
            refused = (await standin.command(cy, "table create", game=game)).final()
            assert refused is not None and refused.ephemeral
            assert refused.content == (
                "⛔ У цьому каналі вже є стіл No-limit Texas hold'em; "
                "спершу закрийте його через /table stop."
            )
        refused = (await standin.command(cy, "duel challenge")).final()
        assert refused is not None and "стіл No-limit Texas hold'em" in refused.content
        await settle(bot)
        assert board(standin).embeds[0]["title"].startswith("No-limit Texas hold'em")
        assert not standin.errors, standin.errors
