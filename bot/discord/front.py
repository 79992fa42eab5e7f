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

Everything public is built from the spectator view (see `board`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.board import board_message, hand_message, last_play_key, seat_names
from bot.discord.replies import frozen_view
from bot.discord.views import HandButton
from bot.i18n import t
from bot.render import get_renderer
from bot.render.fair import fair_line
from engines.base import DealStarted, Event, MatchEnded

if TYPE_CHECKING:
    from bot.discord.client import Deucebot
    from bot.runtime import Player, Table

log = logging.getLogger("deucebot.discord")

RECENT_LINES = 5


@dataclass
class TableSnapshot:
    """What the board shows, captured when the runtime hands the front committed events.

    The outbox sends boards later; rendering from this copy (never from the live table,
    which may already hold an action whose commit is still in flight) keeps every board
    at a committed turn. Only the spectator view is kept, so it cannot leak a hand."""

    id: int
    game: str
    spec: Any
    seats: list[Any]
    status: str
    turn: int
    deal: int
    deadline: float | None
    deadline_turn: int | None
    to_act: int | None
    public_view: Any

    @classmethod
    def of(cls, table: Table) -> TableSnapshot:
        """Capture `table` now."""
        return cls(
            id=table.id,
            game=table.game,
            spec=table.spec,
            seats=list(table.seats),
            status=table.status,
            turn=table.turn,
            deal=table.deal,
            deadline=table.deadline,
            deadline_turn=table.deadline_turn,
            to_act=table.to_act,
            public_view=table.view(None),
        )

    def view(self, seat: int | None) -> Any:
        """The spectator view (the only one kept)."""
        if seat is not None:
            raise ValueError("a board snapshot holds only the spectator view")
        return self.public_view


@dataclass
class _Outbox:
    """The pending Discord work of one table."""

    ops: collections.deque[Callable[[], Awaitable[None]]] = field(default_factory=collections.deque)
    dirty: bool = False
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    board: discord.PartialMessage | None = None
    snapshot: TableSnapshot | None = None
    image_key: tuple[str, ...] | None = None
    recent: collections.deque[str] = field(
        default_factory=lambda: collections.deque(maxlen=RECENT_LINES)
    )
    dms: collections.deque[tuple[int, int, str]] = field(default_factory=collections.deque)
    dm_wake: asyncio.Event = field(default_factory=asyncio.Event)
    dm_task: asyncio.Task[None] | None = None
    dm_refused: set[int] = field(default_factory=set)


class DiscordFront:
    """Implements the runtime's `Front` for Discord channels (place = channel id)."""

    def __init__(self, bot: Deucebot, *, edit_interval: float = 1.0) -> None:
        """A front posting through `bot`; `edit_interval` spaces board edits (seconds)."""
        self.bot = bot
        self.edit_interval = edit_interval
        self._boxes: dict[int, _Outbox] = {}
        self._dm_channels: dict[int, int] = {}
        self.rest_calls = 0
        """Messages sent and edited (for the benchmark)."""

    # ----------------------------------------------------------------- Front protocol

    async def public(self, table: Table, events: Sequence[Event]) -> None:
        """Queue what the public events need: a new board, result posts, log lines."""
        box = self._box(table)
        box.snapshot = TableSnapshot.of(table)
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
                box.ops.append(lambda: self._new_board(table))
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
            player = getattr(event, "seat", None)
            if event.kind.endswith("played") and isinstance(player, int):
                self._queue_dm(table, player)
        if results:
            box.ops.append(self._post_results(table, results))
        for event in events:
            if event.kind == "table_stopped":
                box.dirty = True
        box.wake.set()

    async def private(
        self, table: Table, seat: int, player: Player, events: Sequence[Event]
    ) -> None:
        """A seat's private events (its cards): DM the owner their hand."""
        self._queue_dm(table, seat)

    async def refresh(self, table: Table) -> None:
        """Mark the board dirty; the outbox edits it (coalesced) or posts it if there is none."""
        box = self._box(table)
        box.snapshot = TableSnapshot.of(table)
        box.dirty = True
        box.wake.set()

    # ----------------------------------------------------------------- helpers for others

    def language(self, table: Table) -> str:
        """The table's language for public messages."""
        guild = self.bot.get_guild(int(table.guild)) if table.guild.isdigit() else None
        return self.bot.guild_language(guild)

    async def post_board(self, table: Table) -> None:
        """Post a fresh board for `table` (creation)."""
        box = self._box(table)
        box.snapshot = TableSnapshot.of(table)
        box.ops.append(lambda: self._new_board(table))
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

    def _box(self, table: Table) -> _Outbox:
        box = self._boxes.get(table.id)
        if box is None:
            box = self._boxes[table.id] = _Outbox()
        if box.task is None or box.task.done():
            box.task = asyncio.get_running_loop().create_task(self._run(table, box))
        if box.dm_task is None or box.dm_task.done():
            box.dm_task = asyncio.get_running_loop().create_task(self._run_dms(table, box))
        return box

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(
            int(table.place), guild_id=int(table.guild) if table.guild.isdigit() else None
        )

    async def _run(self, table: Table, box: _Outbox) -> None:
        while True:
            await box.wake.wait()
            box.wake.clear()
            while box.ops or box.dirty:
                try:
                    if box.ops:
                        await box.ops.popleft()()
                        continue
                    box.dirty = False
                    await self._edit_board(table, box)
                    if self.edit_interval > 0 and not box.ops:
                        await asyncio.sleep(self.edit_interval)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("could not update the board of table %s", table.id)

    async def _new_board(self, table: Table) -> None:
        box = self._box(table)
        shown = box.snapshot or TableSnapshot.of(table)
        message = board_message(shown, self.language(table), list(box.recent), with_image=True)  # type: ignore[arg-type]
        box.dirty = False
        previous = box.board
        sent = await self._channel(table).send(**_send_kwargs(message))
        self.rest_calls += 1
        box.board = sent
        if previous is not None:
            # The old board stops announcing turns; its My hand button keeps working.
            with contextlib.suppress(discord.HTTPException):
                await previous.edit(
                    content=t("discord.board.replaced", self.language(table)),
                    view=frozen_view(
                        HandButton(
                            table.id, shown.turn, t("discord.button.hand", self.language(table))
                        )
                    ),
                )
                self.rest_calls += 1
        box.image_key = last_play_key(shown)  # type: ignore[arg-type]

    async def _edit_board(self, table: Table, box: _Outbox) -> None:
        if box.board is None:
            await self._new_board(table)
            return
        shown = box.snapshot or TableSnapshot.of(table)
        key = last_play_key(shown)  # type: ignore[arg-type]
        image = key != box.image_key
        message = board_message(shown, self.language(table), list(box.recent), with_image=image)  # type: ignore[arg-type]
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
            await self._new_board(table)
            return
        box.image_key = key

    def _post_results(self, table: Table, lines: list[str]) -> Callable[[], Awaitable[None]]:
        text = "\n".join(lines)[:1900]

        async def post() -> None:
            embed = discord.Embed(description=text, colour=discord.Colour.gold())
            await self._channel(table).send(embed=embed)
            self.rest_calls += 1

        return post

    # ----------------------------------------------------------------- DMs

    def _queue_dm(self, table: Table, seat: int) -> None:
        if not 0 <= seat < len(table.seats):
            return
        owner = table.seats[seat].owner
        if owner is None or not owner.id.isdigit():
            return
        box = self._box(table)
        user = int(owner.id)
        if user in box.dm_refused:
            return
        box.dms.append((user, seat, ""))
        box.dm_wake.set()

    async def _run_dms(self, table: Table, box: _Outbox) -> None:
        while True:
            await box.dm_wake.wait()
            box.dm_wake.clear()
            while box.dms:
                user, seat, _ = box.dms.popleft()
                if any(u == user for u, _, _ in box.dms):
                    continue  # a newer hand for the same user is queued: send that one
                try:
                    await self._send_dm(table, box, user, seat)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("could not DM the hand of seat %s in table %s", seat, table.id)

    async def _send_dm(self, table: Table, box: _Outbox, user: int, seat: int) -> None:
        if table.seat_of(str(user)) != seat or table.view(seat) is None:
            return
        lang = self.bot.locales.get(user) or self.language(table)
        message = hand_message(table, seat, lang, "r", controls=False)
        channel_id = self._dm_channels.get(user)
        try:
            if channel_id is None:
                data = await self.bot.http.start_private_message(user)
                channel_id = self._dm_channels[user] = int(data["id"])
                self.rest_calls += 1
            channel = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            kwargs = _send_kwargs(message)
            kwargs.pop("view", None)
            await channel.send(**kwargs)
            self.rest_calls += 1
        except discord.Forbidden:
            box.dm_refused.add(user)
            notice = t("discord.dm_closed", self.language(table), mention=f"<@{user}>")
            box.ops.append(lambda: self._notice(table, notice))
            box.wake.set()

    async def _notice(self, table: Table, text: str) -> None:
        await self._channel(table).send(text)
        self.rest_calls += 1


def _send_kwargs(message: dict[str, Any]) -> dict[str, Any]:
    kwargs = {k: v for k, v in message.items() if k in ("content", "embed", "file", "view")}
    if kwargs.get("view") is None:
        kwargs.pop("view", None)
    if not kwargs.get("content"):
        kwargs.pop("content", None)
    return kwargs


def _renderer(table: Table) -> Any:
    try:
        return get_renderer(table.game)
    except ImportError:
        return None


def _runtime_line(event: Event, names: Sequence[str], lang: str) -> str | None:
    """A line for the runtime's own events (joins, leaves, away, timeouts, stop)."""
    params: dict[str, Any] = {}
    seat = getattr(event, "seat", None)
    if isinstance(seat, int) and 0 <= seat < len(names):
        params["name"] = getattr(event, "name", names[seat])
        params["seat"] = seat + 1
    if event.kind == "turn_timed_out":
        params["action"] = getattr(event, "action", "")
    if event.kind == "match_started":
        params["number"] = getattr(event, "number", 1)
    key = f"discord.event.{event.kind}"
    text = t(key, lang, **params)
    return None if text == key else text
