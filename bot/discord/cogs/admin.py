"""What a server admin needs: paused tables explained to members, `/deucebot status`."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.discord.permissions import is_thread, missing_permissions, permission_names
from bot.i18n import t

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


class Admin(commands.Cog):
    """Paused deliveries (lost permissions) met at members' clicks."""

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
