"""`TableChannel`: the one owner of a table's messages in its channel (the board, the
results, the notices). The front's calls and a member's click are requests on its one
queue, consumed by its one task, which alone reads and writes the table's delivery state;
other tasks get answers through futures. Its own sub-task marks the boards a newer one
replaced (such an edit may wait for the REST budget; the new board's must not wait behind
it). Once its table stopped and its last effect is delivered it lets go of everything.

Delivery works as the front's docstring says (`bot.discord.front`): effects in log order,
once (intent, nonce, record), boards of their own deal only, edits coalesced and spaced,
a lost permission pausing the table.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial
from typing import Any

import discord

from bot.discord import effects as fx
from bot.discord.board import (
    board_message,
    draw_result_ahead,
    last_play_key,
    seat_names,
)
from bot.discord.board_edits import (
    BoardLines,
    bare_board,
    board_edit,
    board_kwargs,
    board_view,
    keep_deal_snapshot,
    result_kwargs,
    table_cards,
    waited_for,
)
from bot.discord.board_pictures import BoardPictures
from bot.discord.channel_services import ChannelServices
from bot.discord.effects import Effect
from bot.discord.mailbox import Mailbox, Request, Waiters, answer_of, settle
from bot.discord.permissions import is_thread, missing_permissions
from bot.discord.recovery import Replacer, footer
from bot.discord.replies import edit_clicked_publicly
from bot.discord.rest_budget import Priority, priority
from bot.discord.safe_text import pinging
from bot.discord.transport import (
    Board,
    Build,
    Pause,
    fresh_nonce,
    lost_access,
    seated,
    send_kwargs,
)
from bot.process.jsonlog import bind_ids
from bot.runtime import TableSnapshot, TableStopped
from engines.base import Event
from storage.deliveries import PostIntent

log = logging.getLogger("deucebot.discord")

HOLD_FOR = 2.5
"""Seconds a board edit waits at most for a click's answer showing the board."""
REDRAW_AFTER = 5.0
"""Seconds before a board edit that failed (after its retries) is tried again."""


