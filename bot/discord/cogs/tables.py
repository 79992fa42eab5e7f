"""`/table create|join|leave|start|stop|restart|status`: one table per channel."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import actions
from bot.discord.actions import seat_for
from bot.discord.board import board_message, draw_ahead
from bot.discord.permissions import check_table_channel
from bot.discord.replies import answer_privately, frozen_view, in_time, say
from bot.discord.safe_text import pinging
from bot.discord.slash_options import game_choices, playable_games, slash_options
from bot.discord.table_limits import limited
from bot.discord.table_setup import OPTION_ORDER, options_in_force, table_options, table_setup
from bot.discord.translator import tr
from bot.discord.views import ChallengeButton
from bot.i18n import t
from bot.runtime import Player, Table, errors
from bot.runtime.errors import TableError
from engines.registry import challenge_game, get_game

if TYPE_CHECKING:
    from bot.discord.client import Deucebot

AMOUNT_MAX = 1_000_000_000
"""The largest chip amount the create options take (each game may allow less)."""


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
        self._expiring: set[asyncio.Task[None]] = set()

    def _check_allowed_here(self, interaction: discord.Interaction) -> None:
        """Refuse if the server opens tables only in other channels (`/config channels`)."""
        parent = getattr(interaction.channel, "parent_id", None)
        self.bot.server_config.check_channel(
            str(interaction.guild_id),
            str(interaction.channel_id),
            None if parent is None else str(parent),
        )

    def _here(self, interaction: discord.Interaction) -> Table:
        table: Table = self.bot.tables.get(str(interaction.channel_id))
        return table

    @table.command(
        name=tr("create", "discord.cmd.table.create"),
        description=tr("Open a table in this channel", "discord.cmd.table.create.desc"),
    )
    @slash_options("game", *OPTION_ORDER, "turn_seconds", "ai")
    @limited("match", cooldown="create")
    async def create(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        seats: app_commands.Range[int, 1, 10] | None = None,
        stack: app_commands.Range[int, 1, AMOUNT_MAX] | None = None,
        small_blind: app_commands.Range[int, 1, AMOUNT_MAX] | None = None,
        big_blind: app_commands.Range[int, 1, AMOUNT_MAX] | None = None,
        blind: app_commands.Range[int, 1, AMOUNT_MAX] | None = None,
        ante: app_commands.Range[int, 1, AMOUNT_MAX] | None = None,
        deals: app_commands.Range[int, 1, 1000] | None = None,
        turn_seconds: app_commands.Range[int, 0, 3600] | None = None,
        ai: app_commands.Choice[str] | None = None,
    ) -> None:
        """Create the channel's table with the options given (each checked for the game by
        `table_setup`: an option the game lacks is refused by name); the creator takes
        seat 1."""
        lang = self.bot.language(interaction)
        await check_table_channel(interaction, lang)
        self._check_allowed_here(interaction)
        given = table_options(
            seats, stack, small_blind, big_blind, blind, ante, deals, turn_seconds
        )
        defaults = self.bot.server_config.defaults(str(interaction.guild_id), game.value)
        given = {**given, **{k: v for k, v in defaults.items() if given.get(k) is None}}
        setup = table_setup(get_game(game.value), given, lang)
        public = self.bot.guild_language(interaction.guild)
        options = {
            "turn_seconds": self.bot.settings.turn_seconds,
            "lang": public,
            **setup.options,
        }
        if ai is not None:
            options["ai_level"] = ai.value
        table = await in_time(
            interaction,
            self.bot.tables.create(
                guild=str(interaction.guild_id),
                place=str(interaction.channel_id),
                game=game.value,
                settings=setup.settings,
                options=options,
                owner=player_of(interaction),
            ),
            public=True,
        )
        await say(  # for the channel: in the server's language
            interaction,
            t(
                "discord.table.created",
                public,
                game=table.spec.title,
                mention=interaction.user.mention,
            )
            + "\n"
            + options_in_force(table.snapshot(), public),
            ephemeral=False,
        )
        await self.bot.front.post_board(table.snapshot())

    duel = app_commands.Group(
        name=tr("duel", "discord.cmd.duel"),
        description=tr("Deuce Duel, one against one", "discord.cmd.duel.desc"),
        guild_only=True,
    )

    @duel.command(
        name=tr("challenge", "discord.cmd.duel.challenge"),
        description=tr(
            "Challenge a member to a duel (without one, the AI plays you)",
            "discord.cmd.duel.challenge.desc",
        ),
    )
    @slash_options("member")
    @limited("match", cooldown="create")
    async def challenge(
        self, interaction: discord.Interaction, member: discord.Member | None = None
    ) -> None:
        """Challenge `member` (Accept / Decline for them; no answer in `actions.CHALLENGE_SECONDS`
        declines); without a member, a duel against the AI is dealt at once."""
        lang = self.bot.language(interaction)
        await check_table_channel(interaction, lang)
        self._check_allowed_here(interaction)
        if member is not None and member.id == interaction.user.id:
            raise TableError("you cannot challenge yourself", code="discord.challenge_self")
        if member is not None and member.bot:
            raise TableError("a bot cannot take up a challenge", code="discord.challenge_bot")
        existing = self.bot.tables.find(str(interaction.channel_id))
        if existing is not None and existing.status != "stopped":
            raise errors.table_exists(existing.place, existing.game, existing.spec.title)
        public = self.bot.guild_language(interaction.guild)
        game = challenge_game()
        if game is None:
            raise TableError("no game here takes a challenge", code="unknown_game", game="")
        if member is None:
            table = await in_time(
                interaction,
                self.bot.tables.create(
                    guild=str(interaction.guild_id),
                    place=str(interaction.channel_id),
                    game=game.name,
                    options={"turn_seconds": self.bot.settings.turn_seconds, "lang": public},
                    owner=player_of(interaction),
                ),
                public=True,
            )
            await table.start()
            await say(interaction, t("discord.duel.against_ai", public), ephemeral=False)
            return
        expires = int(time.time() + actions.CHALLENGE_SECONDS)
        parts = (interaction.user.id, member.id, expires)
        view = frozen_view(
            ChallengeButton("yes", *parts, label=t("discord.duel.accept", public)),
            ChallengeButton("no", *parts, label=t("discord.duel.decline", public)),
        )
        who = {"challenger": interaction.user.mention, "challenged": member.mention}
        text = t("discord.duel.challenge", public, stamp=f"<t:{expires}:R>", **who)
        # The challenged member is pinged: the message is addressed to them.
        await say(
            interaction, text, ephemeral=False, view=view, allowed_mentions=pinging(member.id)
        )
        message = await interaction.original_response()
        task = asyncio.create_task(self._expire(interaction, message, expires, who, public))
        self._expiring.add(task)
        task.add_done_callback(self._expiring.discard)

    async def _expire(
        self,
        interaction: discord.Interaction,
        message: discord.InteractionMessage,
        expires: int,
        who: dict[str, str],
        lang: str,
    ) -> None:
        """When a challenge expires unanswered, say it was declined and remove its buttons
        (an answer after that is refused as expired, even after a restart)."""
        await asyncio.sleep(max(0.0, expires - time.time()) + 0.5)
        channel = interaction.channel
        if not isinstance(channel, discord.abc.Messageable):
            return
        try:
            current = await channel.fetch_message(message.id)
            if current.components:
                await message.edit(content=t("discord.duel.expired", lang, **who), view=None)
        except discord.HTTPException:
            return

    @table.command(
        name=tr("join", "discord.cmd.table.join"),
        description=tr("Sit down at this channel's table", "discord.cmd.table.join.desc"),
    )
    @limited("seat")
    async def join(self, interaction: discord.Interaction) -> None:
        """Take the first seat without a human (an AI seat during a match)."""
        lang = self.bot.language(interaction)
        seat = await in_time(interaction, self._here(interaction).join(player_of(interaction)))
        await say(interaction, t("discord.table.joined", lang, seat=seat + 1))

    @table.command(
        name=tr("leave", "discord.cmd.table.leave"),
        description=tr("Leave your seat (the AI plays it)", "discord.cmd.table.leave.desc"),
    )
    @limited("seat")
    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave; during a match the AI plays the seat until /back. The member's browser links
        end (`Storage.revoke_links`): whoever holds one no longer sees the seat or the table."""
        lang = self.bot.language(interaction)
        table, member = self._here(interaction), str(interaction.user.id)
        seat_for(table, interaction)  # a refusal writes nothing
        # Links end before the seat is left: should the leave then fail, the links are gone
        # for nothing (a new one is a click away); the other order could leave one alive.
        # And once more after: a link "Open in browser" made in between ends too.
        storage = self.bot.tables.storage
        await in_time(interaction, storage.revoke_links(member))
        seat = await in_time(interaction, table.leave(member))
        await in_time(interaction, storage.revoke_links(member))
        await say(interaction, t("discord.table.left", lang, seat=seat + 1))

    @table.command(
        name=tr("start", "discord.cmd.table.start"),
        description=tr("Deal: empty seats are played by the AI", "discord.cmd.table.start.desc"),
    )
    @limited("match")
    async def start(self, interaction: discord.Interaction) -> None:
        """Start the match (seated players only)."""
        lang = self.bot.language(interaction)
        table = self._here(interaction)
        seat_for(table, interaction)
        await check_table_channel(interaction, lang)
        await in_time(interaction, table.start())
        await say(interaction, t("discord.table.started", lang))

    @table.command(
        name=tr("stop", "discord.cmd.table.stop"),
        description=tr("Close this channel's table", "discord.cmd.table.stop.desc"),
    )
    @limited("match")
    async def stop(self, interaction: discord.Interaction) -> None:
        """Stop the table for good (creator or Manage Channels)."""
        self.bot.language(interaction)  # names the guild and table in the log lines
        public = self.bot.guild_language(interaction.guild)  # the answer is the channel's
        table = self._here(interaction)
        if not can_manage(interaction, table):
            raise not_allowed()
        await in_time(interaction, self.bot.tables.stop(table.place), public=True)
        await say(
            interaction,
            t("discord.table.stopped", public, mention=interaction.user.mention),
            ephemeral=False,
        )

    @table.command(
        name=tr("restart", "discord.cmd.table.restart"),
        description=tr("Start a fresh match with the same seats", "discord.cmd.table.restart.desc"),
    )
    @limited("match")
    async def restart(self, interaction: discord.Interaction) -> None:
        """Abandon the match and begin a new one (creator or Manage Channels)."""
        self.bot.language(interaction)  # names the guild and table in the log lines
        public = self.bot.guild_language(interaction.guild)  # the answer is the channel's
        table = self._here(interaction)
        if not can_manage(interaction, table):
            raise not_allowed()
        await in_time(interaction, table.restart(), public=True)
        await say(
            interaction,
            t("discord.table.restarted", public, mention=interaction.user.mention),
            ephemeral=False,
        )

    @table.command(
        name=tr("status", "discord.cmd.table.status"),
        description=tr("Show the table (only to you)", "discord.cmd.table.status.desc"),
    )
    async def status(self, interaction: discord.Interaction) -> None:
        """The board, privately: with its picture and the picture's alt text (drawn off the
        event loop, as boards are), or with every seat's figures in its text when there is
        no picture."""
        lang = self.bot.language(interaction)
        shown = self._here(interaction).snapshot()
        await in_time(interaction, draw_ahead(shown, lang, self.bot.pictures))
        message = board_message(shown, lang, [], with_image=True)
        extra = {"file": message["file"]} if "file" in message else {}
        await answer_privately(
            interaction, content=message["content"] or None, embed=message["embed"], **extra
        )


async def setup(bot: Deucebot) -> None:
    """Load the cog."""
    await bot.add_cog(Tables(bot))


__all__ = ["Tables", "errors", "game_choices", "playable_games", "setup"]
