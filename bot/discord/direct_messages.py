"""Direct messages of the tables: a member's hand once per deal when it is dealt, and after
a move they did not make themselves (a timeout, the AI playing their away seat); the
notice told once to a member knocked out of a match. A table's hands go out in a task of
their own (a slow DM never holds up its board), each after the board of its deal (with
the deal's commitment) is in the channel. If Discord refuses a DM, the channel is told
once (remembered in the database across restarts) and the ephemeral "My hand" remains.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

import discord

from bot.discord.board import draw_hand_ahead, hand_cards, hand_message
from bot.discord.host import Host
from bot.discord.rest_budget import Priority, priority
from bot.discord.transport import Transport, send_kwargs
from bot.i18n import t
from bot.pictures.worker import PictureDrawer
from bot.process.jsonlog import bind_ids
from bot.render.results import renderer_of
from bot.runtime import TableSnapshot
from engines.base import Event
from storage.deliveries import Deliveries

log = logging.getLogger("deucebot.discord")

DM_CLOSED = "dm_closed"
KNOCKED_OUT = "knocked_out"
"""The notice told once to a member knocked out of a match (`:<match>` follows)."""

BoardOut = Callable[[TableSnapshot], Awaitable[None]]
"""Waits until the board of a snapshot's deal is in the channel (or no longer awaited)."""
Notice = Callable[[TableSnapshot, str, int], None]
"""Posts a notice in a table's channel addressed to a member (pinged)."""


@dataclass
class _Hands:
    """The hands waiting to be sent at one table, and the task that sends them."""

    table: TableSnapshot
    waiting: collections.deque[tuple[int, int, TableSnapshot | None]] = field(
        default_factory=collections.deque
    )
    """(user, seat, a snapshot holding the seat's view, or None: take one when sending)."""
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    sending: bool = False
    refused: dict[int, int] = field(default_factory=dict)
    """Member -> the deal whose hand their closed DMs refused: not tried again that deal,
    tried again at the next (they may have opened their DMs meanwhile)."""


