"""The hold'em sparring pool: human styles that do not think like `hard`.

Each style is a short rule set over a fixed pre-flop hand ordering (Chen's score,
`engines.ai.holdem.hand_percentile`) and the made hand on the board
(`engines.ai.holdem.made_strength`), with its own frequencies:

- `tag` (tight-aggressive): opens ~18%, re-raises ~5%, bets top pair or better and raises
  two pair or better, bets with nothing 30% of the time, folds weak hands to bets.
- `lag` (loose-aggressive): opens ~38%, re-raises ~12%, bets and bluffs often, calls
  with any pair.
- `maniac`: raises most hands pre-flop and bets or raises most streets, pot-sized.
- `station` (calling station): enters ~55% by calling, rarely raises, calls down with
  any pair or better and often with nothing.
- `rock`: plays ~8% of hands, bets only two pair or better, folds everything else to bets.
- `frozen`: `strong` (`engines.ai.holdem.StrongPolicy`) under its own name, the reference
  `hard` is measured against. It shares `strong`'s class: before `strong` changes, copy
  today's class here so that the reference stays where it was.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engines.ai.holdem import (
    StrongPolicy,
    _find,
    _passive,
    _sized,
    hand_percentile,
    made_strength,
)
from engines.holdem import HoldemView
from engines.poker.actions import BettingAction, Call, Check, Fold


@dataclass(frozen=True)
class Style:
    """The numbers that make a style."""

    name: str
    open_share: float  # pre-flop hands raised first in
    call_share: float  # hands that call a raise (or limp when not raising)
    reraise_share: float  # hands that re-raise
    open_size: float  # open raise, in big blinds
    limp: bool  # enter by calling instead of raising outside the raise share
    bet_level: int  # made_strength at which it bets for value (1 pair below top ... 3)
    call_level: int  # made_strength at which it calls a bet
    bluff: float  # chance to bet or raise with nothing
    fold_nothing: float  # chance to fold nothing to a bet (the rest call)
    size: float  # bet size, share of the pot


STYLES: dict[str, Style] = {
    "tag": Style("tag", 0.18, 0.1, 0.05, 3.0, False, 2, 2, 0.3, 1.0, 0.66),
    "lag": Style("lag", 0.38, 0.25, 0.12, 2.5, False, 1, 1, 0.45, 0.85, 0.75),
    "maniac": Style("maniac", 0.75, 0.9, 0.4, 4.0, False, 0, 0, 0.75, 0.4, 1.0),
    "station": Style("station", 0.03, 0.55, 0.02, 3.0, True, 3, 0, 0.0, 0.35, 0.5),
    "rock": Style("rock", 0.08, 0.05, 0.03, 3.0, False, 3, 2, 0.0, 1.0, 0.6),
}
"""Style name -> its numbers."""


class StylePolicy:
    """A sparring player of one `Style`."""

    def __init__(self, style: Style, rng: random.Random) -> None:
        """A player of `style` drawing its mixed choices from `rng`."""
        self.style = style
        self.name = style.name
        self.rng = rng

    def decide(self, view: HoldemView) -> BettingAction:
        """Play the style from the seat's view: see the module docstring."""
        hole = view.hole or ()
        if len(hole) < 2 or not view.legal:
            return _passive(view)
        if view.street == "preflop":
            return self._preflop(view, hand_percentile(hole))
        return self._postflop(view, made_strength(hole, view.board))

    def _preflop(self, view: HoldemView, share: float) -> BettingAction:
        style = self.style
        big = view.big_blind
        raised = view.current_bet > big
        if raised:
            if share <= style.reraise_share and view.can_raise:
                return _sized(view, 3 * view.current_bet)
            if share <= style.call_share or share <= style.reraise_share:
                return Call() if _find(view.legal, Call) else _passive(view)
            return _find(view.legal, Check) or Fold()
        if share <= style.open_share and view.can_raise:
            return _sized(view, int(style.open_size * big))
        if view.to_call == 0:
            return Check()
        if style.limp and share <= style.call_share:
            return _passive(view)
        return Fold()

    def _postflop(self, view: HoldemView, level: int) -> BettingAction:
        style = self.style
        pot = view.pot_total
        rng = self.rng
        if view.to_call == 0:
            if view.can_raise and (level >= style.bet_level or rng.random() < style.bluff):
                return _sized(view, max(view.big_blind, int(pot * style.size)))
            return Check()
        if level >= 3 and view.can_raise and style.bet_level <= 3:
            return _sized(view, view.current_bet + int((pot + view.to_call) * style.size))
        if level >= style.call_level and level > 0:
            return Call() if _find(view.legal, Call) else _passive(view)
        if view.can_raise and rng.random() < style.bluff / 3:
            return _sized(view, view.current_bet + int((pot + view.to_call) * style.size))
        if rng.random() < style.fold_nothing and not (level >= 1 and style.call_level <= 1):
            return Fold()
        return Call() if _find(view.legal, Call) else _passive(view)


def make_style(name: str, rng: random.Random) -> StylePolicy:
    """A sparring player of the named style."""
    return StylePolicy(STYLES[name], rng)


def frozen_policy(rng: random.Random) -> StrongPolicy:
    """Today's `strong`, under the name `frozen`."""
    return StrongPolicy(rng, name="frozen")
