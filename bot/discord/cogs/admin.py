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
from bot.discord.translator import tr
from bot.i18n import t
from bot.runtime.errors import TableError
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

    deucebot = app_commands.Group(
        name=tr("deucebot", "admin.cmd.deucebot"),
        description=tr("Deucebot for this server's admins", "admin.cmd.deucebot.desc"),
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @deucebot.command(
        name=tr("status", "admin.cmd.deucebot.status"),
        description=tr("How the bot is doing (only to you)", "admin.cmd.deucebot.status.desc"),
    )
    async def status(self, interaction: discord.Interaction) -> None:
        """Version, uptime, shard, latency, storage, live tables, the bot's permissions in
        this channel, paused tables of this server and why; privately, Manage Server only."""
        lang = self.bot.language(interaction)
        if not interaction.permissions.manage_guild:
            raise TableError("only members with Manage Server", code="admin.need_manage_guild")
        await say(interaction, self.status_text(interaction, lang))

    def status_text(self, interaction: discord.Interaction, lang: str) -> str:
        """The text of `/deucebot status` for the interaction's server and channel."""
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
            t("admin.status.tables", lang, here=here, everywhere=len(live)),
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
        pause = self.bot.front.paused().get(table.id)
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
        pause = self.bot.front.paused().get(table_id)
        if not interaction.response.is_done() or pause is None:
            return
        try:
            await interaction.followup.send(pause_notice(missing, lang), ephemeral=True)
        except discord.HTTPException:
            log.warning("could not tell a member about the paused table here")


async def setup(bot: Deucebot) -> None:
    """Load the cog."""
    await bot.add_cog(Admin(bot))
