"""`/deck`: a member's own choice of card deck for their private pictures (two or four
colours), answered with a sample of their cards in it."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.replies import in_time, say
from bot.discord.translator import tr
from bot.i18n import t
from bot.pictures import hand_model
from engines.cards import parse_cards

if TYPE_CHECKING:
    from bot.discord.client import Deucebot

SAMPLE = "AS KH QD JC"
"""The cards of the answer's sample picture: one of each suit."""


class Prefs(commands.Cog):
    """What a member chooses for themselves."""

    def __init__(self, bot: Deucebot) -> None:
        """Commands for `bot`."""
        self.bot = bot

    @app_commands.command(
        name=tr("deck", "discord.cmd.deck"),
        description=tr(
            "Your cards in two colours or four (only in your own pictures)", "discord.cmd.deck.desc"
        ),
    )
    @app_commands.describe(colours=tr("Two or four colours", "discord.opt.colours.desc"))
    @app_commands.rename(colours=tr("colours", "discord.opt.colours"))
    @app_commands.choices(
        colours=[
            app_commands.Choice(name=tr("Two colours", "discord.deck.two"), value="two"),
            app_commands.Choice(name=tr("Four colours", "discord.deck.four"), value="four"),
        ]
    )
    async def deck(
        self, interaction: discord.Interaction, colours: app_commands.Choice[str]
    ) -> None:
        """Remember the member's deck and show it on a sample of cards."""
        lang = self.bot.language(interaction)
        await in_time(interaction, self.bot.decks.choose(interaction.user.id, colours.value))
        sample = hand_model(parse_cards(SAMPLE), lang, colours.value)
        picture = await self.bot.pictures.picture(sample, "hand", urgent=True)
        name = f"deck-{colours.value}.png"
        embed = discord.Embed(
            description=t(f"discord.deck.chosen.{colours.value}", lang),
            colour=discord.Colour.from_rgb(40, 70, 150),
        )
        embed.set_image(url=f"attachment://{name}")
        file = discord.File(io.BytesIO(picture.png), filename=name, description=picture.alt)
        await say(interaction, "", embed=embed, file=file)


async def setup(bot: Deucebot) -> None:
    """Load the cog."""
    await bot.add_cog(Prefs(bot))
