"""Issue 40: cooldowns that alternating servers cannot bypass, limits on the commands that
cost other members (restarts, stops, seats, histories), and a /healthz that writes
nothing, end to end through the Discord stand-in."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp

from deucebot_dev.discord_standin import FakeDiscord
from tests.e2e.conftest import bot_running, running_standin, settle


@asynccontextmanager
async def two_servers() -> AsyncIterator[FakeDiscord]:
    """A stand-in with two servers, one channel each, the owner in both."""
    async with running_standin(guilds=2) as fake:
        yield fake


async def test_alternating_two_servers_does_not_bypass_the_cooldown(tmp_path: Path) -> None:
    async with two_servers() as standin:
        ana = standin.owner
        lenient, strict = (standin.guild_channels[g][0] for g in standin.guild_ids)
        async with bot_running(standin, tmp_path / "db.sqlite3", stats_cooldown=600):
            answer = await standin.command(
                ana, "config cooldown", channel_id=strict, kind="stats", seconds=3600
            )
            assert answer.message is not None and answer.message.content.startswith("✅"), answer
            through = 0
            for turn in range(20):
                place = (lenient, strict)[turn % 2]
                found = (await standin.command(ana, "stats", channel_id=place)).final()
                assert found is not None
                if found.embeds:
                    through += 1
                else:
                    assert found.ephemeral and found.content.startswith("⏳"), found.content
            assert through == 1


FROZEN = 1_000_000.0
"""The limiter's clock in these tests: every use falls in the same minute, however slow
the machine."""


async def test_fifty_rapid_restarts_make_only_the_allowed_matches_and_dms(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    bo = standin.add_user("Bo", locale="fr")
    async with bot_running(standin, tmp_path / "db.sqlite3", table_commands_per_minute=6) as bot:
        now = [FROZEN]
        bot.table_limits.clock = lambda: now[0]
        await standin.command(ana, "table create", game="bigtwo")  # Ana's first use
        await standin.command(bo, "table join")
        await standin.command(ana, "table start")  # her second
        await settle(bot)
        table = bot.tables.get(str(standin.channel_id))
        dms, public = len(standin.dms(bo)), len(standin.public_messages())
        answers = [(await standin.command(ana, "table restart")).final() for _ in range(50)]
        await settle(bot)
        went = [a for a in answers if a is not None and not a.ephemeral]
        assert len(went) == 4  # six a minute, create and start included
        for refusal in answers[4:]:
            assert refusal is not None and refusal.ephemeral
            assert refusal.content == "⏳ You are going too fast: try that again in 60 s."
        matches = [m for m in await bot.storage.matches() if m.table_id == table.id]
        assert len(matches) == 1 + 4
        assert len(standin.dms(bo)) - dms <= 4  # at most one hand per new match
        assert len(standin.public_messages()) - public <= 4 * 3
        now[0] += 60  # a minute later she may restart again
        again = (await standin.command(ana, "table restart")).final()
        assert again is not None and not again.ephemeral


async def test_seat_changes_are_limited_per_member_and_per_table(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    bo = standin.add_user("Bo", locale="fr")
    cy = standin.add_user("Cy")
    di = standin.add_user("Di", locale="uk")
    async with bot_running(standin, tmp_path / "db.sqlite3", table_commands_per_minute=6) as bot:
        now = [FROZEN]
        bot.table_limits.clock = lambda: now[0]
        await standin.command(ana, "table create", game="bigtwo")
        table = bot.tables.get(str(standin.channel_id))

        def seated() -> set[str]:
            return {s.owner.id for s in table.seats if s.owner is not None}

        counted = 0
        for turn in range(5):  # join, leave, join, leave, join: each in turn, all three
            for who in (bo, cy, di):
                before = seated()
                answer = (
                    await standin.command(who, ("table join", "table leave")[turn % 2])
                ).final()
                assert answer is not None and answer.ephemeral
                if answer.content.startswith("⏳"):
                    assert seated() == before  # a refused use changes nothing
                    busy = {
                        bo.id: "Les membres de cette table ont trop utilisé cette commande",
                        cy.id: "This table's members have used that command too often",
                        di.id: "Учасники цього столу надто часто використовували цю команду",
                    }
                    assert answer.content.startswith("⏳ " + busy[who.id]), answer.content
                else:
                    counted += 1
        # Twelve seat changes a minute at one table (twice a member's six): the fifth round
        # of joins is refused to everyone, though each of them made only four.
        assert counted == 12
        assert seated() == {str(ana.id)}
        # Bo alone, once the table's minute is over: six of his own, then his own limit.
        now[0] += 60
        answers = [
            (await standin.command(bo, ("table join", "table leave")[i % 2])).final()
            for i in range(8)
        ]
        assert [a is not None and a.content.startswith("⏳") for a in answers] == [False] * 6 + [
            True
        ] * 2
        assert answers[-1] is not None
        assert answers[-1].content == "⏳ Vous allez trop vite : réessayez dans 60 s."
        assert seated() == {str(ana.id)}


async def test_a_refused_stop_or_create_changes_nothing(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3", table_commands_per_minute=3) as bot:
        bot.table_limits.clock = lambda: FROZEN
        place = str(standin.channel_id)
        await standin.command(ana, "table create", game="duel")
        await standin.command(ana, "table stop")
        await standin.command(ana, "table create", game="duel")
        table = bot.tables.find(place)
        assert table is not None and table.status != "stopped"
        stop = (await standin.command(ana, "table stop")).final()
        assert stop is not None and stop.ephemeral and stop.content.startswith("⏳")
        assert bot.tables.find(place) is table and table.status != "stopped"
        await settle(bot)  # the second table's board is posted by its channel's own task
        boards = len(standin.public_messages())
        start = (await standin.command(ana, "table start")).final()
        assert start is not None and start.content.startswith("⏳")
        await settle(bot)
        assert table.status == "lobby" and len(standin.public_messages()) == boards


async def test_history_has_a_cooldown_across_servers(tmp_path: Path) -> None:
    async with two_servers() as standin:
        ana = standin.owner
        one, two = (standin.guild_channels[g][0] for g in standin.guild_ids)
        async with bot_running(standin, tmp_path / "db.sqlite3", stats_cooldown=600):
            first = (await standin.command(ana, "history", channel_id=one)).final()
            assert first is not None and first.ephemeral and not first.content.startswith("⏳")
            for place in (one, two, one):
                again = (await standin.command(ana, "history", channel_id=place)).final()
                assert again is not None and again.ephemeral
                assert again.content.startswith("⏳ You are going too fast"), again.content


async def test_healthz_gets_write_nothing(standin: FakeDiscord, tmp_path: Path) -> None:
    """Issue 40, item 6: every GET /healthz wrote to the database."""
    db = tmp_path / "db.sqlite3"
    async with bot_running(standin, db, DEUCEBOT_HTTP_PORT=0) as bot:
        assert bot.health is not None
        watcher = sqlite3.connect(db)  # another connection sees every commit the bot makes
        try:
            before = watcher.execute("PRAGMA data_version").fetchone()[0]
            url = f"http://127.0.0.1:{bot.health.port}/healthz"
            async with aiohttp.ClientSession() as session:
                for _ in range(30):
                    async with session.get(url) as answer:
                        assert answer.status == 200, await answer.text()
                        assert (await answer.json())["checks"]["storage"] == "ok"
            assert watcher.execute("PRAGMA data_version").fetchone()[0] == before
            assert watcher.execute("SELECT count(*) FROM notices_said").fetchone()[0] == 0
        finally:
            watcher.close()
        assert 1 <= bot.health.storage_reads <= 30
