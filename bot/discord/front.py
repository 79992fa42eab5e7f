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
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any, TypeVar

import discord

from bot.charts.match import MatchSummaries
from bot.discord import effects as fx
from bot.discord.board import (
    BOARD_COLOUR,
    attach,
    board_message,
    done_within,
    draw_ahead,
    draw_hand_ahead,
    draw_result_ahead,
    fresh_file,
    hand_cards,
    hand_message,
    last_play_key,
    result_message,
    seat_names,
)
from bot.discord.delivery_hooks import NO_HOOKS, DeliveryHooks
from bot.discord.effects import Effect
from bot.discord.host import Host
from bot.discord.live_hands import LiveHands
from bot.discord.loop_pressure import LoopPressure
from bot.discord.permissions import is_thread, missing_permissions
from bot.discord.replies import edit_clicked_publicly, edit_unparsed
from bot.discord.rest_budget import Priority, priority
from bot.discord.safe_text import pinging
from bot.discord.textlimits import fit_message
from bot.discord.tokens import InteractionTokens, LostAnswer, expired, post_once
from bot.discord.wording import CHANNEL
from bot.i18n import t
from bot.jsonlog import bind_ids
from bot.pictures.worker import PictureDrawer
from bot.render import GameRenderer
from bot.render.fair import fair_line
from bot.render.phrases import deal_word
from bot.render.results import renderer_of, result_text
from bot.render.runtime_events import runtime_line
from bot.runtime import (
    Player,
    SeedsRevealed,
    TableSnapshot,
    TableStopped,
)
from engines.base import DealStarted, Event
from storage.deliveries import Deliveries, PostIntent

log = logging.getLogger("deucebot.discord")

RECENT_LINES = 5
KEEP_DEALS = 3
"""Snapshots of the last few deals kept per table (to draw a late board of its own deal)."""
DM_CLOSED = "dm_closed"
KNOCKED_OUT = "knocked_out"
"""The notice told once to a member knocked out of a match (`:<match>` follows)."""
HOLD_FOR = 2.5
"""Seconds the outbox's board edit waits at most for a click's answer showing the board."""
REDRAW_AFTER = 5.0
"""Seconds before a board edit that failed (after its retries) is tried again."""
BOARD_FIRST = 10.0
"""Seconds a deal's hand DMs wait at most for the deal's board (with its commitment)."""
CLOCK_SKEW = 10.0
"""Seconds an intent's own clock may run ahead of Discord's (when it knew no earlier
message, its post is looked for among the messages from this long before it on)."""
HISTORY_LOOKED_AT = 100
"""Messages read (one request) after the one an intended post came after."""
RESULT_COLOUR = discord.Colour.gold()
POST_MARGIN = 120.0
"""Seconds a lent token must still live to post a board or result through it (the board
is then edited through it while it lives, through the bot's REST after)."""
EDIT_MARGIN = 5.0
"""Seconds a token must still live to edit through it (else: the bot's REST routes)."""
PICTURE_WAIT = 0.5
"""Seconds a board post or edit waits at most for its new picture; a picture drawn later
follows by another edit (the text, with the last picture, goes now). Past what the
picture worker can draw (1,000 busy tables on two cores), boards waited 3-4 s for their
picture, and the move and "your turn" with them (board staleness p50 4.3 s, p99 7.9-9.3
s; with this wait 1.5 / 3.4 s, the pictures 3.5 / 5.7 s). At 300 tables it never
triggers. An AI still waits for its move's picture (`caught_up`)."""

LOST_ACCESS = frozenset({50001, 50013})
"""Discord's codes of a 403 for a permission the bot lacks in the channel."""
PAUSE_RETRY = 60.0
"""Seconds between two attempts of a paused outbox (besides members' clicks)."""

T = TypeVar("T")
Board = discord.Message | discord.PartialMessage


@dataclass(frozen=True)
class Pause:
    """Why a table's channel delivery is paused: Discord's 403 `code` (50001 or 50013) to
    `what` ("board", "board edit"...), since `since` (`time.time()`)."""

    code: int
    what: str
    since: float


def lost_access(error: BaseException) -> bool:
    """Whether `error` is Discord's 403 for a permission the bot lacks (not a closed DM)."""
    return isinstance(error, discord.Forbidden) and error.code in LOST_ACCESS


