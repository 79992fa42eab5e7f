"""`/deucebot status`: private, Manage Server only, in the admin's language; what it shows
(the bot's permissions in the channel, live tables, a paused table and why)."""

from __future__ import annotations

from pathlib import Path

import pytest

from deucebot_dev.discord_standin import CommandHidden, FakeDiscord
from tests.e2e.conftest import bot_running, running_standin, settle


async def test_an_admin_sees_the_status_privately(standin: FakeDiscord, tmp_path: Path) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game="duel")
        answer = await standin.command(ana, "deucebot status")
        assert answer.ephemeral and answer.message is not None
        text = answer.message.content
        assert text.startswith("**Deucebot ") and "Up for 0 min" in text, text
        assert "Shard 0 of 1" in text and "Storage: SQLite" in text
        assert "Live tables: 1 in this server, 1 in all" in text
        assert "✅ View Channel · ✅ Send Messages · ✅ Embed Links · ✅ Attach Files" in text
        assert "Paused: nothing" in text
        assert str(tmp_path) not in text  # no file path for a server's admin
        assert bot.tables.find(str(standin.channel_id)) is not None


async def test_members_without_manage_server_do_not_get_it(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    mo = standin.add_user("Mo", manage_channels=True)
    async with bot_running(standin, tmp_path / "db.sqlite3"):
        with pytest.raises(CommandHidden):  # Discord does not list it for them
            await standin.command(mo, "deucebot status")
        # An admin may open the command to everyone (Server Settings > Integrations): the
        # bot still answers only members with Manage Server.
        top = next(c for c in standin.commands if c["name"] == "deucebot")
        top["default_member_permissions"] = None
        refused = await standin.command(mo, "deucebot status")
        assert refused.ephemeral and refused.message is not None
        assert refused.message.content == "⛔ Only members with Manage Server may do that."


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("fr", ("Tables en cours : 1 sur ce serveur", "❌ Intégrer des liens", "table n° 1")),
        ("uk", ("Активні столи: 1 на цьому сервері", "❌ Вбудовувати посилання", "стіл №1")),
        ("en-GB", ("Live tables: 1 in this server", "❌ Embed Links", "table #1")),
    ],
)
async def test_a_paused_table_and_the_missing_permission_in_the_admins_language(
    standin: FakeDiscord, tmp_path: Path, locale: str, words: tuple[str, ...]
) -> None:
    ana = standin.owner
    admin = standin.add_user("Ad", locale=locale, manage_guild=True)
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game="duel")
        await standin.command(ana, "table start")
        await settle(bot)
        standin.deny_bot(standin.channel_id, "embed_links")
        await standin.command(ana, "table leave")
        await standin.wait_for(lambda: bot.front.paused(), 10)
        answer = await standin.command(admin, "deucebot status")
        assert answer.message is not None and answer.ephemeral
        text = answer.message.content
        for word in words:
            assert word in text, text
        assert f"<#{standin.channel_id}>" in text and "50013" in text


async def test_other_servers_tables_are_counted_for_the_bot_s_owner_only(tmp_path: Path) -> None:
    async with running_standin(guilds=2, channels=2) as fake:
        one, two = fake.guild_ids
        owner = fake.owner  # the application's owner (and an admin of both servers)
        admin = fake.add_user("Ad", manage_guild=True)
        async with bot_running(fake, tmp_path / "db.sqlite3", shards=[0]) as bot:
            here, *_ = fake.guild_channels[one]
            for channel in [here, *fake.guild_channels[two]]:
                made = await fake.command(admin, "table create", game="duel", channel_id=channel)
                assert made.final() is not None and not made.final().ephemeral
            assert len(bot.tables.tables) == 3
            for guild, count in ((one, 1), (two, 2)):
                channel = fake.guild_channels[guild][0]
                answer = await fake.command(admin, "deucebot status", channel_id=channel)
                text = answer.final().content
                assert f"Live tables: {count} in this server\n" in text, text
                assert "in all" not in text and "3" not in text.split("Live tables")[1][:40]
            answer = await fake.command(owner, "deucebot status", channel_id=here)
            assert "Live tables: 1 in this server, 3 in all" in answer.final().content
