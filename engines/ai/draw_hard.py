"""The `hard` level of French draw poker: exact draws, ranges read from the view, sized bets.

It decides from its `DrawView` only:

- **Draw**: the exact best draw (`draw_best.best_draw`: the draw that maximises the
  chance of beating the likely opposing holding, a random hand of a pair of jacks or
  better), openers split whenever that draw says so. It deviates in one spot only, a
  **stand-pat bluff**: heads-up, when the best draw changes three cards or more, the
  opponent already changed two or more and folds often enough, and the pot is worth it,
  it stands pat now and then and bets after the draw. (It never keeps a kicker to disguise
  its draw.)
- **Winning chances** without Monte Carlo over opponents: each opponent's final hand is
  read from the range of the players that changed as many cards (`draw_ranges`; before
  the draw, the range of every draw), narrowed by what it did this deal (each open, bet or
  raise leaves out more of the range's weak hands, each call a little), weighed by its
  habits over the match as this seat saw them (`Habits`: a maniac's raise or a calling
  station's call says little; a player that stands pat far more often than a sound one
  stands pat on more than straights); its own final hand, before the draw, is sampled
  over its exact best draw. The chances against each opponent multiply.
- **Betting**: in a jackpot it opens whenever it may with a hand worth it, in blind deals
  it comes in, calls and raises by its chances against the price (pot odds; before the
  draw, facing the entry or the opening alone, 70% of a fair share of the pot is enough:
  that price buys a draw and the betting after it; a raise over it is paid by pot odds
  alone, which folds small pairs and draws that loose raisers would make pay, unless the
  raiser raises nearly every time, as a maniac does, or was not seen acting yet), sizes its
  bets by strength (half the pot to a full pot; all-in when the bet would leave a small
  part of its stack behind: cave awareness), bluffs heads-up after the draw against a
  player that drew two or more and folds often enough, and takes the surblind heads-up or
  three-handed when deep.
- **Rebuys**: broke, it buys back enough cave units to cover the deepest opponent (at most
  three at once), within the same limit of caves as every AI in a match with no deal limit.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engines.ai.draw import AI_CAVES, _amount_action, _with_amount, pot_fraction_to, stay_in
from engines.ai.draw_best import best_draw
from engines.ai.draw_ranges import Range, ranges
from engines.cards import FULL_DECK
from engines.draw.actions import (
    STAND,
    AllIn,
    Call,
    Check,
    Draw,
    DrawAction,
    Fold,
    NoSurblind,
    Open,
    Rebuy,
    SitOut,
    Surblind,
)
from engines.draw.view import PUBLIC_DRAW, DrawView
from engines.poker.ranking import hand_value

OWN_DRAWS = 60
"""Samples of its own draw behind its chances before the draw."""

AGGRESSION_FLOOR = 0.3
"""How much of an opponent's range each open, bet or raise of this deal leaves out."""

CALL_FLOOR = 0.1
"""How much of an opponent's range each call leaves out."""

MAX_FLOOR = 0.85
"""The most of an opponent's range its actions leave out (nobody holds only the nuts)."""

LOOSE_PAT = 0.1
"""A stand-pat habit above this is not a sound player's (about one deal in fifty)."""

ENTRY_SHARE = 0.7
"""Before the draw, facing the entry or the opening alone, the part of a fair share of the
pot (one over the players in the deal) its chances must reach for it to stay in."""

TELLING_RAISES = 0.25
"""The least `Habits.tightness` of a player whose raise over the entry `hard` respects."""

KNOWN_ACTIONS = 4
"""The actions of a player `hard` must have seen before it reads its raises as telling."""

AGGRESSIVE = ("open", "bet", "raise", "allin")
"""The words of the actions that put in more than a call."""

BLUFF_FOLDS = 0.35
"""How often an opponent must fold (when it may call) for `hard` to bluff it."""

REBUY_UNITS = 3
"""The most cave units it buys back at once."""


@dataclass
class Habits:
    """What one opponent did so far in the match, as this seat saw it in its views."""

    aggressive: int = 0
    passive: int = 0
    calls: int = 0
    folds: int = 0
    draws: int = 0
    pats: int = 0

    def tightness(self) -> float:
        """1 for a player that rarely bets or raises, 0 for one that nearly always does
        (a maniac's raise says little about its hand); a prior of one in four raises."""
        rate = (self.aggressive + 1) / (self.aggressive + self.passive + 4)
        return min(1.0, max(0.0, (0.6 - rate) / 0.45))

    def standing(self) -> float:
        """How often it stands pat (a prior of one in twenty)."""
        return (self.pats + 0.1) / (self.draws + 2)

    def folding(self) -> float:
        """How often it folds when it may call (a prior of one in two): a call from a
        player that never folds says nothing of its hand."""
        return (self.folds + 1) / (self.folds + self.calls + 2)


