"""The documented JSON hand history (docs/hand-history.md, "Exported histories"), as pydantic
models: `HistoryFile` holds matches, a `MatchHistory` its seats and deals, a `DealHistory`
the deck order (ended deals, omniscient exports only), actions, events, result and ledger rows.

Reading a file back (`HistoryFile.model_validate_json`) checks it against the same models.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION: Literal[1] = 1
"""Bumped on any change a reader of version 1 files could not follow."""

FORMAT: Literal["deucebot-history"] = "deucebot-history"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SeatInfo(_Frozen):
    """Who played a seat of the match (results are credited to `player_id`)."""

    seat: int = Field(ge=0)
    player_id: str = Field(description="a human's id, or ai:<policy> for an AI seat")
    name: str
    is_ai: bool


class Viewer(_Frozen):
    """Whose history this is: a seat's (what its owner saw) or everything (`omniscient`)."""

    seat: int | None = Field(ge=0, description="the seat whose hidden cards are included")
    player_id: str | None = None
    omniscient: bool = Field(description="every hidden card; only for finished matches")


class ActionEntry(_Frozen):
    """One accepted action. `action` is its canonical text, or None when the viewer may not
    know it (another seat's action in a seat's history: what it did is in the events)."""

    seq: int
    seat: int
    actor: Literal["human", "ai", "timeout"]
    action: str | None
    at: float


class EventEntry(_Frozen):
    """One event the viewer saw. `seq` is the action that caused it (None: dealt when the
    match was created); `event` is the engine's event as JSON, with its `kind` and `to`."""

    seq: int | None
    event: dict[str, Any]


class LedgerEntry(_Frozen):
    """One ledger row: chips (`buy-in`, `rebuy`, `hand`, `returned`) or a Big Two `penalty`."""

    seat: int
    player_id: str
    is_ai: bool
    reason: Literal["buy-in", "rebuy", "hand", "returned", "penalty"]
    amount: int


class DealResult(_Frozen):
    """The deal's settlement: per-seat chip changes or penalties, and the seats dealt in."""

    chips: list[int] | None = None
    penalties: list[int] | None = None
    dealt: list[int] | None = None


class DealHistory(_Frozen):
    """One deal (a hand)."""

    deal: int = Field(ge=1)
    dealer: int
    ended: bool
    seed: str | None = Field(
        description="the deal's revealed seed (hex): only once the match is over (ended, "
        "stopped or restarted), in every history"
    )
    deck: list[str] | None = Field(description="the deck order, top first; ended, omniscient")
    stacks: list[int] | None = Field(
        description="every seat's chips when the deal began (chip games; None for Big Two)"
    )
    actions: list[ActionEntry]
    events: list[EventEntry]
    result: DealResult | None
    ledger: list[LedgerEntry]


class MatchHistory(_Frozen):
    """One match as `viewer` may see it."""

    game: str
    title: str
    match_id: int
    number: int
    table_id: int
    guild: str
    place: str
    config: dict[str, Any]
    seed: str | None = Field(
        description="the match's secret seed (decimal); omniscient exports of matches that are "
        "over only"
    )
    started_at: float
    finished_at: float | None
    winners: list[int] | None
    totals: list[int] | None
    viewer: Viewer
    seats: list[SeatInfo]
    ledger: list[LedgerEntry] = Field(description="rows outside any deal (buy-ins at the start)")
    deals: list[DealHistory]


class HistoryFile(_Frozen):
    """A history file: any number of matches."""

    format: Literal["deucebot-history"] = FORMAT
    version: Literal[1] = SCHEMA_VERSION
    matches: list[MatchHistory]
