"""`/leaderboard`, `/stats`, `/rules`: read-only commands."""

from __future__ import annotations

import contextlib
import time
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.cogs.ratings import rating_embed, stats_chart_file
from bot.discord.cogs.tables import game_choices, playable_games
from bot.discord.cooldowns import cooldown
from bot.discord.replies import answer_privately, answering, in_time, say
from bot.discord.safe_text import safe_name
from bot.discord.slash_options import slash_options
from bot.discord.translator import tr
from bot.i18n import catalog, t
from bot.render import get_renderer
from engines.registry import get_game
from storage import BuyInLedger

if TYPE_CHECKING:
    from bot.discord.client import Deucebot

PERIODS = ("all", "week", "month")


def _signed(value: float, lang: str) -> str:
    """``+1.5``, ``-0.25``, ``+0`` (a decimal comma in French and Ukrainian)."""
    text = f"{value:+.2f}".rstrip("0").rstrip(".")
    return text.replace(".", ",") if lang in ("fr", "uk") else text


def buy_in_line(game: str, ledger: BuyInLedger, lang: str) -> str:
    """A player's buy-ins as `/stats` shows them, for a game with rebuys: bought (in units
    and chips, rebuys counted) and the net result in chips and in units; in the game's own
    words (``<game>.stats.buy_ins``: draw poker's caves) when its catalog has them."""
    key = f"{game}.stats.buy_ins"
    return t(
        key if key in catalog(lang) else "discord.stats.buy_ins",
        lang,
        units=ledger.units,
        chips=ledger.chips,
        rebuys=ledger.rebuys,
        net=f"{ledger.net:+d}",
        net_units=_signed(ledger.net_units, lang),
    )


def _row(row: Any, lang: str) -> str:
    if hasattr(row, "average_penalty"):
        return t(
            "discord.leaderboard.penalty_row",
            lang,
            name=safe_name(row.name),
            matches=row.matches,
            wins=row.wins,
            deals=row.deals,
            average=f"{row.average_penalty:.2f}",
        )
    return t(
        "discord.leaderboard.chips_row",
        lang,
        name=safe_name(row.name),
        matches=row.matches,
        wins=row.wins,
        hands=row.hands,
        net=f"{row.net_chips:+d}",
    )


