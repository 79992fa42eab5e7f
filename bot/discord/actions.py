"""What clicks and commands do: find the table and the clicker's seat, act, answer privately.

Shared by the buttons (`views`) and the slash commands (`cogs`). Every path
answers the interaction exactly once, within Discord's window; refusals are
ephemeral and localised.
"""

from __future__ import annotations

import asyncio
import random
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord.board import hand_message
from bot.discord.replies import in_time, reply_error, say
from bot.i18n import t
from bot.render import get_renderer
from bot.runtime import errors
from bot.runtime.errors import TableError
from engines.base import IllegalAction

if TYPE_CHECKING:
    from bot.discord.client import Deucebot
    from bot.runtime import Table

HINT_SECONDS = 2.0


def wrong_channel() -> TableError:
    """Refusal for a control of a table used from another channel or server."""
    return TableError(
        "that control belongs to a table in another channel; use this channel's board",
        code="discord.wrong_channel",
    )


def table_by_id(bot: Deucebot, table_id: int, interaction: discord.Interaction) -> Table | None:
    """The live table with this id (None once it was stopped or is unknown). A table answers
    only interactions from its own place (server and channel): a custom id copied into
    another channel or server is refused with `wrong_channel`, and nothing is done."""
    for table in bot.tables.tables.values():
        if table.id == table_id and table.status != "stopped":
            found: Table = table
            if found.place != str(interaction.channel_id) or found.guild != str(
                interaction.guild_id
            ):
                raise wrong_channel()
            return found
    return None


def seat_for(table: Table, interaction: discord.Interaction) -> int:
    """The clicker's seat at `table`; refuses people who are not seated."""
    seat = table.seat_of(str(interaction.user.id))
    if seat is None:
        raise errors.not_seated(interaction.user.display_name)
    return seat


def _is_ephemeral_hand(interaction: discord.Interaction) -> bool:
    message = interaction.message
    return message is not None and message.flags.ephemeral


async def show_hand(
    bot: Deucebot,
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
    lang = bot.language(interaction)
    try:
        table = table_by_id(bot, table_id, interaction)
        if table is None:
            await say(interaction, "⛔ " + t("discord.stale_table", lang))
            return
        seat = seat_for(table, interaction)
        if table.view(seat) is None:
            raise errors.match_not_started()
        if turn is not None and turn != table.turn and (selected or hint):
            # A choice made on an old menu: show the fresh hand and say why.
            note = "🔄 " + t("discord.hand.refreshed", lang)
            selected, hint = [], False
        if hint:
            note, selected = await _hint(bot, interaction, table, seat, lang)
        message = hand_message(table, seat, lang, sort, selected=selected or [], note=note)
        if edit and _is_ephemeral_hand(interaction):
            await _edit_hand(interaction, message)
        else:
            await _send_hand(interaction, message)
    except (IllegalAction, app_commands.CommandOnCooldown, discord.HTTPException) as error:
        await reply_error(bot, interaction, error)


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
    bot: Deucebot, interaction: discord.Interaction, table: Table, seat: int, lang: str
) -> tuple[str, list[str]]:
    """The AI's suggestion for the seat's turn, as a note and cards to preselect."""
    if table.to_act != seat:
        raise errors.not_your_turn(seat, table.to_act)
    bot.cooldowns.hit("hint", interaction)  # /hint and the Hint button share one cooldown
    view = table.view(seat)
    spec = table.spec
    policy = spec.make_policy(spec.default_policy, random.Random())
    await interaction.response.defer()
    try:
        action = await asyncio.wait_for(asyncio.to_thread(policy.decide, view), HINT_SECONDS)
    except TimeoutError:
        return "💡 " + t("discord.hint.slow", lang), []
    cards = [str(c) for c in getattr(action, "cards", ()) or ()]
    if cards and get_renderer(table.game).plays_cards:
        return "💡 " + t(
            "discord.hint.play", lang, cards=" ".join(c.pretty for c in action.cards)
        ), cards
    return "💡 " + t("discord.hint.other", lang, action=describe(str(action))), []


async def act_from_hand(
    bot: Deucebot,
    interaction: discord.Interaction,
    table_id: int,
    turn: int,
    text: str,
    sort: str,
) -> None:
    """Act for the clicker's seat from a button; redraw the ephemeral hand after it."""
    lang = bot.language(interaction)
    try:
        table = table_by_id(bot, table_id, interaction)
        if table is None:
            await say(interaction, "⛔ " + t("discord.stale_table", lang))
            return
        seat = seat_for(table, interaction)
        await in_time(interaction, table.act(str(interaction.user.id), text, turn))
        note = "✅ " + t("discord.done", lang, action=describe(text))
        if _is_ephemeral_hand(interaction):
            await _edit_hand(interaction, hand_message(table, seat, lang, sort, note=note))
        else:
            await say(interaction, note)
    except (IllegalAction, discord.HTTPException) as error:
        await reply_error(bot, interaction, error)


async def act_from_command(bot: Deucebot, interaction: discord.Interaction, text: str) -> None:
    """Act for the user's seat at the channel's table from a slash command."""
    lang = bot.language(interaction)
    table = bot.tables.get(str(interaction.channel_id))
    seat_for(table, interaction)
    await in_time(interaction, table.act(str(interaction.user.id), text, table.turn))
    await say(interaction, "✅ " + t("discord.done", lang, action=describe(text)))


def describe(text: str) -> str:
    """An action's canonical text with suit symbols (``play 3D 3S`` -> ``play 3♦ 3♠``)."""
    from engines.cards import CardParseError, parse_card

    words = []
    for word in text.split():
        try:
            words.append(parse_card(word).pretty)
        except CardParseError:
            words.append(word)
    return " ".join(words)
