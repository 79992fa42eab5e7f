"""`/hand`, `/play`, `/pass`, `/hint`, `/back`: playing your seat with slash commands."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.actions import seat_for
from bot.discord.replies import in_time, say
from bot.discord.slash_options import slash_options
from bot.discord.table_limits import limited
from bot.discord.translator import tr
from bot.i18n import t
from bot.render import get_renderer
from bot.render.text import describe, move_cards
from engines.cards import Card, CardParseError, parse_cards

if TYPE_CHECKING:
    from bot.discord.client import Deucebot


class Play(commands.Cog):
    """Your seat at the channel's table."""

    def __init__(self, bot: Deucebot) -> None:
        """Commands for `bot`."""
        self.bot = bot

    @app_commands.command(
        name=tr("hand", "discord.cmd.hand"),
        description=tr("Your cards and controls (only you see them)", "discord.cmd.hand.desc"),
    )
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction) -> None:
        """The ephemeral hand, like the board's "My hand" button."""
        table = self.bot.tables.get(str(interaction.channel_id))
        await self.bot.controls.show_hand(interaction, table.id, "r", edit=False)

    @app_commands.command(
        name=tr("play", "discord.cmd.play"),
        description=tr("Play cards, e.g. 3D 3S or 10♠", "discord.cmd.play.desc"),
    )
    @slash_options("cards")
    @app_commands.guild_only()
    async def play(self, interaction: discord.Interaction, cards: str) -> None:
        """Play the typed cards."""
        parsed = parse_cards(cards)
        if not parsed:
            raise CardParseError(cards)
        text = "play " + " ".join(str(c) for c in parsed)
        await self.bot.controls.act_from_command(interaction, text)

    @play.autocomplete("cards")
    async def play_cards(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Suggest plays from your hand that start with what you typed (legal ones first)."""
        table = self.bot.tables.find(str(interaction.channel_id))
        seat = table.seat_of(str(interaction.user.id)) if table else None
        if table is None or seat is None:
            return []
        view = table.snapshot(seat).view(seat)
        if view is None:
            return []
        renderer = get_renderer(table.game)
        hand = renderer.hand_cards(view)
        typed = _typed_cards(current)
        suggestions: list[list[str]] = []
        for move in renderer.legal_moves(view):
            cards = [str(c) for c in move_cards(move)]
            if cards and all(str(c) in cards for c in typed):
                suggestions.append(cards)
        prefix = [str(c) for c in typed]
        for card in hand:
            if str(card) not in prefix and len(prefix) < 5:
                suggestions.append([*prefix, str(card)])
        choices, seen = [], set()
        for cards in suggestions:
            value = " ".join(cards)
            if value in seen:
                continue
            seen.add(value)
            choices.append(app_commands.Choice(name=describe(value), value=value))
            if len(choices) == 25:
                break
        return choices

    @app_commands.command(
        name=tr("act", "discord.cmd.act"),
        description=tr("Make a move as you would type it, e.g. raise 120", "discord.cmd.act.desc"),
    )
    @slash_options("action")
    @app_commands.guild_only()
    async def act(self, interaction: discord.Interaction, action: str) -> None:
        """Any game's move in its own words (the renderer reads it), e.g. `raise 120`."""
        table = self.bot.tables.get(str(interaction.channel_id))
        seat = seat_for(table, interaction)
        view = table.snapshot(seat).view(seat)
        move = get_renderer(table.game).parse_input(action, view)
        await self.bot.controls.act_from_command(interaction, str(move))

    @app_commands.command(
        name=tr("pass", "discord.cmd.pass"),
        description=tr("Pass this turn", "discord.cmd.pass.desc"),
    )
    @app_commands.guild_only()
    async def pass_(self, interaction: discord.Interaction) -> None:
        """Pass."""
        await self.bot.controls.act_from_command(interaction, "pass")

    @app_commands.command(
        name=tr("hint", "discord.cmd.hint"),
        description=tr("Ask the AI what it would play (only you see it)", "discord.cmd.hint.desc"),
    )
    @app_commands.guild_only()
    async def hint(self, interaction: discord.Interaction) -> None:
        """The hand with the AI's suggestion preselected."""
        table = self.bot.tables.get(str(interaction.channel_id))
        seat_for(table, interaction)
        await self.bot.controls.show_hand(interaction, table.id, "r", edit=False, hint=True)

    @app_commands.command(
        name=tr("back", "discord.cmd.back"),
        description=tr("Take your seat back from the AI", "discord.cmd.back.desc"),
    )
    @app_commands.guild_only()
    @limited("seat")
    async def back(self, interaction: discord.Interaction) -> None:
        """Play your seat again after leaving or timing out."""
        lang = self.bot.language(interaction)
        table = self.bot.tables.get(str(interaction.channel_id))
        seat = await in_time(interaction, table.back(str(interaction.user.id)))
        await say(interaction, t("discord.table.back", lang, seat=seat + 1))


async def setup(bot: Deucebot) -> None:
    """Load the cog."""
    await bot.add_cog(Play(bot))


def _typed_cards(current: str) -> list[Card]:
    """The cards typed so far in an option being completed: all its words, else all but the
    word being typed; none when they are not cards (``bet 20``)."""
    for text in (current, " ".join(current.split()[:-1])):
        try:
            return parse_cards(text)
        except CardParseError:
            continue
    return []