class Info(commands.Cog):
    """Leaderboards, personal stats and rules."""

    def __init__(self, bot: Deucebot) -> None:
        """Commands for `bot`."""
        self.bot = bot

    @app_commands.command(
        name=tr("leaderboard", "discord.cmd.leaderboard"),
        description=tr("This server's best players of a game", "discord.cmd.leaderboard.desc"),
    )
    @app_commands.describe(
        game=tr("Which game", "discord.opt.game.desc"),
        period=tr("Over which period", "discord.opt.period.desc"),
    )
    @app_commands.rename(
        game=tr("game", "discord.opt.game"), period=tr("period", "discord.opt.period")
    )
    @slash_options("by", "season")
    @app_commands.choices(
        game=game_choices(),
        period=[
            app_commands.Choice(name=tr("all time", "discord.period.all"), value="all"),
            app_commands.Choice(name=tr("this week", "discord.period.week"), value="week"),
            app_commands.Choice(name=tr("this month", "discord.period.month"), value="month"),
        ],
    )
    @app_commands.guild_only()
    @cooldown("leaderboard")
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        period: app_commands.Choice[str] | None = None,
        by: app_commands.Choice[str] | None = None,
        season: str | None = None,
    ) -> None:
        """Humans and AI seats listed apart; players with few deals are unranked. `by`
        rating (or a `season`, which only ratings have): people by conservative rating on
        the all-time track or a season's; a season that does not exist is refused
        privately."""
        lang = self.bot.language(interaction)
        public = self.bot.guild_language(interaction.guild)  # the board is the channel's
        if (by is not None and by.value == "rating") or season is not None:
            guild = str(interaction.guild_id)
            async with answering(interaction, lang):
                work = rating_embed(self.bot.storage, guild, game.value, season, public)
                embed = await in_time(interaction, work, public=True)
                await say(interaction, "", embed=embed, ephemeral=False)
            return
        span = _period(period.value if period else "all")
        board = await in_time(
            interaction,
            self.bot.storage.leaderboard(
                guild=str(interaction.guild_id),
                game=game.value,
                scoring=get_game(game.value).scoring,
                period=span,
                now=time.time(),
            ),
            public=True,
        )
        embed = discord.Embed(
            title=t(
                "discord.leaderboard.title",
                public,
                game=get_game(game.value).title,
                period=t(f"discord.period.{span}", public),
            ),
            colour=discord.Colour.gold(),
        )
        for key, rows in (("humans", board.humans), ("unranked", board.unranked), ("ai", board.ai)):
            if rows:
                lines = [f"{i + 1}. {_row(r, public)}" for i, r in enumerate(rows[:10])]
                embed.add_field(
                    name=t(f"discord.leaderboard.{key}", public, min_deals=board.min_deals),
                    value="\n".join(lines)[:1024],
                    inline=False,
                )
        if not (board.humans or board.unranked or board.ai):
            embed.description = t("discord.leaderboard.empty", public)
        await say(interaction, "", embed=embed, ephemeral=False)

    @app_commands.command(
        name=tr("stats", "discord.cmd.stats"),
        description=tr("A player's results on this server", "discord.cmd.stats.desc"),
    )
    @app_commands.describe(user=tr("Whose results (you by default)", "discord.opt.user.desc"))
    @app_commands.rename(user=tr("user", "discord.opt.user"))
    @slash_options(chart="game")
    @app_commands.guild_only()
    @cooldown("stats")
    async def stats(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        chart: app_commands.Choice[str] | None = None,
    ) -> None:
        """One line per game the player has played here, their rating, and a chart of
        their rating and results per deal in `chart` (else the first game they played)."""
        lang = self.bot.language(interaction)
        who = user or interaction.user
        lines = []
        files: list[discord.File] = []
        for game in playable_games():
            board = await in_time(
                interaction,
                self.bot.storage.leaderboard(
                    guild=str(interaction.guild_id),
                    game=game,
                    scoring=get_game(game).scoring,
                    period="all",
                    now=time.time(),
                    min_deals=0,
                    player_id=str(who.id),
                ),
            )
            for row in [*board.humans, *board.unranked]:
                if row.player_id == str(who.id):
                    lines.append(f"**{get_game(game).title}**: {_row(row, lang)}")
                    if get_game(game).rebuys:
                        ledger = await in_time(
                            interaction,
                            self.bot.storage.buy_ins(
                                guild=str(interaction.guild_id), game=game, player_id=str(who.id)
                            ),
                        )
                        if ledger.matches:
                            lines.append("↳ " + buy_in_line(game, ledger, lang))
            if files or (chart is not None and chart.value != game):
                continue
            rating, picture = await in_time(
                interaction,
                stats_chart_file(
                    self.bot.storage,
                    guild=str(interaction.guild_id),
                    game=game,
                    player_id=str(who.id),
                    name=who.display_name,
                    lang=lang,
                ),
            )
            if rating is not None:
                lines.append("↳ " + rating)
            if picture is not None:
                files.append(picture)
        embed = discord.Embed(
            title=t("discord.stats.title", lang, name=safe_name(who.display_name)),
            description="\n".join(lines) or t("discord.stats.none", lang),
            colour=discord.Colour.blurple(),
        )
        if files:
            embed.set_image(url=f"attachment://{files[0].filename}")
            await say(interaction, "", embed=embed, files=files)
        else:
            await say(interaction, "", embed=embed)

    @app_commands.command(
        name=tr("rules", "discord.cmd.rules"),
        description=tr("How a game is played", "discord.cmd.rules.desc"),
    )
    @app_commands.describe(game=tr("Which game", "discord.opt.game.desc"))
    @app_commands.rename(game=tr("game", "discord.opt.game"))
    @app_commands.choices(game=game_choices())
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        """The rules summary and how to play it here."""
        lang = self.bot.language(interaction)
        text = t(f"discord.rules.{game.value}", lang)
        with contextlib.suppress(ImportError):
            text += "\n\n" + get_renderer(game.value).input_help(lang)
        embed = discord.Embed(title=get_game(game.value).title, description=text[:4000])
        await answer_privately(interaction, embed=embed)


def _period(value: str) -> Literal["all", "week", "month"]:
    """The leaderboard period of a choice's value (anything unknown: all time)."""
    if value == "week":
        return "week"
    return "month" if value == "month" else "all"


async def setup(bot: Deucebot) -> None:
    """Load the cog."""
    await bot.add_cog(Info(bot))
