"""Recovery of a table's deliveries after a restart or a crash: what the log committed but
no process delivered, the intents of posts an earlier process made without recording
them (looked up in the channel and adopted), and the boards a newer one replaced (marked
so, without buttons).

`Recovery` holds no table's state: it reads the records and the channel and answers; the
table's `TableChannel` keeps what it learns.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol

import discord

from bot.discord import effects as fx
from bot.discord.board import BOARD_COLOUR
from bot.discord.effects import Effect
from bot.discord.transport import Board, Transport, lost_access
from bot.i18n import t
from bot.runtime import TableSnapshot
from storage.deliveries import Deliveries, PostIntent

log = logging.getLogger("deucebot.discord")

CLOCK_SKEW = 10.0
"""Seconds an intent's own clock may run ahead of Discord's (when it knew no earlier
message, its post is looked for among the messages from this long before it on)."""
HISTORY_LOOKED_AT = 100
"""Messages read (one request) after the one an intended post came after."""
RESULT_COLOUR = discord.Colour.gold()
"""The colour of a result's embed (how a result post is told from a board)."""


@dataclass
class Recovered:
    """What the records say of a match's deliveries at start-up."""

    done: set[str] = field(default_factory=set)
    """Effects delivered by an earlier process."""
    last_message: int | None = None
    """The newest message recorded."""
    intents: dict[str, PostIntent] = field(default_factory=dict)
    """Effect -> an earlier process's post of it, intended and never recorded."""
    todo: list[Effect] | None = None
    """The effects of the log still to deliver, in order (None: the match is not known)."""
    current: Board | None = None
    """The current deal's board an earlier process posted: edited from now on."""
    older: list[Board] = field(default_factory=list)
    """An earlier board to mark replaced."""

    def ahead_of(self, handed: Iterable[Effect]) -> collections.deque[Effect]:
        """The effects to deliver: the log's first, then those `handed` over meanwhile
        that it does not hold and no process delivered."""
        todo = self.todo or []
        keys = {effect.key for effect in todo}
        later = (e for e in handed if e.key not in keys and e.key not in self.done)
        return collections.deque([*todo, *later])


class Recovery:
    """Reads what earlier processes delivered and finds their unrecorded posts."""

    def __init__(
        self,
        client: discord.Client,
        transport: Transport,
        deliveries: Deliveries | None,
        language: Callable[[TableSnapshot], str],
    ) -> None:
        """Reading the channels through `transport` and the records of `deliveries` (None:
        nothing survives a restart, nothing to recover); a replaced board says so in its
        table's `language`."""
        self.client = client
        self.language = language
        self.transport = transport
        self.deliveries = deliveries

    async def recover(self, table: TableSnapshot, match_id: int) -> Recovered:
        """What to do at start-up for `match_id` at `table`: the effects the log committed
        but no process delivered (in order), the board of this deal an earlier process
        posted (kept and edited) and its older board (to mark replaced)."""
        found = Recovered()
        if self.deliveries is None:
            return found
        records = await self.deliveries.delivered(match_id)
        found.done = {record.effect for record in records}
        for record in records:
            found.last_message = max(found.last_message or 0, record.message_id or 0) or None
        intents = await self.deliveries.intents(match_id)
        found.intents = {i.effect: i for i in intents if i.effect not in found.done}
        match = await self.deliveries.match(match_id)
        if match is None:
            return found
        actions = await self.deliveries.actions(match_id)
        derived = fx.derive(table.spec, match, [a.action for a in actions])
        found.todo = fx.pending(derived, found.done)
        channel = self.transport.channel(table)
        boards = sorted(
            (r for r in records if r.effect.startswith("board:") and r.message_id),
            key=lambda r: int(r.effect.split(":", 1)[1]),
        )
        current = f"board:{table.deal}"
        for record in boards[-2:]:
            assert record.message_id is not None
            message = channel.get_partial_message(record.message_id)
            if record.effect == current and found.current is None:
                found.current = message
            else:
                found.older.append(message)
        return found

    async def posted_before(
        self, table: TableSnapshot, intent: PostIntent | None, effect: Effect
    ) -> discord.Message | None:
        """The message an earlier process posted for `effect` (as it `intent`ed) and never
        recorded (it died in between), or None: the first of the bot's own posts of the
        effect's kind after the message the intent came after. Without a way to read the
        channel (no Read Message History), None: the post's nonce still returns the
        message within Discord's few minutes."""
        me = self.client.user
        if intent is None or me is None:
            return None
        after = intent.after or discord.utils.time_snowflake(
            datetime.fromtimestamp(intent.at - CLOCK_SKEW, UTC)
        )
        channel = self.transport.channel(table)

        async def read() -> list[discord.Message]:
            found = channel.history(
                limit=HISTORY_LOOKED_AT, after=discord.Object(after), oldest_first=True
            )
            return [message async for message in found]

        try:
            messages = await self.transport.retry("channel history", read)
        except discord.HTTPException as error:
            log.warning("%s of table %s: channel not read (%s)", effect.key, table.id, error)
            return None
        self.transport.rest_calls += 1
        found = next((m for m in messages if post_of(m, me.id, table.id, effect)), None)
        if found is not None:
            log.warning(
                "%s of table %s: message %s was posted by an earlier process; adopted",
                effect.key,
                table.id,
                found.id,
            )
        return found

    async def mark_replaced(
        self,
        table: TableSnapshot,
        message: Board,
        expires: datetime | None,
        probing: bool,
        lang: str,
    ) -> bool:
        """Mark an earlier board as replaced, without buttons (gone already: nothing to do);
        through the token that posted it while it lives. Whether the edit went through
        the bot's REST routes."""
        change = {"content": t("discord.board.replaced", lang), "view": None}
        with contextlib.suppress(discord.NotFound):
            _, through_token = await self.transport.edit(
                table, message, expires, probing, "replaced board", change
            )
            return not through_token
        return False


