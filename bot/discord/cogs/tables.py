"""`/table create|join|leave|start|stop|restart|status`: one table per channel."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.actions import seat_for
from bot.discord.board import board_message
from bot.discord.cooldowns import cooldown
from bot.discord.replies import in_time, say
from bot.discord.translator import tr
from bot.i18n import t
from bot.runtime import Player, Table, errors
from bot.runtime.errors import TableError
from engines.registry import available_games, get_game

if TYPE_CHECKING:
    from bot.discord.client import Deucebot


def playable_games() -> list[str]:
    """Games with an engine and a renderer (the ones a table can be created for)."""
    import importlib

    names = []
    for name in available_games():
        try:
            importlib.import_module(f"bot.render.{name}")
        except ImportError:
            continue
        names.append(name)
    return names


def game_choices() -> list[app_commands.Choice[str]]:
    """The `game` option's choices, titled and localised."""
    return [
        app_commands.Choice(name=tr(get_game(name).title, f"discord.game.{name}"), value=name)
        for name in playable_games()
    ] or [app_commands.Choice(name="Big Two", value="bigtwo")]


def player_of(interaction: discord.Interaction) -> Player:
    """The runtime's player for the interaction's user."""
    return Player(str(interaction.user.id), interaction.user.display_name)


def can_manage(interaction: discord.Interaction, table: Table) -> bool:
    """The table's creator (whoever ran `/table create`, seated or not) or a member with
    Manage Channels."""
    return bool(interaction.permissions.manage_channels) or (
        table.options.creator == str(interaction.user.id)
    )


def not_allowed() -> TableError:
    """Refusal for stop/restart by someone who may not."""
    return TableError(
        "only the table's creator or a member with Manage Channels may do that",
        code="discord.not_allowed",
    )


class Tables(commands.Cog):
    """The table's lifecycle in a channel."""

    table = app_commands.Group(
        name=tr("table", "discord.cmd.table"),
        description=tr(
            "Open, join and run the card table of this channel", "discord.cmd.table.desc"
        ),
        guild_only=True,
    )

    def __init__(self, bot: Deucebot) -> None:
        """Commands for `bot`."""
        self.bot = bot

    def _here(self, interaction: discord.Interaction) -> Table:
        table: Table = self.bot.tables.get(str(interaction.channel_id))
        return table

    @table.command(
        name=tr("create", "discord.cmd.table.create"),
        description=tr("Open a table in this channel", "discord.cmd.table.create.desc"),
    )
    @app_commands.describe(
        game=tr("Which game", "discord.opt.game.desc"),
        deals=tr("Deals in the match (Big Two)", "discord.opt.deals.desc"),
        turn_seconds=tr(
            "Seconds per turn before the safe default is played", "discord.opt.turn_seconds.desc"
        ),
    )
    @app_commands.rename(
        game=tr("game", "discord.opt.game"),
        deals=tr("deals", "discord.opt.deals"),
        turn_seconds=tr("turn_seconds", "discord.opt.turn_seconds"),
    )
    @app_commands.choices(game=game_choices())
    @cooldown("create")
    async def create(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        deals: app_commands.Range[int, 1, 100] | None = None,
        turn_seconds: app_commands.Range[int, 0, 3600] | None = None,
    ) -> None:
        """Create the channel's table; the creator takes seat 1."""
        lang = self.bot.language(interaction)
        settings = {"deals": deals} if deals is not None else {}
        seconds = self.bot.settings.turn_seconds if turn_seconds is None else turn_seconds
        table = await in_time(
            interaction,
            self.bot.tables.create(
                guild=str(interaction.guild_id),
                place=str(interaction.channel_id),
                game=game.value,
                settings=settings,
                options={
                    "turn_seconds": seconds,
                    "lang": self.bot.guild_language(interaction.guild),
                },
                owner=player_of(interaction),
            ),
            public=True,
        )
        await say(
            interaction,
            t(
                "discord.table.created",
                lang,
                game=table.spec.title,
                mention=interaction.user.mention,
            ),
            ephemeral=False,
        )
        await self.bot.front.post_board(table.snapshot())

    @table.command(
        name=tr("join", "discord.cmd.table.join"),
        description=tr("Sit down at this channel's table", "discord.cmd.table.join.desc"),
    )
    async def join(self, interaction: discord.Interaction) -> None:
        """Take the first seat without a human (an AI seat during a match)."""
        lang = self.bot.language(interaction)
        seat = await in_time(interaction, self._here(interaction).join(player_of(interaction)))
        await say(interaction, t("discord.table.joined", lang, seat=seat + 1))

    @table.command(
        name=tr("leave", "discord.cmd.table.leave"),
        description=tr("Leave your seat (the AI plays it)", "discord.cmd.table.leave.desc"),
    )
    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave; during a match the AI plays the seat until /back."""
        lang = self.bot.language(interaction)
        seat = await in_time(interaction, self._here(interaction).leave(str(interaction.user.id)))
        await say(interaction, t("discord.table.left", lang, seat=seat + 1))

    @table.command(
        name=tr("start", "discord.cmd.table.start"),
        description=tr("Deal: empty seats are played by the AI", "discord.cmd.table.start.desc"),
    )
    async def start(self, interaction: discord.Interaction) -> None:
        """Start the match (seated players only)."""
        lang = self.bot.language(interaction)
        table = self._here(interaction)
        seat_for(table, interaction)
        await in_time(interaction, table.start())
        await say(interaction, t("discord.table.started", lang))

    @table.command(
        name=tr("stop", "discord.cmd.table.stop"),
        description=tr("Close this channel's table", "discord.cmd.table.stop.desc"),
    )
    async def stop(self, interaction: discord.Interaction) -> None:
        """Stop the table for good (creator or Manage Channels)."""
        lang = self.bot.language(interaction)
        table = self._here(interaction)
        if not can_manage(interaction, table):
            raise not_allowed()
        await in_time(interaction, self.bot.tables.stop(table.place), public=True)
        await say(
            interaction,
            t("discord.table.stopped", lang, mention=interaction.user.mention),
            ephemeral=False,
        )

    @table.command(
        name=tr("restart", "discord.cmd.table.restart"),
        description=tr("Start a fresh match with the same seats", "discord.cmd.table.restart.desc"),
    )
    async def restart(self, interaction: discord.Interaction) -> None:
        """Abandon the match and begin a new one (creator or Manage Channels)."""
        lang = self.bot.language(interaction)
        table = self._here(interaction)
        if not can_manage(interaction, table):
            raise not_allowed()
        await in_time(interaction, table.restart(), public=True)
        await say(
            interaction,
            t("discord.table.restarted", lang, mention=interaction.user.mention),
            ephemeral=False,
        )

    @table.command(
        name=tr("status", "discord.cmd.table.status"),
        description=tr("Show the table (only to you)", "discord.cmd.table.status.desc"),
    )
    async def status(self, interaction: discord.Interaction) -> None:
        """The board, privately."""
        lang = self.bot.language(interaction)
        table = self._here(interaction)
        message = board_message(table.snapshot(), lang, [], with_image=False)
        await interaction.response.send_message(
            content=message["content"] or None, embed=message["embed"], ephemeral=True
        )


async def setup(bot: Deucebot) -> None:
    """Load the cog."""
    await bot.add_cog(Tables(bot))


__all__ = ["Tables", "errors", "setup"]
