"""`Table`: one match of one game in one place, driven through its lifecycle.

Lifecycle: created in the lobby -> people `join` (or `leave`) -> `start` fills empty seats
with AI players -> `act` / AI turns / timeouts -> the match finishes -> `restart` begins a
new match (fresh stacks or scores) -> `stop` closes the table for good.

Every change goes through one `asyncio.Lock`. Every action carries the turn it was made
for (`Table.turn`, a table-wide sequence number): an action for another turn is refused
as stale, so a double click is never applied twice. Order of work for an accepted action:
the engine accepts it -> the action and everything it changed is committed to storage ->
only then are the events handed to the front. A refused action writes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bot.runtime import errors
from bot.runtime.ai_pool import AiPool
from bot.runtime.clock import Clock
from bot.runtime.front import (
    Front,
    MatchStarted,
    PlayerJoined,
    PlayerLeft,
    SeatAway,
    SeatBack,
    TableStopped,
    TurnTimedOut,
)
from engines.base import (
    ChipsBought,
    DealSettled,
    DealStarted,
    Event,
    GameState,
    IllegalAction,
    MatchEnded,
    Policy,
)
from engines.fair import DealSource
from engines.registry import GameSpec
from storage.base import (
    JSON,
    ActionCommit,
    ActionRecord,
    Actor,
    ChipEntry,
    DealRecord,
    MatchPlayer,
    MatchRecord,
    MatchResult,
    PenaltyEntry,
    SeatRecord,
    Storage,
    TableRecord,
    TableStatus,
)

log = logging.getLogger(__name__)

TIMEOUTS_BEFORE_AWAY = 2


@dataclass(frozen=True, slots=True)
class Player:
    """A human: a stable id (Discord user id, "terminal") and the name shown at the table."""

    id: str
    name: str


class TableOptions(BaseModel):
    """Runtime options of one table (stored with it). The game's own settings are separate."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seats: int | None = Field(default=None, ge=1, description="players; None: the game's default")
    turn_seconds: int = Field(default=60, ge=0, description="turn timer for humans; 0: off")
    ai_policy: str | None = Field(default=None, description="AI for empty seats; None: default")
    lang: str = "en"
    creator: str | None = Field(
        default=None, description="player id of who created the table (may stop/restart it)"
    )


@dataclass(frozen=True)
class RuntimeConfig:
    """Process-wide runtime settings (not stored with tables)."""

    ai_delay: float = 0.0
    """Seconds an AI waits before acting (readability); 0 in tests and benchmarks."""
    ai_in_thread: bool = True
    """Run AI decisions in a worker thread so a slow policy never blocks the event loop."""
    timers: bool = True
    """Schedule turn timers; tests may drive `Table.expire` by hand instead."""
    ai_concurrency: int = 32
    """AI turns in progress at once across all tables of the manager. Bounding them keeps
    the event loop's ready queue short, so human actions stay fast when many AI tables
    play at full speed."""
    latency_sink: Callable[[float], None] | None = None
    """Called with seconds from engine accept to front hand-off, for every action (bench)."""
    ai_processes: int = 0
    """AI worker processes (`bot.runtime.ai_pool.AiPool`, owned by the manager); 0: decide
    in this process (a thread or inline, per `ai_in_thread`). Processes keep pure-Python AI
    CPU from holding the GIL the event loop needs to answer humans."""


@dataclass
class Seat:
    """A seat now: its human owner (None: an AI seat), the AI policy that plays when no human
    does, and whether the owner is away (left, or two timeouts in a row)."""

    index: int
    owner: Player | None
    policy: str
    name: str
    away: bool = False
    timeouts: int = 0

    @property
    def ai_plays(self) -> bool:
        """True when the runtime (an AI) makes this seat's decisions."""
        return self.owner is None or self.away

    def record(self) -> SeatRecord:
        """The storage row of this seat."""
        return SeatRecord(
            seat=self.index,
            player_id=self.owner.id if self.owner else None,
            name=self.name,
            policy=self.policy,
            away=self.away,
            timeouts=self.timeouts,
        )

    @classmethod
    def from_record(cls, record: SeatRecord) -> Seat:
        """Rebuild a seat from storage."""
        owner = Player(record.player_id, record.name) if record.player_id is not None else None
        return cls(record.seat, owner, record.policy, record.name, record.away, record.timeouts)


def ai_name(policy: str, seat: int) -> str:
    """The display name of an AI seat."""
    return f"{policy} AI {seat + 1}"


