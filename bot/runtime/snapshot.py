"""`TableSnapshot`: a table frozen at a committed turn, what fronts and handlers read.

Fronts never get the live `Table`: the runtime hands them a snapshot taken while it holds
the table's lock, after the change was committed, so a front that renders later (an outbox
task) still shows a committed turn and cannot read engine state. A snapshot holds the
spectator's view and, for a private message or the owner's own hand, the one seat's view;
asking it for another seat's view is an error, so it cannot leak a hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from bot.runtime.options import TableOptions
from bot.runtime.seats import Seat, owned_by
from engines.registry import GameSpec
from storage.base import TableStatus


class TableSnapshot(NamedTuple):
    """A table at one committed turn (see the module docstring). Immutable; a named tuple
    because one is built for every delivery (it costs a fifth of a frozen dataclass)."""

    id: int
    guild: str
    place: str
    game: str
    spec: GameSpec
    options: TableOptions
    seats: tuple[Seat, ...]
    status: TableStatus
    turn: int
    """The turn number of the next action (what buttons made now must carry)."""
    deal: int
    deadline: float | None
    deadline_turn: int | None
    to_act: int | None
    public_view: Any
    """The spectator's view; None before the first match."""
    seat: int | None = None
    """The seat whose view `seat_view` is (None: a public snapshot)."""
    seat_view: Any = None
    """The view of `seat` (its hand); None in a public snapshot or before the first match."""
    match: int | None = None
    """The id of the match being played (None before the first match)."""
    settings: Mapping[str, Any] = MappingProxyType({})
    autopass: frozenset[str] = frozenset()
    """Players who chose auto-pass (`Table.set_autopass`)."""
    """The game's settings the table was created with (its config fields; defaults omitted)."""

    @property
    def names(self) -> list[str]:
        """Display names in seat order."""
        return [seat.name for seat in self.seats]

    @property
    def finished(self) -> bool:
        """True when the match is over."""
        return self.status == "finished"

    @property
    def started(self) -> bool:
        """True once a match was dealt (there are views to show)."""
        return self.public_view is not None

    def seat_of(self, player_id: str) -> int | None:
        """The seat `player_id` owns, if any."""
        return owned_by(self.seats, player_id)

    def view(self, seat: int | None) -> Any:
        """The spectator view (`seat` None) or the view of the snapshot's own seat."""
        if seat is None:
            return self.public_view
        if seat != self.seat:
            raise ValueError(f"this snapshot holds the view of seat {self.seat}, not {seat}")
        return self.seat_view
