"""Ratings on Discord: the rating leaderboard embed and the `/stats` chart (both called by
`cogs.info`), and `/season` (Manage Server): start a named season, or go back to monthly."""

from __future__ import annotations

import io
import re
import time
from dataclasses import replace
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.charts.figures import ChartCache, stats_figures
from bot.commands.ratings_args import MIN_MATCHES
from bot.commands.ratings_view import (
    rating_line,
    resolve_season,
    stats_rating_line,
    track_name,
)
from bot.discord.replies import in_time, say
from bot.discord.safe_text import safe_name
from bot.discord.slash_options import slash_options
from bot.discord.translator import tr
from bot.i18n import t
from bot.runtime.errors import TableError
from engines.registry import get_game
from storage.backend import AnyStorage
from storage.ratings import ALL_TIME, season_of

if TYPE_CHECKING:
    from bot.discord.client import Deucebot

MONTH = re.compile(r"\d{4}-(0[1-9]|1[0-2])")
"""A monthly season's name (``2026-12``)."""

SEASON_NAME = re.compile(r"[\w .\-]{1,32}")
RESERVED = frozenset({"all", "current"})
CHARTS = ChartCache()
"""Charts drawn for `/stats`, by their figures and language."""


def season_name_ok(name: str) -> bool:
    """A season's name: 1 to 32 letters, digits, spaces, dashes or dots, not a keyword."""
    return bool(SEASON_NAME.fullmatch(name)) and name.strip().lower() not in RESERVED


async def rating_embed(
    storage: AnyStorage, guild: str, game: str, season: str | None, lang: str
) -> discord.Embed:
    """The rating leaderboard of `game` on `guild` for the `season` option."""
    now = time.time()
    seasons = await storage.seasons(guild)
    current = season_of(seasons, now) if season == "current" else None
    track = resolve_season(season, now, current)
    named = {record.name for record in seasons}
    if track not in (ALL_TIME, current) and not MONTH.fullmatch(track) and track not in named:
        raise TableError(
            f"no season {season!r} on this server", code="ratings.unknown_season", text=season
        )
    board = await storage.rating_board(
        guild=guild, game=game, season=track, min_matches=MIN_MATCHES
    )
    embed = discord.Embed(
        title=t(
            "ratings.board.title",
            lang,
            game=get_game(game).title,
            track=track_name(safe_name(board.season), lang),
        ),
        colour=discord.Colour.gold(),
    )
    for key, rows in (
        ("ratings.board.ranked", board.ranked),
        ("ratings.board.unranked", board.unranked),
    ):
        if rows:
            lines = [
                f"{i + 1}. {rating_line(replace(r, name=safe_name(r.name)), lang)}"
                for i, r in enumerate(rows[:10])
            ]
            embed.add_field(
                name=t(key, lang, min_matches=board.min_matches),
                value="\n".join(lines)[:1024],
                inline=False,
            )
    if not (board.ranked or board.unranked):
        embed.description = t("ratings.board.empty", lang)
    return embed


async def stats_chart_file(
    storage: AnyStorage, *, guild: str, game: str, player_id: str, name: str, lang: str
) -> tuple[str | None, discord.File | None]:
    """A person's rating line in `game` and their chart (alt text as its description);
    (None, None) when they have neither a rating nor a deal there."""
    spec = get_game(game)
    held = await storage.ratings_of(guild, game, [ALL_TIME], [player_id])
    figures = await stats_figures(
        storage,
        guild=guild,
        game=game,
        player_id=player_id,
        name=name,
        title=spec.title,
        penalties=spec.scoring == "penalty",
    )
    if not figures.mus and not figures.deals:
        return None, None
    rating = held.get((ALL_TIME, player_id))
    line = None if rating is None else stats_rating_line(rating, lang)
    png, alt = await CHARTS.render(figures, lang)
    return line, discord.File(io.BytesIO(png), filename=f"stats-{game}.png", description=alt)


class Ratings(commands.Cog):
    """Seasons: `/season`."""

    def __init__(self, bot: Deucebot) -> None:
        """Commands for `bot`."""
        self.bot = bot

    @app_commands.command(
        name=tr("season", "ratings.cmd.season"),
        description=tr(
            "Start a new season on this server (Manage Server)", "ratings.cmd.season.desc"
        ),
    )
    @slash_options("name")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def season(self, interaction: discord.Interaction, name: str | None = None) -> None:
        """Start the season `name` now (no name: monthly seasons again); the season's
        ratings start fresh, all-time ratings stay."""
        lang = self.bot.language(interaction)
        perms = getattr(interaction.user, "guild_permissions", None)
        if perms is None or not perms.manage_guild:
            await say(interaction, t("ratings.season.need_manage", lang))
            return
        guild = str(interaction.guild_id)
        if name is not None and not season_name_ok(name.strip()):
            await say(interaction, t("ratings.season.bad_name", lang))
            return
        chosen = name.strip() if name else None
        # The answer is for the channel: a slow write defers publicly, as the answer goes.
        started = await in_time(
            interaction,
            self.bot.storage.start_season(guild, chosen, str(interaction.user.id)),
            public=True,
        )
        public = self.bot.guild_language(interaction.guild)  # the answer is the channel's
        if chosen is None:
            current = season_of(await self.bot.storage.seasons(guild), started)
            await say(
                interaction,
                t("ratings.season.monthly", public, season=safe_name(current)),
                ephemeral=False,
            )
        else:
            await say(
                interaction,
                t("ratings.season.started", public, season=safe_name(chosen)),
                ephemeral=False,
            )


async def setup(bot: Deucebot) -> None:
    """Load the cog."""
    await bot.add_cog(Ratings(bot))