def credit_id(seat: Seat) -> tuple[str, bool]:
    """(player id, is_ai) that results of `seat` are credited to."""
    if seat.owner is not None:
        return seat.owner.id, False
    return f"ai:{seat.policy}", True


def opening_events(state: GameState[Any, Any]) -> list[Event]:
    """Events the engine produced while creating the state (the first DealStarted, buy-ins).

    Engines expose them as `state.opening_events` (a list or a method); none is fine."""
    found = getattr(state, "opening_events", None)
    if callable(found):
        found = found()
    return list(found or [])


class Table:
    """One match of one game in one place (see the module docstring).

    Read-only attributes for fronts: `id`, `guild`, `place`, `game`, `spec`, `options`,
    `seats`, `status`, `turn`, `deadline`, `match`, `names`, `to_act`; `view(seat)`.
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
        ai_slots: asyncio.Semaphore | None = None,
        ai_pool: AiPool | None = None,
    ) -> None:
        """Wrap a stored table; use `TableManager.create` / `restore` rather than this.
        `ai_slots` bounds AI turns across tables (shared by the manager); `ai_pool`, if
        given, makes the AI decisions in worker processes."""
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
        self._policies: dict[int, Policy[Any, Any]] = {}
        self._policy_seeds: dict[int, tuple[str, int]] = {}
        """Seat -> (policy name, seed) its policy was built from (for `ai_pool`)."""
        self._ai_pool = ai_pool
        self._ai_slots = ai_slots or asyncio.Semaphore(max(1, config.ai_concurrency))
        self._lock = asyncio.Lock()
        self._ai_task: asyncio.Task[None] | None = None
        self._timer_task: asyncio.Task[None] | None = None
        self._busy: set[asyncio.Task[Any]] = set()

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
        for seat in self.seats:
            if seat.owner is not None and seat.owner.id == player_id:
                return seat.index
        return None

    def view(self, seat: int | None) -> Any:
        """The engine's view for `seat` (None: a spectator); None before the first match."""
        return None if self.state is None else self.state.view(seat)

    # --------------------------------------------------------------- lifecycle

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
            deadline, deadline_turn = self._deadline_for(
                [*self.seats[:index], new, *self.seats[index + 1 :]]
            )
            await self._storage.save_seats(self.id, [new.record()])
            await self._storage.set_timer(self.id, deadline, deadline_turn)
            self.seats[index] = new
            self.deadline, self.deadline_turn = deadline, deadline_turn
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
            seats = [*self.seats[:index], new, *self.seats[index + 1 :]]
            deadline, deadline_turn = self._deadline_for(seats)
            await self._storage.save_seats(self.id, [new.record()])
            await self._storage.set_timer(self.id, deadline, deadline_turn)
            self.seats[index] = new
            self.deadline, self.deadline_turn = deadline, deadline_turn
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
        (fresh stacks or scores) with the same seats."""
        async with self._lock:
            self._require_not_stopped()
            return await self._start(seed)

    async def stop(self) -> None:
        """Close the table for good (it stays in storage for the history)."""
        async with self._lock:
            self._require_not_stopped()
            await self._storage.set_status(self.id, "stopped")
            self.status = "stopped"
            self._cancel_tasks()
            await self._deliver([TableStopped()])

    # ------------------------------------------------------------------ acting

    async def act(self, player_id: str, action: Any, turn: int) -> list[Event]:
        """Play `action` (its canonical text, or an action object) for `player_id`'s seat,
        made for `turn`. Returns the events this player may see. Raises `TableError`
        (runtime refusals) or `IllegalAction` (the engine's); nothing is written then."""
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
            pending = [t for t in (self._ai_task, *self._busy) if t is not None and not t.done()]
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
        """The turn deadline after a change: only a human-played seat to act gets a timer."""
        seconds = self.options.turn_seconds
        if seconds <= 0 or self.status != "playing" or self.state is None:
            return None, None
        index = self.state.to_act
        if index is None or self.state.finished or seats[index].ai_plays:
            return None, None
        return self._clock.now() + seconds, self.turn if turn is None else turn

    def _make_policies(self, seed: int) -> None:
        master = random.Random(seed ^ 0x5EA7)
        self._policy_seeds = {
            seat.index: (seat.policy, master.getrandbits(64)) for seat in self.seats
        }
        self._policies = {
            index: self.spec.make_policy(name, random.Random(policy_seed))
            for index, (name, policy_seed) in self._policy_seeds.items()
        }

    async def _start(self, seed: int | None) -> MatchRecord:
        seed = self._seed_source() if seed is None else seed
        config = self.spec.make_config(**self.settings)
        number = (self.match.number + 1) if self.match else 1
        state = new_match_state(self.spec, config, seed, table=self.id, number=number)
        opening = opening_events(state)
        credits = []
        for s in self.seats:
            player_id, is_ai = credit_id(s)
            credits.append(MatchPlayer(s.index, player_id, s.name, is_ai))
        # A new match skips one turn number so no click made for the old match can match.
        first_seq = self.turn + 1 if self.match is not None else self.turn
        now = self._clock.now()
        deals, chips, _penalties, deal = self._ledger_rows(opening, 0, first_seq, credits, now)
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
            deals=deals,
            chips=chips,
            deadline=deadline,
            deadline_turn=deadline_turn,
            now=now,
        )
        self.match, self.state, self.status = match, state, "playing"
        self.turn = first_seq
        self.credits = credits
        self.deal = deal
        self.deadline, self.deadline_turn = deadline, deadline_turn
        self._make_policies(seed)
        await self._deliver([MatchStarted(number=number), *opening])
        self._after_change()
        return match

    def _ledger_rows(
        self, events: Sequence[Event], match_id: int, next_seq: int,
        credits: Sequence[MatchPlayer], now: float, deal: int = 0,
    ) -> tuple[list[DealRecord], list[ChipEntry], list[PenaltyEntry], int]:  # fmt: skip
        """`ledger_rows` of this table's events."""
        return ledger_rows(
            events, guild=self.guild, game=self.game, match_id=match_id, next_seq=next_seq,
            credits=credits, now=now, deal=deal,
        )  # fmt: skip

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
            deals, chips, penalties, deal = self._ledger_rows(
                events, self.match.id, seq + 1, credits, now, deal=self.deal
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
                deals=deals,
                chips=chips,
                penalties=penalties,
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
        write = asyncio.ensure_future(self._storage.commit_action(commit))
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
                self.deal = deal
                self.seats = seats
            raise
        self.turn = seq + 1
        self.deal = deal
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
        """Hand committed events to the front in their order (consecutive events for the
        same audience in one call: public ones to the place, private ones to the seat's
        owner), then ask for a board refresh."""
        runs: list[tuple[int | None, list[Event]]] = []
        for event in events:
            if runs and runs[-1][0] == event.to:
                runs[-1][1].append(event)
            else:
                runs.append((event.to, [event]))
        try:
            for to, batch in runs:
                if to is None:
                    await self._front.public(self, batch)
                    continue
                owner = self.seats[to].owner if 0 <= to < len(self.seats) else None
                if owner is not None:
                    await self._front.private(self, to, owner, batch)
            await self._front.refresh(self)
        except Exception:
            # The action is committed; a front failure must not undo or repeat it.
            log.exception("front failed while delivering events of table %s", self.id)

    def _after_change(self) -> None:
        """Re-arm the turn timer and let the AI play if it is an AI-played seat's turn."""
        if self.status == "finished" and self._ai_pool is not None:
            self._ai_pool.forget(self.id)
        self._arm_timer()
        self._kick_ai()

    def _arm_timer(self) -> None:
        if self._timer_task is not None and not self._timer_task.done():
            if getattr(self._timer_task, "deucebot_for", None) == (
                self.deadline,
                self.deadline_turn,
            ):
                return
            self._timer_task.cancel()
        self._timer_task = None
        if not self._config.timers or self.deadline is None or self.status != "playing":
            return
        task = asyncio.get_running_loop().create_task(self._timer(self.deadline))
        task.deucebot_for = (self.deadline, self.deadline_turn)  # type: ignore[attr-defined]
        self._timer_task = task

    async def _timer(self, deadline: float) -> None:
        await self._clock.sleep_until(deadline)
        task = asyncio.get_running_loop().create_task(self.expire())
        self._busy.add(task)
        task.add_done_callback(self._busy.discard)

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
                if self.turn != turn:
                    continue
            async with self._ai_slots:
                if self.turn != turn or self.state is None:
                    continue
                await self._ai_turn(index, turn)

    async def _ai_turn(self, index: int, turn: int) -> None:
        """Decide for AI-played seat `index` at `turn` and play it (unless the turn moved on)."""
        assert self.state is not None
        view = self.state.view(index)
        policy = self._policies[index]
        try:
            if self.seats[index].owner is not None and self.spec.owner_decides(view):
                # Standing in for an away person: never spend their chips for them.
                action = self.spec.timeout_action(view)
            elif self._ai_pool is not None:
                name, seed = self._policy_seeds[index]
                action = await self._ai_pool.decide(self.id, index, self.game, name, seed, view)
            elif self._config.ai_in_thread:
                action = await asyncio.to_thread(policy.decide, view)
            else:
                action = policy.decide(view)
        except Exception:
            log.exception("AI %s failed in table %s; playing the safe default", policy, self.id)
            action = self.spec.timeout_action(view)
        async with self._lock:
            if self.turn != turn or self.to_act != index or not self.seats[index].ai_plays:
                return
            try:
                await self._accept(index, action, "ai")
            except IllegalAction as error:
                log.error("AI played an illegal action in table %s: %s", self.id, error)
                fallback = self.spec.timeout_action(self.state.view(index))
                await self._accept(index, fallback, "ai")

    def _cancel_tasks(self) -> None:
        for task in (self._ai_task, self._timer_task, *self._busy):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        self._ai_task = self._timer_task = None
        if self._ai_pool is not None:
            self._ai_pool.forget(self.id)  # stopped, closing, or a new match with new seeds


def ledger_rows(
    events: Sequence[Event],
    *,
    guild: str,
    game: str,
    match_id: int,
    next_seq: int,
    credits: Sequence[MatchPlayer],
    now: float,
    deal: int,
) -> tuple[list[DealRecord], list[ChipEntry], list[PenaltyEntry], int]:
    """The deal rows (commitments) and ledger rows the shared events of a match call for,
    `deal` being the deal in progress before them; also the deal number after them. The
    runtime writes them, `deucebot verify` recomputes them."""
    deals: list[DealRecord] = []
    chips: list[ChipEntry] = []
    penalties: list[PenaltyEntry] = []

    def chip(seat: int, hand: int, delta: int, reason: str) -> ChipEntry:
        who = credits[seat]
        return ChipEntry(
            guild, game, match_id, hand, seat, who.player_id, who.is_ai, delta, reason, now
        )

    for event in events:
        if isinstance(event, DealStarted):
            deal = event.deal
            deals.append(
                DealRecord(match_id, event.deal, event.dealer, event.commitment, next_seq)
            )
        elif isinstance(event, ChipsBought):
            chips.append(chip(event.seat, deal, event.amount, event.reason))
        elif isinstance(event, DealSettled):
            for seat, delta in enumerate(event.chips or ()):
                # A seat dealt in played a hand (even one that changed nothing); a seat
                # left out only appears when chips were handed back to it.
                reason = "hand" if event.was_dealt(seat) else "returned"
                if reason == "returned" and delta == 0:
                    continue
                chips.append(chip(seat, event.deal, delta, reason))
            for seat, penalty in enumerate(event.penalties or ()):
                who = credits[seat]
                entry = (guild, game, match_id, event.deal, seat, who.player_id, who.is_ai)
                penalties.append(PenaltyEntry(*entry, penalty, now))
    return deals, chips, penalties, deal


def new_match_state(
    spec: GameSpec, config: Any, seed: int, *, table: int, number: int
) -> GameState[Any, Any]:
    """Match `number` of table `table` before its first action, made from its secret seed:
    the engine's RNG and the `DealSource` of its deals both come from it."""
    source = DealSource.for_match(seed, table=table, match=number)
    return spec.new_state(config, random.Random(DealSource.rng_seed(seed)), source)


def match_state(spec: GameSpec, match: MatchRecord) -> GameState[Any, Any]:
    """A stored match's state before its first action (see `new_match_state`)."""
    config = spec.make_config(**match.config)
    return new_match_state(spec, config, match.seed, table=match.table_id, number=match.number)


def replay(
    spec: GameSpec, match: MatchRecord, actions: Sequence[str]
) -> tuple[GameState[Any, Any], int]:
    """Rebuild a match's state from its seed and logged action texts; also the current deal."""
    state = match_state(spec, match)
    deal = 0
    for event in opening_events(state):
        if isinstance(event, DealStarted):
            deal = event.deal
    for text in actions:
        seat = state.to_act
        if seat is None:
            raise RuntimeError(f"replay of match {match.id}: nobody to act before {text!r}")
        for event in state.apply(seat, spec.parse_action(text)):
            if isinstance(event, DealStarted):
                deal = event.deal
    return state, deal
