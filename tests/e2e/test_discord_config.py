"""`/config`: a server's own settings through the stand-in, as its admins use them:
defaults applied to new tables, the language of public messages, the channels where
tables open, the live-table cap, cooldowns within the process's bounds; bad values
refused with `/table create`'s own words; every change listed with who made it, kept
across a restart; in en, fr and uk."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n import t
from deucebot_dev.discord_standin import GUILD_TEXT, PUBLIC_THREAD, CommandHidden, FakeDiscord
from engines.registry import get_game
from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import boards


async def private(standin: FakeDiscord, user: object, line: str, **options: object) -> str:
    """Run a command; its private answer's text."""
    answer = await standin.command(user, line, **options)  # type: ignore[arg-type]
    assert answer.ephemeral and answer.message is not None, line
    return answer.message.content


async def test_defaults_apply_to_new_tables_and_bad_values_get_create_s_refusal(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        saved = await private(standin, ana, "config defaults", game="bigtwo", deals=2)
        assert saved.startswith("✅ Saved.") and "Defaults for Big Two: deals 2" in saved
        created = await standin.command(ana, "table create", game="bigtwo")
        assert created.message is not None and "2 deals" in created.message.content
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.settings["deals"] == 2
        # What a member gives still wins over the default.
        await standin.command(ana, "table stop")
        again = await standin.command(ana, "table create", game="bigtwo", deals=5)
        assert again.message is not None and "5 deals" in again.message.content
        await standin.command(ana, "table stop")
        for options in (
            {"game": "holdem", "small_blind": 10, "big_blind": 5},
            {"game": "bigtwo", "seats": 3},
        ):
            by_config = await private(standin, ana, "config defaults", **options)
            by_create = await private(standin, ana, "table create", **options)
            assert by_config == by_create and by_config.startswith("⛔"), (by_config, by_create)
        assert "Hold'em" not in await private(standin, ana, "config show")


async def test_public_messages_follow_the_server_s_language(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await private(standin, ana, "config language", language="fr")
        await standin.command(ana, "table create", game="duel")
        await settle(bot)
        title = boards(standin)[-1].embeds[0]["title"]
        assert title == t("discord.board.lobby_title", "fr", game="Deuce Duel"), title
        # Ana's own answers stay in her language; back to the server's locale (en-US).
        shown = await private(standin, ana, "config language", language="locale")
        assert "Public messages in: the server's locale" in shown
        await standin.command(ana, "table stop")
        await standin.command(ana, "table create", game="duel")
        await settle(bot)
        assert "waiting for players" in boards(standin)[-1].embeds[0]["title"]


async def test_tables_open_only_in_the_allowed_channels(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    allowed, other = standin.channel_id, standin.add_channel(GUILD_TEXT)
    thread = standin.add_channel(PUBLIC_THREAD, parent=allowed)
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await private(standin, ana, "config channels", action="allow")
        refused = await private(standin, ana, "table create", channel_id=other, game="duel")
        assert refused == (
            f"⛔ Tables are not opened in this channel on this server: use <#{allowed}>."
        )
        refused = await private(standin, ana, "duel challenge", channel_id=other)
        assert refused.startswith("⛔ Tables are not opened")
        await standin.command(ana, "table create", channel_id=thread, game="duel")
        assert bot.tables.find(str(thread)) is not None  # a thread of an allowed channel
        await private(standin, ana, "config channels", action="anywhere")
        await standin.command(ana, "table create", channel_id=other, game="duel")
        assert bot.tables.find(str(other)) is not None


async def test_the_live_table_cap_and_cooldowns_stay_within_the_process_s_bounds(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    other = standin.add_channel(GUILD_TEXT)
    async with bot_running(
        standin, tmp_path / "db.sqlite3", DEUCEBOT_MAX_TABLES_PER_SERVER=20, stats_cooldown=10
    ) as bot:
        too_many = await private(standin, ana, "config tables", count=50)
        assert too_many == "⛔ max_tables must be from 1 to 20, not 50."
        too_short = await private(standin, ana, "config cooldown", kind="stats", seconds=5)
        assert too_short == "⛔ cooldown stats must be from 10 to 3600, not 5."
        await private(standin, ana, "config tables", count=1)
        await standin.command(ana, "table create", game="duel")
        refused = await private(standin, ana, "table create", channel_id=other, game="duel")
        assert refused == "⛔ " + t("error.too_many_tables", "en", limit=1)
        await private(standin, ana, "config cooldown", kind="create", seconds=60)
        await standin.command(ana, "table stop")
        await standin.command(ana, "table create", game="duel")  # the first use
        await standin.command(ana, "table stop")
        slow = await private(standin, ana, "table create", game="duel")
        assert slow.startswith("⏳"), slow
        assert bot.tables.find(str(standin.channel_id)) is None


async def test_changes_are_listed_with_who_and_kept_across_a_restart(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    bea = standin.add_user("Bea", locale="fr", manage_guild=True)
    yuri = standin.add_user("Yuri", locale="uk", manage_guild=True)
    db = tmp_path / "db.sqlite3"
    async with bot_running(standin, db):
        await private(standin, bea, "config defaults", game="draw", deals=3)
        await private(standin, yuri, "config tables", count=4)
    async with bot_running(standin, db):
        fr = await private(standin, bea, "config show")
        assert f"Défauts pour {get_game('draw').title} : donnes 3" in fr, fr
        assert "Tables en cours au plus : 4" in fr and "par Yuri" in fr and "par Bea" in fr
        uk = await private(standin, yuri, "config show")
        assert "Активних столів щонайбільше: 4" in uk and "змінив(ла) Bea" in uk
        en = await private(standin, ana, "config show")
        assert en.index("max_tables → 4, by Yuri") < en.index("defaults.draw → deals 3, by Bea")


async def test_members_without_manage_server_cannot_change_anything(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    mo = standin.add_user("Mo", manage_channels=True)
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        with pytest.raises(CommandHidden):
            await standin.command(mo, "config language", language="fr")
        top = next(c for c in standin.commands if c["name"] == "config")
        top["default_member_permissions"] = None  # shown to everyone by the server's admins
        refused = await private(standin, mo, "config language", language="fr")
        assert refused == "⛔ Only members with Manage Server may do that."
        assert bot.server_config.of(str(standin.guild_id)) == {}


async def test_the_permission_is_checked_before_the_value(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    mo = standin.add_user("Mo", manage_channels=True)
    zoe = standin.add_user("Zoé", locale="fr")
    async with bot_running(standin, tmp_path / "db.sqlite3", DEUCEBOT_MAX_TABLES_PER_SERVER=20):
        top = next(c for c in standin.commands if c["name"] == "config")
        top["default_member_permissions"] = None  # shown to everyone by the server's admins
        # Values out of the bounds: a non-admin is refused for who they are, not told the
        # bounds.
        for line, options in (
            ("config tables", {"count": 50}),
            ("config cooldown", {"kind": "stats", "seconds": 3600}),
            ("config cooldown", {"kind": "hint", "seconds": 0}),
            ("config defaults", {"game": "bigtwo", "seats": 3}),
        ):
            refused = await private(standin, mo, line, **options)
            assert refused == "⛔ Only members with Manage Server may do that.", (line, refused)
        french = await private(standin, zoe, "config tables", count=50)
        assert french == "⛔ " + t("error.admin.need_manage_guild", "fr"), french
        assert "20" not in french


async def test_the_change_log_writes_a_member_s_name_literally(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    odd = standin.add_user("[Prize](https://example.com) <@1>", manage_guild=True)
    async with bot_running(standin, tmp_path / "db.sqlite3"):
        await private(standin, odd, "config tables", count=4)
        shown = await private(standin, odd, "config show")
    assert "by \\[Prize\\](https://example.com) \\<@\u200b1>" in shown, shown
