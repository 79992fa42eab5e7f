"""Interaction tokens lent to the front: posts and edits outside the global request budget.

Discord exempts interaction endpoints from its global limit (50 requests per second per
bot token): the callback, and the interaction's webhook (follow-ups, edits of the original
response and of the follow-ups). A token lives 15 minutes from the interaction's creation;
after that its webhook answers 401 (code 50027, "Invalid Webhook Token"). A webhook edits
only the messages its own token made (others: 404, code 10008). A follow-up is a plain
public message unless it asks to be ephemeral, except the first one after a deferred
"thinking" answer: that one *is* the thinking message and keeps its visibility (so such
an interaction is lent only once that message has its answer: a board must not turn up
ephemeral).

Every interaction in a table's channel is lent here (`lend`), only in memory (a token does
not survive a restart; what was posted through it still can be edited through the bot's
own REST routes, by the message id the front records). Only where the bot may read the
channel's history (`app_permissions`): a follow-up carries no nonce, so a post a crash
left unrecorded is found only there. Never where the interaction shows the bot lacking a
permission a table needs (`permissions.missing_permissions`): Discord does not hold a
token's webhook to the channel's permissions, so a board edited through it would hide that
the bot's own posts are refused; the channel's tokens are dropped then, the front's next
REST call meets the 403 and pauses the table. The front asks for the newest
usable one (`usable`): answered, not by a modal nor by a deferred thinking message still
waiting for its answer, and with at least `margin` seconds to live.
"""

from __future__ import annotations

import collections
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

import aiohttp
import discord
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.discord.permissions import is_thread, missing_permissions
from bot.discord.replies import ORIGINAL_ANSWERED

LIFETIME = timedelta(minutes=15)
"""How long Discord honours an interaction token (from the interaction's creation)."""
KEPT = 3
"""Interactions kept per channel (the newest answered one is usually among them)."""
EXPIRED_CODES = frozenset({50027, 10015, 10062})
"""Invalid Webhook Token, Unknown Webhook, Unknown interaction."""
LENDABLE = frozenset(
    {
        discord.InteractionResponseType.channel_message,
        discord.InteractionResponseType.deferred_message_update,
        discord.InteractionResponseType.message_update,
    }
)
"""Answers after which a follow-up is a message of its own, public unless asked otherwise
(after a deferred "thinking" answer too, once that message holds its answer:
`lendable`)."""


@dataclass(frozen=True)
class Lent:
    """A usable interaction webhook and when its token expires."""

    webhook: discord.Webhook
    expires: datetime

    def alive(self, margin: float) -> bool:
        """Whether the token still has more than `margin` seconds to live."""
        return discord.utils.utcnow() + timedelta(seconds=margin) < self.expires


class InteractionTokens:
    """The members' recent interactions per channel, lent to the front."""

    def __init__(self) -> None:
        """An empty registry."""
        self._by_channel: dict[int, collections.deque[discord.Interaction]] = {}

    def lend(self, interaction: discord.Interaction) -> None:
        """Remember `interaction` (a member's, in a guild channel) for its channel."""
        if interaction.guild_id is None or interaction.channel_id is None:
            return
        if interaction.user.bot:
            return
        perms = interaction.app_permissions
        if missing_permissions(perms, thread=is_thread(interaction.channel)):
            # Discord answers a token's follow-ups and edits whatever the bot may do in the
            # channel: lending one now would hide that its own posts are refused there.
            self.forget(interaction.channel_id)
            return
        if not perms.read_message_history:
            return  # a follow-up has no nonce: only history finds one a crash left unrecorded
        kept = self._by_channel.setdefault(interaction.channel_id, collections.deque(maxlen=KEPT))
        kept.append(interaction)

    def usable(self, channel: int, margin: float) -> Lent | None:
        """The newest interaction of `channel` whose webhook may post a public message now
        and lives at least `margin` seconds more; None if there is none."""
        kept = self._by_channel.get(channel)
        if not kept:
            return None
        for interaction in reversed(kept):
            lent = Lent(interaction.followup, interaction.created_at + LIFETIME)
            if not lent.alive(margin):
                continue
            if lendable(interaction):
                return lent
        if not any(Lent(i.followup, i.created_at + LIFETIME).alive(0) for i in kept):
            del self._by_channel[channel]
        return None

    def forget(self, channel: int) -> None:
        """Drop what `channel` lent (its tokens were refused)."""
        self._by_channel.pop(channel, None)


def lendable(interaction: discord.Interaction) -> bool:
    """Whether a follow-up of `interaction` is now a message of its own. Not while a
    deferred "thinking" message waits for its answer: that follow-up would be it, with its
    visibility. Once it has its answer, yes: when many tables open at once, `/table
    start`s are deferred (the database is busy), and their deal's boards went through the
    budget (at 1,000 tables on two shards, 155 of them, staleness p50 7.6 s against 1.4)."""
    kind = interaction.response.type
    if kind in LENDABLE:
        return True
    thinking = kind is discord.InteractionResponseType.deferred_channel_message
    return thinking and bool(interaction.extras.get(ORIGINAL_ANSWERED))


def expired(error: discord.HTTPException) -> bool:
    """Whether Discord refused a webhook call because its interaction token is gone."""
    return error.code in EXPIRED_CODES or error.status == 401


class LostAnswer(Exception):
    """A follow-up answered 5xx: Discord may have stored it (a follow-up has no nonce)."""

    def __init__(self, status: int) -> None:
        super().__init__(f"follow-up answered {status}")
        self.status = status


class _Checked:
    """An aiohttp request context that raises `LostAnswer` on a 5xx answer."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    async def __aenter__(self) -> Any:
        response = await self._inner.__aenter__()
        if response.status >= 500:
            await self._inner.__aexit__(None, None, None)
            raise LostAnswer(response.status)
        return response

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._inner.__aexit__(*exc)


class _FailFast:
    """A session whose requests stop at a 5xx answer instead of being tried again."""

    def __init__(self, session: Any) -> None:
        self._session = session

    def request(self, *args: Any, **kwargs: Any) -> _Checked:
        return _Checked(self._session.request(*args, **kwargs))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


class _OneTry(AsyncWebhookAdapter):
    """discord.py's webhook adapter, but a 5xx answer is not tried again (discord.py
    repeats a follow-up up to five times: each repeat Discord stored is a second post)."""

    async def request(self, route: Any, session: Any, **kwargs: Any) -> Any:
        return await super().request(
            route, cast(aiohttp.ClientSession, _FailFast(session)), **kwargs
        )


_ONE_TRY: AsyncWebhookAdapter = _OneTry()  # type: ignore[no-untyped-call]


async def post_once(webhook: discord.Webhook, **kwargs: Any) -> discord.WebhookMessage:
    """Post a follow-up through `webhook` (`wait=True`), tried once on a 5xx answer or a
    broken connection (`LostAnswer`, `OSError`: maybe stored, look before posting again);
    429s are waited out and tried again (not stored)."""
    token = async_context.set(_ONE_TRY)
    try:
        return await webhook.send(**kwargs, wait=True)
    finally:
        async_context.reset(token)
