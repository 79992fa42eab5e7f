"""What one seat may know of a draw poker table (`DrawState.view`)."""

from __future__ import annotations

from dataclasses import dataclass

from engines.cards import Card
from engines.draw.actions import DrawAction

PUBLIC_DRAW = "draw"
"""How another seat's draw reads in a view's `history`: the verb alone, without the
positions of the cards it changed (`DrawView.drawn` says how many)."""


@dataclass(frozen=True, slots=True)
class DrawView:
    """A seat's view (seat None: a spectator). Lists are per seat, in play order.

    `hand` is this seat's five cards in the order they are numbered (empty for a
    spectator, for a seat not dealt in, and before the surblind is settled).
    `drawn[s]` is how many cards seat s changed (None until it drew). Amounts:
    `stakes` in the current betting round, `put_in` this deal in total (antes,
    blinds and finished rounds), `pot` every chip on the table including
    `carried` chips from earlier deals. `history` is the deal's actions (seat, canonical
    text), another seat's draw as `PUBLIC_DRAW` (which cards it changed is its own). For
    the seat to act, `legal` lists the representative actions and `to_call`,
    `min_raise_to`, `max_to` bound amounts.
    """

    seat: int | None
    seats: int
    cave_unit: int
    blind_unit: int
    pot_unit: int
    deal: int
    dealer: int
    deal_kind: str
    requirement: str | None
    unopened: int
    phase: str
    to_act: int | None
    finished: bool
    stacks: tuple[int, ...]
    bought: tuple[int, ...]
    in_deal: tuple[bool, ...]
    folded: tuple[bool, ...]
    stakes: tuple[int, ...]
    put_in: tuple[int, ...]
    pot: int
    carried: int
    blind_seat: int | None
    surblind_seat: int | None
    opener: int | None
    entry: int
    highest: int
    drawn: tuple[int | None, ...]
    history: tuple[tuple[int, str], ...]
    hand: tuple[Card, ...]
    set_aside: tuple[Card, ...]
    can_open: bool
    legal: tuple[DrawAction, ...]
    to_call: int
    min_raise_to: int
    max_to: int
    deal_limit: int | None = None
    """Deals in the match (None: no limit, it ends when fewer than two players have chips)."""
    max_rebuy_units: int = 10
    """The most cave units one rebuy may buy (the table's `max_rebuy_units`)."""
    proof: tuple[Card, ...] = ()
    """The opener's proof (the cards that made the opening): in the opener's own view only."""
