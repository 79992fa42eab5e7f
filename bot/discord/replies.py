"""Answering interactions: always once, always in time, refusals always private and localised."""

from __future__ import annotations

import asyncio
import copy
import logging
import math
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.discord.textlimits import CONTENT, clip, echo
from bot.i18n import explain, t
from engines.base import IllegalAction
from engines.cards import CardParseError

log = logging.getLogger("deucebot.discord")
T = TypeVar("T")


def frozen_view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A view to send, never stored by discord.py: its items are dynamic (persistent) items
    that the bot dispatches by custom id, so storing the view would dispatch clicks twice."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view


async def say(
    interaction: discord.Interaction, content: str, *, ephemeral: bool = True, **kwargs: Any
) -> None:
    """Send `content` (held to Discord's 2,000 characters) as the answer to `interaction`
    (or a followup if it was answered)."""
    content = clip(content, CONTENT)
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)


def refusal_text(error: BaseException, lang: str) -> str:
    """The localised, specific text of a refusal (runtime, engine, card parsing, checks)."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, IllegalAction):
        return clip("⛔ " + explain(_shortened(error), lang), CONTENT)
    if isinstance(error, CardParseError):
        return clip("⛔ " + t("discord.bad_cards", lang, token=echo(error.token, 40)), CONTENT)
    if isinstance(error, app_commands.MissingPermissions):
        return "⛔ " + t("discord.need_manage_channels", lang)
    if isinstance(error, app_commands.NoPrivateMessage):
        return "⛔ " + t("discord.guild_only", lang)
    if isinstance(error, app_commands.CommandOnCooldown):
        return "⏳ " + t("discord.cooldown", lang, seconds=math.ceil(error.retry_after))
    return "⚠️ " + t("discord.internal_error", lang)


def _shortened(error: IllegalAction) -> IllegalAction:
    """`error` with the input it repeats (what a person typed) cut to a short line."""
    if not any(isinstance(v, str) and len(v) > 100 for v in error.params.values()):
        return error
    short = copy.copy(error)
    short.params = {k: echo(v) if isinstance(v, str) else v for k, v in error.params.items()}
    return short


async def reply_error(interaction: discord.Interaction, error: BaseException, lang: str) -> None:
    """Answer a refusal privately, in `lang`; log anything that is not an expected refusal."""
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    expected = isinstance(
        original,
        IllegalAction
        | CardParseError
        | app_commands.MissingPermissions
        | app_commands.NoPrivateMessage
        | app_commands.CommandOnCooldown,
    )
    if not expected:
        log.error("interaction failed", exc_info=original)
    try:
        await say(interaction, refusal_text(original, lang))
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id)


@asynccontextmanager
async def answering(
    interaction: discord.Interaction, lang: str, *more: type[Exception]
) -> AsyncIterator[None]:
    """Answer a refusal raised inside (an `IllegalAction`, a failed Discord call, or one of
    `more`) privately in `lang` (`reply_error`); it goes no further."""
    kinds: tuple[type[Exception], ...] = (IllegalAction, discord.HTTPException, *more)
    try:
        yield
    except kinds as error:
        await reply_error(interaction, error, lang)


DEFER_AFTER = 1.0
"""Seconds of work after which an interaction is deferred (Discord's window is 3 s)."""


async def in_time(
    interaction: discord.Interaction, work: Awaitable[T], *, public: bool = False
) -> T:
    """Await `work` (an action, a database write); if it takes longer than `DEFER_AFTER`,
    defer the interaction first so Discord never shows "This interaction failed". The
    answer then goes out as a followup (`say`) or an edit of the original (`edit_hand`)."""
    task = asyncio.ensure_future(work)
    try:
        done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
        if not done and not interaction.response.is_done():
            if interaction.type in (
                discord.InteractionType.component,
                discord.InteractionType.modal_submit,  # a form opened from the hand
            ):
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=not public, thinking=True)
    except (discord.HTTPException, discord.InteractionResponded):
        log.warning("could not defer interaction %s", interaction.id)
    finally:
        # Whatever happened above, the work goes on and its outcome is collected.
        result = await task
    return result
