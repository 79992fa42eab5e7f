"""How a table's messages reach Discord: through the bot's REST routes (under the global
budget, each post with its nonce) or a member's lent interaction token (outside it), 429
and 5xx answers retried with backoff, board edits spaced further while requests queue.

`Transport` holds no table's state: a `TableChannel` says what to send and whether it
is probing a pause (`probing`: then no token is used, a token's webhook is not held to the
channel's permissions), and keeps what comes back.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any, NamedTuple, TypeVar

import discord

from bot.discord.replies import edit_unparsed
from bot.discord.textlimits import fit_message
from bot.discord.tokens import InteractionTokens, LostAnswer, expired, post_once
from bot.runtime import TableSnapshot

log = logging.getLogger("deucebot.discord")

POST_MARGIN = 120.0
"""Seconds a lent token must still live to post a board or result through it (the board
is then edited through it while it lives, through the bot's REST after)."""
EDIT_MARGIN = 5.0
"""Seconds a token must still live to edit through it (else: the bot's REST routes)."""
LOST_ACCESS = frozenset({50001, 50013})
"""Discord's codes of a 403 for a permission the bot lacks in the channel."""

T = TypeVar("T")
Board = discord.Message | discord.PartialMessage
Build = Callable[[], dict[str, Any]]
"""A function building a message's keyword arguments (again for each try: a sent file is
closed)."""


def fresh_nonce() -> str:
    """A fresh nonce for a post outside a match's effects (its retries share it)."""
    return secrets.token_hex(12)


def send_kwargs(message: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments posting `message` (a board, result or hand message), within
    Discord's text limits."""
    kept = ("content", "embed", "file", "view", "allowed_mentions")
    kwargs = {k: v for k, v in message.items() if k in kept}
    if kwargs.get("view") is None:
        kwargs.pop("view", None)
    if not kwargs.get("content"):
        kwargs.pop("content", None)
    return fit_message(kwargs)


def lost_access(error: BaseException) -> bool:
    """Whether `error` is Discord's 403 for a permission the bot lacks (not a closed DM)."""
    return isinstance(error, discord.Forbidden) and error.code in LOST_ACCESS


@dataclass(frozen=True)
class Pause:
    """Why a table's channel delivery is paused: Discord's 403 `code` (50001 or 50013) to
    `what` ("board", "board edit"...), since `since` (`time.time()`)."""

    code: int
    what: str
    since: float


def seated(shown: TableSnapshot) -> set[int]:
    """The members seated at `shown` and there (their Discord ids): not one who left their
    seat to the AI (away)."""
    return {
        int(seat.owner.id)
        for seat in shown.seats
        if seat.owner is not None and not seat.away and seat.owner.id.isdigit()
    }


class Posted(NamedTuple):
    """A post: the message, the expiry of the token it went through (None: REST) and
    whether it went through the bot's REST routes."""

    message: discord.Message
    expires: datetime | None
    rest: bool


class Transport:
    """Posts and edits of the tables' messages, with retries, the budget and lent tokens."""

    def __init__(self, client: discord.Client, tokens: InteractionTokens, retry_for: float) -> None:
        """Sending through `client` and the members' `tokens`; 429/5xx answers are retried
        for up to `retry_for` seconds."""
        self.client = client
        self.tokens = tokens
        self.retry_for = retry_for
        self.rest_calls = 0
        """Messages sent and edited through the budgeted REST routes (for the benchmark)."""
        self.token_calls = 0
        """Boards and results posted or edited through a member's interaction token."""
        self.retries = 0
        """REST calls retried after a 429 or 5xx."""

    def channel(self, table: TableSnapshot) -> discord.PartialMessageable:
        """The channel of `table`."""
        return self.client.get_partial_messageable(
            int(table.place), guild_id=int(table.guild) if table.guild.isdigit() else None
        )

    async def retry(self, what: str, call: Callable[[], Awaitable[T]]) -> T:
        """`call()`, again with backoff while Discord answers 429 or 5xx, for up to
        `retry_for` seconds (each retry logged); other errors are raised at once."""
        started = time.monotonic()
        delay = 0.25
        while True:
            try:
                return await call()
            except discord.HTTPException as error:
                if error.status != 429 and error.status < 500:
                    raise
                if time.monotonic() - started + delay > self.retry_for:
                    log.error("%s: Discord kept answering %s; giving up", what, error.status)
                    raise
                log.warning("%s: Discord answered %s; again in %.2f s", what, error.status, delay)
                self.retries += 1
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)

    async def send(
        self, table: TableSnapshot, what: str, build: Build, nonce: str
    ) -> discord.Message:
        """Post `build()` in the table's channel through REST (retried, each try with the
        same `nonce`, so a try Discord stored before failing is not posted twice)."""
        channel = self.channel(table)
        sent = await self.retry(what, lambda: channel.send(**build(), nonce=nonce))
        self.rest_calls += 1
        return sent

    def edit_backoff(self, urgent: bool) -> float:
        """How many edit intervals to wait after a board edit through REST: 1, and more
        while requests wait for the global budget (one more per 25 waiting, at most 8; twice
        that after an edit nobody waited for, `waited_for`), so a busy bot coalesces more
        refreshes into each edit and spends the budget where people wait."""
        budget = getattr(self.client, "rest_budget", None)
        waiting = int(getattr(budget, "waiting", 0) or 0)
        more = waiting // 25 * (1 if urgent else 2)
        return float(min(8 if urgent else 16, 1 + more))

    async def post(
        self,
        table: TableSnapshot,
        seated: set[int],
        probing: bool,
        what: str,
        build: Build,
        nonce: str,
        lost: Callable[[], Awaitable[discord.Message | None]],
    ) -> Posted:
        """Post in `table`'s channel: as a follow-up of a recent interaction of one of the
        `seated` members while one is lent (and not `probing`), else through REST (with
        `nonce`). A follow-up has no nonce: one whose answer was lost (5xx, a broken
        connection) is looked for by `lost()` (the message if Discord stored it) before the
        post goes again through REST."""
        place = int(table.place)
        lent = None if probing else self.tokens.usable(place, POST_MARGIN, table.id, seated)
        if lent is not None:
            try:
                sent = await post_once(lent.webhook, **build())
            except discord.HTTPException as error:
                if error.status < 500:  # refused, so not stored: through REST instead
                    log.info("%s through a token refused (%s): REST", what, error.status)
                    if expired(error):
                        self.tokens.forget(place)
                    return Posted(await self.send(table, what, build, nonce), None, True)
                found = await lost()
            except (LostAnswer, OSError, TimeoutError):
                log.warning("%s through a token: answer lost", what)
                found = await lost()
            else:
                self.token_calls += 1
                return Posted(sent, lent.expires, False)
            if found is not None:
                return Posted(found, None, False)
        return Posted(await self.send(table, what, build, nonce), None, True)

    async def edit(
        self,
        table: TableSnapshot,
        message: Board,
        expires: datetime | None,
        probing: bool,
        what: str,
        change: dict[str, Any] | Build,
    ) -> tuple[Board, bool]:
        """Edit `message` with `change` (keyword arguments, or a function building them for
        each try): through the token that posted it while it lives (`expires`) and the
        channel is not `probing`, else through the bot's REST routes (budgeted). The handle
        to edit it by from now on, and whether the edit went through a token."""
        build = change if callable(change) else partial(dict, change)
        if isinstance(message, discord.WebhookMessage) and expires is not None and not probing:
            if expires - timedelta(seconds=EDIT_MARGIN) > discord.utils.utcnow():
                hooked = message
                try:
                    await self.retry(what, lambda: edit_unparsed(hooked, **build()))
                    self.token_calls += 1
                    return message, True
                except discord.HTTPException as error:
                    if not expired(error):
                        raise
                    log.info("%s: the token expired; through REST from now on", what)
            message = self.channel(table).get_partial_message(message.id)
        elif isinstance(message, discord.WebhookMessage):
            message = self.channel(table).get_partial_message(message.id)
        rest = message
        await self.retry(what, lambda: edit_unparsed(rest, **build()))
        self.rest_calls += 1
        return message, False
