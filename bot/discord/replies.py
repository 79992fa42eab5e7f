"""Answering interactions: always once, always in time, refusals always private and localised."""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context

from bot.discord.loop_pressure import LoopPressure
from bot.discord.table_limits import TableBusy
from bot.discord.textlimits import CONTENT, clip, echo
from bot.errors import REFUSALS, AnyRefusal, Refusal
from bot.i18n import explain, normalise_language, t
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


PRIVATE_DEFERRAL = "deucebot.private_deferral"
"""`Interaction.extras` key: the interaction was deferred by `defer` with a private "thinking"
message (its first follow-up may carry a private answer)."""
ORIGINAL_ANSWERED = "deucebot.original_answered"
"""`Interaction.extras` key: the deferred "thinking" message holds its answer already."""
REFUSED = "deucebot.refused"
"""`Interaction.extras` key: the interaction was answered with a refusal (`reply_error`): no
board rides on it (`bot.discord.tokens`), a follow-up of it would read as its answer."""
UPDATES = (discord.InteractionType.component, discord.InteractionType.modal_submit)
"""Interactions on a message (a click, a choice, a form opened from the hand): deferred as
an update of that message, which shows nothing new."""


async def defer(interaction: discord.Interaction, *, public: bool = False) -> None:
    """The one way to defer an interaction. A click or a form submit defers as an update
    (nothing is shown; the answer is an edit of the message acted on, or a message of its
    own). A command defers with a "thinking" message, whose visibility Discord gives the
    first follow-up whatever it asks: private unless `public`, and marked private so that
    `answer_privately` may use it."""
    if interaction.type in UPDATES:
        await interaction.response.defer()
        return
    await interaction.response.defer(ephemeral=not public, thinking=True)
    if not public:
        interaction.extras[PRIVATE_DEFERRAL] = True


def public_language(interaction: discord.Interaction) -> str:
    """The language of what the channel sees of `interaction`: the server's (the bot's
    `guild_language`: `/config language`, else the server's locale), never the member's."""
    chosen = getattr(interaction.client, "guild_language", None)
    if callable(chosen):
        return str(chosen(interaction.guild))
    return normalise_language(interaction.guild_locale.value if interaction.guild_locale else None)


async def answer_privately(interaction: discord.Interaction, **kwargs: Any) -> None:
    """The one way to answer only the member who acted (a hand, a hint, a confirmation, a
    refusal): `kwargs` as for `send_message` (content, embed, view, file), always ephemeral.

    Not answered yet: the response itself. Answered or deferred: a follow-up; but Discord
    turns the first follow-up of a deferred command into its "thinking" message with that
    message's visibility, so when that message may be public (deferred elsewhere than by
    `defer`, or by `defer(public=True)`) and is still thinking, it is first given a line
    of its own (the answer went privately) and the answer is a message of its own."""
    response = interaction.response
    if not response.is_done():
        await response.send_message(ephemeral=True, **kwargs)
        return
    thinking = response.type is discord.InteractionResponseType.deferred_channel_message
    if (
        thinking
        and not interaction.extras.get(PRIVATE_DEFERRAL)
        and not interaction.extras.get(ORIGINAL_ANSWERED)
    ):
        line = t("privacy.answered_privately", public_language(interaction))
        await interaction.edit_original_response(content=line)
        interaction.extras[ORIGINAL_ANSWERED] = True
    await interaction.followup.send(ephemeral=True, **kwargs)
    if thinking:  # a private "thinking" message was this follow-up
        interaction.extras[ORIGINAL_ANSWERED] = True


async def edit_privately(
    interaction: discord.Interaction, *, keep_picture: bool = False, **kwargs: Any
) -> None:
    """The one way to redraw the private message a member acted on (their ephemeral hand):
    `kwargs` as for `send_message` (content, embed, view, file); `keep_picture` keeps the
    message's current picture instead of uploading `file`. Acted on from anything but
    their own ephemeral message (the board, a command), it is `answer_privately` instead:
    an edit never changes what the channel shows."""
    message = interaction.message
    if interaction.type not in UPDATES or message is None or not message.flags.ephemeral:
        await answer_privately(interaction, **kwargs)
        return
    file = kwargs.pop("file", None)
    if not keep_picture:
        kwargs["attachments"] = [file] if file is not None else []
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)


