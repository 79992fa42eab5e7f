"""What a server admin needs: paused tables explained to members, `/deucebot status`."""

from __future__ import annotations

import asyncio
import logging
import math
import time
from importlib import metadata
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.front import Pause
from bot.discord.permissions import (
    is_thread,
    missing_permissions,
    needed_permissions,
    permission_names,
)
from bot.discord.replies import say
from bot.discord.safe_text import safe_name
from bot.discord.server_config import COOLDOWNS
from bot.discord.slash_options import slash_options
from bot.discord.table_setup import OPTION_ORDER, option_name, table_options, table_setup
from bot.discord.translator import tr
from bot.i18n import LANGUAGES, t
from bot.runtime.errors import TableError
from engines.registry import get_game
from storage import is_postgres_url

if TYPE_CHECKING:
    from bot.discord.client import Deucebot

log = logging.getLogger("deucebot.discord")

ANSWER_WAIT = 5.0
"""Seconds the pause notice waits for the handler's own answer to the interaction."""


def pause_notice(missing: list[str], lang: str) -> str:
    """What members are told privately about a paused table: the permissions the bot lacks
    (read from their interaction), or that Discord refuses it access."""
    if missing:
        return t("admin.paused", lang, missing=permission_names(missing, lang))
    return t("admin.paused_access", lang)


def admin_group(name: str, description: str) -> app_commands.Group:
    """A command group for the server's admins: shown by default to members with Manage
    Server only, in servers only (catalog keys `admin.cmd.<name>`, `...desc`)."""
    return app_commands.Group(
        name=tr(name, f"admin.cmd.{name}"),
        description=tr(description, f"admin.cmd.{name}.desc"),
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )


def need_manage_guild(interaction: discord.Interaction) -> None:
    """Refuse a member without Manage Server (the commands are hidden from them by
    default, but a server may show them to others in its Integrations settings)."""
    if not interaction.permissions.manage_guild:
        raise TableError("only members with Manage Server", code="admin.need_manage_guild")


def shown_value(value: object, lang: str) -> str:
    """A stored setting's value as `/config show` lists it: channels as mentions, table
    options by their names in `lang`, nothing as a dash."""
    if value is None:
        return "—"
    if isinstance(value, list):
        return ", ".join(f"<#{c}>" for c in value)
    if isinstance(value, dict):
        return " · ".join(f"{option_name(k, lang)} {v}" for k, v in value.items())
    return str(value)


def version() -> str:
    """The installed Deucebot's version."""
    try:
        return metadata.version("deucebot")
    except metadata.PackageNotFoundError:
        return "unknown"


