"""The small surface every game engine exposes, and what engines share.

An engine is pure: synchronous, deterministic given its injected
`random.Random` and `engines.fair.DealSource`, no I/O. A game is a `GameSpec` (see
`engines.registry`) whose `new_state(config, rng, source=None)` returns a `GameState`.
Every deal's cards come from its source (`DealSource.deck`, i.e.
`engines.cards.deck_order` of the deal's seed), never from `rng`:

- `to_act` says which seat must act now (or None between/after deals when
  nobody has to); `legal_actions(seat)` lists the choices;
- `check(seat, action)` raises `IllegalAction` when the action is refused,
  `apply(seat, action)` does the same check, then changes the state and
  returns frozen `Event` records of what happened (the event log);
- `view(seat)` builds exactly what that seat may know (`None`: a spectator);
  AI policies and renderers only ever see a view;
- `snapshot()` is a JSON-able dict from which `GameSpec.restore` rebuilds the
  state exactly; replaying the same actions on a state made from the same
  config and seed gives the same snapshot. Snapshots are a test and replay tool
  (state equality, set-up positions): nothing stores them, the runtime rebuilds a
  match from its seed and action log (docs/hand-history.md says why).

Actions are small frozen dataclasses per game; `str(action)` is their
canonical text and `GameSpec.parse_action` reads it back. The action log
stores that text.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

from engines.cards import Card

JSON = dict[str, Any]


class IllegalAction(ValueError):
    """An action was refused; the state is exactly as it was.

    `str(error)` is a specific English message naming the action and why.
    `code` and `params` let a front translate it (see bot i18n catalogs).
    """

    def __init__(self, message: str, *, code: str = "illegal", **params: Any) -> None:
        """Build the error from its English message, a stable code and its parameters."""
        super().__init__(message)
        self.message = message
        self.code = code
        self.params = params


class NotYourTurn(IllegalAction):
    """The seat is not the one to act."""

    def __init__(self, seat: int, to_act: int | None) -> None:
        """Seat `seat` tried to act while `to_act` is to act."""
        who = "nobody" if to_act is None else f"seat {to_act}"
        super().__init__(
            f"it is not seat {seat}'s turn: {who} is to act",
            code="not_your_turn",
            seat=seat,
            to_act=to_act,
        )


def to_jsonable(value: Any) -> Any:
    """Turn events, actions, views and cards into plain JSON data."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        data = {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
        kind = getattr(type(value), "kind", None)
        if isinstance(kind, str):
            data["kind"] = kind
        return data
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, frozenset, set)):
        items = [to_jsonable(v) for v in value]
        return sorted(items, key=str) if isinstance(value, (set, frozenset)) else items
    return value


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Event:
    """Something that happened. `to` is None for a public event, else the one seat that may see it.

    Subclasses set `kind` (a stable snake_case name used by renderers and the
    hand history) and add their own fields.
    """

    kind: ClassVar[str] = "event"
    outcome: ClassVar[bool] = False
    """True for an event that announces a result (a deal or a match decided): fronts post
    it as a message of its own rather than a line of the running log."""
    to: int | None = None

    @property
    def public(self) -> bool:
        """True when every player and spectator may see this event."""
        return self.to is None

    def to_json(self) -> JSON:
        """Plain JSON data, with `kind`."""
        data: JSON = to_jsonable(self)
        return data

    def face_up(self) -> tuple[Card, ...]:
        """The cards this event turns face up for everybody (a showdown's): none unless the
        game's event says so. What a checker of public messages may let through."""
        return ()


