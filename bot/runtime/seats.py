"""Seats and players: who sits where, who plays a seat now, and who results are credited to."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from storage.base import SeatRecord

TIMEOUTS_BEFORE_AWAY = 2
"""Turn timeouts in a row after which the AI plays a person's seat (until they are back)."""


@dataclass(frozen=True, slots=True)
class Player:
    """A human: a stable id (Discord user id, "terminal") and the name shown at the table."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat now: its human owner (None: an AI seat), the AI policy that plays when no human
    does, and whether the owner is away (left, or two timeouts in a row). Immutable: a change
    is a new `Seat` (`dataclasses.replace`)."""

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
    """The display name of an AI seat: "AI 2". Its policy is not in it (a policy's name,
    such as the easy level's "calling", would read as a verb: "calling AI 4 calls 20"); the
    table's AI level is said once, as the match starts."""
    return f"AI {seat + 1}"


def credit_id(seat: Seat) -> tuple[str, bool]:
    """(player id, is_ai) that results of `seat` are credited to."""
    if seat.owner is not None:
        return seat.owner.id, False
    return f"ai:{seat.policy}", True


def holder_id(seat: Seat) -> tuple[str, bool]:
    """(id, is_ai) the rating result of `seat` counts for when a match starts with it: its
    member, whoever finishes the seat; the AI (``ai:<policy>``) for an AI seat or a member
    away at the start, whom the AI plays for."""
    if seat.owner is not None and not seat.away:
        return seat.owner.id, False
    return f"ai:{seat.policy}", True


def owned_by(seats: Sequence[Seat], player_id: str) -> int | None:
    """The seat `player_id` owns among `seats`, if any."""
    for seat in seats:
        if seat.owner is not None and seat.owner.id == player_id:
            return seat.index
    return None
