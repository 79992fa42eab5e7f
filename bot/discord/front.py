"""The Discord front: the runtime's events become boards, result posts and DMs.

What the channel shows is a function of the committed action log, not of the live table
at send time. Every public effect (the board of deal d, each deal's result, the match
result; see `effects`) is split out of the committed events the runtime hands over, with
the turn it was committed up to, and delivered by one outbox task per table in log order:

- a board of deal d only ever shows deal d: it is drawn from the last snapshot of that
  deal (a deal that ended before its board went out still gets one, in its final state,
  without buttons); posting it edits the previous board to "replaced", without buttons;
- each result is a message of its own, posted before the next deal's board;
- every delivered effect is recorded (`storage.deliveries`) with its message id. At
  start-up the outbox derives the effects of the log again, delivers those after the
  last recorded one, once, in order; it keeps editing the current deal's board of the
  earlier process and marks its older board as replaced;
- every post is idempotent across processes: it carries a nonce derived from the channel,
  table, match and effect (`effects.post_nonce`; discord.py sends it with
  `enforce_nonce`, so a post repeated within Discord's few minutes returns the message
  already made), and its intent is recorded before it is sent. At start-up an intent
  without a delivery (the process died after Discord stored the post, before its record)
  is looked up in the channel's messages after the one it came after: found, that message
  is adopted (recorded, edited), not posted again;
- board edits are coalesced (a burst of refreshes becomes one edit, spaced by
  `edit_interval` seconds) and only ever show the board's own deal;
- 429 and 5xx answers are retried with backoff for up to `retry_for` seconds (logged;
  an effect given up on stays unrecorded, so the next start delivers it);
- a 403 for a lost permission (50001 Missing Access, 50013 Missing Permissions) pauses the
  table's outbox (`Pause`) instead: nothing is dropped or retried in a loop; it is tried
  again by `resume` (a member's click where the permissions are back) or every
  `pause_retry` seconds, and then delivers what waited, in log order;
- DMs (own task per table so a slow DM never holds up the board): the hand once per deal,
  when it is dealt (`GameRenderer.dealing`), and after a move the owner did not make
  themselves (a timeout, an away seat played for them); after their own move (a play, a
  draw, a lock) the answer to their click or command already shows the new hand. If
  Discord refuses a DM, the channel is told once (remembered in the database across
  restarts) and the ephemeral "My hand" remains;
- under Discord's request budget DMs go last (`Priority.DM`), board edits before them
  (`Priority.EDIT`), and edits are spaced further while requests queue.

Everything is rendered from `TableSnapshot`s (never the live table) and held to
Discord's text limits (`textlimits`).

`DiscordFront` only routes: each table's messages have one owner, its `TableChannel`
(`table_channel`), to which the runtime's calls and members' clicks are requests;
beside it, `Transport` (REST or a lent token, retries, budget), `Recovery` (records,
intents, adopted posts, replaced boards) and `DirectMessages` do one job each.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterator, Sequence

import discord

from bot.charts.match import MatchSummaries
from bot.discord.delivery_hooks import NO_HOOKS, DeliveryHooks
from bot.discord.direct_messages import DirectMessages
from bot.discord.host import Host
from bot.discord.live_hands import LiveHands
from bot.discord.loop_pressure import LoopPressure
from bot.discord.recovery import Recovery
from bot.discord.table_channel import TableChannel
from bot.discord.tokens import InteractionTokens
from bot.discord.transport import POST_MARGIN, Pause, Transport
from bot.pictures.worker import PictureDrawer
from bot.render.results import renderer_of
from bot.runtime import Player, TableSnapshot, TableStopped
from engines.base import Event
from storage.deliveries import Deliveries

__all__ = ["BOARD_FIRST", "PAUSE_RETRY", "DiscordFront", "Pause"]

BOARD_FIRST = 10.0
"""Seconds a deal's hand DMs wait at most for the deal's board (with its commitment)."""
PAUSE_RETRY = 60.0
"""Seconds between two attempts of a paused channel (besides members' clicks)."""


class DiscordFront:
    """Implements the runtime's `Front` for Discord channels (place = channel id): routes
    each table's work to its `TableChannel`."""

    def __init__(
        self,
        client: discord.Client,
        host: Host,
        *,
        edit_interval: float = 1.0,
        deliveries: Deliveries | None = None,
        retry_for: float = 120.0,
        pause_retry: float = PAUSE_RETRY,
        pictures: PictureDrawer | None = None,
        hooks: DeliveryHooks = NO_HOOKS,
    ) -> None:
        """A front posting through `client`, with the bot's languages and tables from `host`;
        `edit_interval` spaces board edits (seconds); `deliveries` records what was
        delivered (None: nothing survives a restart); 429/5xx answers are retried for up
        to `retry_for` seconds; a paused channel is tried again every `pause_retry` seconds;
        `pictures` draws the pictures off the event loop (None: in threads); `hooks` are
        told where delivery is (the crash tests' kill points; none by default)."""
        self.client = client
        self.pictures = pictures
        self.pause_retry = pause_retry
        self.host = host
        self.edit_interval = edit_interval
        self.deliveries = deliveries
        self.hooks = hooks
        self.summaries = MatchSummaries(deliveries)
        self.tokens = InteractionTokens(POST_MARGIN)
        """Members' recent interactions at tables, per channel (`lend` them as they come)."""
        self.transport = Transport(client, self.tokens, retry_for)
        self.recovery = Recovery(client, self.transport, deliveries, self.language)
        self.dms = DirectMessages(
            client, host, self.transport, deliveries, pictures, self.language, self._settled
        )
        self.hands = LiveHands(host, pictures)
        """Members' ephemeral hands, edited through their own interactions."""
        self.pressure = LoopPressure()
        """Holds board edits back while the loop runs late (clicks are answered first)."""
        self.answer_updates = 0
        """Boards brought up to date by the answer to a click on them (`answer_with_board`)."""
        self.delivered_sink: Callable[[float], None] | None = None
        """Called with each delivered effect's delay (seconds from hand-over; metrics)."""
        self._channels: dict[int, TableChannel] = {}
        self._closed = False
        """Set by `close`: no channel starts again (the connection is going away)."""

    @property
    def rest_calls(self) -> int:
        """Messages sent and edited through the budgeted REST routes (for the benchmark)."""
        return self.transport.rest_calls

    @property
    def token_calls(self) -> int:
        """Boards and results posted or edited through a member's interaction token."""
        return self.transport.token_calls

    @property
    def retries(self) -> int:
        """REST calls retried after a 429 or 5xx."""
        return self.transport.retries

    @property
    def retry_for(self) -> float:
        """Seconds 429/5xx answers are retried."""
        return self.transport.retry_for

    def _edit_backoff(self, urgent: bool) -> float:
        return self.transport.edit_backoff(urgent)

    # ----------------------------------------------------------------- Front protocol

    async def public(self, table: TableSnapshot, events: Sequence[Event]) -> None:
        """Hand committed public events (boards, results, lines) to the table's channel;
        DM the hands a move someone else made changed; tell the knocked out."""
        self._channel(table).public(table, events)
        renderer = renderer_of(table)
        for event in events:
            changed = renderer.hand_changed(event) if renderer else None
            if changed is not None and _played_for(table, changed):
                self._queue_dm(table, changed, None)
        if not self._closed:
            self.dms.knocked_out(table, events)
        if any(isinstance(event, TableStopped) for event in events) and table.place.isdigit():
            self.tokens.forget(int(table.place))  # no post rides on the table's tokens now
        self.hands.moved(table)

    async def private(
        self, table: TableSnapshot, seat: int, player: Player, events: Sequence[Event]
    ) -> None:
        """A seat's private events (its cards): DM the owner their hand when they were dealt
        a new one (`GameRenderer.dealing`) or when a move someone else made for the seat
        changed it (a timeout, the AI playing an away seat). After their own move (a draw,
        a lock) the answer to it already shows the new hand: no DM."""
        renderer = renderer_of(table)
        dealt = renderer is not None and any(isinstance(e, renderer.dealing) for e in events)
        if dealt or _played_for(table, seat):
            self._queue_dm(table, seat, table)

    async def caught_up(self, table_id: int, turn: int, within: float) -> None:
        """Return once the table's board showed `turn` (posted or edited), or after
        `within` seconds, or at once while its delivery is paused; then once the loop has
        room for the AI move that follows (`LoopPressure.admit`: while it runs late,
        members' clicks go first)."""
        channel = self._channels.get(table_id)
        if channel is not None and not self._closed:
            await channel.shown(turn, within)
        if not self._closed:
            await self.pressure.admit()

    async def refresh(self, table: TableSnapshot) -> None:
        """The board is to show `table`: its channel edits it (coalesced) or posts it."""
        self._channel(table).refresh(table)
        self.hands.moved(table)

    # ----------------------------------------------------------------- helpers for others

    def language(self, table: TableSnapshot) -> str:
        """The table's language for public messages."""
        guild = self.client.get_guild(int(table.guild)) if table.guild.isdigit() else None
        return self.host.guild_language(guild)

    async def post_board(self, table: TableSnapshot) -> None:
        """Make sure `table` has a board (creation): posted unless one is on its way."""
        self._channel(table).refresh(table)

    def lend(self, interaction: discord.Interaction) -> None:
        """A member's interaction: lent for its channel's boards if it is one at a table and
        a table lives there, or it may open one (`InteractionTokens.lend`)."""
        channel = interaction.channel_id
        table = self.host.tables.find(str(channel)) if channel is not None else None
        self.tokens.lend(interaction, table_lives=table is not None and table.status != "stopped")

    def held(self) -> dict[str, int]:
        """What the front holds now: channels, their tasks, lent interactions, watched hands
        (all let go of once a table stopped and its last effect went out)."""
        tasks = sum(channel.tasks() for channel in self._channels.values())
        return {
            "outboxes": len(self._channels),
            "tasks": tasks + self.dms.tasks(),
            "tokens": len(self.tokens),
            "hands": self.hands.watched(),
        }

    def paused(self) -> dict[int, Pause]:
        """Table id -> why its channel delivery is paused (only the paused tables)."""
        return {
            tid: channel.paused
            for tid, channel in self._channels.items()
            if channel.paused is not None
        }

    def pause_of(self, table_id: int) -> Pause | None:
        """Why the channel delivery of table `table_id` is paused (None: it is not)."""
        channel = self._channels.get(table_id)
        return None if channel is None else channel.paused

    def lag(self) -> dict[int, float]:
        """Table id -> seconds its oldest undelivered effect has waited (0: none waits)."""
        return {tid: channel.lag() for tid, channel in self._channels.items()}

    def resume(self, table_id: int) -> None:
        """Try a paused table's delivery again now (its permissions may be back); paused
        again if Discord still refuses."""
        channel = self._channels.get(table_id)
        if channel is not None and channel.paused is not None:
            channel.resume()

    def _busy(self) -> bool:
        return any(channel.busy() or self.dms.busy(tid) for tid, channel in self._channels.items())

    async def settle(self) -> None:
        """Wait until every channel is empty (tests and the benchmark)."""
        while self._busy():
            await asyncio.sleep(0.01)

    async def drain(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for every channel to send what it holds (a shutdown,
        once the tables stopped: the channel shows the last committed state, not the one
        before); True when all was sent."""
        deadline = time.monotonic() + timeout
        while self._busy():
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(0.02)
        return True

    async def close(self) -> None:
        """Stop the channels' tasks (shutdown); later events are not sent."""
        self._closed = True
        self.pressure.stop()
        self.hands.close()
        self.dms.close()
        for channel in self._channels.values():
            channel.close()
        await asyncio.sleep(0)

    # ----------------------------------------------------------------- the channels

    def _channel(self, table: TableSnapshot) -> TableChannel:
        """The channel of `table` (made and started if needed)."""
        channel = self._channels.get(table.id)
        if channel is None:
            channel = self._channels[table.id] = TableChannel(self, table)
        if not self._closed:
            self.pressure.start()
            channel.start()
        return channel

    def let_go(self, table_id: int, channel: object) -> None:
        """Let go of a stopped table's `channel` once its last effect went out (it ended its
        tasks): its `/metrics` series (`lag`), its hands and its members' watched hands go
        with it. (A paused one is kept: what waits goes out when the channel lets the bot
        in again.) A later call about the table would make a new one."""
        if self._channels.get(table_id) is channel:
            del self._channels[table_id]
        self.dms.release(table_id)
        self.hands.drop_table(table_id)

    def _settled(self, table_id: int) -> None:
        """A table's hands are all sent: its channel may be let go of now."""
        channel = self._channels.get(table_id)
        if channel is not None:
            channel.poke()

    def _queue_dm(self, table: TableSnapshot, seat: int, shown: TableSnapshot | None) -> None:
        channel = self._channel(table)

        async def board_out(hand: TableSnapshot) -> None:
            await channel.board_out(hand, BOARD_FIRST)

        self.dms.hand(table, seat, shown, board_out, self._notice)

    def _notice(self, table: TableSnapshot, text: str, user: int) -> None:
        channel = self._channels.get(table.id)
        if channel is not None:
            channel.notice(text, user)

    # ----------------------------------------------------------------- members' clicks

    @contextlib.contextmanager
    def holding_board(self, interaction: discord.Interaction, table_id: int) -> Iterator[None]:
        """Inside: a click on the table's current board is being acted on and answered
        (`answer_with_board`); its channel's board edits wait meanwhile (`HOLD_FOR` at
        most), so that the answer, outside the budget, is what shows the change."""
        channel = self._channels.get(table_id)
        clicked = interaction.message
        if channel is None or clicked is None:
            yield
            return
        release = channel.hold(clicked.id)
        try:
            yield
        finally:
            release()

    async def answer_with_board(self, interaction: discord.Interaction, table_id: int) -> bool:
        """Answer a member's click on their table's current board, which the click changed,
        with that board brought up to date: callback type 7 (UPDATE_MESSAGE), or an edit
        of the original response once the click was deferred; both outside the global
        budget. Whether it did: not when the clicked message is not the current board of
        the deal the table is in, when a post (a result, the next deal's board) is on its
        way first, or where the interaction shows the bot lacking a permission (an answer
        is not held to them: it would hide the refusal). The channel does it, between two
        of its own writes; its next edit is skipped if it would show the same."""
        channel = self._channels.get(table_id)
        if channel is None:
            return False
        return await channel.answer(interaction)

    def watch_hand(
        self,
        interaction: discord.Interaction,
        table_id: int,
        seat: int,
        sort: str,
        *,
        note: str = "",
        selected: tuple[str, ...] = (),
        image: str | None = None,
    ) -> None:
        """Keep the ephemeral hand `interaction` answered with up to date (`LiveHands`)."""
        channel = self._channels.get(table_id)
        if channel is not None and not self._closed:
            self.hands.watch(
                interaction, channel.snapshot, seat, sort, note=note, selected=selected, image=image
            )

    def hand_pictured(self, interaction: discord.Interaction, table_id: int) -> None:
        """The late picture of the hand `interaction` answered with is ready (`LiveHands`)."""
        if not self._closed:
            self.hands.pictured(interaction, table_id)


def _played_for(table: TableSnapshot, seat: int) -> bool:
    """Whether the last move at `table` that changed `seat`'s hand was one its owner did not
    make: a timeout (the seat's timeouts in a row count it until the owner moves again), or
    the AI playing the seat while it is away (the owner's own moves answer with the hand)."""
    if not 0 <= seat < len(table.seats):
        return False
    return table.seats[seat].away or table.seats[seat].timeouts > 0
