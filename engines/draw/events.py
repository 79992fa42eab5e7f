"""Events of a draw poker deal (the shared ones live in `engines.base`).

Private events carry `to=seat`; everything else is public.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.base import Event
from engines.cards import Card


@dataclass(frozen=True, kw_only=True, slots=True)
class DealKind(Event):
    """What kind of deal starts: "blind" or "jackpot" (with its opening rank and the pot
    carried from earlier deals)."""

    kind: ClassVar[str] = "draw_deal_kind"
    deal_kind: str
    requirement: str | None
    carried: int


@dataclass(frozen=True, kw_only=True, slots=True)
class Posted(Event):
    """A forced stake: "ante", "blind" or "surblind". `all_in` when it took the last chip."""

    kind: ClassVar[str] = "draw_posted"
    seat: int
    what: str
    amount: int
    all_in: bool


@dataclass(frozen=True, kw_only=True, slots=True)
class CardsDealt(Event):
    """The five cards a seat holds (private)."""

    kind: ClassVar[str] = "draw_cards_dealt"
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class Acted(Event):
    """A seat's public action (surblind or not, betting). `stake` is its total for the round,
    `added` the chips it put in now, `moved` what a betting action did to the chips (fold,
    check, call, bet or raise: an all-in or an opening says which; "" for surblind or not)."""

    kind: ClassVar[str] = "draw_acted"
    seat: int
    action: str
    stake: int
    all_in: bool
    added: int = 0
    moved: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class Drew(Event):
    """A seat changed `count` cards (public); `split` when an opener discarded part of the proof."""

    kind: ClassVar[str] = "draw_drew"
    seat: int
    count: int
    split: bool


@dataclass(frozen=True, kw_only=True, slots=True)
class NewCards(Event):
    """What a seat discarded and received at the draw (private), and its new hand."""

    kind: ClassVar[str] = "draw_new_cards"
    seat: int
    discarded: tuple[Card, ...]
    received: tuple[Card, ...]
    hand: tuple[Card, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class StockRenewed(Event):
    """The stock ran out: the discards of players who had drawn were shuffled into a new stock."""

    kind: ClassVar[str] = "draw_stock_renewed"
    cards: int


@dataclass(frozen=True, kw_only=True, slots=True)
class Shown(Event):
    """A hand shown at the showdown, with its category name."""

    kind: ClassVar[str] = "draw_shown"
    seat: int
    cards: tuple[Card, ...]
    hand_name: str

    def face_up(self) -> tuple[Card, ...]:
        """The hand shown."""
        return self.cards


@dataclass(frozen=True, kw_only=True, slots=True)
class OpenerProof(Event):
    """The opener proves the opening: `proof` the opening cards as they were when opening,
    `set_aside` the ones split at the draw."""

    kind: ClassVar[str] = "draw_opener_proof"
    seat: int
    requirement: str
    proof: tuple[Card, ...]
    set_aside: tuple[Card, ...]

    def face_up(self) -> tuple[Card, ...]:
        """The opening cards and those set aside."""
        return self.proof + self.set_aside


@dataclass(frozen=True, kw_only=True, slots=True)
class PotWon(Event):
    """A pot (main pot is index 0) went to `seat`; `shown` is False for a lone winner."""

    kind: ClassVar[str] = "draw_pot_won"
    seat: int
    amount: int
    pot: int
    shown: bool


@dataclass(frozen=True, kw_only=True, slots=True)
class Carried(Event):
    """Nothing was decided; `amount` chips stay on the table for the next (jackpot) deal.
    `reason` is "check_around" or "unopened"; `requirement` is the next deal's opening rank."""

    kind: ClassVar[str] = "draw_carried"
    amount: int
    reason: str
    requirement: str


@dataclass(frozen=True, kw_only=True, slots=True)
class SatOut(Event):
    """A seat at 0 chips chose not to buy back in for now."""

    kind: ClassVar[str] = "draw_sat_out"
    seat: int


@dataclass(frozen=True, kw_only=True, slots=True)
class PotReturned(Event):
    """The match ended with a carried pot: each seat got back what it had put in it."""

    kind: ClassVar[str] = "draw_pot_returned"
    amounts: tuple[int, ...]
