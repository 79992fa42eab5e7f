"""The front interface: how the runtime hands events to the terminal or Discord.

After an action is committed, the runtime hands its events over in their order, under the
table's lock, each with a frozen `TableSnapshot` of the table at that committed turn (never
the live `Table`): each run of consecutive public events in one `public(...)` call (the
snapshot holds the spectator view only), each run of one seat's private events in one
`private(...)` call (only when the seat has a human owner; the snapshot also holds that one
seat's view), then `refresh(snapshot)` so the front can redraw the board. Fronts must
return quickly (queue slow I/O in their own tasks); the runtime awaits them.

Besides the game's events, the runtime emits its own lifecycle events (below), always
public. They subclass `engines.base.Event`, so `to_json()` and `kind` work the same.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar, Protocol

from engines.base import Event

if TYPE_CHECKING:
    from bot.runtime.seats import Player
    from bot.runtime.snapshot import TableSnapshot


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class PlayerJoined(Event):
    """A human sat down (`seat`), before or during a match (taking over an AI seat)."""

    kind: ClassVar[str] = "player_joined"
    seat: int
    name: str


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class PlayerLeft(Event):
    """A human left their seat. During a match the AI plays it and they may come back."""

    kind: ClassVar[str] = "player_left"
    seat: int
    name: str


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class SeatAway(Event):
    """The AI now plays `seat` for its owner; `reason` is "left" or "timeouts"."""

    kind: ClassVar[str] = "seat_away"
    seat: int
    name: str
    reason: str


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class SeatBack(Event):
    """The owner of `seat` is back and plays it again."""

    kind: ClassVar[str] = "seat_back"
    seat: int
    name: str


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class TurnTimedOut(Event):
    """`seat` ran out of time; the runtime played `action` (the game's safe default)."""

    kind: ClassVar[str] = "turn_timed_out"
    seat: int
    action: str
    in_a_row: int


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class MatchStarted(Event):
    """Match `number` of the table began (a start or a restart)."""

    kind: ClassVar[str] = "match_started"
    number: int


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class TableStopped(Event):
    """The table was stopped; it takes no more actions."""

    kind: ClassVar[str] = "table_stopped"


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class SeedsRevealed(Event):
    """Match `match` is over before its end (its table stopped, or a restart began a newer
    match) after dealing at least one seeded deal: every seed it dealt is public now (the
    hand history derives them from its stored secret). A match that ends says so itself,
    in `MatchEnded.seeds`."""

    kind: ClassVar[str] = "seeds_revealed"
    match: int


class Front(Protocol):
    """Where a table's events go (the terminal, a Discord channel)."""

    async def public(self, table: TableSnapshot, events: Sequence[Event]) -> None:
        """Events everybody at the table's place may see (already committed)."""
        ...

    async def private(
        self, table: TableSnapshot, seat: int, player: Player, events: Sequence[Event]
    ) -> None:
        """Events only the owner of `seat` may see (their cards); `table.view(seat)` is theirs."""
        ...

    async def refresh(self, table: TableSnapshot) -> None:
        """The table changed (action, seat change, restore at start-up): redraw the board."""
        ...

    async def caught_up(self, table_id: int, turn: int, within: float) -> None:
        """Return once what the place of table `table_id` shows has caught up with its
        `turn`, or after `within` seconds: a paced AI seat waits for it before it plays on, so that
        when the display falls behind (a busy bot) people still see each move, and the AI
        slows down instead of piling moves up unseen."""
        ...


class NullFront:
    """A front that shows nothing (benchmarks, all-AI runs)."""

    async def public(self, table: TableSnapshot, events: Sequence[Event]) -> None:
        """Ignore public events."""

    async def private(
        self, table: TableSnapshot, seat: int, player: Player, events: Sequence[Event]
    ) -> None:
        """Ignore private events."""

    async def refresh(self, table: TableSnapshot) -> None:
        """Nothing to redraw."""

    async def caught_up(self, table_id: int, turn: int, within: float) -> None:
        """Nothing shown: never behind."""


class RecordingFront:
    """A front that keeps everything it is handed, in order (tests, tools)."""

    def __init__(self) -> None:
        """Start empty."""
        self.log: list[tuple[str, int, int | None, Event | None]] = []
        """(what, table id, seat or None, event or None) with what in public/private/refresh."""

    async def public(self, table: TableSnapshot, events: Sequence[Event]) -> None:
        """Record public events."""
        self.log.extend(("public", table.id, None, e) for e in events)

    async def private(
        self, table: TableSnapshot, seat: int, player: Player, events: Sequence[Event]
    ) -> None:
        """Record private events with their seat."""
        self.log.extend(("private", table.id, seat, e) for e in events)

    async def refresh(self, table: TableSnapshot) -> None:
        """Record a refresh."""
        self.log.append(("refresh", table.id, None, None))

    async def caught_up(self, table_id: int, turn: int, within: float) -> None:
        """Everything is recorded at once: never behind."""

    def events(self, kind: str | None = None) -> list[Event]:
        """Every recorded event (of `kind` if given)."""
        return [e for _, _, _, e in self.log if e is not None and (kind is None or e.kind == kind)]