class DirectMessages:
    """Every table's DMs: hands (a task per table) and knocked-out notices."""

    def __init__(
        self,
        client: discord.Client,
        host: Host,
        transport: Transport,
        deliveries: Deliveries | None,
        pictures: PictureDrawer | None,
        language: Callable[[TableSnapshot], str],
        settled: Callable[[int], None],
    ) -> None:
        """DMs through `client` and `transport`, in each member's language (`host`; else
        the table's, `language`), with what was said remembered in `deliveries`;
        `settled(table_id)` is called whenever a table's hands are all sent (its channel
        may be let go of then)."""
        self.client = client
        self.host = host
        self.transport = transport
        self.deliveries = deliveries
        self.pictures = pictures
        self.language = language
        self.settled = settled
        self._tables: dict[int, _Hands] = {}
        self._channels: dict[int, int] = {}
        self._closed_said: dict[int, bool] = {}
        """Whether the "DMs are closed" notice stands said for a member (the database's
        record, read once per member and process: not once per DM)."""
        self._said: set[tuple[int, str]] = set()
        """(member, notice) said by this process (the database remembers across restarts)."""
        self._notices: set[asyncio.Task[None]] = set()
        self._closed = False

    def hand(
        self,
        table: TableSnapshot,
        seat: int,
        shown: TableSnapshot | None,
        board_out: BoardOut,
        notice: Notice,
    ) -> None:
        """DM the owner of `seat` their hand: from `shown` (a snapshot holding the seat's
        view) or, if None, from one taken when the DM goes out; after `board_out`, and
        `notice` in the channel if their DMs are closed."""
        if not 0 <= seat < len(table.seats) or self._closed:
            return
        owner = table.seats[seat].owner
        if owner is None or not owner.id.isdigit():
            return
        hands = self._tables.get(table.id)
        if hands is None:
            hands = self._tables[table.id] = _Hands(table)
        hands.table = table
        user = int(owner.id)
        if hands.refused.get(user) == table.deal:
            return
        hands.waiting.append((user, seat, shown))
        if hands.task is None or hands.task.done():
            run = self._run(hands, board_out, notice)
            hands.task = asyncio.get_running_loop().create_task(run)
        hands.wake.set()

    def busy(self, table_id: int) -> bool:
        """Whether a hand of the table waits or is on its way."""
        hands = self._tables.get(table_id)
        return hands is not None and bool(hands.waiting or hands.sending)

    def tasks(self) -> int:
        """Tasks running now (the tables' and the notices')."""
        running = [h.task for h in self._tables.values() if h.task and not h.task.done()]
        return len(running) + len(self._notices)

    def release(self, table_id: int) -> None:
        """Let go of a stopped table's hands (its channel is let go of)."""
        hands = self._tables.pop(table_id, None)
        task = hands.task if hands is not None else None
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def close(self) -> None:
        """Stop every task (shutdown)."""
        self._closed = True
        for task in list(self._notices):
            task.cancel()
        for hands in self._tables.values():
            if hands.task is not None:
                hands.task.cancel()

    async def _run(self, hands: _Hands, board_out: BoardOut, notice: Notice) -> None:
        while True:
            await hands.wake.wait()
            hands.wake.clear()
            while hands.waiting:
                table = hands.table
                bind_ids(guild=table.guild, table=table.id, match=table.match)
                user, seat, shown = hands.waiting[0]
                if any(u == user for u, _, _ in list(hands.waiting)[1:]):
                    hands.waiting.popleft()
                    continue  # a newer hand for the same user is queued: send that one
                hands.sending = True
                hands.waiting.popleft()
                try:
                    if shown is not None:
                        await board_out(shown)
                    with priority(Priority.DM):
                        await self._send_hand(hands, user, seat, shown, notice)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("could not DM the hand of seat %s in table %s", seat, table.id)
                finally:
                    hands.sending = False
            self.settled(hands.table.id)

    async def _send_hand(
        self, hands: _Hands, user: int, seat: int, shown: TableSnapshot | None, notice: Notice
    ) -> None:
        if shown is None:
            live = self.host.tables.by_id(hands.table.id)
            if live is None:
                return
            shown = await live.committed(seat)
        if shown.seat_of(str(user)) != seat or shown.view(seat) is None:
            return
        if not hand_cards(shown, seat, "r"):
            return  # nothing in hand (the deal is over for them): no "Your hand (0)"
        lang = self.host.locales.get(user) or self.language(shown)
        deck = await self.host.decks.of(user)
        await draw_hand_ahead(shown, seat, lang, "r", deck, self.pictures)
        try:
            channel = await self._channel(user)

            nonce = secrets.token_hex(12)  # one for every try: a stored try is not sent twice

            def send() -> Awaitable[discord.Message]:
                fresh = send_kwargs(hand_message(shown, seat, lang, "r", controls=False, deck=deck))
                fresh.pop("view", None)
                return channel.send(**fresh, nonce=nonce)

            await self.transport.retry("DM", send)
            self.transport.rest_calls += 1
        except discord.Forbidden:
            hands.refused[user] = shown.deal
            if await self._closed_notice_said(user, True):
                return
            closed = t("discord.dm_closed", self.language(shown), mention=f"<@{user}>")
            notice(shown, closed, user)
            return
        await self._closed_notice_said(user, False)

    async def _channel(self, user: int) -> discord.PartialMessageable:
        """The DM channel with `user` (opened once per member and process)."""
        channel_id = self._channels.get(user)
        if channel_id is None:
            data = await self.transport.retry(
                "DM channel", lambda: self.client.http.start_private_message(user)
            )
            channel_id = self._channels[user] = int(data["id"])
            self.transport.rest_calls += 1
        return self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    def knocked_out(self, table: TableSnapshot, events: Sequence[Event]) -> None:
        """A member knocked out of a match that goes on is told once, privately, what they
        can do (watch, restart when it ends, leave)."""
        renderer = renderer_of(table)
        if renderer is None or table.finished or table.match is None or self._closed:
            return
        for event in events:
            seat = renderer.knocked_out(event)
            owner = table.seats[seat].owner if seat is not None else None
            if owner is None or not owner.id.isdigit():
                continue
            task = asyncio.get_running_loop().create_task(
                self._send_knocked_out(int(owner.id), table)
            )
            self._notices.add(task)
            task.add_done_callback(self._notices.discard)

    async def _send_knocked_out(self, user: int, table: TableSnapshot) -> None:
        notice = f"{KNOCKED_OUT}:{table.match}"
        if (user, notice) in self._said or (
            self.deliveries is not None and await self.deliveries.said(str(user), notice)
        ):
            return
        self._said.add((user, notice))
        lang = self.host.locales.get(user) or self.language(table)
        place = f"<#{table.place}>" if table.place.isdigit() else table.place
        text = t("discord.knocked_out", lang, channel=place)
        try:
            channel = await self._channel(user)
            await self.transport.retry("DM", lambda: channel.send(content=text))
            self.transport.rest_calls += 1
        except discord.HTTPException:
            log.info("could not tell member %s they are out of table %s", user, table.id)
            return
        if self.deliveries is not None:
            await self.deliveries.remember_said(str(user), notice, True)

    async def _closed_notice_said(self, user: int, closed: bool) -> bool:
        """Record whether `user`'s DMs are `closed` (said once across restarts, said again
        after they reopen and close); whether the notice was already said before."""
        said = self._closed_said.get(user)
        if said is None:
            said = self.deliveries is not None and await self.deliveries.said(str(user), DM_CLOSED)
        if said != closed and self.deliveries is not None:
            await self.deliveries.remember_said(str(user), DM_CLOSED, closed)
        self._closed_said[user] = closed
        return said and closed
