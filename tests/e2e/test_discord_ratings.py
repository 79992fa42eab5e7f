"""Ratings on Discord through the stand-in: a member finishes a match against AI seats; the
rating leaderboard, `/stats` with its chart, and `/season` (Manage Server only) read it, in
the member's language."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.devtools.discord_standin import CommandHidden, FakeDiscord
from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import play_until


async def test_a_finished_match_is_rated_and_shown_by_rating_with_a_chart(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    bo = standin.add_user("Bo", locale="fr")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game="bigtwo", deals=1)
        await standin.command(ana, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        await play_until(
            standin, bot, {ana.id: (ana, "pass")}, done=lambda: table.status == "finished"
        )
        await settle(bot)
        guild = str(standin.guild_id)
        held = await bot.storage.ratings_of(guild, "bigtwo", [""], [str(ana.id)])
        assert held[("", str(ana.id))].matches == 1

        board = (await standin.command(ana, "leaderboard", game="bigtwo", by="rating")).final()
        assert board is not None and not board.ephemeral
        text = board.text()
        assert "Big Two ratings (all time)" in text
        assert "Not rated yet (fewer than 5 rated matches)" in text and "Owner: " in text
        # The totals are still there, by default.
        totals = (await standin.command(ana, "leaderboard", game="bigtwo")).final()
        assert totals is not None and "penalty per deal" in totals.text()

        mine = (await standin.command(ana, "stats")).final()
        assert mine is not None and mine.ephemeral
        assert mine.attachments == ["stats-bigtwo.png"]
        assert "Rating: " in mine.text() and "1 rated match)" in mine.text()
        # Posted for the channel, the board Bo asks for is in the server's language (not his
        # French) until the server's admins choose French.
        english = (await standin.command(bo, "leaderboard", game="bigtwo", by="rating")).final()
        assert english is not None and "Big Two ratings (all time)" in english.text()
        await standin.command(ana, "config language", language="fr")
        french = (await standin.command(bo, "leaderboard", game="bigtwo", by="rating")).final()
        assert french is not None and "Niveaux à Big Two (depuis toujours)" in french.text()
        assert "1 partie)" in french.text()
        await standin.command(ana, "config language", language="locale")
        nothing = (await standin.command(bo, "stats", game="bigtwo")).final()
        assert nothing is not None and nothing.attachments == []

        # /season is for Manage Server: Discord does not even list it for Bo.
        with pytest.raises(CommandHidden):
            await standin.command(bo, "season", name="cup")
        assert await bot.storage.seasons(guild) == []
        bad = await standin.command(ana, "season", name="current")
        assert bad.ephemeral and "1 to 32" in bad.message.content
        started = (await standin.command(ana, "season", name="cup")).final()
        assert started is not None and not started.ephemeral and "**cup**" in started.text()
        cup = (
            await standin.command(ana, "leaderboard", game="bigtwo", by="rating", season="current")
        ).final()
        assert cup is not None and "season cup" in cup.text() and "No rated matches" in cup.text()
        # A season that does not exist is refused privately, naming it (whatever was typed:
        # card words included, which must not reach the channel); without `by`, a season
        # means its rating board.
        posted = len(standin.public_messages())
        for typed, by in (("8D 8S", "rating"), ("cupp", None)):
            options = {"game": "bigtwo", "season": typed} | ({"by": by} if by else {})
            nope = (await standin.command(bo, "leaderboard", **options)).final()
            assert nope is not None and nope.ephemeral, nope
            assert "saison « " + typed + " »" in nope.content, nope.content
        assert len(standin.public_messages()) == posted
        named = (await standin.command(ana, "leaderboard", game="bigtwo", season="cup")).final()
        assert named is not None and not named.ephemeral and "season cup" in named.text()
