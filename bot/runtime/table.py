"""`Table`: one match of one game in one place, driven through its lifecycle.

Lifecycle: created in the lobby -> people `join` (or `leave`) -> `start` fills empty seats
with AI players -> `act` / AI turns / timeouts -> the match finishes -> `restart` begins a
new match (fresh stacks or scores) -> `stop` closes the table for good.

Every change goes through one `asyncio.Lock`. Every action carries the turn it was made
for (`Table.turn`, a table-wide sequence number): an action for another turn is refused
as stale, so a double click is never applied twice. Order of work for an accepted action
(`_accept`): the engine accepts it -> its ledger rows are computed (`ledger.ledger_rows`)
-> the action and everything it changed is committed to storage -> only then is the table
frozen into a `TableSnapshot` and the events handed to the front with it. A refused action
writes nothing.

Helpers with one job each: `seats` (players and seats), `ledger` (events -> rows),
`ai_seats` (every AI decision), `timer` (the turn deadline), `replay` (state from the log),
`snapshot` (what fronts read).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from bot.errors import REFUSALS
from bot.runtime import errors
from bot.runtime.ai_pool import AiPoolClosed, AiWorkerLost
from bot.runtime.ai_seats import AiSeats
from bot.runtime.clock import Clock
from bot.runtime.front import (
    Front,
    MatchStarted,
    PlayerJoined,
    PlayerLeft,
    SeatAway,
    SeatBack,
    SeedsRevealed,
    TableStopped,
    TurnTimedOut,
)
from bot.runtime.ledger import LedgerIds, ledger_rows
from bot.runtime.options import RuntimeConfig, TableOptions
from bot.runtime.replay import new_match_state, opening_events, replay
from bot.runtime.seats import (
    TIMEOUTS_BEFORE_AWAY,
    Player,
    Seat,
    ai_name,
    credit_id,
    holder_id,
    owned_by,
)
from bot.runtime.snapshot import TableSnapshot
from bot.runtime.timer import TurnTimer
from engines.base import Event, GameState, IllegalAction, MatchEnded
from engines.registry import GameSpec
from storage.base import (
    JSON,
    ActionCommit,
    ActionRecord,
    Actor,
    MatchPlayer,
    MatchRecord,
    MatchResult,
    Settlement,
    Storage,
    TableRecord,
    TableStatus,
)

log = logging.getLogger(__name__)

CAUGHT_UP_WITHIN = 5.0
"""How long a paced AI seat waits at most for the front to show the last move before it
plays on (`Front.caught_up`)."""


def audience_runs(events: Sequence[Event]) -> list[tuple[int | None, list[Event]]]:
    """`events` in order, consecutive ones for the same audience (`Event.to`: None for
    everyone, else a seat) in one run: the batches the front is given."""
    runs: list[tuple[int | None, list[Event]]] = []
    for event in events:
        if runs and runs[-1][0] == event.to:
            runs[-1][1].append(event)
        else:
            runs.append((event.to, [event]))
    return runs


class Table:
    """One match of one game in one place (see the module docstring).

    Read-only attributes: `id`, `guild`, `place`, `game`, `spec`, `options`, `seats`,
    `status`, `turn`, `deadline`, `match`, `names`, `to_act`; `view(seat)`. Fronts get
    `snapshot(seat)` copies, never the table itself.
    """

    def __init__(
        self,
        record: TableRecord,
        spec: GameSpec,
        seats: list[Seat],
        *,
        storage: Storage,
        front: Front,
        clock: Clock,
        config: RuntimeConfig,
        seed_source: Callable[[], int],
        ai: AiSeats,
    ) -> None:
        """Wrap a stored table; use `TableManager.create` / `restore` rather than this.
        `ai` makes every AI decision (shared by the manager's tables)."""
        self.id = record.id
        self.guild = record.guild
        self.place = record.place
        self.game = record.game
        self.spec = spec
        self.settings: JSON = dict(record.settings)
        self.options = TableOptions(**record.options)
        self.seats = seats
        self.status: TableStatus = record.status
        self.deadline: float | None = record.deadline
        self.deadline_turn: int | None = record.deadline_turn
        self.match: MatchRecord | None = None
        self.state: GameState[Any, Any] | None = None
        self.turn = 0
        """Table-wide sequence number of the next action; actions must carry it."""
        self.deal = 0
        """Number of the deal in progress (from the engine's DealStarted events)."""
        self.credits: list[MatchPlayer] = []
        self._storage = storage
        self._front = front
        self._clock = clock
        self._config = config
        self._seed_source = seed_source
        self._ai = ai
        self._lock = asyncio.Lock()
        self._ai_task: asyncio.Task[None] | None = None
        self._autopass: set[str] = set()
        """Players who chose to pass automatically when passing is their only move (Big Two);
        kept in memory only: a restart turns it off, the safe side of a choice never on by
        default."""
        self._autopass_task: asyncio.Task[None] | None = None
        self._timer = TurnTimer(clock, self.expire)

    # ----------------------------------------------------------------- reading

    @property
    def names(self) -> list[str]:
        """Display names in seat order."""
        return [seat.name for seat in self.seats]

    @property
    def to_act(self) -> int | None:
        """The seat to act now, or None (lobby, finished, stopped)."""
        if self.status != "playing" or self.state is None:
            return None
        return self.state.to_act

    @property
    def finished(self) -> bool:
        """True when the current match is over."""
        return self.status == "finished"

    def seat_of(self, player_id: str) -> int | None:
        """The seat `player_id` owns, if any."""
        return owned_by(self.seats, player_id)

    def view(self, seat: int | None) -> Any:
        """The engine's view for `seat` (None: a spectator); None before the first match."""
        return None if self.state is None else self.state.view(seat)

    def snapshot(self, seat: int | None = None) -> TableSnapshot:
        """The table frozen now, with the spectator view and (if `seat` is given) that seat's
        view. Taken between changes (on the event loop, or by the runtime under the lock)."""
        return TableSnapshot(
            id=self.id,
            guild=self.guild,
            place=self.place,
            game=self.game,
            spec=self.spec,
            options=self.options,
            seats=tuple(self.seats),
            status=self.status,
            turn=self.turn,
            deal=self.deal,
            deadline=self.deadline,
            deadline_turn=self.deadline_turn,
            to_act=self.to_act,
            public_view=self.view(None),
            seat=seat,
            seat_view=None if seat is None else self.view(seat),
            match=None if self.match is None else self.match.id,
            settings=self.settings,
            autopass=frozenset(self._autopass),
        )

    async def committed(self, seat: int | None = None) -> TableSnapshot:
        """`snapshot(seat)` at the last committed turn: waits for a change in flight to be
        committed. Never call it from a `Front` method (they run under the lock)."""
        async with self._lock:
            return self.snapshot(seat)

    # --------------------------------------------------------------- lifecycle

    def resume(
        self, match: MatchRecord, actions: Sequence[str], credits: Sequence[MatchPlayer]
    ) -> None:
        """Put a stored match back in play (start-up): replay its logged `actions` from its
        seed. Call `wake()` once every table is resumed."""
        self.state, self.deal = replay(self.spec, match, actions)
        self.match = match
        self.turn = match.first_seq + len(actions)
        self.credits = list(credits)
        self._ai.new_match(self.id, self.seats, match.seed)
        if self.state.finished and self.status == "playing":
            self.status = "finished"

    async def wake(self) -> None:
        """After a restore: have the front redraw the board, re-arm the turn timer (a deadline
        that passed while the process was down fires at once, and a human turn stored without
        a deadline gets one) and let the AI play."""
        await self._settle_timer()
        await self._deliver([])
        self._after_change()

    async def join(self, player: Player, seat: int | None = None) -> int:
        """Seat `player` (in `seat`, or the first seat without a human) and return the seat.

        Allowed in the lobby, between matches and during a match (taking over an AI seat)."""
        async with self._lock:
            self._require_not_stopped()
            mine = self.seat_of(player.id)
            if mine is not None:
                raise errors.already_seated(player.id, mine)
            if seat is None:
                free = [s.index for s in self.seats if s.owner is None]
                if not free:
                    raise errors.table_full(len(self.seats))
                seat = free[0]
            if not isinstance(seat, int) or not 0 <= seat < len(self.seats):
                raise errors.no_such_seat(seat if isinstance(seat, int) else -1, len(self.seats))
            current = self.seats[seat]
            if current.owner is not None:
                raise errors.seat_taken(seat, current.owner.name)
            new = replace(current, owner=player, name=player.name, away=False, timeouts=0)
            credit: list[MatchPlayer] = []
            if self.status == "playing" and self.match is not None:
                credit = [MatchPlayer(seat, player.id, player.name, False)]
            await self._storage.save_seats(
                self.id,
                [new.record()],
                match_id=self.match.id if credit and self.match else None,
                players=credit,
            )
            self.seats[seat] = new
            for entry in credit:
                self.credits[entry.seat] = entry
            await self._settle_timer()
            await self._deliver([PlayerJoined(seat=seat, name=player.name)])
            self._after_change()
            return seat

    async def leave(self, player_id: str) -> int:
        """`player_id` leaves their seat. During a match the AI plays it until they are back
        (the seat stays theirs); otherwise the seat is freed."""
        async with self._lock:
            self._require_not_stopped()
            index = self._seat_or_raise(player_id)
            seat = self.seats[index]
            assert seat.owner is not None
            events: list[Event] = [PlayerLeft(seat=index, name=seat.name)]
            if self.status == "playing":
                new = replace(seat, away=True)
                events.append(SeatAway(seat=index, name=seat.name, reason="left"))
            else:
                new = replace(seat, owner=None, name=ai_name(seat.policy, index), away=False)
            await self._storage.save_seats(self.id, [new.record()])
            self.seats[index] = new
            await self._settle_timer()
            await self._deliver(events)
            self._after_change()
            return index

    async def back(self, player_id: str) -> int:
        """The owner of an away seat plays it again (their turn timer starts afresh)."""
        async with self._lock:
            self._require_not_stopped()
            index = self._seat_or_raise(player_id)
            seat = self.seats[index]
            if not seat.away:
                raise errors.not_away(index)
            new = replace(seat, away=False, timeouts=0)
            await self._storage.save_seats(self.id, [new.record()])
            self.seats[index] = new
            await self._settle_timer()
            await self._deliver([SeatBack(seat=index, name=new.name)])
            self._after_change()
            return index

    async def start(self, seed: int | None = None) -> MatchRecord:
        """Start a match (from the lobby, or after the last one finished). Empty seats are
        already AI seats. `seed` fixes the match's randomness (tests, `--seed`)."""
        async with self._lock:
            self._require_not_stopped()
            if self.status == "playing":
                raise errors.match_running()
            return await self._start(seed)

    async def restart(self, seed: int | None = None) -> MatchRecord:
        """The rules' restart: abandon the current match (if any) and begin a fresh one
        (fresh stacks or scores) with the same seats. An abandoned match with a deal
        played is settled for the ratings on the deals played, in the same transaction."""
        async with self._lock:
            self._require_not_stopped()
            return await self._start(seed)

    async def stop(self) -> None:
        """Close the table for good (it stays in storage for the history). A match in
        play with a deal played is settled for the ratings on the deals played, in the
        same transaction."""
        async with self._lock:
            self._require_not_stopped()
            revealed = self._revealed()
            await self._storage.set_status(self.id, "stopped", self._settlement())
            self.status = "stopped"
            self._cancel_tasks()
            self._ai.drop(self.id)
            await self._deliver([TableStopped(), *revealed])

    # ------------------------------------------------------------------ acting

    async def act(self, player_id: str, action: Any, turn: int) -> list[Event]:
        """Play `action` (its canonical text, or an action object) for `player_id`'s seat,
        made for `turn`. Returns the events this player may see. Raises `TableError`
        (runtime refusals) or `IllegalAction` (the engine's; `bot.errors.REFUSALS` catches
        both); nothing is written then."""
        async with self._lock:
            self._require_not_stopped()
            index = self._seat_or_raise(player_id)
            if self.status == "lobby":
                raise errors.match_not_started()
            if self.status == "finished":
                raise errors.match_finished()
            if self.seats[index].away:
                raise errors.seat_away(index)
            if not isinstance(turn, int) or isinstance(turn, bool) or turn != self.turn:
                raise errors.stale_turn(turn if isinstance(turn, int) else -1, self.turn)
            if self.to_act != index:
                raise errors.not_your_turn(index, self.to_act)
            parsed = self._parse(action)
            events = await self._accept(index, parsed, "human")
            return [e for e in events if e.to is None or e.to == index]

    def hint(self, player_id: str) -> asyncio.Task[Any]:
        """What the game's default AI would play for `player_id`'s seat now (the Hint button),
        decided by the same AI service as the AI seats, off the event loop. Refusals (not
        seated, not their turn) are raised here, before anything starts; the decision itself
        runs in the returned task (started now). Nothing changes at the table."""
        self._require_not_stopped()
        index = self._seat_or_raise(player_id)
        if self.to_act != index or self.state is None:
            raise errors.not_your_turn(index, self.to_act)
        view = self.state.view(index)
        return asyncio.get_running_loop().create_task(self._hint_of(index, view, self.turn))

    async def _hint_of(self, index: int, view: Any, turn: int) -> Any:
        """The AI's suggestion for seat `index` from `view`; its absence (the workers stopping
        for a restart, or the worker asked died) raised as the refusal `hint_unavailable`,
        which every front words for the member. The decision is started here, in the task,
        so a task cancelled before it runs leaves no decision behind."""
        try:
            return await self._ai.hint(self.id, self.spec, index, view, turn)
        except (AiPoolClosed, AiWorkerLost) as error:
            raise errors.hint_unavailable() from error

    async def expire(self) -> bool:
        """If the turn deadline passed, play the game's safe default for the seat to act and
        return True. Two timeouts in a row mark the seat away (the AI plays it)."""
        async with self._lock:
            if (
                self.status != "playing"
                or self.state is None
                or self.deadline is None
                or self.deadline_turn != self.turn
                or self._clock.now() < self.deadline
            ):
                return False
            index = self.state.to_act
            if index is None or self.seats[index].ai_plays:
                return False
            action = self.spec.timeout_action(self.state.view(index))
            seat = self.seats[index]
            in_a_row = seat.timeouts + 1
            away = in_a_row >= TIMEOUTS_BEFORE_AWAY
            updated = replace(seat, timeouts=in_a_row, away=away or seat.away)
            extra: list[Event] = [TurnTimedOut(seat=index, action=str(action), in_a_row=in_a_row)]
            if away:
                extra.append(SeatAway(seat=index, name=seat.name, reason="timeouts"))
            await self._accept(index, action, "timeout", seat_update=updated, notices=extra)
            return True

    async def idle(self) -> None:
        """Wait until no AI turn or timer work is running (tests, the console, shutdown)."""
        while True:
            for _ in range(3):
                await asyncio.sleep(0)
            tasks = (self._ai_task, self._autopass_task, *self._timer.pending())
            pending = [t for t in tasks if t is not None and not t.done()]
            if not pending:
                return
            await asyncio.gather(*pending, return_exceptions=True)

    async def close(self) -> None:
        """Cancel the table's background tasks (process shutdown)."""
        self._cancel_tasks()
        await asyncio.sleep(0)

    # --------------------------------------------------------------- internals

    def _require_not_stopped(self) -> None:
        if self.status == "stopped":
            raise errors.table_stopped()

    def _seat_or_raise(self, player_id: str) -> int:
        index = self.seat_of(player_id)
        if index is None:
            raise errors.not_seated(player_id)
        return index

    def _parse(self, action: Any) -> Any:
        if not isinstance(action, str):
            return action
        text = action.strip()
        if not text:
            raise errors.malformed_action(action, "it is empty")
        try:
            return self.spec.parse_action(text)
        except IllegalAction as error:
            raise errors.malformed_action(action, error.message) from error
        except ValueError as error:
            raise errors.malformed_action(action, str(error)) from error

    def _deadline_for(
        self, seats: Sequence[Seat], turn: int | None = None
    ) -> tuple[float | None, int | None]:
        """The turn deadline after a change: only a human-played seat to act gets a timer.
        A deadline already running for that turn is kept (someone else's join, leave or
        back gives the player to act no extra time)."""
        seconds = self.options.turn_seconds
        if seconds <= 0 or self.status != "playing" or self.state is None:
            return None, None
        index = self.state.to_act
        if index is None or self.state.finished or seats[index].ai_plays:
            return None, None
        turn = self.turn if turn is None else turn
        if self.deadline is not None and self.deadline_turn == turn:
            return self.deadline, turn
        return self._clock.now() + seconds, turn

    async def _settle_timer(self) -> None:
        """Make the turn timer match who is to act now, whichever way that came about (a
        join taking over an AI seat on its turn, a leave, a back, a restart): a human-played
        seat to act gets a stored deadline, anything else none. Lock held (or start-up).
        Actions and match starts store their deadline in their own transaction instead."""
        deadline, turn = self._deadline_for(self.seats)
        if (deadline, turn) != (self.deadline, self.deadline_turn):
            await self._storage.set_timer(self.id, deadline, turn)
            self.deadline, self.deadline_turn = deadline, turn

    async def _start(self, seed: int | None) -> MatchRecord:
        seed = self._seed_source() if seed is None else seed
        config = self.spec.make_config(**self.settings)
        number = (self.match.number + 1) if self.match else 1
        state = new_match_state(self.spec, config, seed, table=self.id, number=number)
        opening = opening_events(state)
        credits = []
        for s in self.seats:
            player_id, is_ai = credit_id(s)
            held_by, held_ai = holder_id(s)
            credits.append(MatchPlayer(s.index, player_id, s.name, is_ai, held_by, held_ai))
        # A new match skips one turn number so no click made for the old match can match.
        first_seq = self.turn + 1 if self.match is not None else self.turn
        now = self._clock.now()
        ledger = ledger_rows(
            opening, credits, LedgerIds(self.guild, self.game, 0, now), next_seq=first_seq, deal=0
        )
        revealed = self._revealed()
        previous = (self.state, self.status)
        self.state, self.status = state, "playing"
        try:
            deadline, deadline_turn = self._deadline_for(self.seats, first_seq)
        finally:
            self.state, self.status = previous
        self._cancel_tasks()
        match = await self._storage.start_match(
            table_id=self.id,
            number=number,
            seed=seed,
            config=config.model_dump(mode="json"),
            first_seq=first_seq,
            players=credits,
            seats=[s.record() for s in self.seats],
            deals=ledger.deals,
            chips=ledger.chips,
            deadline=deadline,
            deadline_turn=deadline_turn,
            now=now,
            settle=self._settlement(now),
        )
        self.match, self.state, self.status = match, state, "playing"
        self.turn = first_seq
        self.credits = credits
        self.deal = ledger.deal
        self.deadline, self.deadline_turn = deadline, deadline_turn
        self._ai.new_match(self.id, self.seats, seed)
        await self._deliver([*revealed, MatchStarted(number=number), *opening])
        self._after_change()
        return match

    def _revealed(self) -> list[Event]:
        """What abandoning the match in play (a stop, a restart) reveals: its seeds, once
        it has begun a deal. Every deal the runtime begins is seeded (its `DealSource` has
        no stacked deal), so a deal begun is a seeded deal. A finished match revealed its
        seeds as it ended: nothing more."""
        if self.status != "playing" or self.match is None or self.deal < 1:
            return []
        return [SeedsRevealed(match=self.match.number)]

    def _settlement(self, now: float | None = None) -> Settlement | None:
        """The match in play, to settle for the ratings as it is abandoned (restart, stop)."""
        if self.status != "playing" or self.match is None:
            return None
        return Settlement(self.match.id, self._clock.now() if now is None else now)

    async def _accept(
        self,
        index: int,
        action: Any,
        actor: Actor,
        *,
        seat_update: Seat | None = None,
        notices: Sequence[Event] = (),
    ) -> list[Event]:
        """Apply -> commit -> deliver, with the lock held. Raises the engine's IllegalAction
        untouched (nothing written); a failed commit reloads the state from storage."""
        assert self.state is not None and self.match is not None
        started = time.perf_counter()
        events = self.state.apply(index, action)
        try:
            seq = self.turn
            now = self._clock.now()
            seats = list(self.seats)
            if seat_update is not None:
                seats[index] = seat_update
            elif actor == "human" and seats[index].timeouts:
                seats[index] = replace(seats[index], timeouts=0)
            changed = [s.record() for s, old in zip(seats, self.seats, strict=True) if s != old]
            credits = self.credits
            ledger = ledger_rows(
                events,
                credits,
                LedgerIds(self.guild, self.game, self.match.id, now),
                next_seq=seq + 1,
                deal=self.deal,
            )
            ended = next((e for e in events if isinstance(e, MatchEnded)), None)
            finished = ended is not None or self.state.finished
            result = (
                MatchResult(self.match.id, now, tuple(ended.winners), tuple(ended.totals))
                if ended is not None
                else None
            )
            status: TableStatus | None = "finished" if finished else None
            if finished:
                deadline, deadline_turn = None, None
            else:
                deadline, deadline_turn = self._deadline_for(seats, seq + 1)
            commit = ActionCommit(
                table_id=self.id,
                action=ActionRecord(self.match.id, seq, self.deal, index, str(action), actor, now),
                deals=ledger.deals,
                chips=ledger.chips,
                penalties=ledger.penalties,
                result=result,
                status=status,
                deadline=deadline,
                deadline_turn=deadline_turn,
                seats=changed,
            )
        except BaseException:
            await self._reload_state()
            raise
        # The write runs to its end even if this task is cancelled meanwhile (shutdown,
        # restart), so the in-memory state always ends up in step with the database.
        write = self._storage.begin_commit(commit)
        try:
            await asyncio.shield(write)
        except BaseException:
            if not write.done():
                with contextlib.suppress(BaseException):
                    await write
            if write.cancelled() or write.exception() is not None:
                # The engine moved on but storage did not: rebuild the state from the log.
                await self._reload_state()
            else:
                self.turn = seq + 1
                self.deal = ledger.deal
                self.seats = seats
            raise
        self.turn = seq + 1
        self.deal = ledger.deal
        self.seats = seats
        self.deadline, self.deadline_turn = deadline, deadline_turn
        if finished:
            self.status = "finished"
            if result is not None:
                self.match = replace(
                    self.match, finished_at=now, winners=result.winners, totals=result.totals
                )
        await self._deliver([*notices, *events])
        if self._config.latency_sink is not None:
            self._config.latency_sink(time.perf_counter() - started)
        self._after_change()
        return events

    async def _reload_state(self) -> None:
        """Rebuild the engine state from the stored log (after a failed commit)."""
        if self.match is None:
            return
        actions = await self._storage.actions(self.match.id)
        self.state, self.deal = replay(self.spec, self.match, [a.action for a in actions])

    async def _deliver(self, events: Sequence[Event]) -> None:
        """Hand committed events to the front in their order, each with a snapshot of the
        table now: consecutive events for the same audience in one call (public ones to the
        place, private ones to the seat's owner, with that seat's view), then ask for a
        board refresh."""
        try:
            shown = self.snapshot()
            for to, batch in audience_runs(events):
                if to is None:
                    await self._front.public(shown, batch)
                    continue
                owner = self.seats[to].owner if 0 <= to < len(self.seats) else None
                if owner is not None:
                    await self._front.private(self.snapshot(to), to, owner, batch)
            await self._front.refresh(shown)
        except Exception:
            # The action is committed; a front failure must not undo or repeat it.
            log.exception("front failed while delivering events of table %s", self.id)

    def _after_change(self) -> None:
        """Re-arm the turn timer and let the AI play if it is an AI-played seat's turn."""
        if self.status == "finished":
            self._ai.forget(self.id)
        armed = self._config.timers and self.status == "playing"
        self._timer.arm(self.deadline if armed else None, self.deadline_turn)
        self._kick_ai()
        self._kick_autopass()

    # ------------------------------------------------------------------ auto-pass

    def set_autopass(self, player_id: str, on: bool) -> None:
        """`player_id`'s choice to pass automatically whenever passing is the only move
        (nothing beats the table); never when leading, where passing is not a move. Refuses
        `not_seated`."""
        self._seat_or_raise(player_id)
        if on:
            self._autopass.add(player_id)
            self._kick_autopass()
        else:
            self._autopass.discard(player_id)

    def autopasses(self, player_id: str) -> bool:
        """Whether `player_id` chose auto-pass."""
        return player_id in self._autopass

    def will_autopass(self, seat: int) -> bool:
        """True when `seat` is to act, chose auto-pass, and passing is its only move."""
        owner = self.seats[seat].owner if 0 <= seat < len(self.seats) else None
        if owner is None or owner.id not in self._autopass or self.to_act != seat:
            return False
        if self.state is None or self.seats[seat].ai_plays or self.status != "playing":
            return False
        return [str(a) for a in self.state.legal_actions(seat)] == ["pass"]

    def _kick_autopass(self) -> None:
        index = self.to_act
        if index is None or not self.will_autopass(index):
            return
        if self._autopass_task is not None and not self._autopass_task.done():
            return
        self._autopass_task = asyncio.get_running_loop().create_task(
            self._autopass_turn(index, self.turn)
        )
        self._autopass_task.add_done_callback(self._log_failure)

    async def _autopass_turn(self, index: int, turn: int) -> None:
        """Pass for the seat that chose it (its own move: logged as the person's)."""
        await asyncio.sleep(0)
        async with self._lock:
            if self.turn != turn or not self.will_autopass(index) or self.state is None:
                return
            await self._accept(index, self.spec.parse_action("pass"), "human")

    def _kick_ai(self) -> None:
        if self._ai_task is not None and not self._ai_task.done():
            return
        index = self.to_act
        if index is None or not self.seats[index].ai_plays:
            return
        self._ai_task = asyncio.get_running_loop().create_task(self._ai_turns())
        self._ai_task.add_done_callback(self._log_failure)

    def _log_failure(self, task: asyncio.Task[Any]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: background task failed", self.id, exc_info=task.exception())

    async def _ai_turns(self) -> None:
        """Play AI turns until a human must act or the match ends."""
        delay = self._config.ai_delay
        while True:
            index = self.to_act
            if index is None or self.state is None or not self.seats[index].ai_plays:
                return
            turn = self.turn
            if delay > 0:
                await asyncio.sleep(delay)
                await self._front.caught_up(self.id, self.turn, CAUGHT_UP_WITHIN)
                if self.turn != turn:
                    continue
            async with self._ai.slots:
                if self.turn != turn or self.state is None:
                    continue
                try:
                    await self._ai_turn(index, turn)
                except AiPoolClosed:
                    return  # shutting down: the seat plays its turn after the restart

    async def _ai_turn(self, index: int, turn: int) -> None:
        """Decide for AI-played seat `index` at `turn` and play it (unless the turn moved on)."""
        assert self.state is not None
        seat, view = self.seats[index], self.state.view(index)
        action = await self._ai.decide(self.id, self.spec, seat, view)
        async with self._lock:
            if self.turn != turn or self.to_act != index or not self.seats[index].ai_plays:
                return
            try:
                await self._accept(index, action, "ai")
            except REFUSALS as error:
                log.error("AI played an illegal action in table %s: %s", self.id, error)
                fallback = self._ai.safe_default(self.spec, self.state.view(index))
                await self._accept(index, fallback, "ai")

    def _cancel_tasks(self) -> None:
        if self._ai_task is not None and self._ai_task is not asyncio.current_task():
            self._ai_task.cancel()
        self._ai_task = None
        if self._autopass_task is not None and self._autopass_task is not asyncio.current_task():
            self._autopass_task.cancel()
        self._autopass_task = None
        self._timer.cancel()
        self._ai.forget(self.id)  # stopped, closing, or a new match with new seeds