def footer(message: discord.Message) -> str | None:
    """The footer of a message's first embed (a board's: table, deal and turn)."""
    return message.embeds[0].footer.text if message.embeds else None


def post_of(message: discord.Message, me: int, table: int, effect: Effect) -> bool:
    """Whether `message` is one of the bot's own channel posts (not an interaction's
    answer) of an effect like `effect` at `table`: the board of its deal (its footer's
    first numbers, in any language: the table and the deal), or a result."""
    if message.author.id != me or message.type not in _POST_TYPES:
        return False
    if message.webhook_id not in (None, me) or message.flags.ephemeral:
        return False  # a follow-up through a member's token is the bot's own too
    if not message.embeds:
        return False
    if effect.kind != "board":
        return message.embeds[0].colour == RESULT_COLOUR
    numbers = [int(n) for n in re.findall(r"\d+", footer(message) or "")]
    return message.embeds[0].colour == BOARD_COLOUR and numbers[:2] == [table, effect.deal]


_POST_TYPES = (discord.MessageType.default, discord.MessageType.reply)
"""A channel post, or a follow-up of a member's click (Discord types those as replies)."""


class Replaced(Protocol):
    """What a `Replacer` needs of its table's channel."""

    @property
    def snapshot(self) -> TableSnapshot:
        """The table as last handed over."""
        ...

    @property
    def probing(self) -> bool:
        """Whether only REST may be used now (a pause is being probed)."""
        ...

    def report(self, request: Callable[[], None]) -> None:
        """Hand the channel a request (applied by its task)."""
        ...

    def lost(self, error: discord.Forbidden) -> Callable[[], None]:
        """The request pausing the channel after `error` (a lost permission)."""
        ...

    def probed(self) -> None:
        """A REST edit went through: tokens may be used again."""
        ...


class Replacer:
    """Marks one table's earlier boards replaced, oldest first, in a task of its own: such
    an edit may go through the REST budget and wait there for seconds at a busy time, while
    the new board's edits (through a token) must not wait behind it. Its inbox is fed by
    the table's channel; what it learns goes back to the channel as requests."""

    def __init__(self, recovery: Recovery, channel: Replaced) -> None:
        """Marking through `recovery` the boards of `channel`."""
        self.recovery = recovery
        self.channel = channel
        self._inbox: collections.deque[tuple[Board, datetime | None]] = collections.deque()
        self._task: asyncio.Task[None] | None = None

    def add(self, message: Board, expires: datetime | None) -> None:
        """Mark `message` (posted through a token expiring at `expires`) replaced."""
        self._inbox.append((message, expires))

    def busy(self) -> bool:
        """Whether a board waits to be marked."""
        return bool(self._inbox)

    def running(self) -> bool:
        """Whether its task runs."""
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Start marking (unless it runs, or nothing waits)."""
        if self._inbox and not self.running():
            self._task = asyncio.get_running_loop().create_task(self._run())

    def close(self) -> None:
        """Stop its task."""
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        """A refusal for a lost permission stops it (the board is marked on resuming: the
        new board is out and must not go again); another failure is logged and that board
        left as it is."""
        channel = self.channel
        while self._inbox:
            old, old_expires = self._inbox[0]
            table = channel.snapshot
            try:
                lang = self.recovery.language(table)
                if await self.recovery.mark_replaced(
                    table, old, old_expires, channel.probing, lang
                ):
                    channel.report(channel.probed)
            except asyncio.CancelledError:
                raise
            except discord.Forbidden as error:
                if lost_access(error):
                    channel.report(channel.lost(error))
                    return
                log.exception("could not mark a board of table %s replaced", table.id)
            except Exception:
                log.exception("could not mark a board of table %s replaced", table.id)
            self._inbox.popleft()
        channel.report(lambda: None)
