"""Sparring partners for French draw poker: player styles that do not think like `hard`.

Each style reads its hand by tier only (no equity, no opponent model), and plays the
blind and jackpot deals by fixed thresholds: which tier comes in, raises, opens, calls
and bets after the draw, how often it bluffs, how much it bets (a fraction of the pot),
and whether it takes the surblind. All draw as a sound player does (`strong_draw`).

- `tag` (tight-aggressive): in with jacks or better, raises (and opens) with two pair,
  bets jacks or better after the draw, bluffs one time in twelve.
- `lag` (loose-aggressive): in with any pair or draw, raises with jacks, bets any pair
  after the draw, bluffs one time in four, takes the surblind.
- `maniac`: in with anything, raises with any pair or draw, bets anything after the
  draw, and bets or raises whatever it holds six times in ten, pot-sized.
- `rock`: in with two pair or better, raises (and opens) only with trips, bets two pair
  or better after the draw, never bluffs.

With `calling` (the calling station) and `strong_v1` (frozen `strong`) they make the pool
`deucebot bench draw` measures the levels against.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engines.ai.draw import (
    _amount_action,
    _straight_draw,
    _with_amount,
    pot_fraction_to,
    rebuy_or_sit_out,
    stay_in,
    strong_draw,
)
from engines.cards import Card
from engines.draw.actions import Check, DrawAction, Fold, NoSurblind, Open, Surblind
from engines.draw.view import DrawView
from engines.poker.ranking import hand_value

JUNK, DRAWING, HIGH_PAIR, TWO_PAIR, TRIPS, MADE = range(6)
"""Hand tiers: nothing; a pair below jacks or four to a flush or an open-ended straight
(before the draw) or a pair below jacks (after it); jacks to aces; two pair; trips;
a straight or better."""


def tier(hand: Sequence[Card], before_draw: bool) -> int:
    """The tier of `hand` (see the tier constants)."""
    category = hand_value(hand) >> 24
    if category >= 4:
        return MADE
    if category == 3:
        return TRIPS
    if category == 2:
        return TWO_PAIR
    if category == 1:
        pair = next(r for r, n in Counter(c.rank for c in hand).items() if n == 2)
        return HIGH_PAIR if pair >= 11 else DRAWING
    if before_draw:
        flush = Counter(c.suit for c in hand).most_common(1)[0][1] == 4
        if flush or _straight_draw({int(c.rank) for c in hand}) is not None:
            return DRAWING
    return JUNK


@dataclass(frozen=True, slots=True)
class Style:
    """A style's thresholds (tiers) and habits."""

    name: str
    enter: int
    """The least tier that comes in or calls before the draw."""
    raise_with: int
    """The least tier that raises (or bets) before the draw."""
    call_after: int
    """The least tier that calls a bet after the draw."""
    bet_after: int
    """The least tier that bets or raises after the draw."""
    bluff: float
    """How often it bets or raises whatever it holds."""
    size: float
    """Its bets and raises, as a fraction of the pot."""
    surblind: bool
    """Whether it takes the surblind."""


STYLES: dict[str, Style] = {
    style.name: style
    for style in (
        Style("tag", HIGH_PAIR, TWO_PAIR, HIGH_PAIR, HIGH_PAIR, 0.08, 0.75, False),
        Style("lag", DRAWING, HIGH_PAIR, HIGH_PAIR, DRAWING, 0.25, 0.8, True),
        Style("maniac", JUNK, DRAWING, DRAWING, JUNK, 0.6, 1.0, True),
        Style("rock", TWO_PAIR, TRIPS, TWO_PAIR, TWO_PAIR, 0.0, 0.5, False),
    )
}


class StylePolicy:
    """One style of `STYLES`, deciding from its view only."""

    def __init__(self, style: Style, rng: random.Random) -> None:
        """A player of `style` drawing its bluffs from `rng`."""
        self.style = style
        self.name = style.name
        self.rng = rng

    def decide(self, view: DrawView) -> DrawAction:
        """See the module docstring."""
        if view.phase == "rebuy":
            return rebuy_or_sit_out(view)
        if view.phase == "surblind":
            return Surblind() if self.style.surblind else NoSurblind()
        if view.phase == "draw":
            return strong_draw(view.hand)
        return self._bet(view)

    def _bet(self, view: DrawView) -> DrawAction:
        style = self.style
        legal = view.legal
        before = view.phase == "bet1"
        strength = tier(view.hand, before)
        bluff = self.rng.random() < style.bluff
        kind = _amount_action(view)
        aggressive = bluff or strength >= (style.raise_with if before else style.bet_after)
        if kind is not None and aggressive and not (isinstance(kind, Open) and not view.can_open):
            return _with_amount(kind, pot_fraction_to(view, style.size))
        if Check() in legal:
            return Check()
        if strength >= (style.enter if before else style.call_after) or bluff:
            return stay_in(view, kind) or Fold()
        return Fold()