def raised_over_entry(view: DrawView, habits: dict[int, Habits]) -> bool:
    """Whether an opponent raised over the entry of this blind deal (or the opening of this
    jackpot), the first open, bet or raise. A raise counts only from a player seen acting
    `KNOWN_ACTIONS` times in the match whose raises say something of its hand: not a
    maniac's (`Habits.tightness` under `TELLING_RAISES`)."""
    aggressive = 0
    for seat, text in view.history:
        if not text or text.split()[0] not in AGGRESSIVE:
            continue
        aggressive += 1
        known = habits.get(seat, Habits())
        seen = known.aggressive + known.passive >= KNOWN_ACTIONS
        telling = seen and known.tightness() >= TELLING_RAISES
        if aggressive >= 2 and seat != view.seat and telling:
            return True
    return False


def opponents_floors(view: DrawView, habits: dict[int, Habits]) -> dict[int, float]:
    """Each live opponent's range floor from its actions this deal, weighed by its habits."""
    me = view.seat
    floors = {
        s: 0.0 for s in range(view.seats) if s != me and view.in_deal[s] and not view.folded[s]
    }
    after_draw = False
    for seat, text in view.history:
        word = text.split()[0] if text else ""
        if word in (PUBLIC_DRAW, "stand"):
            after_draw = True
            continue
        if seat not in floors:
            continue
        known = habits.get(seat, Habits())
        if word in AGGRESSIVE:
            floors[seat] += AGGRESSION_FLOOR * known.tightness() * (1.5 if after_draw else 1.0)
        elif word == "call":
            floors[seat] += CALL_FLOOR * min(1.0, 2 * known.folding())
    return {s: min(MAX_FLOOR, f) for s, f in floors.items()}


def reads(
    view: DrawView, floors: dict[int, float], habits: dict[int, Habits]
) -> dict[int, tuple[Range, float]]:
    """Each live opponent's range and floor. After the draw the range is that of the players
    that changed as many cards; an opponent that stands pat far more often than a sound
    player (whose pat hands are straights or better) stands pat on the top part of every
    final hand, as large a part as its habit."""
    table = ranges()
    out: dict[int, tuple[Range, float]] = {}
    for seat, floor in floors.items():
        drawn = view.drawn[seat] if view.phase == "bet2" else None
        standing = habits.get(seat, Habits()).standing()
        if drawn == 0 and standing > LOOSE_PAT:
            wide = 1.0 - min(1.0, 1.3 * standing)
            out[seat] = (table.any, 1.0 - (1.0 - floor) * (1.0 - wide))
        else:
            out[seat] = (table.of(drawn), floor)
    return out


def winning_chance(
    view: DrawView, rng: random.Random, plan: Draw | None, opponents: dict[int, tuple[Range, float]]
) -> float:
    """The chance to hold the best hand at the showdown against every live opponent."""
    if plan is None or not plan.positions:
        finals = [hand_value(view.hand)]
    else:
        kept = [c for i, c in enumerate(view.hand) if i + 1 not in plan.positions]
        unseen = [c for c in FULL_DECK if c not in view.hand]
        k = len(plan.positions)
        finals = [hand_value(kept + rng.sample(unseen, k)) for _ in range(OWN_DRAWS)]
    total = 0.0
    for value in finals:
        chance = 1.0
        for held, floor in opponents.values():
            chance *= held.beats(value, floor)
        total += chance
    return total / len(finals)


