"""The Discord front: the runtime's events become boards, result posts and DMs.

The runtime calls `public`, `private` and `refresh` under the table's lock and
expects them to return at once, so they only queue work. One outbox task per
table sends it in order:

- a new board message when a deal starts (and at start-up or creation);
- board edits, coalesced: a burst of refreshes becomes one edit, and edits
  are spaced by `edit_interval` seconds (Discord rate-limits edits);
- deal and match results as their own messages;
- DMs (own task per table so a slow DM never holds up the board): the hand at
  every deal and after each of the owner's plays. If Discord refuses a DM, the
  channel is told once and the ephemeral "My hand" remains.

Everything is rendered from the `TableSnapshot`s the runtime hands over (never
the live table): public messages from the spectator view (see `board`), a DM from
a snapshot holding the owner's seat view (handed to `private`, or, for a hand
changed by a public event, taken once the change is committed).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord.board import board_message, hand_message, last_play_key, seat_names
from bot.discord.host import Host
from bot.discord.replies import frozen_view
from bot.discord.views import HandButton
from bot.i18n import t
from bot.render import GameRenderer, get_renderer
from bot.render.fair import fair_line
from bot.runtime import (
    MatchStarted,
    Player,
    PlayerJoined,
    PlayerLeft,
    SeatAway,
    SeatBack,
    TableSnapshot,
    TableStopped,
    TurnTimedOut,
)
from engines.base import DealStarted, Event, MatchEnded

log = logging.getLogger("deucebot.discord")

RECENT_LINES = 5


@dataclass
class _Outbox:
    """The pending Discord work of one table; `snapshot` is the table as last handed over
    (the outbox renders from it, never from the live table, so every board shows a
    committed turn)."""

    snapshot: TableSnapshot
    ops: collections.deque[Callable[[], Awaitable[None]]] = field(default_factory=collections.deque)
    dirty: bool = False
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    board: discord.Message | None = None
    image_key: tuple[str, ...] | None = None
    recent: collections.deque[str] = field(
        default_factory=lambda: collections.deque(maxlen=RECENT_LINES)
    )
    dms: collections.deque[tuple[int, int, TableSnapshot | None]] = field(
        default_factory=collections.deque
    )
    """(user, seat, a snapshot holding the seat's view, or None: take one when sending)."""
    dm_wake: asyncio.Event = field(default_factory=asyncio.Event)
    dm_task: asyncio.Task[None] | None = None
    dm_refused: set[int] = field(default_factory=set)


class DiscordFront:
    """Implements the runtime's `Front` for Discord channels (place = channel id)."""

    def __init__(self, client: discord.Client, host: Host, *, edit_interval: float = 1.0) -> None:
        """A front posting through `client`, with the bot's languages and tables from `host`;
        `edit_interval` spaces board edits (seconds)."""
        self.client = client
        self.host = host
        self.edit_interval = edit_interval
        self._boxes: dict[int, _Outbox] = {}
        self._dm_channels: dict[int, int] = {}
        self.rest_calls = 0
        """Messages sent and edited (for the benchmark)."""

    # ----------------------------------------------------------------- Front protocol

    async def public(self, table: TableSnapshot, events: Sequence[Event]) -> None:
        """Queue what the public events need: a new board, result posts, log lines."""
        box = self._box(table)
        lang = self.language(table)
        names = seat_names(table)
        renderer = _renderer(table)
        results: list[str] = []
        for event in events:
            if isinstance(event, DealStarted):
                box.recent.clear()
                committed = fair_line(event, lang)  # on the new board, before any card
                if committed is not None:
                    box.recent.append(committed)
                box.ops.append(self._new_board_op(box))
                continue
            line = renderer.event(event, names, lang) if renderer else None
            if line is None:
                line = _runtime_line(event, names, lang)
            line = "\n".join(filter(None, (line, fair_line(event, lang)))) or None  # a reveal
            if line is None:
                continue
            if isinstance(event, MatchEnded):
                if results:
                    box.ops.append(self._post_results(table, results))
                box.ops.append(self._post_results(table, [line]))
                results = []
            elif event.outcome:
                results.append(line)
            else:
                box.recent.append(line)
            changed = renderer.hand_changed(event) if renderer else None
            if changed is not None:
                self._queue_dm(table, changed, None)
        if results:
            box.ops.append(self._post_results(table, results))
        if any(isinstance(event, TableStopped) for event in events):
            box.dirty = True
        box.wake.set()

    async def private(
        self, table: TableSnapshot, seat: int, player: Player, events: Sequence[Event]
    ) -> None:
        """A seat's private events (its cards): DM the owner their hand."""
        self._queue_dm(table, seat, table)

    async def refresh(self, table: TableSnapshot) -> None:
        """Mark the board dirty; the outbox edits it (coalesced) or posts it if there is none."""
        box = self._box(table)
        box.dirty = True
        box.wake.set()

    # ----------------------------------------------------------------- helpers for others

    def language(self, table: TableSnapshot) -> str:
        """The table's language for public messages."""
        guild = self.client.get_guild(int(table.guild)) if table.guild.isdigit() else None
        return self.host.guild_language(guild)

    async def post_board(self, table: TableSnapshot) -> None:
        """Post a fresh board for `table` (creation)."""
        box = self._box(table)
        box.ops.append(self._new_board_op(box))
        box.wake.set()

    async def settle(self) -> None:
        """Wait until every outbox is empty (tests and the benchmark)."""
        while any(box.ops or box.dirty or box.dms for box in self._boxes.values()):
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        """Stop the outbox tasks (shutdown)."""
        for box in self._boxes.values():
            for task in (box.task, box.dm_task):
                if task is not None:
                    task.cancel()
        await asyncio.sleep(0)

    # ----------------------------------------------------------------- the outbox

    def _box(self, table: TableSnapshot) -> _Outbox:
        """The outbox of `table`, now showing this snapshot (its tasks started if needed)."""
        box = self._boxes.get(table.id)
        if box is None:
            box = self._boxes[table.id] = _Outbox(table)
        else:
            box.snapshot = table
        if box.task is None or box.task.done():
            box.task = asyncio.get_running_loop().create_task(self._run(box))
        if box.dm_task is None or box.dm_task.done():
            box.dm_task = asyncio.get_running_loop().create_task(self._run_dms(box))
        return box

    def _channel(self, table: TableSnapshot) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(
            int(table.place), guild_id=int(table.guild) if table.guild.isdigit() else None
        )

    async def _run(self, box: _Outbox) -> None:
        while True:
            await box.wake.wait()
            box.wake.clear()
            while box.ops or box.dirty:
                try:
                    if box.ops:
                        await box.ops.popleft()()
                        continue
                    box.dirty = False
                    await self._edit_board(box)
                    if self.edit_interval > 0 and not box.ops:
                        await asyncio.sleep(self.edit_interval)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("could not update the board of table %s", box.snapshot.id)

    def _new_board_op(self, box: _Outbox) -> Callable[[], Awaitable[None]]:
        async def post() -> None:
            await self._new_board(box)

        return post

    async def _new_board(self, box: _Outbox) -> None:
        shown = box.snapshot
        lang = self.language(shown)
        message = board_message(shown, lang, list(box.recent), with_image=True)
        box.dirty = False
        previous = box.board
        sent = await self._channel(shown).send(**_send_kwargs(message))
        self.rest_calls += 1
        box.board = sent
        if previous is not None:
            # The old board stops announcing turns; its My hand button keeps working.
            with contextlib.suppress(discord.HTTPException):
                await previous.edit(
                    content=t("discord.board.replaced", lang),
                    view=frozen_view(
                        HandButton(shown.id, shown.turn, t("discord.button.hand", lang))
                    ),
                )
                self.rest_calls += 1
        box.image_key = last_play_key(shown)

    async def _edit_board(self, box: _Outbox) -> None:
        if box.board is None:
            await self._new_board(box)
            return
        shown = box.snapshot
        key = last_play_key(shown)
        image = key != box.image_key
        message = board_message(shown, self.language(shown), list(box.recent), with_image=image)
        kwargs: dict[str, Any] = {
            "content": message["content"],
            "embed": message["embed"],
            "view": message["view"],
        }
        if image:
            kwargs["attachments"] = [message["file"]] if "file" in message else []
        elif box.image_key:
            message["embed"].set_image(url="attachment://table.png")
        try:
            await box.board.edit(**kwargs)
            self.rest_calls += 1
        except discord.NotFound:
            box.board = None
            await self._new_board(box)
            return
        box.image_key = key

    def _post_results(
        self, table: TableSnapshot, lines: list[str]
    ) -> Callable[[], Awaitable[None]]:
        text = "\n".join(lines)[:1900]

        async def post() -> None:
            embed = discord.Embed(description=text, colour=discord.Colour.gold())
            await self._channel(table).send(embed=embed)
            self.rest_calls += 1

        return post

    # ----------------------------------------------------------------- DMs

    def _queue_dm(self, table: TableSnapshot, seat: int, shown: TableSnapshot | None) -> None:
        """DM the owner of `seat` their hand: from `shown` (a snapshot holding the seat's
        view) or, if None, from one taken when the DM goes out."""
        if not 0 <= seat < len(table.seats):
            return
        owner = table.seats[seat].owner
        if owner is None or not owner.id.isdigit():
            return
        box = self._box(table)
        user = int(owner.id)
        if user in box.dm_refused:
            return
        box.dms.append((user, seat, shown))
        box.dm_wake.set()

    async def _run_dms(self, box: _Outbox) -> None:
        while True:
            await box.dm_wake.wait()
            box.dm_wake.clear()
            while box.dms:
                user, seat, shown = box.dms.popleft()
                if any(u == user for u, _, _ in box.dms):
                    continue  # a newer hand for the same user is queued: send that one
                try:
                    await self._send_dm(box, user, seat, shown)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception(
                        "could not DM the hand of seat %s in table %s", seat, box.snapshot.id
                    )

    async def _send_dm(
        self, box: _Outbox, user: int, seat: int, shown: TableSnapshot | None
    ) -> None:
        if shown is None:
            live = self.host.tables.by_id(box.snapshot.id)
            if live is None:
                return
            shown = await live.committed(seat)
        if shown.seat_of(str(user)) != seat or shown.view(seat) is None:
            return
        lang = self.host.locales.get(user) or self.language(shown)
        message = hand_message(shown, seat, lang, "r", controls=False)
        channel_id = self._dm_channels.get(user)
        try:
            if channel_id is None:
                data = await self.client.http.start_private_message(user)
                channel_id = self._dm_channels[user] = int(data["id"])
                self.rest_calls += 1
            channel = self.client.get_partial_messageable(
                channel_id, type=discord.ChannelType.private
            )
            kwargs = _send_kwargs(message)
            kwargs.pop("view", None)
            await channel.send(**kwargs)
            self.rest_calls += 1
        except discord.Forbidden:
            box.dm_refused.add(user)
            notice = t("discord.dm_closed", self.language(shown), mention=f"<@{user}>")
            table = box.snapshot
            box.ops.append(lambda: self._notice(table, notice))
            box.wake.set()

    async def _notice(self, table: TableSnapshot, text: str) -> None:
        await self._channel(table).send(text)
        self.rest_calls += 1


def _send_kwargs(message: dict[str, Any]) -> dict[str, Any]:
    kwargs = {k: v for k, v in message.items() if k in ("content", "embed", "file", "view")}
    if kwargs.get("view") is None:
        kwargs.pop("view", None)
    if not kwargs.get("content"):
        kwargs.pop("content", None)
    return kwargs


def _renderer(table: TableSnapshot) -> GameRenderer | None:
    try:
        return get_renderer(table.game)
    except ImportError:
        return None


def _runtime_line(event: Event, names: Sequence[str], lang: str) -> str | None:
    """A line for the runtime's own events (joins, leaves, away, timeouts, stop)."""
    key = f"discord.event.{event.kind}"
    if isinstance(event, PlayerJoined | PlayerLeft | SeatAway | SeatBack):
        return t(key, lang, name=event.name, seat=event.seat + 1)
    if isinstance(event, TurnTimedOut):
        name = names[event.seat] if 0 <= event.seat < len(names) else f"#{event.seat + 1}"
        return t(key, lang, name=name, seat=event.seat + 1, action=event.action)
    if isinstance(event, MatchStarted):
        return t(key, lang, number=event.number)
    if isinstance(event, TableStopped):
        return t(key, lang)
    return None
