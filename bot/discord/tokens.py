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

Only interactions at a table are lent here (`lend`): its commands (`/table ...`, `/play`,
`/hand`...) and its controls (buttons, menus, forms), only in a channel where a table lives
(or by a command or click that opens one there); never `/rules` or any other command. On
Discord a follow-up can show which interaction it answers, so a board rides only on one
whose context does not mislead (`usable`): not refused (`replies.REFUSED`), and by a member
seated at that table or a click on that table's own controls; never another member's
refused `/table create`, nor a spectator's command. Lent only in memory (a token does
not survive a restart; what was posted through it still can be edited through the bot's
own REST routes, by the message id the front records), and let go of: once a token has
less than the registry's `margin` to live (it could post nothing more), when it was
refused, and when the channel's table stops (`forget`). Only where the bot may read the
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
import time
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

import aiohttp
import discord
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.discord.permissions import is_thread, missing_permissions
from bot.discord.replies import ORIGINAL_ANSWERED, REFUSED
from bot.errors import DeucebotError

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
TABLE_COMMANDS = frozenset({"table", "duel", "hand", "play", "act", "pass", "hint", "back"})
"""Slash commands at a table (their top names, as Discord sends them, never localised)."""
CONTROLS = "db:"
"""The custom ids of the tables' own buttons and menus (`bot.discord.views`) begin so; a
table's id is their third part."""
OPENING = "db:duel:"
"""A click that may open a table (accepting a duel) where none lives yet."""
SWEEP_EVERY = 60.0
"""Seconds between two sweeps of every channel's interactions (expired, refused: dropped)."""


@dataclass(frozen=True)
class Lent:
    """A usable interaction webhook and when its token expires."""

    webhook: discord.Webhook
    expires: datetime

    def alive(self, margin: float) -> bool:
        """Whether the token still has more than `margin` seconds to live."""
        return discord.utils.utcnow() + timedelta(seconds=margin) < self.expires


class InteractionTokens:
    """The members' recent interactions at tables, per channel, lent to the front."""

    def __init__(self, margin: float = 0.0) -> None:
        """An empty registry; an interaction with less than `margin` seconds to live is of
        no more use (the front posts through one only with that much left) and let go of."""
        self.margin = margin
        self._by_channel: dict[int, collections.deque[discord.Interaction]] = {}
        self._swept = time.monotonic()

    def __len__(self) -> int:
        """How many interactions are kept (every channel's)."""
        return sum(len(kept) for kept in self._by_channel.values())

    def lend(self, interaction: discord.Interaction, *, table_lives: bool) -> None:
        """Remember `interaction` (a member's, in a guild channel) for its channel if it is
        one at a table (`at_table`) and `table_lives` in that channel, or it may open one
        there (`opens_table`)."""
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
        if not at_table(interaction) or not (table_lives or opens_table(interaction)):
            return
        self._sweep()
        if not self._of_use(interaction):
            return
        kept = self._by_channel.setdefault(interaction.channel_id, collections.deque(maxlen=KEPT))
        kept.append(interaction)

    def usable(
        self, channel: int, margin: float, table: int, seated: Collection[int]
    ) -> Lent | None:
        """The newest interaction of `channel` whose webhook may post a public message now
        for table `table` and lives at least `margin` seconds more: not refused, and by a
        member `seated` there or a click on that table's controls (`rides_for`); None if
        there is none."""
        kept = self._by_channel.get(channel)
        if not kept:
            return None
        for interaction in reversed(kept):
            lent = Lent(interaction.followup, interaction.created_at + LIFETIME)
            if not lent.alive(margin) or not rides_for(interaction, table, seated):
                continue
            if lendable(interaction):
                return lent
        self._prune(channel)
        return None

    def forget(self, channel: int) -> None:
        """Drop what `channel` lent (its tokens were refused, or its table stopped)."""
        self._by_channel.pop(channel, None)

    def _of_use(self, interaction: discord.Interaction) -> bool:
        """Whether `interaction` may still carry a post: not refused, and with more than
        `margin` seconds to live."""
        if interaction.extras.get(REFUSED):
            return False
        return Lent(interaction.followup, interaction.created_at + LIFETIME).alive(self.margin)

    def _prune(self, channel: int) -> None:
        """Let go of `channel`'s interactions of no more use (the channel too, if none is
        left)."""
        kept = self._by_channel.get(channel)
        if kept is None:
            return
        alive = [interaction for interaction in kept if self._of_use(interaction)]
        if not alive:
            del self._by_channel[channel]
        elif len(alive) < len(kept):
            self._by_channel[channel] = collections.deque(alive, maxlen=KEPT)

    def _sweep(self) -> None:
        """Every `SWEEP_EVERY` seconds, prune every channel: the tokens of channels nobody
        posts in any more expire too."""
        now = time.monotonic()
        if now - self._swept < SWEEP_EVERY:
            return
        self._swept = now
        for channel in list(self._by_channel):
            self._prune(channel)


def at_table(interaction: discord.Interaction) -> bool:
    """Whether `interaction` is one at a table: a command of `TABLE_COMMANDS`, a click or a
    choice on a table's controls, or a form they opened (the amount of a raise)."""
    data = _data(interaction)
    kind = interaction.type
    if kind is discord.InteractionType.application_command:
        return data.get("name") in TABLE_COMMANDS
    if kind is discord.InteractionType.component:
        return str(data.get("custom_id", "")).startswith(CONTROLS)
    return kind is discord.InteractionType.modal_submit


def opens_table(interaction: discord.Interaction) -> bool:
    """Whether `interaction` may open a table in its channel: `/table create`, `/duel
    challenge`, or an answer to a challenge."""
    data = _data(interaction)
    if interaction.type is discord.InteractionType.component:
        return str(data.get("custom_id", "")).startswith(OPENING)
    if interaction.type is not discord.InteractionType.application_command:
        return False
    name = data.get("name")
    options = data.get("options")
    first = options[0] if isinstance(options, list) and options else None
    sub = first.get("name") if isinstance(first, dict) else None
    return name == "duel" or (name == "table" and sub == "create")


def rides_for(interaction: discord.Interaction, table: int, seated: Collection[int]) -> bool:
    """Whether a post of table `table` may ride on `interaction`: not refused, and by a
    member `seated` there, or a click on that table's own controls (its id in the custom
    id: never a click on the board of a table stopped since)."""
    if interaction.extras.get(REFUSED):
        return False
    if interaction.user.id in seated:
        return True
    data = _data(interaction)
    if interaction.type is not discord.InteractionType.component:
        return False
    parts = str(data.get("custom_id", "")).split(":")
    return len(parts) > 2 and parts[0] == CONTROLS[:-1] and parts[2] == str(table)


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


def _data(interaction: discord.Interaction) -> dict[str, Any]:
    """The interaction's data as Discord sent it (empty if none)."""
    return cast(dict[str, Any], interaction.data or {})


def expired(error: discord.HTTPException) -> bool:
    """Whether Discord refused a webhook call because its interaction token is gone."""
    return error.code in EXPIRED_CODES or error.status == 401


class LostAnswer(DeucebotError):
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
