"""Public messages follow the server's language (issue 44, item 18): what a command posts
for the channel (a table opened, stopped or restarted, a duel dealt against the AI, a
leaderboard, a season begun) is in the server's language (`/config language`), whoever
asked and whatever their own language; their private answers stay in theirs. Through the
bot's real process and the stand-in."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.discord import replies
from deucebot_dev.discord_standin import FakeDiscord, Message, Response
from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import board


def _public(response: Response) -> Message:
    shown = response.final()
    assert shown is not None and not shown.ephemeral, response
    return shown


async def test_what_commands_post_for_the_channel_is_in_the_server_s_language(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner  # en-US, like the server's locale
    amelie = standin.add_user("Amelie", locale="fr", manage_channels=True)
    yuri = standin.add_user("Yuri", locale="uk", manage_channels=True)
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "config language", language="en")
        # Amelie writes in French on an English server: the channel reads English.
        created = _public(await standin.command(amelie, "table create", game="bigtwo", deals=2))
        assert created.content == (
            f"<@{amelie.id}> opened a Big Two table here. /table join to sit down, "
            "/table start to deal.\n4 seats · 2 deals · no turn timer · AI: normal"
        ), created.content
        await settle(bot)
        assert board(standin).embeds[0]["title"] == "Big Two: waiting for players"
        # Her own answers stay in French.
        joined = (await standin.command(amelie, "table join")).final()
        assert joined is not None and joined.ephemeral and "déjà" in joined.content
        await standin.command(amelie, "table start")
        restarted = _public(await standin.command(amelie, "table restart"))
        assert restarted.content == f"<@{amelie.id}> restarted the match."
        stopped = _public(await standin.command(yuri, "table stop"))
        assert stopped.content == f"<@{yuri.id}> closed the table."
        await settle(bot)
        dealt = _public(await standin.command(amelie, "duel challenge"))
        assert dealt.content == "A Deuce Duel against the AI is dealt."
        await standin.command(ana, "table stop")
        await settle(bot)
        boards = _public(await standin.command(yuri, "leaderboard", game="bigtwo"))
        assert boards.embeds[0]["title"] == "Big Two leaderboard (all time)"
        rated = _public(await standin.command(amelie, "leaderboard", game="duel", by="rating"))
        assert rated.embeds[0]["title"].startswith("Deuce Duel ratings"), rated.embeds
        # A French server: the same commands by an English member read French.
        await standin.command(ana, "config language", language="fr")
        created = _public(await standin.command(ana, "table create", game="holdem"))
        assert created.content.startswith(
            f"<@{ana.id}> a ouvert une table de No-limit Texas hold'em ici."
        ), created.content
        assert "4 places" in created.content
        season = _public(await standin.command(ana, "season", name="cup"))
        assert season.content.startswith("La saison **cup** commence"), season.content
        assert not standin.errors, standin.errors


async def test_the_public_line_of_a_refusal_answered_privately_is_in_the_server_s_language(
    standin: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A `/table create` deferred publicly and then refused: the channel's "thinking"
    message gets a line of its own, in the server's chosen language (not its locale, not
    the member's); the refusal goes privately in the member's."""
    monkeypatch.setattr(replies, "DEFER_AFTER", 0.01)
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "config language", language="fr")
        await standin.command(ana, "table create", game="holdem")
        create = bot.tables.create

        async def slow_create(*args: Any, **kwargs: Any) -> Any:
            await asyncio.sleep(0.1)  # a slow database: the answer is deferred first
            return await create(*args, **kwargs)

        monkeypatch.setattr(bot.tables, "create", slow_create)
        yuri = standin.add_user("Yuri", locale="uk")
        answer = await standin.command(yuri, "table create", game="draw")
        refusal = await standin.wait_for(
            lambda: next((m for m in answer.followups if m.content.startswith("⛔")), None)
        )
        assert refusal.ephemeral and "стіл No-limit Texas hold'em" in refusal.content
        thinking = answer.message
        assert thinking is not None and not thinking.ephemeral
        assert thinking.content == "🔒 Réponse envoyée en privé."


async def test_a_slow_season_start_is_still_announced_to_the_channel(
    standin: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`/season` announces the season to the channel: when its write is slow and the answer
    is deferred first, the deferral is public too, so the announcement is never hidden as
    an ephemeral follow-up (it was, one run in a few, on a busy machine)."""
    monkeypatch.setattr(replies, "DEFER_AFTER", 0.01)
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        start_season = bot.storage.start_season

        async def slow_start(*args: Any, **kwargs: Any) -> Any:
            await asyncio.sleep(0.1)  # a slow database: the answer is deferred first
            return await start_season(*args, **kwargs)

        monkeypatch.setattr(bot.storage, "start_season", slow_start)
        answer = await standin.command(standin.owner, "season", name="cup")
        season = _public(answer)
        assert season.content.startswith("Season **cup** starts now"), season.content
