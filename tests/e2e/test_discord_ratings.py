"""Ratings on Discord through the stand-in: a member finishes a match against AI seats; the
rating leaderboard, `/stats` with its chart, and `/season` (Manage Server only) read it, in
the member's language."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.discord.client import Deucebot
from bot.runtime import Table
from deucebot_dev.discord_standin import CommandHidden, FakeDiscord, User
from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import play_until
from tests.e2e.poker_helpers import started_table


async def both_seated(
    standin: FakeDiscord, bot: Deucebot, ana: User, bo: User, **options: Any
) -> Table:
    """Ana opens a table with `options`, Bo joins it, Ana starts the match: the live table,
    its match begun."""
    await standin.command(ana, "table create", **options)
    await standin.command(bo, "table join")
    await standin.command(ana, "table start")
    table = bot.tables.find(str(standin.channel_id))
    assert table is not None and table.match is not None
    return table


async def test_a_finished_match_is_rated_and_shown_by_rating_with_a_chart(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    bo = standin.add_user("Bo", locale="fr")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        table = await started_table(standin, bot, ana, game="bigtwo", deals=1)
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


async def test_leaving_then_a_restart_rates_the_deals_played_and_a_stop_before_any_deal_not(
    standin: FakeDiscord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ana = standin.owner
    bo = standin.add_user("Bo")
    db = tmp_path / "db.sqlite3"
    async with bot_running(standin, db) as bot:
        table = await both_seated(standin, bot, ana, bo, game="bigtwo", deals=3)
        assert table.match is not None
        first = table.match.id
        styles = {ana.id: (ana, "pass"), bo.id: (bo, "menu")}
        await play_until(standin, bot, styles, done=lambda: table.deal >= 2)
        # Bo leaves the match in play (the AI plays his seat), then Ana restarts it.
        await standin.command(bo, "table leave")
        await settle(bot)
        restarted = (await standin.command(ana, "table restart")).final()
        assert restarted is not None and not restarted.content.startswith("⛔")
        await settle(bot)
        assert table.match is not None and table.match.id != first
        rows = await bot.storage._all(
            "SELECT season, player_id, rank FROM rating_updates WHERE match_id = ?", (first,)
        )
        lost = await bot.storage._all(
            "SELECT seat, sum(penalty) AS p FROM penalty_ledger WHERE match_id = ? GROUP BY seat",
            (first,),
        )
        penalty = {int(r["seat"]): int(r["p"]) for r in lost}
        place = {seat: 1 + sum(p < penalty[seat] for p in penalty.values()) for seat in penalty}
        # Rated on the deal played, on both tracks; Bo too, though the AI finished his seat.
        assert sorted((r["season"] == "", r["player_id"], r["rank"]) for r in rows) == sorted(
            (track, str(who.id), place[seat])
            for track in (False, True)
            for seat, who in ((0, ana), (1, bo))
        )
        # The new match is stopped before any deal: not rated.
        second = table.match.id
        stopped = (await standin.command(ana, "table stop")).final()
        assert stopped is not None and not stopped.content.startswith("⛔")
        await settle(bot)
        assert (
            await bot.storage._all("SELECT 1 FROM rating_updates WHERE match_id = ?", (second,))
            == []
        )
        guild = str(standin.guild_id)
        held = await bot.storage.ratings_of(guild, "bigtwo", [""], [str(ana.id), str(bo.id)])
        assert {pid: r.matches for (_, pid), r in held.items()} == {str(ana.id): 1, str(bo.id): 1}
    # `deucebot ratings rebuild`, from the stored results alone, agrees.
    assert await asyncio.to_thread(main, ["ratings", "rebuild", "--db", str(db)]) == 0
    assert "0 differ" in capsys.readouterr().out


async def act_as_to_act(standin: FakeDiscord, table: Table, members: dict[str, User]) -> None:
    """The member to act types a legal move with `/act` (the last the game lists)."""
    index = table.to_act
    assert index is not None and table.state is not None
    owner = table.seats[index].owner
    assert owner is not None
    move = str(table.state.legal_actions(index)[-1])
    answer = (await standin.command(members[owner.id], "act", action=move)).message
    assert answer is not None and not answer.content.startswith("⛔"), answer.content


async def test_a_duel_member_who_leaves_is_rated_and_the_winner_too(
    standin: FakeDiscord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ana = standin.owner
    bo = standin.add_user("Bo")
    members = {str(ana.id): ana, str(bo.id): bo}
    db = tmp_path / "db.sqlite3"
    async with bot_running(standin, db) as bot:
        table = await both_seated(standin, bot, ana, bo, game="duel", stack=4)
        await standin.command(ana, "table leave")  # the AI plays her seat to the end
        for _ in range(400):
            await settle(bot)
            if table.finished:
                break
            await act_as_to_act(standin, table, members)
        assert table.finished and table.match.totals is not None
        totals = table.match.totals
        assert await bot.storage._all(
            "SELECT 1 FROM actions WHERE match_id = ? AND seat = 0 AND actor = 'ai'",
            (table.match.id,),
        )
        rows = await bot.storage._all(
            "SELECT player_id, rank FROM rating_updates WHERE match_id = ? AND season = ''",
            (table.match.id,),
        )
        # Both are rated, by the seats' places: leaving neither dodges the rating nor voids
        # the other member's.
        assert sorted((r["player_id"], r["rank"]) for r in rows) == sorted(
            (str(who.id), 1 + sum(t > totals[seat] for t in totals))
            for seat, who in ((0, ana), (1, bo))
        )
    assert await asyncio.to_thread(main, ["ratings", "rebuild", "--db", str(db)]) == 0
    assert "0 differ" in capsys.readouterr().out