# Events every game emits at the same moments, so the runtime can keep the
# ledgers without knowing the game.


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class DealStarted(Event):
    """A deal (hand) began, before any of its cards is seen. `commitment` is the SHA-256
    commitment to the deal's secret seed (`engines.fair.commitment`), revealed by the
    match's `MatchEnded`; None for a deal dealt from an explicit (stacked) deck order."""

    kind: ClassVar[str] = "deal_started"
    deal: int
    dealer: int
    commitment: str | None = None


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class DealSettled(Event):
    """A deal ended. `chips` holds each seat's net chip change in the deal (chip games),
    `penalties` each seat's penalty (Big Two); the other is None. `dealt` lists the seats
    that were dealt in (None: every seat); a seat left out (eliminated, broke) may still
    have chips handed back, e.g. a carried pot returned when the match ends. `commitment`
    repeats the one its `DealStarted` published (None: a stacked deal, or a settlement
    without a deal of its own). `seed` is always None now: a deal's seed is revealed only
    by `MatchEnded.seeds` (while the match goes on it would tell cards that still matter);
    the field stays so that histories written when settlements revealed it still read."""

    kind: ClassVar[str] = "deal_settled"
    outcome: ClassVar[bool] = True
    deal: int
    chips: tuple[int, ...] | None = None
    penalties: tuple[int, ...] | None = None
    dealt: tuple[int, ...] | None = None
    seed: str | None = None
    commitment: str | None = None

    def was_dealt(self, seat: int) -> bool:
        """True if `seat` played this deal."""
        return self.dealt is None or seat in self.dealt


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class ChipsBought(Event):
    """A seat bought chips: the starting buy-in or a rebuy (`reason` "buy-in" or "rebuy")."""

    kind: ClassVar[str] = "chips_bought"
    seat: int
    amount: int
    reason: str


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class MatchEnded(Event):
    """The match is over. `winners` share the win; `totals` are the final per-seat
    scores (chips for chip games, total penalty for Big Two). `seeds` reveals the seed (hex)
    of every deal of the match that had one, as ``(deal, seed)`` in deal order
    (`engines.fair.DealSource.revealed`): no event before it carries a seed."""

    kind: ClassVar[str] = "match_ended"
    outcome: ClassVar[bool] = True
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    seeds: tuple[tuple[int, str], ...] = ()


A = TypeVar("A")
V = TypeVar("V")
A_co = TypeVar("A_co", covariant=True)
V_co = TypeVar("V_co", covariant=True)
V_contra = TypeVar("V_contra", contravariant=True)
A_contra = TypeVar("A_contra", contravariant=True)


@runtime_checkable
class GameState(Protocol[A, V_co]):
    """The live state of one match of one game (see the module docstring)."""

    @property
    def to_act(self) -> int | None:
        """The seat that must act now, or None when the match is over."""
        ...

    @property
    def finished(self) -> bool:
        """True once the match has ended."""
        ...

    def legal_actions(self, seat: int) -> Sequence[A]:
        """Every action `seat` may take now (empty when it is not their turn).

        Games with amounts (poker) list the representative actions (min and
        all-in) and accept any amount in the range through `check`/`apply`."""
        ...

    def check(self, seat: int, action: A) -> None:
        """Raise `IllegalAction` if `apply(seat, action)` would refuse it; change nothing."""
        ...

    def apply(self, seat: int, action: A) -> list[Event]:
        """Apply a legal action and return what happened; refuse an illegal one untouched."""
        ...

    def view(self, seat: int | None) -> V_co:
        """Everything `seat` may know, and nothing else (None: a spectator)."""
        ...

    def snapshot(self) -> JSON:
        """A JSON-able dict from which the state can be rebuilt exactly (a test and replay
        tool: the runtime replays the action log instead)."""
        ...


class Policy(Protocol[V_contra, A_co]):
    """An AI player: decides from a view, the same a human in that seat would have."""

    name: str

    def decide(self, view: V_contra) -> A_co:
        """Choose a legal action for the seat the view belongs to."""
        ...


def require_seat(seat: int, seats: int) -> None:
    """Refuse a seat number outside the table."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
        raise IllegalAction(
            f"there is no seat {seat!r} at this table", code="no_such_seat", seat=seat
        )