@dataclass
class _Outbox:
    """The pending Discord work of one table; `snapshot` is the table as last handed over
    (the outbox renders from snapshots, never from the live table)."""

    snapshot: TableSnapshot
    match: int | None
    effects: collections.deque[Effect] = field(default_factory=collections.deque)
    done: set[str] = field(default_factory=set)
    """Keys of the current match's effects delivered (here or by an earlier process)."""
    recovered: bool = False
    deal_snaps: dict[int, TableSnapshot] = field(default_factory=dict)
    notices: collections.deque[tuple[str, int]] = field(default_factory=collections.deque)
    """Notices to post in the channel: each text and the member it addresses (pinged)."""
    dirty: bool = False
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    board: Board | None = None
    board_deal: int | None = None
    """The deal the board shows (None: a lobby board, or none yet)."""
    board_expires: datetime | None = None
    """When the token that posted the board expires (None: posted through REST, or by an
    earlier process: edited through REST)."""
    image_key: tuple[str, ...] | None = None
    last_message: int | None = None
    """The newest message this outbox posted or adopted in the channel (what the next
    post comes after)."""
    intents: dict[str, PostIntent] = field(default_factory=dict)
    """Effect -> an earlier process's post of it, intended and never recorded (recovery)."""
    recent: collections.deque[str] = field(
        default_factory=lambda: collections.deque(maxlen=RECENT_LINES)
    )
    dms: collections.deque[tuple[int, int, TableSnapshot | None]] = field(
        default_factory=collections.deque
    )
    """(user, seat, a snapshot holding the seat's view, or None: take one when sending)."""
    dm_wake: asyncio.Event = field(default_factory=asyncio.Event)
    board_sent: asyncio.Event = field(default_factory=asyncio.Event)
    """Set whenever a board is delivered: a deal's DMs wait for its board (and commitment)."""
    commitments: dict[int, str] = field(default_factory=dict)
    """Deal -> its fairness commitment line, shown first on that deal's board."""
    revealed: tuple[int, str] | None = None
    """A restart's line revealing the abandoned match's seeds, and the deal of the new
    match's board that shows it first (the new match's opening lines never push it out)."""

    def lines(self, deal: int, recent: list[str] | None = None) -> list[str]:
        """The board's recent lines for `deal`: a restart's reveal of the abandoned match's
        seeds and the deal's commitment first (never pushed out by the recent lines), then
        `recent` (default: the box's recent lines)."""
        shown = list(self.recent) if recent is None else recent
        committed = self.commitments.get(deal)
        if committed is not None:
            shown = [committed, *shown]
        if self.revealed is not None and self.revealed[0] == deal:
            shown = [self.revealed[1], *shown]
        return shown

    dm_task: asyncio.Task[None] | None = None
    dm_refused: dict[int, int] = field(default_factory=dict)
    """Member -> the deal whose hand their closed DMs refused: not tried again that deal,
    tried again at the next (they may have opened their DMs meanwhile)."""
    dm_sending: bool = False
    paused: Pause | None = None
    """Set while Discord refuses the channel's posts for a lost permission."""
    probing: bool = False
    """Set by a pause, cleared by the next post or edit the bot's REST routes make in the
    channel: meanwhile no token is used (a token's webhook is not held to the channel's
    permissions, so it would hide that the channel still refuses the bot)."""
    unreplaced: list[tuple[Board, datetime | None]] = field(default_factory=list)
    """Earlier boards (and their tokens' expiry) still to be marked replaced."""
    replacing: asyncio.Task[None] | None = None
    """Marking them replaced (`DiscordFront._replacing`), apart from the outbox."""
    queued: dict[str, float] = field(default_factory=dict)
    """Effect key -> when it was handed over (`time.monotonic()`), until delivered."""
    drawing: int = 0
    """Pictures being drawn in a worker thread for this table's next post or edit."""
    late_picture: asyncio.Future[None] | None = None
    """The picture of a board sent without it (`PICTURE_WAIT`), still being drawn: the
    board is edited again when it is ready."""
    board_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while the board is edited (by the outbox, or by a click's own answer)."""
    table_cards: tuple[str, ...] = ()
    """The cards on the table the board last showed (`waited_for`)."""
    holds: int = 0
    """Clicks on the board being answered with it (`holding_board`)."""
    released: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when the last hold ends."""
    answered: str | None = None
    """What a click's answer (`answer_with_board`) showed on the board (`_seen`): the
    outbox's next edit is skipped if it would show the same."""
    shown_turn: int = -1
    """The latest turn of the match a board post or edit showed (`DiscordFront.caught_up`)."""
    caught: asyncio.Event = field(default_factory=asyncio.Event)
    """Set whenever `shown_turn` moves on."""

    def showed(self, turn: int) -> None:
        """A board post or edit showed the table at `turn`."""
        if turn > self.shown_turn:
            self.shown_turn = turn
            self.caught.set()

    def busy(self) -> bool:
        """True while something is queued or a DM is on its way (a paused outbox waits)."""
        if self.paused is not None:
            return bool(self.dms or self.dm_sending or self.drawing)
        return bool(
            self.effects
            or self.unreplaced
            or self.notices
            or self.dirty
            or self.dms
            or self.dm_sending
            or self.drawing
            or not self.recovered
        )


class DiscordFront:
    """Implements the runtime's `Front` for Discord channels (place = channel id)."""

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
        to `retry_for` seconds; a paused outbox is tried again every `pause_retry` seconds;
        `pictures` draws the pictures off the event loop (None: in threads); `hooks` are
        told where delivery is (the crash tests' kill points; none by default)."""
        self.client = client
        self.pictures = pictures
        self.pause_retry = pause_retry
        self.host = host
        self.edit_interval = edit_interval
        self.deliveries = deliveries
        self.summaries = MatchSummaries(deliveries)
        self.retry_for = retry_for
        self._boxes: dict[int, _Outbox] = {}
        self._dm_channels: dict[int, int] = {}
        self._dm_closed_said: dict[int, bool] = {}
        self._said: set[tuple[int, str]] = set()
        """(member, notice) said by this process (the database remembers across restarts)."""
        self._notices: set[asyncio.Task[None]] = set()
        """Whether the "DMs are closed" notice stands said for a member (the database's
        record, read once per member and process: not once per DM)."""
        self._closed = False
        """Set by `close`: no outbox task starts again (the connection is going away)."""
        self.rest_calls = 0
        """Messages sent and edited through the budgeted REST routes (for the benchmark)."""
        self.token_calls = 0
        """Boards and results posted or edited through a member's interaction token."""
        self.answer_updates = 0
        """Boards brought up to date by the answer to a click on them (`answer_with_board`)."""
        self.tokens = InteractionTokens(POST_MARGIN)
        """Members' recent interactions at tables, per channel (`lend` them as they come)."""
        self.hands = LiveHands(host, pictures)
        """Members' ephemeral hands, edited through their own interactions."""
        self.pressure = LoopPressure()
        """Holds board edits back while the loop runs late (clicks are answered first)."""
        self.retries = 0
        """REST calls retried after a 429 or 5xx."""
        self.crash = hooks
        self.delivered_sink: Callable[[float], None] | None = None
        """Called with each delivered effect's delay (seconds from hand-over; metrics)."""

    # ----------------------------------------------------------------- Front protocol

    async def public(self, table: TableSnapshot, events: Sequence[Event]) -> None:
        """Queue the effects of committed public events (boards, results) and log lines."""
        box = self._box(table)
        lang = self.language(table)
        names = seat_names(table)
        renderer = _renderer(table)
        found, loose = fx.split(events, table.turn, table.deal)
        if any(effect.kind == "board" for effect in found):
            box.recent.clear()
            box.revealed = None
            for event in events:  # the commitment, on the new board before any card
                committed = (
                    fair_line(event, lang, table.game) if isinstance(event, DealStarted) else None
                )
                if committed is not None and isinstance(event, DealStarted):
                    box.commitments[event.deal] = committed
                    for old in [d for d in box.commitments if d <= event.deal - KEEP_DEALS]:
                        del box.commitments[old]
        box.effects.extend(found)
        now = time.monotonic()
        for effect in found:
            box.queued.setdefault(effect.key, now)
        for event in loose:
            line = renderer.event(event, names, lang) if renderer else None
            if line is None:
                line = runtime_line(event, names, lang, renderer, CHANNEL)
            if line is not None and isinstance(event, SeedsRevealed) and found:
                box.revealed = (found[-1].deal, line)  # a restart: on the new match's board
            elif line is not None:
                box.recent.append(line)
        for event in events:
            changed = renderer.hand_changed(event) if renderer else None
            if changed is not None and _played_for(table, changed):
                self._queue_dm(table, changed, None)
        self._tell_knocked_out(table, events)
        if any(isinstance(event, TableStopped) for event in events):
            box.dirty = True
            if table.place.isdigit():
                self.tokens.forget(int(table.place))  # no post rides on the table's tokens now
        box.wake.set()
        self.hands.moved(table)

    async def private(
        self, table: TableSnapshot, seat: int, player: Player, events: Sequence[Event]
    ) -> None:
        """A seat's private events (its cards): DM the owner their hand when they were dealt
        a new one (`GameRenderer.dealing`) or when a move someone else made for the seat
        changed it (a timeout, the AI playing an away seat). After their own move (a draw,
        a lock) the answer to it already shows the new hand: no DM."""
        renderer = _renderer(table)
        dealt = renderer is not None and any(isinstance(e, renderer.dealing) for e in events)
        if dealt or _played_for(table, seat):
            self._queue_dm(table, seat, table)

    async def caught_up(self, table_id: int, turn: int, within: float) -> None:
        """Return once the table's board showed `turn` (posted or edited), or after
        `within` seconds, or at once while its delivery is paused or it has no board;
        then once the loop has room for the AI move that follows (`LoopPressure.admit`:
        while it runs late, members' clicks go first)."""
        box = self._boxes.get(table_id)
        loop = asyncio.get_running_loop()
        until = loop.time() + within
        while box is not None and box.shown_turn < turn and box.paused is None:
            left = until - loop.time()
            if left <= 0 or self._closed:
                break
            box.caught.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(box.caught.wait(), left)
        if not self._closed:
            await self.pressure.admit()

    async def refresh(self, table: TableSnapshot) -> None:
        """Mark the board dirty; the outbox edits it (coalesced) or posts it if there is none."""
        box = self._box(table)
        box.dirty = True
        box.wake.set()
        self.hands.moved(table)

    # ----------------------------------------------------------------- helpers for others

    def language(self, table: TableSnapshot) -> str:
        """The table's language for public messages."""
        guild = self.client.get_guild(int(table.guild)) if table.guild.isdigit() else None
        return self.host.guild_language(guild)

    async def post_board(self, table: TableSnapshot) -> None:
        """Make sure `table` has a board (creation): posted unless one is on its way."""
        box = self._box(table)
        box.dirty = True
        box.wake.set()

    def lend(self, interaction: discord.Interaction) -> None:
        """A member's interaction: lent for its channel's boards if it is one at a table and
        a table lives there, or it may open one (`InteractionTokens.lend`)."""
        channel = interaction.channel_id
        table = self.host.tables.find(str(channel)) if channel is not None else None
        self.tokens.lend(interaction, table_lives=table is not None and table.status != "stopped")

    def held(self) -> dict[str, int]:
        """What the front holds now: outboxes, their tasks, lent interactions, watched hands
        (all let go of once a table stopped and its last effect went out)."""
        tasks = [
            task
            for box in self._boxes.values()
            for task in (box.task, box.dm_task, box.replacing, box.late_picture)
            if task is not None and not task.done()
        ]
        return {
            "outboxes": len(self._boxes),
            "tasks": len(tasks) + len(self._notices),
            "tokens": len(self.tokens),
            "hands": self.hands.watched(),
        }

    def paused(self) -> dict[int, Pause]:
        """Table id -> why its channel delivery is paused (only the paused tables)."""
        return {tid: box.paused for tid, box in self._boxes.items() if box.paused is not None}

    def pause_of(self, table_id: int) -> Pause | None:
        """Why the channel delivery of table `table_id` is paused (None: it is not)."""
        box = self._boxes.get(table_id)
        return None if box is None else box.paused

    def lag(self) -> dict[int, float]:
        """Table id -> seconds its oldest undelivered effect has waited (0: none waits)."""
        now = time.monotonic()
        return {
            tid: now - min(box.queued.values()) if box.queued else 0.0
            for tid, box in self._boxes.items()
        }

    def resume(self, table_id: int) -> None:
        """Try a paused table's delivery again now (its permissions may be back); paused
        again if Discord still refuses."""
        box = self._boxes.get(table_id)
        if box is not None and box.paused is not None:
            log.info("table %s: trying its paused channel delivery again", table_id)
            box.paused = None
            box.wake.set()

    def _pause(self, box: _Outbox, error: discord.Forbidden, what: str) -> None:
        """Pause `box` after Discord's 403 (lost permission); try again in `pause_retry` s,
        through REST only until a REST call works there again (`probing`)."""
        first = box.paused is None
        box.paused = Pause(error.code, what, time.time())
        box.probing = True
        self.tokens.forget(int(box.snapshot.place))
        box.board_sent.set()  # the hands waiting for a board wait no more
        log.warning(
            "table %s: Discord refused the %s (403, code %s): channel delivery paused",
            box.snapshot.id,
            what,
            error.code,
        )
        if first and self.pause_retry > 0:
            asyncio.get_running_loop().call_later(self.pause_retry, self.resume, box.snapshot.id)

    async def settle(self) -> None:
        """Wait until every outbox is empty (tests and the benchmark)."""
        while any(box.busy() for box in self._boxes.values()):
            await asyncio.sleep(0.01)

    async def drain(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for every outbox to send what it holds (a shutdown,
        once the tables stopped: the channel shows the last committed state, not the one
        before); True when all was sent."""
        deadline = time.monotonic() + timeout
        while any(box.busy() for box in self._boxes.values()):
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(0.02)
        return True

    async def close(self) -> None:
        """Stop the outbox tasks (shutdown); later events are not sent."""
        self._closed = True
        self.pressure.stop()
        self.hands.close()
        for notice in list(self._notices):
            notice.cancel()
        for box in self._boxes.values():
            box.caught.set()  # an AI waiting for the board waits no more
            for task in (box.task, box.dm_task, box.replacing, box.late_picture):
                if task is not None:
                    task.cancel()
        await asyncio.sleep(0)

    # ----------------------------------------------------------------- the outbox

    def _box(self, table: TableSnapshot) -> _Outbox:
        """The outbox of `table`, now showing this snapshot (its tasks started if needed)."""
        box = self._boxes.get(table.id)
        if box is None:
            box = self._boxes[table.id] = _Outbox(table, table.match)
        else:
            box.snapshot = table
        if table.match != box.match:
            box.match = table.match
            box.shown_turn = -1
            box.queued.clear()
            box.done = set()
            box.intents.clear()
            box.deal_snaps.clear()
        if table.started:
            box.deal_snaps[table.deal] = table
            # A deal whose result is still to post keeps its snapshot (the result's picture
            # is drawn on its last view), however far behind delivery runs.
            old = [d for d in box.deal_snaps if d <= table.deal - KEEP_DEALS]
            owed = {e.deal for e in box.effects if e.kind == "result"} if old else set()
            for deal in old:
                if deal not in owed:
                    del box.deal_snaps[deal]
        if self._closed:
            return box
        self.pressure.start()
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
            bind_ids(guild=box.snapshot.guild, table=box.snapshot.id, match=box.match)
            if not box.recovered:
                try:
                    await self._recover(box)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("could not recover the deliveries of table %s", box.snapshot.id)
                box.recovered = True
            self._replace_soon(box)
            while box.paused is None and (box.effects or box.notices or box.dirty):
                # Again each step: the match may have started since (a created table's
                # outbox runs before its first match).
                bind_ids(guild=box.snapshot.guild, table=box.snapshot.id, match=box.match)
                what = "board"
                try:
                    if box.effects:
                        effect = box.effects[0]
                        what = effect.kind
                        try:
                            await self._deliver(box, effect)
                        except BaseException as error:
                            if not lost_access(error):
                                _drop(box, effect)
                            raise
                        _drop(box, effect)
                        continue
                    if box.notices:
                        what = "notice"
                        text, addressed = box.notices[0]
                        notice = {"content": text, "allowed_mentions": pinging(addressed)}
                        await self._send(box, "notice", partial(dict, notice), _nonce())
                        box.notices.popleft()
                        continue
                    what = "board edit"
                    urgent = waited_for(box.snapshot, box.table_cards)
                    if await self.pressure.calm(urgent):
                        if box.effects or box.notices:
                            continue  # they came while the edit was held: they go first
                        urgent = waited_for(box.snapshot, box.table_cards)  # a newer one
                    box.dirty = False
                    try:
                        with priority(Priority.WAITED if urgent else Priority.EDIT):
                            through_token = await self._edit_board(box)
                    except discord.HTTPException as error:
                        if lost_access(error):
                            box.dirty = True  # drawn again on resuming
                            raise
                        # Not now (a storm outlasted the retries): try again in a while, so
                        # the board still converges without waiting for the next action.
                        asyncio.get_running_loop().call_later(REDRAW_AFTER, _redraw, box)
                        raise
                    if self.edit_interval > 0 and not box.effects:
                        backoff = 1.0 if through_token else self._edit_backoff(urgent)
                        await asyncio.sleep(self.edit_interval * backoff)
                except asyncio.CancelledError:
                    raise
                except discord.Forbidden as error:
                    if not lost_access(error):
                        log.exception("could not update the channel of table %s", box.snapshot.id)
                        continue
                    self._pause(box, error, what)
                except Exception:
                    log.exception("could not update the channel of table %s", box.snapshot.id)
            if box.snapshot.status == "stopped" and box.paused is None and not box.busy():
                self._release(box)
                return
            await box.wake.wait()
            box.wake.clear()

    def _release(self, box: _Outbox) -> None:
        """Let go of a stopped table's outbox once its last effect went out: its tasks end,
        its `/metrics` series (`lag`) and its members' watched hands go with it. (A paused
        one is kept: what waits goes out when the channel lets the bot in again.) A later
        call about the table would make a new one."""
        table_id = box.snapshot.id
        if self._boxes.get(table_id) is box:
            del self._boxes[table_id]
        box.caught.set()  # an AI waiting for the board waits no more
        for task in (box.dm_task, box.replacing, box.late_picture):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        self.hands.drop_table(table_id)

    async def _retry(self, what: str, call: Callable[[], Awaitable[T]]) -> T:
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

    async def _send(
        self, box: _Outbox, what: str, build: Callable[[], dict[str, Any]], nonce: str
    ) -> discord.Message:
        """Post `build()` in the table's channel (retried, each try with the same `nonce`,
        so a try Discord stored before failing is not posted twice)."""
        channel = self._channel(box.snapshot)
        sent = await self._retry(what, lambda: channel.send(**build(), nonce=nonce))
        self.rest_calls += 1
        box.probing = False
        box.last_message = max(box.last_message or 0, sent.id)
        return sent

    def _edit_backoff(self, urgent: bool) -> float:
        """How many edit intervals to wait after a board edit through REST: 1, and more
        while requests wait for the global budget (one more per 25 waiting, at most 8; twice
        that after an edit nobody waited for, `waited_for`), so a busy bot coalesces more
        refreshes into each edit and spends the budget where people wait."""
        budget = getattr(self.client, "rest_budget", None)
        waiting = int(getattr(budget, "waiting", 0) or 0)
        more = waiting // 25 * (1 if urgent else 2)
        return float(min(8 if urgent else 16, 1 + more))

    async def _post(
        self,
        box: _Outbox,
        what: str,
        build: Callable[[], dict[str, Any]],
        nonce: str,
        effect: Effect | None,
    ) -> tuple[discord.Message, datetime | None]:
        """Post an effect (None: a board outside the match's effects, `_post_untracked`): as
        a follow-up of a member's recent interaction at the table (outside the global
        budget) while one is lent, else through the bot's REST (with `nonce`). Also the
        expiry of the token it went through (None: REST). A follow-up has no nonce: an
        effect's whose answer was lost (5xx, a broken connection) is looked for in the
        channel before it goes again through REST (an untracked board has no record to
        look for: it goes again)."""
        shown = box.snapshot
        lent = (
            None
            if box.probing
            else self.tokens.usable(int(shown.place), POST_MARGIN, shown.id, _seated(shown))
        )
        if lent is not None:
            before = box.last_message
            try:
                sent = await post_once(lent.webhook, **build())
            except discord.HTTPException as error:
                if error.status < 500:  # refused, so not stored: through REST instead
                    log.info("%s through a token refused (%s): REST", what, error.status)
                    if expired(error):
                        self.tokens.forget(int(box.snapshot.place))
                    return await self._send(box, what, build, nonce), None
                found = await self._lost_followup(box, effect, before)
            except (LostAnswer, OSError, TimeoutError):
                log.warning("%s through a token: answer lost", what)
                found = await self._lost_followup(box, effect, before)
            else:
                self.token_calls += 1
                box.last_message = max(box.last_message or 0, sent.id)
                return sent, lent.expires
            if found is not None:
                return found, None
        return await self._send(box, what, build, nonce), None

    async def _lost_followup(
        self, box: _Outbox, effect: Effect | None, before: int | None
    ) -> discord.Message | None:
        """A follow-up whose answer was lost: the message if Discord stored it (None for an
        untracked board: not looked for)."""
        if box.match is None or effect is None:
            return None
        box.intents[effect.key] = PostIntent(box.match, effect.key, before, time.time())
        return await self._posted_before(box, effect)

    async def _edit_through(
        self,
        box: _Outbox,
        message: Board,
        expires: datetime | None,
        what: str,
        change: dict[str, Any] | Callable[[], dict[str, Any]],
    ) -> tuple[Board, bool]:
        """Edit `message` with `change` (keyword arguments, or a function building them for
        each try): through the token that posted it while it lives (`expires`), else
        through the bot's REST routes (budgeted). The handle to edit it by from now on, and
        whether the edit went through a token."""
        build = change if callable(change) else partial(dict, change)
        if isinstance(message, discord.WebhookMessage) and expires is not None and not box.probing:
            if expires - timedelta(seconds=EDIT_MARGIN) > discord.utils.utcnow():
                hooked = message
                try:
                    await self._retry(what, lambda: edit_unparsed(hooked, **build()))
                    self.token_calls += 1
                    return message, True
                except discord.HTTPException as error:
                    if not expired(error):
                        raise
                    log.info("%s: the token expired; through REST from now on", what)
            message = self._channel(box.snapshot).get_partial_message(message.id)
        elif isinstance(message, discord.WebhookMessage):
            message = self._channel(box.snapshot).get_partial_message(message.id)
        rest = message
        await self._retry(what, lambda: edit_unparsed(rest, **build()))
        self.rest_calls += 1
        box.probing = False
        return message, False

    async def _recover(self, box: _Outbox) -> None:
        """Start-up: deliver what the log committed but no process delivered (in order),
        keep editing this deal's board of an earlier process, mark its older board replaced."""
        if self.deliveries is None or box.match is None:
            return
        match_id = box.match
        records = await self.deliveries.delivered(match_id)
        if box.match != match_id:
            return
        done = {record.effect for record in records}
        box.done |= done
        for record in records:
            box.last_message = max(box.last_message or 0, record.message_id or 0) or None
        intents = await self.deliveries.intents(match_id)
        box.intents = {i.effect: i for i in intents if i.effect not in box.done}
        match = await self.deliveries.match(match_id)
        if match is None:
            return
        actions = await self.deliveries.actions(match_id)
        derived = fx.derive(box.snapshot.spec, match, [a.action for a in actions])
        todo = fx.pending(derived, box.done)
        keys = {effect.key for effect in todo}
        box.effects = collections.deque(
            [*todo, *(e for e in box.effects if e.key not in keys and e.key not in done)]
        )
        lang = self.language(box.snapshot)
        channel = self._channel(box.snapshot)
        boards = sorted(
            (r for r in records if r.effect.startswith("board:") and r.message_id),
            key=lambda r: int(r.effect.split(":", 1)[1]),
        )
        current = f"board:{box.snapshot.deal}"
        for record in boards[-2:]:
            assert record.message_id is not None
            message = channel.get_partial_message(record.message_id)
            if record.effect == current and box.board is None:
                box.board, box.board_deal, box.image_key = message, box.snapshot.deal, None
                box.dirty = True
                continue
            await self._replace(box, message, None, lang)

    async def _replace(
        self, box: _Outbox, message: Board, expires: datetime | None, lang: str
    ) -> None:
        """Mark an earlier board as replaced, without buttons (gone already: nothing to do);
        through the token that posted it while it lives."""
        with contextlib.suppress(discord.NotFound):
            change = {"content": t("discord.board.replaced", lang), "view": None}
            await self._edit_through(box, message, expires, "replaced board", change)

    def _replace_later(self, box: _Outbox, message: Board, expires: datetime | None) -> None:
        """`_replace` the board a new one follows, apart from the outbox (`_replacing`)."""
        box.unreplaced.append((message, expires))
        self._replace_soon(box)

    def _replace_soon(self, box: _Outbox) -> None:
        """Start marking `box`'s earlier boards replaced, unless that is under way, paused
        or done."""
        running = box.replacing is not None and not box.replacing.done()
        if box.unreplaced and box.paused is None and not running and not self._closed:
            box.replacing = asyncio.get_running_loop().create_task(self._replacing(box))

    async def _replacing(self, box: _Outbox) -> None:
        """Mark `box`'s earlier boards replaced, oldest first. Apart from the outbox: such an
        edit may go through the REST budget and wait there for seconds at a busy time,
        while the new board's edits (through a token) must not wait behind it. A refusal
        for a lost permission pauses the table's delivery (the board is done on resuming:
        the new board is out and must not go again); another failure is logged and that
        board left as it is."""
        while box.unreplaced and box.paused is None:
            old, old_expires = box.unreplaced[0]
            try:
                await self._replace(box, old, old_expires, self.language(box.snapshot))
            except asyncio.CancelledError:
                raise
            except discord.Forbidden as error:
                if lost_access(error):
                    self._pause(box, error, "replaced board")
                    return
                log.exception("could not mark a board of table %s replaced", box.snapshot.id)
            except Exception:
                log.exception("could not mark a board of table %s replaced", box.snapshot.id)
            box.unreplaced.pop(0)
        _wake_if_stopped(box)

    async def _deliver(self, box: _Outbox, effect: Effect) -> None:
        """Deliver one effect (unless done): record the intent, post it (or adopt the post
        of an earlier process that died before its record), then record it."""
        match = box.match
        if effect.key in box.done or match is None:
            return
        self.crash.reached(effect.kind)
        found = await self._posted_before(box, effect)
        if found is None and self.deliveries is not None:
            await self.deliveries.intend(match, effect.key, effect.upto, box.last_message)
        nonce = fx.post_nonce(box.snapshot.place, box.snapshot.id, match, effect.key)
        with self.crash.posting(effect.kind):
            if effect.kind == "board":
                message_id = await self._post_board(box, effect, nonce, found)
            elif found is not None:
                message_id = found.id
            else:
                message_id = await self._post_result(box, effect, nonce)
        box.done.add(effect.key)
        queued = box.queued.pop(effect.key, None)
        if queued is not None and self.delivered_sink is not None:
            self.delivered_sink(time.monotonic() - queued)
        if effect.kind == "board":
            box.board_sent.set()
        if self.deliveries is not None:
            await self.deliveries.mark_delivered(match, effect.key, effect.upto, message_id)

    async def _posted_before(self, box: _Outbox, effect: Effect) -> discord.Message | None:
        """The message an earlier process posted for `effect` and never recorded (it died
        in between), or None: the first of the bot's own posts of the effect's kind after
        the message the intent came after. Without a way to read the channel (no Read
        Message History), None: the post's nonce still returns the message within
        Discord's few minutes."""
        intent = box.intents.pop(effect.key, None)
        me = self.client.user
        if intent is None or me is None:
            return None
        after = intent.after or discord.utils.time_snowflake(
            datetime.fromtimestamp(intent.at - CLOCK_SKEW, UTC)
        )
        channel = self._channel(box.snapshot)

        async def read() -> list[discord.Message]:
            found = channel.history(
                limit=HISTORY_LOOKED_AT, after=discord.Object(after), oldest_first=True
            )
            return [message async for message in found]

        try:
            messages = await self._retry("channel history", read)
        except discord.HTTPException as error:
            log.warning("%s of table %s: channel not read (%s)", effect.key, box.snapshot.id, error)
            return None
        self.rest_calls += 1
        table = box.snapshot.id
        found = next((m for m in messages if _post_of(m, me.id, table, effect)), None)
        if found is not None:
            log.warning(
                "%s of table %s: message %s was posted by an earlier process; adopted",
                effect.key,
                box.snapshot.id,
                found.id,
            )
            box.last_message = max(box.last_message or 0, found.id)
        return found

    def _board_of(self, box: _Outbox, effect: Effect) -> tuple[TableSnapshot | None, bool]:
        """The snapshot a board of `effect.deal` is drawn from, and whether its deal is over
        (None: no view of that deal exists, it began and ended within one action)."""
        live = box.snapshot
        if live.deal == effect.deal and live.match == box.match:
            return live, False
        shown = box.deal_snaps.get(effect.deal)
        if shown is not None:
            return shown, True
        if effect.view is None:
            return None, True
        return (
            live._replace(
                deal=effect.deal, public_view=effect.view, to_act=None, deadline=None, turn=0
            ),
            True,
        )

    def _bare_board(self, box: _Outbox, deal: int, lang: str) -> dict[str, Any]:
        """The board of a deal that began and ended within one action (no view of it was
        ever committed): its result's lines, no picture, no buttons."""
        table = box.snapshot
        result = next((e for e in box.effects if e.key == f"result:{deal}"), None)
        embed = discord.Embed(
            colour=BOARD_COLOUR,
            title=t("discord.board.title", lang, game=table.spec.title, deal=deal),
            description=_result_text(table, result, lang) if result else None,
        )
        unit = deal_word(table.game, lang)
        embed.set_footer(
            text=t("discord.board.footer", lang, table=table.id, unit=unit, deal=deal, turn=0)
        )
        content = t(
            "discord.board.deal_over", lang, deal=deal, unit=unit, unit_title=unit.capitalize()
        )
        return fit_message({"content": content, "embed": embed})

    async def _post_board(
        self, box: _Outbox, effect: Effect, nonce: str, found: discord.Message | None
    ) -> int:
        """Post the board of `effect`'s deal (or adopt `found`, an earlier process's post of
        it, to be drawn again), then mark the previous board replaced."""
        shown, over = self._board_of(box, effect)
        lang = self.language(box.snapshot)
        recent = box.lines(effect.deal, [] if over else list(box.recent))
        if not over:
            box.dirty = False  # drawn now: a refresh during the send marks it dirty again
        pictured = shown is not None and await _within(box, draw_ahead(shown, lang, self.pictures))

        drawn: list[str | None] = [None]
        """The footer (table, deal, turn) of what was sent."""

        def build() -> dict[str, Any]:
            if shown is None:
                kwargs = self._bare_board(box, effect.deal, lang)
            else:
                message = board_message(
                    shown, lang, recent, with_image=pictured, brief=None if pictured else False
                )
                if over:
                    unit = deal_word(box.snapshot.game, lang)
                    message["content"] = t(
                        "discord.board.deal_over",
                        lang,
                        deal=effect.deal,
                        unit=unit,
                        unit_title=unit.capitalize(),
                    )
                    message["view"] = None
                kwargs = _send_kwargs(message)
            drawn[0] = kwargs["embed"].footer.text
            return kwargs

        expires = None
        if found is None:
            sent, expires = await self._post(box, "board", build, nonce, effect)
            found = None if _footer(sent) == drawn[0] else sent  # the nonce's earlier post
        if found is None:
            box.image_key = None if shown is None or not pictured else last_play_key(shown)
            if pictured and shown is not None:
                box.showed(shown.turn)
        else:
            sent, box.image_key = found, None
            box.dirty = True  # drawn by an earlier process at an earlier turn: draw it now
        previous, previous_expires = box.board, box.board_expires
        box.board, box.board_deal, box.board_expires = sent, effect.deal, expires
        if previous is not None:
            self._replace_later(box, previous, previous_expires)
        return sent.id

    async def _post_result(self, box: _Outbox, effect: Effect, nonce: str) -> int:
        table = box.snapshot
        lang = self.language(table)
        text = _result_text(table, effect, lang)
        title = (
            t("discord.result.match_title", lang, game=table.spec.title)
            if effect.kind == fx.MATCH_RESULT
            else t(
                "discord.result.deal_title",
                lang,
                game=table.spec.title,
                unit=deal_word(table.game, lang),
                deal=effect.deal,
            )
        )

        shown = box.deal_snaps.get(effect.deal)
        view = effect.view if shown is None else shown.view(None)  # effect's: replayed
        await _drawn(box, draw_result_ahead(table, view, effect.events, lang, self.pictures))
        summary = None
        if effect.kind == fx.MATCH_RESULT and box.match is not None:
            names = seat_names(table, raw=True)  # drawn: a picture keeps names raw
            summary = await self.summaries.get(table.spec, box.match, names, lang)

        def build() -> dict[str, Any]:
            embed = discord.Embed(title=title, description=text, colour=RESULT_COLOUR)
            message = result_message(table, view, effect.events, embed, lang)
            if summary is not None:  # the match summary picture (bot.charts.match)
                attach(message, embed, summary, summary.name)
            return _send_kwargs(message)

        sent, _ = await self._post(box, "result", build, nonce, effect)
        return sent.id

    async def _edit_board(self, box: _Outbox) -> bool:
        """Bring the board up to date (posting it if it is missing); whether the edit went
        through a member's interaction token (outside the budget)."""
        shown = box.snapshot
        own_deal = shown.deal if shown.started else None
        if box.board is None or box.board_deal != own_deal:
            if any(e.kind == "board" and e.deal == shown.deal for e in box.effects):
                return False  # this deal's board is on its way
            wanted = f"board:{shown.deal}"
            if own_deal is not None and box.match is not None and wanted not in box.done:
                box.effects.append(Effect(wanted, shown.turn, shown.deal))
                return False
            if own_deal is not None and box.board is not None:
                return False  # the board of a deal whose record exists elsewhere: leave it
            await self._post_untracked(box)
            return False
        if box.holds:
            # A click on this board is being answered with it: its answer goes first.
            box.released.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(box.released.wait(), HOLD_FOR)
            shown = box.snapshot
            if box.board is None or box.board_deal != (shown.deal if shown.started else None):
                box.dirty = True
                return False
        async with box.board_lock:
            edit, seen, key, current = await self._board_change(box, shown)
            if seen == box.answered:
                box.answered = None
                return True  # a click's own answer showed exactly this already
            box.answered = None
            board = box.board
            self.crash.reached("edit")
            try:
                box.board, through_token = await self._edit_through(
                    box, board, box.board_expires, "board edit", edit
                )
            except discord.NotFound:
                box.board = None
                await self._post_untracked(box)
                return False
            if not through_token:
                box.board_expires = None
            box.image_key = key
            box.table_cards = _table_cards(shown)
            if current:
                box.showed(shown.turn)  # with its picture (an AI plays on once it shows)
            return through_token

    async def _board_change(
        self, box: _Outbox, shown: TableSnapshot
    ) -> tuple[Callable[[], dict[str, Any]], str, tuple[str, ...] | None, bool]:
        """The edit bringing the board to `shown` (a function building its keyword
        arguments for each try; its picture uploaded only when it changed), what it shows
        (`_seen`: to tell an edit that would change nothing), the key of the picture it
        shows (the last one kept when the new one is not drawn within `PICTURE_WAIT`) and
        whether that picture is `shown`'s own."""
        key: tuple[str, ...] | None = last_play_key(shown)
        image = key != box.image_key
        lines = box.lines(shown.deal)  # of this snapshot's turn: taken before any wait
        if image:
            image = await _within(box, draw_ahead(shown, self.language(shown), self.pictures))
        current = image or key == box.image_key
        key = key if current else box.image_key
        message = board_message(
            shown,
            self.language(shown),
            lines,
            with_image=image,
            brief=None if image or box.image_key else False,  # no picture at all yet
        )
        kwargs: dict[str, Any] = {
            "content": message["content"],
            "embed": message["embed"],
            "view": message["view"],
            "allowed_mentions": message["allowed_mentions"],
        }
        if not image and box.image_key:
            message["embed"].set_image(url=f"attachment://{box.image_key[0]}")

        def edit() -> dict[str, Any]:
            if image:  # a file of its own for each try (a sent one is closed)
                file = fresh_file(message)
                kwargs["attachments"] = [file] if file is not None else []
            elif not box.image_key:
                # A picture this outbox never knew (posted before a restart) would stay
                # beside the full text, out of the embed: the text stands alone until
                # the new picture follows.
                kwargs["attachments"] = []
            return fit_message(kwargs)

        return edit, _seen(message, key), key, current

    @contextlib.contextmanager
    def holding_board(self, interaction: discord.Interaction, table_id: int) -> Iterator[None]:
        """Inside: a click on the table's current board is being acted on and answered
        (`answer_with_board`); the outbox's board edits wait meanwhile (`HOLD_FOR` at
        most), so that the answer, outside the budget, is what shows the change."""
        box = self._boxes.get(table_id)
        clicked = interaction.message
        if box is None or clicked is None or box.board is None or box.board.id != clicked.id:
            yield
            return
        box.holds += 1
        try:
            yield
        finally:
            box.holds -= 1
            if not box.holds:
                box.released.set()

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
        box = self._boxes.get(table_id)
        if box is not None and not self._closed:
            self.hands.watch(
                interaction, box.snapshot, seat, sort, note=note, selected=selected, image=image
            )

    def hand_pictured(self, interaction: discord.Interaction, table_id: int) -> None:
        """The late picture of the hand `interaction` answered with is ready (`LiveHands`)."""
        if not self._closed:
            self.hands.pictured(interaction, table_id)

    async def answer_with_board(self, interaction: discord.Interaction, table_id: int) -> bool:
        """Answer a member's click on their table's current board, which the click changed,
        with that board brought up to date: callback type 7 (UPDATE_MESSAGE), or an edit
        of the original response once the click was deferred; both outside the global
        budget. Whether it did: not when the clicked message is not the current board of
        the deal the table is in, when a post (a result, the next deal's board) is on its
        way first, while the outbox is editing it, or where the interaction shows the bot
        lacking a permission (an answer is not held to them: it would hide the refusal).
        The outbox's next edit is skipped if it would show the same."""
        box = self._boxes.get(table_id)
        clicked = interaction.message
        if box is None or clicked is None or box.board is None or box.board.id != clicked.id:
            return False
        shown = box.snapshot
        if not shown.started or box.board_deal != shown.deal or box.effects:
            return False
        perms = interaction.app_permissions
        if box.paused is not None or box.probing:
            return False
        if missing_permissions(perms, thread=is_thread(interaction.channel)):
            return False
        async with box.board_lock:
            shown = box.snapshot
            if box.board_deal != shown.deal or box.effects:
                return False
            edit, seen, key, current = await self._board_change(box, shown)
            kwargs = edit()
            await edit_clicked_publicly(interaction, **kwargs)
            self.answer_updates += 1
            box.image_key, box.answered = key, seen
            if current:
                box.showed(shown.turn)
            return True

    async def _post_untracked(self, box: _Outbox) -> None:
        """A board outside a match's effects (the lobby, a stopped table, a lost message):
        through a lent token too (the lobby of `/table create`, outside the budget, so the
        first deal's board does not wait behind it when many tables open at once)."""
        shown = box.snapshot
        lang = self.language(shown)
        lines = box.lines(shown.deal)  # of this snapshot's turn: taken before any wait
        await _drawn(box, draw_ahead(shown, lang, self.pictures))

        def build() -> dict[str, Any]:
            return _send_kwargs(board_message(shown, lang, lines, with_image=True))

        sent, expires = await self._post(box, "board", build, _nonce(), None)
        previous, previous_expires = box.board, box.board_expires
        box.board, box.board_expires = sent, expires
        box.board_deal = shown.deal if shown.started else None
        box.image_key = last_play_key(shown)
        box.showed(shown.turn)
        if previous is not None:
            self._replace_later(box, previous, previous_expires)

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
        if box.dm_refused.get(user) == table.deal:
            return
        box.dms.append((user, seat, shown))
        box.dm_wake.set()

    async def _run_dms(self, box: _Outbox) -> None:
        while True:
            await box.dm_wake.wait()
            box.dm_wake.clear()
            while box.dms:
                bind_ids(guild=box.snapshot.guild, table=box.snapshot.id, match=box.match)
                user, seat, shown = box.dms[0]
                if any(u == user for u, _, _ in list(box.dms)[1:]):
                    box.dms.popleft()
                    continue  # a newer hand for the same user is queued: send that one
                box.dm_sending = True
                box.dms.popleft()
                try:
                    await self._after_its_board(box, shown)
                    with priority(Priority.DM):
                        await self._send_dm(box, user, seat, shown)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception(
                        "could not DM the hand of seat %s in table %s", seat, box.snapshot.id
                    )
                finally:
                    box.dm_sending = False
            _wake_if_stopped(box)

    async def _after_its_board(self, box: _Outbox, shown: TableSnapshot | None) -> None:
        """Wait until the board of the hand's deal is in the channel, so nobody sees a card
        before the deal's commitment (at most `BOARD_FIRST` seconds, and not while the
        table's delivery is paused: a board Discord keeps refusing must not hold the hands
        back)."""
        if shown is None or not shown.started or box.match is None:
            return
        wanted = f"board:{shown.deal}"
        loop = asyncio.get_running_loop()
        until = loop.time() + BOARD_FIRST
        while (
            wanted not in box.done
            and box.match == shown.match
            and box.paused is None
            and loop.time() < until
        ):
            box.board_sent.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(box.board_sent.wait(), until - loop.time())

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
        if not hand_cards(shown, seat, "r"):
            return  # nothing in hand (the deal is over for them): no "Your hand (0)"
        lang = self.host.locales.get(user) or self.language(shown)
        deck = await self.host.decks.of(user)
        await draw_hand_ahead(shown, seat, lang, "r", deck, self.pictures)
        try:
            channel = await self._dm_channel(user)

            nonce = _nonce()  # one for every try: a try Discord stored is not sent twice

            def send() -> Awaitable[discord.Message]:
                fresh = _send_kwargs(
                    hand_message(shown, seat, lang, "r", controls=False, deck=deck)
                )
                fresh.pop("view", None)
                return channel.send(**fresh, nonce=nonce)

            await self._retry("DM", send)
            self.rest_calls += 1
        except discord.Forbidden:
            box.dm_refused[user] = shown.deal
            if await self._closed_notice_said(user, True):
                return
            closed = t("discord.dm_closed", self.language(shown), mention=f"<@{user}>")
            box.notices.append((closed, user))
            box.wake.set()
            return
        await self._closed_notice_said(user, False)

    async def _dm_channel(self, user: int) -> discord.PartialMessageable:
        """The DM channel with `user` (opened once per member and process)."""
        channel_id = self._dm_channels.get(user)
        if channel_id is None:
            data = await self._retry(
                "DM channel", lambda: self.client.http.start_private_message(user)
            )
            channel_id = self._dm_channels[user] = int(data["id"])
            self.rest_calls += 1
        return self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    def _tell_knocked_out(self, table: TableSnapshot, events: Sequence[Event]) -> None:
        """A member knocked out of a match that goes on is told once, privately, what they
        can do (watch, restart when it ends, leave)."""
        renderer = _renderer(table)
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
            channel = await self._dm_channel(user)
            await self._retry("DM", lambda: channel.send(content=text))
            self.rest_calls += 1
        except discord.HTTPException:
            log.info("could not tell member %s they are out of table %s", user, table.id)
            return
        if self.deliveries is not None:
            await self.deliveries.remember_said(str(user), notice, True)

    async def _closed_notice_said(self, user: int, closed: bool) -> bool:
        """Record whether `user`'s DMs are `closed` (said once across restarts, said again
        after they reopen and close); whether the notice was already said before."""
        said = self._dm_closed_said.get(user)
        if said is None:
            said = self.deliveries is not None and await self.deliveries.said(str(user), DM_CLOSED)
        if said != closed and self.deliveries is not None:
            await self.deliveries.remember_said(str(user), DM_CLOSED, closed)
        self._dm_closed_said[user] = closed
        return said and closed


def _drop(box: _Outbox, effect: Effect) -> None:
    """Take `effect` off the front of `box`'s queue (delivered, or given up on)."""
    if box.effects and box.effects[0] is effect:
        box.effects.popleft()
    box.queued.pop(effect.key, None)


async def _drawn(box: _Outbox, drawing: Awaitable[None]) -> None:
    """Await a picture drawn ahead, the outbox counted busy meanwhile (`settle` waits)."""
    box.drawing += 1
    try:
        await drawing
    finally:
        box.drawing -= 1


async def _within(box: _Outbox, drawing: Awaitable[None]) -> bool:
    """Await a board's picture drawn ahead for `PICTURE_WAIT` at most: whether it is ready.
    If not, it is drawn on (the outbox counted busy), replacing a late picture of an
    earlier snapshot (not drawn if not begun), and the board is edited again once it is
    ready, with it."""
    task = asyncio.ensure_future(drawing)
    box.drawing += 1
    task.add_done_callback(lambda _: _drew(box))
    if await done_within(task, PICTURE_WAIT):
        task.result()
        return True
    if box.late_picture is not None:
        box.late_picture.cancel()
    box.late_picture = task

    def landed(finished: asyncio.Future[None]) -> None:
        if box.late_picture is finished:
            box.late_picture = None
        if not finished.cancelled():
            box.dirty = True
            box.wake.set()

    task.add_done_callback(landed)
    return False


def _drew(box: _Outbox) -> None:
    box.drawing -= 1
    _wake_if_stopped(box)


def _wake_if_stopped(box: _Outbox) -> None:
    """Wake a stopped table's outbox when its work is done: it may be let go of now."""
    if box.snapshot.status == "stopped":
        box.wake.set()


def _nonce() -> str:
    """A fresh nonce for a post outside the match's effects (its retries share it)."""
    return secrets.token_hex(12)


def _footer(message: discord.Message) -> str | None:
    """The footer of a message's first embed (a board's: table, deal and turn)."""
    return message.embeds[0].footer.text if message.embeds else None


def _post_of(message: discord.Message, me: int, table: int, effect: Effect) -> bool:
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
    numbers = [int(n) for n in re.findall(r"\d+", _footer(message) or "")]
    return message.embeds[0].colour == BOARD_COLOUR and numbers[:2] == [table, effect.deal]


_POST_TYPES = (discord.MessageType.default, discord.MessageType.reply)
"""A channel post, or a follow-up of a member's click (Discord types those as replies)."""


def _seated(shown: TableSnapshot) -> set[int]:
    """The members seated at `shown` and there (their Discord ids): not one who left their
    seat to the AI (away)."""
    return {
        int(seat.owner.id)
        for seat in shown.seats
        if seat.owner is not None and not seat.away and seat.owner.id.isdigit()
    }


def human_to_act(shown: TableSnapshot) -> bool:
    """Whether the seat to act at `shown` is a person who is there (not an AI, not away):
    someone is waiting for this board."""
    seat = shown.to_act
    if seat is None or not 0 <= seat < len(shown.seats):
        return False
    return not shown.seats[seat].ai_plays


def _seen(message: dict[str, Any], key: tuple[str, ...] | None) -> str:
    """What a board message shows (its text, embed and picture), to compare two of them."""
    embed = message["embed"].to_dict()
    embed.pop("image", None)
    return repr((message.get("content"), sorted(embed.items()), key))


def _table_cards(shown: TableSnapshot) -> tuple[str, ...]:
    """The cards on the table at `shown` (Big Two's play to beat, poker's board)."""
    renderer = _renderer(shown)
    view = shown.view(None) if shown.started else None
    if renderer is None or view is None:
        return ()
    return tuple(str(card) for card in renderer.table_cards(view))


def waited_for(shown: TableSnapshot, before: tuple[str, ...]) -> bool:
    """Whether a board edit to `shown` is one people wait for: a person is to act
    (`human_to_act`), or the change is a new trick or street: the cards on the table were
    cleared (a trick won, a new one to lead) or more were dealt to them (a poker street),
    against `before`, the cards the board showed."""
    if human_to_act(shown):
        return True
    now = _table_cards(shown)
    return bool(before) and (not now or (set(before) < set(now)))


def _redraw(box: _Outbox) -> None:
    """Mark a board to be drawn again (after a failed edit)."""
    box.dirty = True
    box.wake.set()


def _send_kwargs(message: dict[str, Any]) -> dict[str, Any]:
    kept = ("content", "embed", "file", "view", "allowed_mentions")
    kwargs = {k: v for k, v in message.items() if k in kept}
    if kwargs.get("view") is None:
        kwargs.pop("view", None)
    if not kwargs.get("content"):
        kwargs.pop("content", None)
    return fit_message(kwargs)


def _played_for(table: TableSnapshot, seat: int) -> bool:
    """Whether the last move at `table` that changed `seat`'s hand was one its owner did not
    make: a timeout (the seat's timeouts in a row count it until the owner moves again), or
    the AI playing the seat while it is away (the owner's own moves answer with the hand)."""
    if not 0 <= seat < len(table.seats):
        return False
    return table.seats[seat].away or table.seats[seat].timeouts > 0


def _renderer(table: TableSnapshot) -> GameRenderer | None:
    return renderer_of(table)


def _result_text(table: TableSnapshot, effect: Effect, lang: str) -> str:
    """The text of the result `effect` posts (`bot.render.results`), names made safe."""
    return result_text(table, effect.events, seat_names(table), lang, CHANNEL)
