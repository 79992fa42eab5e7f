"""What clicks and commands do: find the table and the clicker's seat, act, answer privately.

The handlers behind the buttons (`views`, through `Controls`) and the slash commands
(`cogs`). Every path answers the interaction exactly once, within Discord's window;
refusals are ephemeral and localised. Handlers read the table through `TableSnapshot`s.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from bot.discord.board import hand_message
from bot.discord.host import Host
from bot.discord.replies import in_time, reply_error, say
from bot.i18n import t
from bot.render import get_renderer
from bot.render.text import describe, move_cards
from bot.runtime import Table, TableSnapshot, errors
from bot.runtime.errors import TableError
from engines.base import IllegalAction

HINT_SECONDS = 2.0


def wrong_channel() -> TableError:
    """Refusal for a control of a table used from another channel or server."""
    return TableError(
        "that control belongs to a table in another channel; use this channel's board",
        code="discord.wrong_channel",
    )


def in_its_place(table: Table, interaction: discord.Interaction) -> Table:
    """`table`, if the interaction comes from its own place (server and channel). A custom
    id copied into another channel or server is refused with `wrong_channel`, nothing done."""
    if table.place != str(interaction.channel_id) or table.guild != str(interaction.guild_id):
        raise wrong_channel()
    return table


def seat_for(table: Table | TableSnapshot, interaction: discord.Interaction) -> int:
    """The clicker's seat at `table`; refuses people who are not seated."""
    seat = table.seat_of(str(interaction.user.id))
    if seat is None:
        raise errors.not_seated(interaction.user.display_name)
    return seat


def _is_ephemeral_hand(interaction: discord.Interaction) -> bool:
    message = interaction.message
    return message is not None and message.flags.ephemeral


async def _send_hand(interaction: discord.Interaction, message: dict[str, Any]) -> None:
    kwargs = {k: v for k, v in message.items() if k in ("content", "embed", "view", "file")}
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=True, **kwargs)


async def _edit_hand(interaction: discord.Interaction, message: dict[str, Any]) -> None:
    kwargs: dict[str, Any] = {
        "content": message["content"] or None,
        "embed": message["embed"],
        "view": message.get("view"),
    }
    shown = interaction.message.attachments if interaction.message else []
    if not any(a.filename == message.get("image_name") for a in shown):
        # The hand changed (or has no picture yet): upload its picture; else keep it.
        kwargs["attachments"] = [message["file"]] if "file" in message else []
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)


async def _hint(
    interaction: discord.Interaction, table: Table, lang: str, charge: Callable[[], None]
) -> tuple[str, list[str]]:
    """The AI's suggestion for the clicker's turn, as a note and cards to preselect. Decided
    by the runtime's AI service (`Table.hint`), off the event loop. `charge` counts the use
    against the member's hint cooldown (after the turn checks, before any work is awaited)."""
    decision = table.hint(str(interaction.user.id))  # refusals are raised before deferring
    try:
        charge()
        await interaction.response.defer()
    except BaseException:
        decision.cancel()
        raise
    try:
        action = await asyncio.wait_for(decision, HINT_SECONDS)
    except TimeoutError:
        return "💡 " + t("discord.hint.slow", lang), []
    text = str(action)
    cards = move_cards(text)
    if cards and get_renderer(table.game).plays_cards:
        pretty = " ".join(card.pretty for card in cards)
        return "💡 " + t("discord.hint.play", lang, cards=pretty), [str(c) for c in cards]
    return "💡 " + t("discord.hint.other", lang, action=describe(text)), []


class Controls:
    """The handlers, bound to the bot: what the components call (as `host.Controls`) and
    what the slash commands call."""

    def __init__(self, bot: Host) -> None:
        """Handlers acting through `bot`."""
        self._bot = bot

    async def _seated(
        self, interaction: discord.Interaction, table_id: int, lang: str
    ) -> tuple[Table, int] | None:
        """The live table `table_id` and the clicker's seat at it; None (answered as stale)
        once the table is gone. Refuses people who are not seated."""
        table = self._bot.tables.by_id(table_id)
        if table is None:
            await say(interaction, "⛔ " + t("discord.stale_table", lang))
            return None
        in_its_place(table, interaction)
        return table, seat_for(table, interaction)

    async def show_hand(
        self,
        interaction: discord.Interaction,
        table_id: int,
        sort: str,
        *,
        edit: bool,
        selected: list[str] | None = None,
        hint: bool = False,
        turn: int | None = None,
        note: str = "",
    ) -> None:
        """Answer with the clicker's hand and controls: a new ephemeral message, or (`edit`) an
        update of the ephemeral hand the click came from."""
        lang = self._bot.language(interaction)
        try:
            found = await self._seated(interaction, table_id, lang)
            if found is None:
                return
            table, seat = found
            shown = table.snapshot(seat)
            if shown.view(seat) is None:
                raise errors.match_not_started()
            if turn is not None and turn != shown.turn and (selected or hint):
                # A choice made on an old menu: show the fresh hand and say why.
                note = "🔄 " + t("discord.hand.refreshed", lang)
                selected, hint = [], False
            if hint:
                note, selected = await _hint(
                    interaction, table, lang, self._charge_hint(interaction)
                )
                shown = table.snapshot(seat)  # the table may have moved on meanwhile
            message = hand_message(shown, seat, lang, sort, selected=selected or [], note=note)
            if edit and _is_ephemeral_hand(interaction):
                await _edit_hand(interaction, message)
            else:
                await _send_hand(interaction, message)
        except (IllegalAction, app_commands.CommandOnCooldown, discord.HTTPException) as error:
            await reply_error(interaction, error, lang)

    def _charge_hint(self, interaction: discord.Interaction) -> Callable[[], None]:
        """/hint and the Hint button share one cooldown."""
        return lambda: self._bot.cooldowns.hit("hint", interaction)

    async def act_from_hand(
        self,
        interaction: discord.Interaction,
        table_id: int,
        turn: int,
        text: str,
        sort: str,
    ) -> None:
        """Act for the clicker's seat from a button; redraw the ephemeral hand after it."""
        lang = self._bot.language(interaction)
        try:
            found = await self._seated(interaction, table_id, lang)
            if found is None:
                return
            table, seat = found
            await in_time(interaction, table.act(str(interaction.user.id), text, turn))
            note = "✅ " + t("discord.done", lang, action=describe(text))
            if _is_ephemeral_hand(interaction):
                message = hand_message(table.snapshot(seat), seat, lang, sort, note=note)
                await _edit_hand(interaction, message)
            else:
                await say(interaction, note)
        except (IllegalAction, discord.HTTPException) as error:
            await reply_error(interaction, error, lang)

    async def act_from_command(self, interaction: discord.Interaction, text: str) -> None:
        """Act for the user's seat at the channel's table from a slash command."""
        lang = self._bot.language(interaction)
        table = self._bot.tables.get(str(interaction.channel_id))
        seat_for(table, interaction)
        await in_time(interaction, table.act(str(interaction.user.id), text, table.turn))
        await say(interaction, "✅ " + t("discord.done", lang, action=describe(text)))