class HardPolicy:
    """The `hard` level; see the module docstring."""

    name = "hard"

    def __init__(self, rng: random.Random) -> None:
        """A policy with its own `rng` (its own draw's samples and mixed strategies)."""
        self.rng = rng
        self.deal = -1
        self.bluffing = False
        self.habits: dict[int, Habits] = {}
        self.read = 0  # entries of this deal's history already counted in `habits`

    def _learn(self, view: DrawView) -> None:
        """Count the other seats' new actions of this deal into their habits."""
        for seat, text in view.history[self.read :]:
            if seat == view.seat:
                continue
            word = text.split()[0] if text else ""
            known = self.habits.setdefault(seat, Habits())
            if word in AGGRESSIVE:
                known.aggressive += 1
            elif word in (PUBLIC_DRAW, "stand"):
                known.draws += 1
                known.pats += word == "stand"
            elif word in ("check", "call", "fold"):
                known.passive += 1
                known.calls += word == "call"
                known.folds += word == "fold"
        self.read = len(view.history)

    def decide(self, view: DrawView) -> DrawAction:
        """See the module docstring."""
        if view.deal != self.deal:
            self.deal = view.deal
            self.bluffing = False
            self.read = 0
        self._learn(view)
        if view.phase == "rebuy":
            return self._rebuy(view)
        if view.phase == "surblind":
            return self._surblind(view)
        if view.phase == "draw":
            return self._draw(view)
        return self._bet(view)

    def _rebuy(self, view: DrawView) -> DrawAction:
        seat = view.seat if view.seat is not None else 0
        if view.deal_limit is None and view.bought[seat] >= AI_CAVES * view.cave_unit:
            return SitOut()
        deepest = max((s for i, s in enumerate(view.stacks) if i != seat), default=0)
        units = -(-deepest // view.cave_unit)
        limit = min(REBUY_UNITS, view.max_rebuy_units)
        if view.deal_limit is None:
            limit = min(limit, AI_CAVES - view.bought[seat] // view.cave_unit)
        return Rebuy(max(1, min(limit, units)))

    def _surblind(self, view: DrawView) -> DrawAction:
        players = sum(view.in_deal)
        deep = view.stacks[view.seat or 0] >= 40 * view.blind_unit
        return Surblind() if deep and players <= 3 else NoSurblind()

    def _draw(self, view: DrawView) -> Draw:
        choice = best_draw(view.hand)
        live = [s for s in range(view.seats) if s != view.seat and view.in_deal[s]]
        live = [s for s in live if not view.folded[s]]
        if (
            len(live) == 1
            and len(choice.positions) >= 3
            and (view.drawn[live[0]] or 0) >= 2
            and view.pot >= 6 * view.blind_unit
            and self.habits.get(live[0], Habits()).folding() >= BLUFF_FOLDS
            and self.rng.random() < 0.15
        ):
            self.bluffing = True
            return STAND
        return choice

    def _bet(self, view: DrawView) -> DrawAction:
        legal = view.legal
        me = view.seat or 0
        before = view.phase == "bet1"
        floors = opponents_floors(view, self.habits)
        if self.bluffing and not before:
            # A bet that answers its stand-pat bluff says less of a hand: read it unnarrowed.
            floors = dict.fromkeys(floors, 0.0)
        plan = best_draw(view.hand) if before else None
        win = winning_chance(view, self.rng, plan, reads(view, floors, self.habits))
        players = len(floors) + 1
        kind = _amount_action(view)
        pot = view.pot
        stack = view.stacks[me]
        to_pay = view.to_call
        if view.entry and Call() not in legal:
            to_pay = view.min_raise_to - view.stakes[me]

        def sized(fraction: float) -> DrawAction | None:
            if kind is None:
                return None
            amount = pot_fraction_to(view, fraction)
            # Cave awareness: a bet that would leave under a third of the stack goes all-in.
            if amount - view.stakes[me] > 0.66 * (stack + view.stakes[me]) and AllIn() in legal:
                return AllIn()
            return _with_amount(kind, amount)

        if isinstance(kind, Open) and not view.can_open:
            kind = None
        fair = 1.0 / players
        if self.bluffing and not before and kind is not None:
            action = sized(0.6)
            if action is not None:
                return action
        strong = win > min(0.85, fair + 0.3)
        good = win > min(0.7, fair + 0.12)
        if strong and kind is not None:
            action = sized(1.0 if win > 0.85 else 0.75)
            if action is not None:
                return action
        if Check() in legal:
            if kind is not None and (good or (before and isinstance(kind, Open) and win > fair)):
                action = sized(0.5)
                if action is not None:
                    return action
            if kind is not None and not before and len(floors) == 1 and self._bluff_spot(view):
                action = sized(0.5)
                if action is not None:
                    return action
            return Check()
        price = to_pay / (pot + to_pay) if to_pay > 0 else 0.0
        # Before the draw the entry's price buys a draw and the betting after it: part of a
        # fair share of the pot is enough. A telling raise over it is paid by pot odds alone.
        entry_only = before and not raised_over_entry(view, self.habits)
        if win >= price * 1.1 or (entry_only and win > ENTRY_SHARE * fair):
            return stay_in(view, kind) or Fold()
        return Fold()

    def _bluff_spot(self, view: DrawView) -> bool:
        """Heads-up after the draw, against a player that changed two or more and folds
        often enough for a bluff to pay."""
        other = next(
            s
            for s in range(view.seats)
            if s != view.seat and view.in_deal[s] and not view.folded[s]
        )
        drawn = view.drawn[other]
        folds = self.habits.get(other, Habits()).folding() >= BLUFF_FOLDS
        return drawn is not None and drawn >= 2 and folds and self.rng.random() < 0.3