async def answer_publicly(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Answer `interaction` for the whole channel to see (a table created, a challenge):
    `kwargs` as for `send_message`. Never for anything a hand holds."""
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=False, **kwargs)
        interaction.extras[ORIGINAL_ANSWERED] = True
    else:
        await interaction.response.send_message(ephemeral=False, **kwargs)


async def edit_clicked_publicly(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Edit the public message whose control was used (a challenge answered): `kwargs` as
    for `edit_message`. Never for anything a hand holds."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
        interaction.extras[ORIGINAL_ANSWERED] = True
    else:
        await interaction.response.edit_message(**kwargs)


async def redraw_answer_privately(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Edit, through the interaction's webhook, the private message its answer is (a hand
    shown ephemerally, or the ephemeral hand clicked): `kwargs` as for `edit_message`. The
    caller knows the original response is that private message (`live_hands`).

    The request `Interaction.edit_original_response` makes, without building a discord.py
    message of Discord's answer: nothing reads it, and at 300 busy tables building it was
    3 % of the event loop's time. Its views are never stored (`frozen_view`)."""
    state = interaction._state
    with handle_message_parameters(
        previous_allowed_mentions=state.allowed_mentions, **kwargs
    ) as params:
        await async_context.get().edit_original_interaction_response(
            interaction.application_id,
            interaction.token,
            session=interaction._session,
            proxy=state.http.proxy,
            proxy_auth=state.http.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
        )


async def edit_unparsed(
    message: discord.WebhookMessage | discord.PartialMessage | discord.Message, **kwargs: Any
) -> None:
    """Edit `message` as `message.edit(**kwargs)` does (a follow-up through the token of the
    webhook that posted it, a channel message through the bot's REST route), without
    building a discord.py message of Discord's answer: the board edits' callers keep their
    handle and read nothing of it (`redraw_answer_privately` does the same for the hands).
    Views are never stored here (`frozen_view`)."""
    view = kwargs.get("view")
    if isinstance(message, discord.WebhookMessage):
        hook_state = message._state
        webhook = hook_state._webhook
        thread = hook_state._thread
        mentions = getattr(webhook._state, "allowed_mentions", None)
        with handle_message_parameters(previous_allowed_mentions=mentions, **kwargs) as params:
            await async_context.get().edit_webhook_message(
                webhook.id,
                webhook.token,
                message.id,
                session=webhook.session,
                proxy=webhook.proxy,
                proxy_auth=webhook.proxy_auth,
                payload=params.payload,
                multipart=params.multipart,
                files=params.files,
                thread_id=getattr(thread, "id", None),
                with_components=bool(view),
            )
        return
    state = message._state
    mentions = state.allowed_mentions if "content" in kwargs else None
    with handle_message_parameters(previous_allowed_mentions=mentions, **kwargs) as params:
        await state.http.edit_message(message.channel.id, message.id, params=params)


async def say(
    interaction: discord.Interaction, content: str, *, ephemeral: bool = True, **kwargs: Any
) -> None:
    """Send `content` (held to Discord's 2,000 characters) as the answer to `interaction`
    (or a followup if it was answered): privately (`answer_privately`) unless not
    `ephemeral`."""
    content = clip(content, CONTENT)
    if ephemeral:
        await answer_privately(interaction, content=content, **kwargs)
    else:
        await answer_publicly(interaction, content=content, **kwargs)


def refusal_text(error: BaseException, lang: str) -> str:
    """The localised, specific text of a refusal (runtime, engine, card parsing, checks)."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, REFUSALS):
        return clip("⛔ " + explain(_shortened(error), lang), CONTENT)
    if isinstance(error, CardParseError):
        return clip("⛔ " + t("discord.bad_cards", lang, token=echo(error.token, 40)), CONTENT)
    if isinstance(error, app_commands.MissingPermissions):
        return "⛔ " + t("discord.need_manage_channels", lang)
    if isinstance(error, app_commands.NoPrivateMessage):
        return "⛔ " + t("discord.guild_only", lang)
    if isinstance(error, TableBusy):
        return "⏳ " + t("discord.table_busy", lang, seconds=math.ceil(error.retry_after))
    if isinstance(error, app_commands.CommandOnCooldown):
        return "⏳ " + t("discord.cooldown", lang, seconds=math.ceil(error.retry_after))
    return "⚠️ " + t("discord.internal_error", lang)


def _shortened(error: AnyRefusal) -> AnyRefusal:
    """`error` with the input it repeats (what a person typed) cut to a short line."""
    if not any(isinstance(v, str) and len(v) > 100 for v in error.params.values()):
        return error
    # A copy made without calling __init__ (`copy.copy` would call it with the message
    # only, and refusals such as `TableError` take keyword-only arguments).
    short = type(error).__new__(type(error), *error.args)
    short.__dict__.update(error.__dict__)
    short.params = {k: echo(v) if isinstance(v, str) else v for k, v in error.params.items()}
    return short


async def reply_error(interaction: discord.Interaction, error: BaseException, lang: str) -> None:
    """Answer a refusal privately, in `lang`; log anything that is not an expected refusal."""
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    expected = isinstance(
        original,
        IllegalAction
        | Refusal
        | CardParseError
        | app_commands.MissingPermissions
        | app_commands.NoPrivateMessage
        | app_commands.CommandOnCooldown,
    )
    if not expected:
        log.error("interaction failed", exc_info=original)
    interaction.extras[REFUSED] = True  # before the answer: from then on its token is usable
    try:
        await say(interaction, refusal_text(original, lang))
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id)


@asynccontextmanager
async def answering(
    interaction: discord.Interaction, lang: str, *more: type[Exception]
) -> AsyncIterator[None]:
    """Answer a refusal raised inside (the bot's or a rule's, a failed Discord call, or one
    of `more`) privately in `lang` (`reply_error`); it goes no further."""
    kinds: tuple[type[Exception], ...] = (*REFUSALS, discord.HTTPException, *more)
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
    answer then goes out as a followup (`say`) or an edit of the original (`edit_hand`).

    A slash command that comes while the loop runs late (`LoopPressure.keeps_time`) is
    deferred at once and its work waits at the gate (`LoopPressure.admit`): the member
    sees "thinking..." within milliseconds, and the clicks of tables in play go first.

    `work` is awaited here, not in a task of its own: on a busy bot every task handed
    over costs the answer a turn of the event loop (tens of ms at 1,000 tables)."""
    gate = getattr(interaction.client, "pressure", None)
    if (
        isinstance(gate, LoopPressure)
        and interaction.type is discord.InteractionType.application_command
        and not interaction.response.is_done()
        and not gate.keeps_time()
    ):
        await _defer_logged(interaction, public)
        await gate.admit(command=True)
    deferring: list[asyncio.Task[None]] = []

    def start_deferring() -> None:
        if not interaction.response.is_done():
            deferring.append(asyncio.ensure_future(_defer_logged(interaction, public)))

    timer = asyncio.get_running_loop().call_later(DEFER_AFTER, start_deferring)
    try:
        return await work
    finally:
        timer.cancel()
        if deferring:  # the answer goes after the deferral, whatever it became
            await deferring[0]


async def _defer_logged(interaction: discord.Interaction, public: bool) -> None:
    """`defer`, a failure logged (the answer then tries its own way)."""
    try:
        await defer(interaction, public=public)
    except (discord.HTTPException, discord.InteractionResponded):
        log.warning("could not defer interaction %s", interaction.id)