def uptime_text(seconds: float, lang: str) -> str:
    """`3 d 4 h 05 min`, `4 h 05 min` or `5 min` in `lang`."""
    minutes = int(seconds // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return t("admin.status.days", lang, days=days, hours=hours, minutes=f"{minutes:02d}")
    if hours:
        return t("admin.status.hours", lang, hours=hours, minutes=f"{minutes:02d}")
    return t("admin.status.minutes", lang, minutes=minutes)


def pause_line(channel: str, table: int, pause: Pause, lang: str) -> str:
    """One paused table for `/deucebot status`: where, what Discord refused, since when."""
    return t(
        "admin.status.paused_table",
        lang,
        table=table,
        channel=f"<#{channel}>",
        what=t(f"admin.what.{pause.what.replace(' ', '_')}", lang),
        code=pause.code,
        since=f"<t:{int(pause.since)}:R>",
    )


class Admin(commands.Cog):
    """Paused deliveries (lost permissions) met at members' clicks; `/deucebot status`."""

    deucebot = admin_group("deucebot", "Deucebot for this server's admins")

    @deucebot.command(
        name=tr("status", "admin.cmd.deucebot.status"),
        description=tr("How the bot is doing (only to you)", "admin.cmd.deucebot.status.desc"),
    )
    async def status(self, interaction: discord.Interaction) -> None:
        """Version, uptime, shard, latency, storage, live tables, the bot's permissions in
        this channel, paused tables of this server and why; privately, Manage Server only."""
        lang = self.bot.language(interaction)
        need_manage_guild(interaction)
        owner = await self.bot.is_owner(interaction.user)
        await say(interaction, self.status_text(interaction, lang, owner=owner))

    config = admin_group("config", "This server's own settings for Deucebot")

    @config.command(
        name=tr("show", "admin.cmd.config.show"),
        description=tr("This server's settings (only to you)", "admin.cmd.config.show.desc"),
    )
    async def config_show(self, interaction: discord.Interaction) -> None:
        """The server's settings in force and its latest changes, privately."""
        lang = self.bot.language(interaction)
        need_manage_guild(interaction)
        await say(interaction, await self.config_text(str(interaction.guild_id), lang))

    @config.command(
        name=tr("language", "admin.cmd.config.language"),
        description=tr("The language of public messages", "admin.cmd.config.language.desc"),
    )
    @slash_options(language="config_language")
    @app_commands.choices(
        language=[
            app_commands.Choice(name=tr("English", "admin.choice.en"), value="en"),
            app_commands.Choice(name=tr("French", "admin.choice.fr"), value="fr"),
            app_commands.Choice(name=tr("Ukrainian", "admin.choice.uk"), value="uk"),
            app_commands.Choice(
                name=tr("The server's own locale", "admin.choice.locale"), value="locale"
            ),
        ]
    )
    async def config_language(
        self, interaction: discord.Interaction, language: app_commands.Choice[str]
    ) -> None:
        """Set (or clear: the server's locale) the language of public messages."""
        value = language.value if language.value in LANGUAGES else None
        await self._change(interaction, "language", value)

    @config.command(
        name=tr("channels", "admin.cmd.config.channels"),
        description=tr("Where tables may be opened", "admin.cmd.config.channels.desc"),
    )
    @slash_options(action="config_channels")
    @app_commands.choices(
        action=[
            app_commands.Choice(name=tr("Allow this channel", "admin.choice.allow"), value="allow"),
            app_commands.Choice(
                name=tr("No longer this channel", "admin.choice.remove"), value="remove"
            ),
            app_commands.Choice(name=tr("Any channel", "admin.choice.anywhere"), value="anywhere"),
        ]
    )
    async def config_channels(
        self, interaction: discord.Interaction, action: app_commands.Choice[str]
    ) -> None:
        """Allow tables in this channel, no longer in it, or anywhere again."""
        here = str(interaction.channel_id)
        now = self.bot.server_config.channels(str(interaction.guild_id))
        if action.value == "allow":
            wanted: list[str] | None = [*now, here] if here not in now else now
        elif action.value == "remove":
            wanted = [c for c in now if c != here] or None
        else:
            wanted = None
        await self._change(interaction, "channels", wanted)

    @config.command(
        name=tr("tables", "admin.cmd.config.tables"),
        description=tr("Live tables this server may have", "admin.cmd.config.tables.desc"),
    )
    @slash_options(count="config_tables")
    async def config_tables(
        self, interaction: discord.Interaction, count: app_commands.Range[int, 0, 10_000]
    ) -> None:
        """Set the live-table cap (0: the bot's own)."""
        need_manage_guild(interaction)  # before the value: a non-admin learns no bound
        value = None if count == 0 else self.bot.server_config.check_max_tables(count)
        await self._change(interaction, "max_tables", value)

    @config.command(
        name=tr("cooldown", "admin.cmd.config.cooldown"),
        description=tr("A member's cooldown on a command", "admin.cmd.config.cooldown.desc"),
    )
    @slash_options(kind="config_cooldown", seconds="config_seconds")
    @app_commands.choices(
        kind=[
            app_commands.Choice(name=tr("/table create", "admin.choice.create"), value="create"),
            app_commands.Choice(name=tr("Hints", "admin.choice.hint"), value="hint"),
            app_commands.Choice(
                name=tr("/stats and /leaderboard", "admin.choice.stats"), value="stats"
            ),
        ]
    )
    async def config_cooldown(
        self,
        interaction: discord.Interaction,
        kind: app_commands.Choice[str],
        seconds: app_commands.Range[int, 0, 3600] | None = None,
    ) -> None:
        """Set a cooldown in seconds (none given: the bot's own)."""
        need_manage_guild(interaction)  # before the value: a non-admin learns no bound
        config = self.bot.server_config
        value = None if seconds is None else config.check_cooldown(kind.value, seconds)
        await self._change(interaction, f"cooldown.{kind.value}", value)

    @config.command(
        name=tr("defaults", "admin.cmd.config.defaults"),
        description=tr(
            "Default /table create options of a game (none given: clear them)",
            "admin.cmd.config.defaults.desc",
        ),
    )
    @slash_options("game", *OPTION_ORDER, "turn_seconds")
    async def config_defaults(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        seats: app_commands.Range[int, 1, 10] | None = None,
        stack: app_commands.Range[int, 1, 1_000_000_000] | None = None,
        small_blind: app_commands.Range[int, 1, 1_000_000_000] | None = None,
        big_blind: app_commands.Range[int, 1, 1_000_000_000] | None = None,
        blind: app_commands.Range[int, 1, 1_000_000_000] | None = None,
        ante: app_commands.Range[int, 1, 1_000_000_000] | None = None,
        deals: app_commands.Range[int, 1, 1000] | None = None,
        turn_seconds: app_commands.Range[int, 0, 3600] | None = None,
    ) -> None:
        """Store a game's default table options, checked as `/table create` checks them."""
        lang = self.bot.language(interaction)
        need_manage_guild(interaction)
        given = table_options(
            seats, stack, small_blind, big_blind, blind, ante, deals, turn_seconds
        )
        chosen = {name: value for name, value in given.items() if value is not None}
        table_setup(get_game(game.value), chosen, lang)  # the same refusals
        await self._change(interaction, f"defaults.{game.value}", chosen or None)

    async def _change(self, interaction: discord.Interaction, name: str, value: object) -> None:
        """Store one of the server's settings (Manage Server only), logged with who, and
        answer privately with the settings now in force."""
        lang = self.bot.language(interaction)
        need_manage_guild(interaction)
        guild = str(interaction.guild_id)
        member = interaction.user
        await self.bot.server_config.set(guild, name, value, str(member.id), member.display_name)
        text = await self.config_text(guild, lang)
        await say(interaction, "✅ " + t("admin.config.saved", lang) + "\n" + text)

    async def config_text(self, guild: str, lang: str) -> str:
        """The server's settings in force (its own, else the bot's) and its latest changes."""
        config = self.bot.server_config
        own = config.of(guild)
        lines = [t("admin.config.title", lang)]
        language = config.language(guild)
        lines.append(
            t("admin.config.language", lang, language=t(f"admin.choice.{language}", lang))
            if language
            else t("admin.config.language_locale", lang)
        )
        channels = config.channels(guild)
        lines.append(
            t("admin.config.channels", lang, channels=", ".join(f"<#{c}>" for c in channels))
            if channels
            else t("admin.config.anywhere", lang)
        )
        cap = config.table_cap(guild)
        lines.append(
            t("admin.config.tables", lang, count=cap)
            if cap is not None
            else t("admin.config.tables_bot", lang, count=self.bot.settings.max_tables_per_server)
        )
        seconds = [
            t(
                "admin.config.cooldown",
                lang,
                kind=t(f"admin.choice.{kind}", lang),
                seconds=int(config.cooldown(guild, kind) or config.process_cooldown(kind)),
            )
            for kind in COOLDOWNS
        ]
        lines.append(t("admin.config.cooldowns", lang, cooldowns=" · ".join(seconds)))
        for name in sorted(own):
            if name.startswith("defaults."):
                spec = get_game(name.split(".", 1)[1])
                shown = shown_value(own[name], lang)
                lines.append(t("admin.config.defaults", lang, game=spec.title, options=shown))
        changes = await config.storage.guild_settings_log(guild, limit=5)
        if changes:
            lines.append(t("admin.config.changes", lang))
            lines += [
                t(
                    "admin.config.change",
                    lang,
                    name=change.name,
                    value=shown_value(change.value, lang),
                    member=safe_name(change.member_name),
                    at=f"<t:{int(change.at)}:R>",
                )
                for change in changes
            ]
        return "\n".join(lines)

    def status_text(
        self, interaction: discord.Interaction, lang: str, *, owner: bool = False
    ) -> str:
        """The text of `/deucebot status` for the interaction's server and channel. The
        live tables of other servers are counted for the bot's `owner` only (a server's
        admin has no business knowing how busy other servers are)."""
        bot = self.bot
        guild = str(interaction.guild_id)
        live = [table for table in bot.tables.tables.values() if table.status != "stopped"]
        here = sum(1 for table in live if table.guild == guild)
        shard = interaction.guild.shard_id if interaction.guild is not None else 0
        latency = "—" if not math.isfinite(bot.latency) else f"{bot.latency * 1000:.0f}"
        backend = "PostgreSQL" if is_postgres_url(bot.settings.db) else "SQLite"
        perms = interaction.app_permissions
        shown = [
            ("✅ " if getattr(perms, name) else "❌ ") + t(f"admin.perm.{name}", lang)
            for name in needed_permissions(is_thread(interaction.channel))
        ]
        paused = bot.front.paused()
        lines = [
            t("admin.status.title", lang, version=version()),
            t("admin.status.uptime", lang, uptime=uptime_text(time.time() - bot.started_at, lang)),
            t(
                "admin.status.shard",
                lang,
                shard=shard,
                shards=bot.shard_count or 1,
                latency=latency,
            ),
            t("admin.status.storage", lang, backend=backend),
            t("admin.status.tables", lang, here=here, everywhere=len(live))
            if owner
            else t("admin.status.tables_here", lang, here=here),
            t("admin.status.permissions", lang, permissions=" · ".join(shown)),
        ]
        mine = [table for table in bot.tables.tables.values() if table.guild == guild]
        found = [
            pause_line(table.place, table.id, paused[table.id], lang)
            for table in mine
            if table.id in paused
        ]
        lines.append(t("admin.status.paused" if found else "admin.status.nothing_paused", lang))
        lines += found
        return "\n".join(lines)

    def __init__(self, bot: Deucebot) -> None:
        """The cog for `bot`."""
        self.bot = bot
        self._notices: set[asyncio.Task[None]] = set()

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Any interaction in a channel whose table is paused: if the bot's permissions there
        (the interaction's `app_permissions`) are whole again, resume the delivery; else
        tell the member privately, after the interaction's own answer, what is missing."""
        if (
            interaction.channel_id is None
            or interaction.type == discord.InteractionType.autocomplete
        ):
            return
        table = self.bot.tables.find(str(interaction.channel_id))
        if table is None:
            return
        pause = self.bot.front.pause_of(table.id)
        if pause is None:
            return
        missing = missing_permissions(
            interaction.app_permissions, thread=is_thread(interaction.channel)
        )
        if not missing:
            self.bot.front.resume(table.id)
            if pause.code != 50001:
                return
            # Missing access with every permission shown (a private thread the bot was
            # removed from): the attempt decides; the member is told if it fails.
        task = asyncio.create_task(self._tell(interaction, table.id, missing))
        self._notices.add(task)
        task.add_done_callback(self._notices.discard)

    async def _tell(
        self, interaction: discord.Interaction, table_id: int, missing: list[str]
    ) -> None:
        """Send the pause notice as a private followup once the interaction is answered
        (nothing if the table is no longer paused by then)."""
        lang = self.bot.language(interaction)
        loop = asyncio.get_running_loop()
        until = loop.time() + ANSWER_WAIT
        while not interaction.response.is_done() and loop.time() < until:
            await asyncio.sleep(0.05)
        pause = self.bot.front.pause_of(table_id)
        if not interaction.response.is_done() or pause is None:
            return
        try:
            await say(interaction, pause_notice(missing, lang))  # a private follow-up
        except discord.HTTPException:
            log.warning("could not tell a member about the paused table here")


async def setup(bot: Deucebot) -> None:
    """Load the cog."""
    await bot.add_cog(Admin(bot))
