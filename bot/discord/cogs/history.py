"""`/history`: the caller's recent deals on this server as a file, only what they saw."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.cooldowns import cooldown
from bot.discord.replies import in_time, say
from bot.discord.slash_options import slash_options
from bot.discord.translator import tr
from bot.history.build import recent_deals
from bot.history.phh import history_to_phhs
from bot.i18n import t
from engines.registry import get_game

if TYPE_CHECKING:
    from bot.discord.client import Deucebot

DEFAULT_DEALS = 10
MAX_DEALS = 50


class History(commands.Cog):
    """Hand histories for the people who played them."""

    def __init__(self, bot: Deucebot) -> None:
        """Commands for `bot`."""
        self.bot = bot

    @app_commands.command(
        name=tr("history", "discord.cmd.history"),
        description=tr(
            "Your recent deals as a file, with only what you saw", "discord.cmd.history.desc"
        ),
    )
    @slash_options(deals="history_deals", kind="history_format")
    @app_commands.guild_only()
    @cooldown("history")
    async def history(
        self,
        interaction: discord.Interaction,
        deals: app_commands.Range[int, 1, MAX_DEALS] = DEFAULT_DEALS,
        kind: app_commands.Choice[str] | None = None,
    ) -> None:
        """Send the caller's last `deals` ended deals here (ephemeral), as JSON or PHH."""
        lang = self.bot.language(interaction)
        fmt = kind.value if kind else "json"
        found = await in_time(
            interaction,
            recent_deals(
                self.bot.storage,
                str(interaction.user.id),
                deals=deals,
                guild=str(interaction.guild_id),
            ),
        )
        count = sum(len(m.deals) for m in found.matches)
        if not count:
            await say(interaction, t("discord.history.none", lang))
            return
        if fmt == "phh":
            if not any("phh" in get_game(m.game).history_formats for m in found.matches):
                await say(interaction, t("discord.history.no_holdem", lang, count=count))
                return
            text, name = history_to_phhs(found), "deucebot-history.phhs"
        else:
            text, name = found.model_dump_json(indent=1), "deucebot-history.json"
        file = discord.File(io.BytesIO(text.encode("utf-8")), filename=name)
        await say(
            interaction,
            t("discord.history.sent", lang, count=count, format=fmt.upper()),
            file=file,
        )


async def setup(bot: Deucebot) -> None:
    """Load the cog (discord.py extension entry point)."""
    await bot.add_cog(History(bot))