class TableChannel:
    """The one owner of one table's channel messages (see the module docstring)."""

    def __init__(self, front: ChannelServices, table: TableSnapshot) -> None:
        """The channel of `table`, delivering through `front`'s collaborators."""
        self.front = front
        self._mail = Mailbox()
        self._task: asyncio.Task[None] | None = None
        self._snapshot = table
        self._match = table.match
        self._effects: collections.deque[Effect] = collections.deque()
        self._done: set[str] = set()
        """Keys of the current match's effects delivered (here or by an earlier process)."""
        self._recovered = False
        self._deal_snaps: dict[int, TableSnapshot] = {}
        self._notices: collections.deque[tuple[str, int]] = collections.deque()
        """Notices to post in the channel: each text and the member it addresses (pinged)."""
        self._dirty = False
        self._board: Board | None = None
        self._board_deal: int | None = None
        """The deal the board shows (None: a lobby board, or none yet)."""
        self._board_expires: datetime | None = None
        """When the token that posted the board expires (None: REST, or an earlier process)."""
        self._image_key: tuple[str, ...] | None = None
        self._showing: str | None = None
        """What the board shows (`seen`; None: unknown): an edit showing the same is skipped."""
        self._last_message: int | None = None
        """The newest message posted or adopted in the channel (what the next comes after)."""
        self._intents: dict[str, PostIntent] = {}
        """Effect -> an earlier process's post of it, intended and never recorded."""
        self._lines = BoardLines()
        self._paused: Pause | None = None
        self._probing = False
        """Set by a pause, cleared by the next post or edit through the bot's REST routes:
        meanwhile no token is used (a token's webhook is not held to the channel's
        permissions, so it would hide that the channel still refuses the bot)."""
        self._replacer = Replacer(front.recovery, self)
        """Marks earlier boards replaced, apart from this task."""
        self._queued: dict[str, float] = {}
        """Effect key -> when it was handed over (`time.monotonic()`), until delivered."""
        self._pictures = BoardPictures(front.pictures, partial(self._put, self._redraw))
        self._table_cards: tuple[str, ...] = ()
        self._holds: set[object] = set()
        """Clicks on the board being answered with it (`hold`)."""
        self._released = asyncio.Event()
        self._shown_turn = -1
        """The latest turn of the match a board post or edit showed (`caught_up`)."""
        self._turn_waiters: Waiters[int] = Waiters()
        """Tasks waiting for the board to show a turn (`shown`)."""
        self._board_waiters: Waiters[TableSnapshot] = Waiters()
        """Hands waiting for their deal's board (`board_out`)."""
        self._let_go = False

    def start(self) -> None:
        """Start the channel's task unless it runs."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    def public(self, table: TableSnapshot, events: Sequence[Event]) -> None:
        """The committed public `events` of `table`: their effects and lines."""
        self._put(partial(self._on_public, table, tuple(events), time.monotonic()))

    def refresh(self, table: TableSnapshot) -> None:
        """The board is to show `table` (edited, coalesced; posted if there is none)."""
        self._put(partial(self._on_refresh, table))

    def notice(self, text: str, user: int) -> None:
        """Post `text` in the channel, addressed to `user` (pinged)."""
        self._put(partial(self._notices.append, (text, user)))

    def resume(self) -> None:
        """Try the paused delivery again now (paused again if Discord still refuses)."""
        self._put(self._on_resume)

    def poke(self) -> None:
        """Look again whether the channel may be let go of (its table's DMs are sent)."""
        self._put(lambda: None)

    def hold(self, clicked: int) -> Callable[[], None]:
        """A click on message `clicked` is acted on and answered with the board: the board's
        edits wait meanwhile (`HOLD_FOR` at most); call what is returned when it is done."""
        click = object()
        self._put(partial(self._on_hold, click, clicked))
        return partial(self._put, partial(self._on_release, click))

    async def answer(self, interaction: discord.Interaction) -> bool:
        """Answer a click on the current board with the board brought up to date (whether
        it did: see `DiscordFront.answer_with_board`)."""
        if not self.may_answer(interaction):
            return False
        answered: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._put(partial(settle, answered, partial(self._answer, interaction)))
        return await answer_of(answered, self._task, None) is True

    async def shown(self, turn: int, within: float) -> None:
        """Return once the board showed `turn`, after `within` seconds, or at once while
        the delivery is paused."""
        if self._shown_turn >= turn or self._paused is not None or self._let_go:
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._put(partial(self._on_waiter, self._turn_waiters, turn, waiter))
        await answer_of(waiter, self._task, within)

    async def board_out(self, shown: TableSnapshot, within: float) -> None:
        """Return once the board of `shown`'s deal is in the channel (nobody sees a card
        before the deal's commitment), after `within` seconds, or at once while the
        delivery is paused (a board Discord keeps refusing must not hold the hands back)."""
        if not shown.started or shown.match is None or self._let_go:
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._put(partial(self._on_waiter, self._board_waiters, shown, waiter))
        await answer_of(waiter, self._task, within)

    def _put(self, request: Request) -> None:
        self._mail.put(request)

    report = _put

    def lost(self, error: discord.Forbidden) -> Callable[[], None]:
        """The request pausing the delivery after `error` (lost while marking a board)."""
        return partial(self._pause, error, "replaced board")

    def probed(self) -> None:
        """A REST call went through: tokens may be used again (applied by the task)."""
        self._probing = False

    @property
    def snapshot(self) -> TableSnapshot:
        """The table as last handed over."""
        return self._snapshot

    @property
    def probing(self) -> bool:
        """Whether only REST is used now (a pause is being probed)."""
        return self._probing

    @property
    def paused(self) -> Pause | None:
        """Why the delivery is paused (None: it is not)."""
        return self._paused

    def lag(self) -> float:
        """Seconds the oldest undelivered effect has waited (0: none waits)."""
        return time.monotonic() - min(self._queued.values()) if self._queued else 0.0

    def may_answer(self, interaction: discord.Interaction) -> bool:
        """Whether a click on `interaction`'s message could be answered with the board now."""
        clicked = interaction.message
        board = self._board
        if clicked is None or board is None or board.id != clicked.id:
            return False
        shown = self._snapshot
        if not shown.started or self._board_deal != shown.deal or self._effects:
            return False
        return self._paused is None and not self._probing

    def busy(self) -> bool:
        """True while something is queued or on its way (a paused channel waits)."""
        if self._paused is not None:
            return bool(self._pictures.drawing or not self._mail.empty())
        return bool(
            not self._mail.empty()
            or self._effects
            or self._replacer.busy()
            or self._notices
            or self._dirty
            or self._pictures.drawing
            or not self._recovered
        )

    def tasks(self) -> int:
        """The channel's tasks running now."""
        own = self._task is not None and not self._task.done()
        return own + self._pictures.running() + self._replacer.running()

    def close(self) -> None:
        """Stop the tasks (shutdown, or the table let go of)."""
        self._let_go = True
        self._wake_waiters()
        self._replacer.close()
        self._pictures.close()
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()

    def _adopt(self, table: TableSnapshot) -> None:
        """The channel now shows this snapshot (a new match starts afresh)."""
        self._snapshot = table
        if table.match != self._match:
            self._match = table.match
            self._shown_turn = -1
            self._queued.clear()
            self._done = set()
            self._intents.clear()
            self._deal_snaps.clear()
            self._wake_waiters()
        if table.started:
            keep_deal_snapshot(self._deal_snaps, table, self._effects)

    def _on_public(self, table: TableSnapshot, events: tuple[Event, ...], at: float) -> None:
        self._adopt(table)
        found, loose = fx.split(events, table.turn, table.deal)
        self._lines.handed(table, events, found, loose, self.front.language(table))
        self._effects.extend(found)
        for effect in found:
            self._queued.setdefault(effect.key, at)
        if any(isinstance(event, TableStopped) for event in events):
            self._dirty = True

    def _on_refresh(self, table: TableSnapshot) -> None:
        self._adopt(table)
        self._dirty = True

    def _on_resume(self) -> None:
        if self._paused is not None:
            log.info("table %s: trying its paused channel delivery again", self._snapshot.id)
            self._paused = None

    def _on_hold(self, click: object, clicked: int) -> None:
        if self._board is not None and self._board.id == clicked:
            self._holds.add(click)

    def _on_release(self, click: object) -> None:
        self._holds.discard(click)
        if not self._holds:
            self._released.set()

    def _on_waiter(self, waiters: Waiters[Any], key: Any, waiter: asyncio.Future[None]) -> None:
        waiters.add(key, waiter)
        self._wake_waiters()

    def _showed(self, turn: int) -> None:
        """A board post or edit showed the table at `turn`."""
        self._shown_turn = max(self._shown_turn, turn)
        self._wake_waiters()

    def _wake_waiters(self) -> None:
        """Wake who waited for what came (or waits no more: paused, let go of)."""
        over = self._paused is not None or self._let_go
        self._turn_waiters.wake(lambda turn: over or self._shown_turn >= turn)
        self._board_waiters.wake(
            lambda shown: over or shown.match != self._match or f"board:{shown.deal}" in self._done
        )

    async def _run(self) -> None:
        while True:
            await self._mail.apply_waiting()
            bind_ids(guild=self._snapshot.guild, table=self.table_id, match=self._match)
            if not self._recovered:
                try:
                    await self._recover()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("could not recover the deliveries of table %s", self.table_id)
                self._recovered = True
                continue
            self._replace_soon()
            if self._paused is None and (self._effects or self._notices or self._dirty):
                await self._step()
                continue
            if self._stopped_and_done():
                self.close()
                self.front.let_go(self.table_id, self)
                return
            await self._mail.apply_next()

    def _stopped_and_done(self) -> bool:
        """The table stopped and everything it owed went out (its hands too)."""
        if self._snapshot.status != "stopped" or self._paused is not None or self.busy():
            return False
        return not self.front.dms.busy(self.table_id)

    @property
    def table_id(self) -> int:
        """The table's id."""
        return self._snapshot.id

    async def _step(self) -> None:
        """One piece of work: the next effect, the next notice, or the board's edit."""
        what = "board"
        try:
            if self._effects:
                effect = self._effects[0]
                what = effect.kind
                try:
                    await self._deliver(effect)
                except BaseException as error:
                    if not lost_access(error):
                        self._drop(effect)
                    raise
                self._drop(effect)
                return
            if self._notices:
                what = "notice"
                text, addressed = self._notices[0]
                notice = {"content": text, "allowed_mentions": pinging(addressed)}
                await self._send("notice", partial(dict, notice), fresh_nonce())
                self._notices.popleft()
                return
            what = "board edit"
            urgent = waited_for(self._snapshot, self._table_cards)
            if await self._mail.serving(self.front.pressure.calm(urgent)):
                if self._effects or self._notices:
                    return  # they came while the edit was held: they go first
                urgent = waited_for(self._snapshot, self._table_cards)  # a newer one
            self._dirty = False
            try:
                with priority(Priority.WAITED if urgent else Priority.EDIT):
                    through_token = await self._edit_board()
            except discord.HTTPException as error:
                if lost_access(error):
                    self._dirty = True  # drawn again on resuming
                    raise
                # Not now (a storm outlasted the retries): try again in a while, so the
                # board still converges without waiting for the next action.
                loop = asyncio.get_running_loop()
                loop.call_later(REDRAW_AFTER, self._put, self._redraw)
                raise
            interval = self.front.edit_interval
            if interval > 0 and not self._effects:
                backoff = 1.0 if through_token else self.front.transport.edit_backoff(urgent)
                await self._mail.serving(asyncio.sleep(interval * backoff))
        except asyncio.CancelledError:
            raise
        except discord.Forbidden as error:
            if not lost_access(error):
                log.exception("could not update the channel of table %s", self.table_id)
                return
            self._pause(error, what)
        except Exception:
            log.exception("could not update the channel of table %s", self.table_id)

    def _redraw(self) -> None:
        self._dirty = True

    def _drop(self, effect: Effect) -> None:
        """Take `effect` off the front of the queue (delivered, or given up on)."""
        if self._effects and self._effects[0] is effect:
            self._effects.popleft()
        self._queued.pop(effect.key, None)

    def _pause(self, error: discord.Forbidden, what: str) -> None:
        """Pause after Discord's 403 (lost permission); try again in `pause_retry` s,
        through REST only until a REST call works there again (`probing`)."""
        first = self._paused is None
        self._paused = Pause(error.code, what, time.time())
        self._probing = True
        self.front.tokens.forget(int(self._snapshot.place))
        self._wake_waiters()  # the hands and the AI waiting for a board wait no more
        log.warning(
            "table %s: Discord refused the %s (403, code %s): channel delivery paused",
            self.table_id,
            what,
            error.code,
        )
        if first and self.front.pause_retry > 0:
            asyncio.get_running_loop().call_later(self.front.pause_retry, self.resume)

    async def _send(self, what: str, build: Build, nonce: str) -> discord.Message:
        sent = await self.front.transport.send(self._snapshot, what, build, nonce)
        self._probing = False
        self._last_message = max(self._last_message or 0, sent.id)
        return sent

    async def _post(
        self, what: str, build: Build, nonce: str, effect: Effect | None
    ) -> tuple[discord.Message, datetime | None]:
        """Post an effect (None: a board outside the match's effects): through a lent token
        or REST (`Transport.post`); a follow-up whose answer was lost is looked for in the
        channel (an untracked board has no record to look for: it goes again)."""
        before = self._last_message

        async def lost() -> discord.Message | None:
            if self._match is None or effect is None:
                return None
            intent = PostIntent(self._match, effect.key, before, time.time())
            return await self.front.recovery.posted_before(self._snapshot, intent, effect)

        shown = self._snapshot
        posted = await self.front.transport.post(
            shown, seated(shown), self._probing, what, build, nonce, lost
        )
        if posted.rest:
            self._probing = False
        self._last_message = max(self._last_message or 0, posted.message.id)
        return posted.message, posted.expires

    async def _edit(
        self, message: Board, expires: datetime | None, what: str, change: Build
    ) -> tuple[Board, bool]:
        edited, through_token = await self.front.transport.edit(
            self._snapshot, message, expires, self._probing, what, change
        )
        if not through_token:
            self._probing = False
        return edited, through_token

    async def _recover(self) -> None:
        """Start-up: deliver what the log committed but no process delivered (in order),
        keep editing this deal's board of an earlier process, mark its older board replaced."""
        match_id = self._match
        if self.front.deliveries is None or match_id is None:
            return
        found = await self.front.recovery.recover(self._snapshot, match_id)
        await self._mail.apply_waiting()
        if self._match != match_id:
            return
        self._done |= found.done
        if found.last_message is not None:
            self._last_message = max(self._last_message or 0, found.last_message)
        self._intents = {k: v for k, v in found.intents.items() if k not in self._done}
        if found.todo is None:
            return
        self._effects = found.ahead_of(self._effects)
        older = list(found.older)
        if found.current is not None and self._board is None:
            self._board, self._image_key = found.current, None
            self._board_deal = self._snapshot.deal
            self._showing = None
            self._dirty = True
        elif found.current is not None:
            older.append(found.current)
        lang = self.front.language(self._snapshot)
        for message in older:
            rest = await self.front.recovery.mark_replaced(
                self._snapshot, message, None, self._probing, lang
            )
            if rest:
                self._probing = False

    def _replace_soon(self) -> None:
        if self._paused is None and not self._let_go:
            self._replacer.start()

    async def _deliver(self, effect: Effect) -> None:
        """Deliver one effect (unless done): record the intent, post it (or adopt the post
        of an earlier process that died before its record), then record it."""
        match = self._match
        if effect.key in self._done or match is None:
            return
        hooks = self.front.hooks
        deliveries = self.front.deliveries
        hooks.reached(effect.kind)
        found = await self.front.recovery.posted_before(
            self._snapshot, self._intents.pop(effect.key, None), effect
        )
        if found is not None:
            self._last_message = max(self._last_message or 0, found.id)
        if found is None and deliveries is not None:
            await deliveries.intend(match, effect.key, effect.upto, self._last_message)
        shown = self._snapshot
        nonce = fx.post_nonce(shown.place, shown.id, match, effect.key)
        with hooks.posting(effect.kind):
            if effect.kind == "board":
                message_id = await self._post_board(effect, nonce, found)
            elif found is not None:
                message_id = found.id
            else:
                message_id = await self._post_result(effect, nonce)
        self._done.add(effect.key)
        queued = self._queued.pop(effect.key, None)
        sink = self.front.delivered_sink
        if queued is not None and sink is not None:
            sink(time.monotonic() - queued)
        if effect.kind == "board":
            self._wake_waiters()
        if deliveries is not None:
            await deliveries.mark_delivered(match, effect.key, effect.upto, message_id)

    async def _post_board(self, effect: Effect, nonce: str, found: discord.Message | None) -> int:
        """Post the board of `effect`'s deal (or adopt `found`, an earlier process's post of
        it, to be drawn again), then mark the previous board replaced."""
        shown, over = board_view(self._snapshot, self._match, self._deal_snaps, effect)
        lang = self.front.language(self._snapshot)
        recent = self._lines.of(effect.deal, [] if over else None)
        if not over:
            self._dirty = False  # drawn now: a refresh during the send marks it dirty again
        pictured = shown is not None and await self._pictures.within(shown, lang)
        drawn: list[str | None] = [None]
        """The footer (table, deal, turn) of what was sent."""
        owed = next((e for e in self._effects if e.key == f"result:{effect.deal}"), None)

        def build() -> dict[str, Any]:
            if shown is None:
                kwargs = bare_board(self._snapshot, effect.deal, owed, lang)
            else:
                kwargs = board_kwargs(shown, lang, recent, pictured, effect.deal if over else None)
            drawn[0] = kwargs["embed"].footer.text
            return kwargs

        expires = None
        if found is None:
            sent, expires = await self._post("board", build, nonce, effect)
            found = None if footer(sent) == drawn[0] else sent  # the nonce's earlier post
        if found is None:
            self._image_key = None if shown is None or not pictured else last_play_key(shown)
            if pictured and shown is not None:
                self._showed(shown.turn)
        else:
            sent, self._image_key = found, None
            self._dirty = True  # drawn by an earlier process at an earlier turn: draw it now
        self._new_board(sent, effect.deal, expires)
        return sent.id

    def _new_board(self, sent: discord.Message, deal: int | None, expires: datetime | None) -> None:
        previous, previous_expires = self._board, self._board_expires
        self._board, self._board_deal, self._board_expires = sent, deal, expires
        self._showing = None
        if previous is not None:  # marked replaced apart from this task
            self._replacer.add(previous, previous_expires)
            self._replace_soon()

    async def _post_result(self, effect: Effect, nonce: str) -> int:
        table = self._snapshot
        lang = self.front.language(table)
        shown = self._deal_snaps.get(effect.deal)
        view = effect.view if shown is None else shown.view(None)  # effect's: replayed
        pictures = self.front.pictures
        await self._pictures.drawn(draw_result_ahead(table, view, effect.events, lang, pictures))
        summary = None
        if effect.kind == fx.MATCH_RESULT and self._match is not None:
            names = seat_names(table, raw=True)  # drawn: a picture keeps names raw
            summary = await self.front.summaries.get(table.spec, self._match, names, lang)
        build = partial(result_kwargs, table, view, effect, lang, summary)
        sent, _ = await self._post("result", build, nonce, effect)
        return sent.id

    async def _edit_board(self) -> bool:
        """Bring the board up to date (posting it if it is missing); whether the edit went
        through a member's interaction token (outside the budget)."""
        shown = self._snapshot
        own_deal = shown.deal if shown.started else None
        if self._board is None or self._board_deal != own_deal:
            if any(e.kind == "board" and e.deal == shown.deal for e in self._effects):
                return False  # this deal's board is on its way
            wanted = f"board:{shown.deal}"
            if own_deal is not None and self._match is not None and wanted not in self._done:
                self._effects.append(Effect(wanted, shown.turn, shown.deal))
                return False
            if own_deal is not None and self._board is not None:
                return False  # the board of a deal whose record exists elsewhere: leave it
            await self._post_untracked()
            return False
        if self._holds:
            # A click on this board is being answered with it: its answer goes first.
            self._released.clear()
            with contextlib.suppress(TimeoutError):
                await self._mail.serving(asyncio.wait_for(self._released.wait(), HOLD_FOR))
            shown = self._snapshot
            if self._board is None or self._board_deal != (shown.deal if shown.started else None):
                self._dirty = True
                return False
        edit, showing, key, current = await self._board_change(shown)
        if showing == self._showing:
            return True  # a click's own answer showed exactly this already
        board = self._board
        assert board is not None
        self.front.hooks.reached("edit")
        try:
            self._board, through_token = await self._edit(
                board, self._board_expires, "board edit", edit
            )
        except discord.NotFound:
            self._board = None
            await self._post_untracked()
            return False
        if not through_token:
            self._board_expires = None
        self._image_key, self._showing = key, showing
        self._table_cards = table_cards(shown)
        if current:
            self._showed(shown.turn)  # with its picture (an AI plays on once it shows)
        return through_token

    async def _board_change(
        self, shown: TableSnapshot
    ) -> tuple[Build, str, tuple[str, ...] | None, bool]:
        """The edit bringing the board to `shown` (a function building its keyword
        arguments for each try; its picture uploaded only when it changed), what it shows
        (`seen`), the key of the picture it shows (the last one kept when the new one is
        not drawn within `PICTURE_WAIT`) and whether that picture is `shown`'s own."""
        key: tuple[str, ...] | None = last_play_key(shown)
        image = key != self._image_key
        lines = self._lines.of(shown.deal)  # of this snapshot's turn: taken before any wait
        lang = self.front.language(shown)
        if image:
            image = await self._pictures.within(shown, lang)
        current = image or key == self._image_key
        key = key if current else self._image_key
        edit, showing = board_edit(shown, lang, lines, image, self._image_key, key)
        return edit, showing, key, current

    async def _answer(self, interaction: discord.Interaction) -> bool:
        if not self.may_answer(interaction):
            return False
        if missing_permissions(interaction.app_permissions, thread=is_thread(interaction.channel)):
            return False
        shown = self._snapshot
        edit, showing, key, current = await self._board_change(shown)
        await edit_clicked_publicly(interaction, **edit())
        self.front.answer_updates += 1
        self._image_key, self._showing = key, showing
        if current:
            self._showed(shown.turn)
        return True

    async def _post_untracked(self) -> None:
        """A board outside a match's effects (the lobby, a stopped table, a lost message):
        through a lent token too (the lobby of `/table create`, outside the budget, so the
        first deal's board does not wait behind it when many tables open at once)."""
        shown = self._snapshot
        lang = self.front.language(shown)
        lines = self._lines.of(shown.deal)  # of this snapshot's turn: taken before any wait
        await self._pictures.board(shown, lang)

        def build() -> dict[str, Any]:
            return send_kwargs(board_message(shown, lang, lines, with_image=True))

        sent, expires = await self._post("board", build, fresh_nonce(), None)
        self._new_board(sent, shown.deal if shown.started else None, expires)
        self._image_key = last_play_key(shown)
        self._showed(shown.turn)
