"""The `hard` hold'em player: equilibrium push/fold when short, range-based play when deep.

- Heads-up (small blind against big blind, everyone else folded or gone) at 15 big blinds
  effective or less: the small blind shoves or folds and the big blind calls or folds a
  shove exactly as the shipped push/fold equilibrium says (`holdem_pushfold`), at the
  chart depth nearest the effective stack, mixed hands drawn from the policy's generator.
- Otherwise every opponent still in the hand gets a range from what it did this hand
  (calls, raises, bets, checks; `holdem_ranges`), loosened or tightened by what this seat
  has seen it do before (how often it enters pots, raises, folds to bets). Equity against
  those ranges comes from the pre-computed class equities before the flop and from Monte
  Carlo over the weighted combos after it.
- Choices weigh that equity against pot odds (discounted out of position and multi-way),
  stack depth and position. What this seat saw each opponent do in the match (`Habits`,
  folds that ended a hand included) sets how wide it opens (how often the others folded
  to its raises) and how often, heads-up before the river, it bets again with the
  initiative whatever its cards or raises a bet it would call (how often that opponent
  folded to bets after the flop). Bet sizes are drawn per decision from fractions of the
  pot that do not depend on the hand, and bluffs are mixed into each size at the frequency
  that size makes the caller indifferent, so the sizes alone say nothing about the cards.
- Against calling stations (`loose_passive`: seats seen entering many pots and rarely
  betting or raising after the flop) balance buys nothing, so when every opponent left
  in the hand is one, hard bets thinner and bigger (the pot) for value, reads their calls
  as wide as they are and never bluffs, barrels or raises back without the cards: its
  sizes say nothing about its cards except to a seat that does not fold to them.
- A seat seen betting nearly every time the betting after the flop was its to open
  (`relentless`: a maniac) says little with such a bet, so hard reads that bet as coming
  from about as wide a share of its range as it bets, not from its top. Heads-up, hard
  lets such a seat do the betting: first to act with a hand worth a bet it checks to it
  (checked to, it bets every time), and on the turn it calls its bet with a hand worth a
  raise (it will bet the river too). With nothing worth a bet hard bets the smallest
  amount into it rather than checking and folding: that gives up less when it raises, and
  wins the pot whenever it folds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from engines.ai.holdem import SeatStats, StrongPolicy, _find, _passive, _sized, showdown_share
from engines.ai.holdem_classes import hole_class
from engines.ai.holdem_pushfold import Array, shipped_chart
from engines.ai.holdem_ranges import (
    E7,
    board_order,
    combo_weights,
    equity_vs_classes,
    keep_top,
    narrow,
    top_share,
)
from engines.holdem import ActionRecord, HoldemView
from engines.poker.actions import AllIn, Bet, BettingAction, Call, Check, Fold, Raise

PUSH_FOLD_DEPTH = 15.0
"""At or below this effective stack (big blinds) heads-up play is push/fold."""


@dataclass
class Habits:
    """What this seat saw one opponent do beyond `SeatStats` (with mild priors): how often
    it folded to a bet after the flop and to this seat's raises before it, and how many of
    its actions before the flop were raises."""

    faced: float = 5.0
    folded: float = 2.0
    acts: float = 6.0
    raises: float = 1.2
    raised_into: float = 5.0
    folded_pre: float = 3.0
    could_lead: float = 4.0
    led: float = 2.0

    @property
    def fold_rate(self) -> float:
        """The share of bets after the flop it folded to."""
        return self.folded / self.faced

    @property
    def pre_fold_rate(self) -> float:
        """The share of this seat's raises before the flop it folded to."""
        return self.folded_pre / self.raised_into

    @property
    def raise_rate(self) -> float:
        """The share of its actions before the flop that were raises."""
        return self.raises / self.acts

    @property
    def lead_rate(self) -> float:
        """The share of the times it could open the betting after the flop (checked to, or
        first to act) that it bet."""
        return self.led / self.could_lead


STATION_VPIP = 0.45
"""A seat that puts chips in before the flop at least this often (and is passive after it,
`STATION_AGGRESSION`) is read as a calling station: `SeatStats`' prior (0.40) is under it,
so an unseen player is not one."""

STATION_EVIDENCE = 4.0
"""How many of a seat's actions before the flop this seat must have seen before it reads
that seat as a calling station (one call must not make a stranger one)."""

STATION_AGGRESSION = 0.30
"""The share of a seat's actions after the flop that are bets or raises, at or under which
a loose seat (`STATION_VPIP`) is read as a calling station."""

STATION_RAISES = 0.2
"""The share of a seat's actions before the flop that are raises, at or under which a loose,
passive seat is read as a calling station: no more than `Habits`' prior, so a player not yet
seen raising counts, and a maniac (who raises half its actions and more) does not."""

THIN_VALUE = 0.12
"""How much less equity hard wants to bet for value into calling stations only."""

STATION_SIZE = 1.0
"""Hard's value bets into calling stations only, as a share of the pot (elsewhere the size is
drawn without looking at the cards)."""


RELENTLESS = 0.85
"""A seat seen betting at least this share of the times the betting after the flop was its
to open is read as betting whatever it holds (`relentless`). With `Habits`' prior (2 bets
in 4) that takes about ten leads in a row; a loose-aggressive seat, betting any pair and
45% of its misses (some 0.7 of its chances), stays under it."""

RELENTLESS_FLOOR = 0.5
"""The weight a relentless seat's bet leaves on the hands outside the share it reads as."""


def relentless(habits: Habits) -> bool:
    """Whether what this seat saw of one opponent reads as betting whenever it may open the
    betting after the flop, whatever it holds (a maniac)."""
    return habits.lead_rate >= RELENTLESS


def loose_passive(stats: SeatStats, habits: Habits) -> bool:
    """Whether what this seat saw of one opponent reads as a calling station: it enters many
    pots, rarely by raising, and rarely bets or raises after the flop (a maniac is loose but
    raises; a tight player is neither)."""
    return (
        stats.pre - SeatStats.pre >= STATION_EVIDENCE
        and stats.vpip >= STATION_VPIP
        and stats.aggression <= STATION_AGGRESSION
        and habits.raise_rate <= STATION_RAISES
    )


@dataclass
class HardPolicy(StrongPolicy):
    """See the module docstring. Keeps per-seat statistics like `strong` (what a human across
    the table remembers) but decides from ranges, not from a fixed hand ordering."""

    iterations: int = 360
    name: str = "hard"
    habits: dict[int, Habits] = field(default_factory=dict)
    _answering: tuple[int, str, int, tuple[int, ...]] = (-1, "", 0, ())
    """This seat's last bet or raise: its hand, street, place in the history and the seats
    that had to answer it."""

    def _count(self, record: ActionRecord, facing: bool) -> None:
        super()._count(record, facing)
        seen = self.habits.setdefault(record.seat, Habits())
        if record.street == "preflop":
            seen.acts += 1
            seen.raises += _aggressive(record)
        elif facing and record.verb in ("fold", "call", "raise"):
            seen.faced += 1
            seen.folded += record.verb == "fold"
        elif not facing and record.verb in ("check", "bet"):
            seen.could_lead += 1
            seen.led += record.verb == "bet"

    # ------------------------------------------------------------ the view

    def decide(self, view: HoldemView) -> BettingAction:
        """Choose from the seat's view only: see the module docstring."""
        self._settle_answers(view)
        action = self._decide(view)
        self._remember(view, action)
        return action

    def _remember(self, view: HoldemView, action: BettingAction) -> None:
        """Keep `action` (this seat's choice in `view`) for `_settle_answers`."""
        self._answering = (
            view.hand,
            view.street,
            len(view.history),
            self._must_answer(view, action),
        )

    def _settle_answers(self, view: HoldemView) -> None:
        """Count the answers to this seat's last bet or raise. A bet after which this seat
        never acted again in that hand was folded to by every seat that had to answer it (a
        call would have brought this seat another decision); else the answers are in the
        history (after the flop `_count` reads them with every other bet)."""
        hand, street, place, seats = self._answering
        self._answering = (-1, "", 0, ())
        if not seats or (hand == view.hand and street != "preflop"):
            return
        answers: dict[int, bool] = dict.fromkeys(seats, True)  # the hand ended: all folded
        if hand == view.hand:
            answers = {}
            for record in view.history[place + 1 :]:
                answers.setdefault(record.seat, record.verb == "fold")
        for seat in seats:
            if seat not in answers:
                continue
            folded = answers[seat]
            seen = self.habits.setdefault(seat, Habits())
            if street == "preflop":
                seen.raised_into += 1
                seen.folded_pre += folded
            else:
                seen.faced += 1
                seen.folded += folded

    def _must_answer(self, view: HoldemView, action: BettingAction) -> tuple[int, ...]:
        """The seats that must answer `action`, when it is a bet or raise before the river
        that none of them can call all-in (so that a call always brings a next decision)."""
        if view.street == "river" or not isinstance(action, (Bet, Raise)):
            return ()
        seats = [
            s
            for s in view.seats
            if s.seat != view.seat and s.in_hand and not s.folded and not s.all_in
        ]
        if any(s.stack + s.bet <= action.amount for s in seats):
            return ()
        return tuple(s.seat for s in seats)

    def _decide(self, view: HoldemView) -> BettingAction:
        self._observe(view)
        hole = view.hole
        if not hole or not view.legal or view.seat is None:
            return _passive(view)
        short = self._push_fold(view, hole_class(hole))
        if short is not None:
            return short
        ranges = self._ranges(view)
        if not ranges:
            return _passive(view)
        if view.street == "preflop":
            return self._preflop(view, hole_class(hole), ranges)
        equity = self._postflop_equity(view, ranges)
        return self._postflop(view, equity, len(ranges))

    def _effective(self, view: HoldemView, others: Sequence[int]) -> float:
        me = view.seats[view.seat or 0]
        mine = me.stack + me.bet
        theirs = max((view.seats[s].stack + view.seats[s].bet for s in others), default=0)
        return min(mine, theirs) / view.big_blind

    # ------------------------------------------------------------ push/fold

    def _push_fold(self, view: HoldemView, hand: int) -> BettingAction | None:
        """The equilibrium move when the spot is the push/fold game, else None."""
        if view.street != "preflop":
            return None
        others = opponents_in_hand(view)
        if len(others) != 1:
            return None
        other = others[0]
        if {view.seat, other} != {view.small_blind_seat, view.big_blind_seat}:
            return None
        stack = self._effective(view, others)
        if stack > PUSH_FOLD_DEPTH:
            return None
        chart = shipped_chart()
        acted = [r for r in view.history if r.street == "preflop"]
        if view.seat == view.small_blind_seat and view.current_bet <= view.big_blind:
            if not all(r.verb == "fold" for r in acted):
                return None
            if self.rng.random() < chart.shove_frequency(hand, stack):
                return AllIn()
            return Fold()
        opponent = view.seats[other]
        if view.seat == view.big_blind_seat and (opponent.all_in or view.to_call >= stack * 0.6):
            # A shove (or a raise committing most of the effective stack) from the small blind.
            if self.rng.random() < chart.call_frequency(hand, stack):
                return Call() if _find(view.legal, Call) else AllIn()
            return Fold()
        return None

    # ------------------------------------------------------------ ranges

    def _ranges(self, view: HoldemView) -> dict[int, Array]:
        """Class weights per opponent still in the hand, from its pre-flop actions."""
        result: dict[int, Array] = {}
        levels = raise_levels(view)
        for seat in view.seats:
            if seat.seat == view.seat or not seat.in_hand or seat.folded:
                continue
            stats = self.stats.get(seat.seat, SeatStats())
            pre = [r for r in view.history if r.seat == seat.seat and r.street == "preflop"]
            raises = levels.get(seat.seat, 0)
            entered = any(r.verb in ("call", "raise", "bet") for r in pre)
            if raises == 1:
                # An open raise: about as wide as the share of its actions that are raises.
                rate = self.habits.get(seat.seat, Habits()).raise_rate
                result[seat.seat] = keep_top(max(0.05, min(1.0, 1.25 * rate)))
            elif raises:
                # A re-raise (even a seat's first raise of the hand): narrower per raise level.
                share = max(0.03, min(1.0, stats.vpip) * 0.55 * 0.45 ** (raises - 1))
                result[seat.seat] = keep_top(share)
            elif entered:
                # Callers: their entering range without most of its top (they would raise).
                wide = keep_top(min(1.0, max(0.1, stats.vpip * 1.1)))
                result[seat.seat] = wide * (1.0 - 0.6 * keep_top(0.04))
            else:
                result[seat.seat] = np.ones_like(keep_top(1.0))
        return result

    # ------------------------------------------------------------ pre-flop

    def _preflop(self, view: HoldemView, hand: int, ranges: dict[int, Array]) -> BettingAction:
        big = view.big_blind
        share = top_share(hand)
        raised = view.current_bet > big
        behind = self._behind(view)
        if not raised:
            limpers = sum(1 for s in view.seats if s.bet >= big and s.seat != view.big_blind_seat)
            steal = self._steal(view)
            width = {0: 0.65, 1: 0.58, 2: 0.55, 3: 0.36, 4: 0.27, 5: 0.22}.get(behind, 0.17)
            width = min(0.6, width + 0.4 * steal) if limpers == 0 else 0.1 + 0.02 * limpers
            if view.to_call == 0:  # the big blind after limps
                width = 0.12
            if share <= width and view.can_raise:
                return _sized(view, int(2.5 * big) + big * limpers)
            if view.to_call == 0:
                return Check()
            if view.seat == view.small_blind_seat and share <= 0.6 and behind == 0:
                return _passive(view)
            return Fold()
        # Facing a raise: all-in equity against the range of each player who put chips in
        # (the players still to act mostly fold; counting them as random hands made
        # even ace-king too weak to call an open).
        entered = {r.seat for r in view.history if r.street == "preflop" and r.verb != "fold"}
        facing = [weights for seat, weights in ranges.items() if seat in entered]
        equity = 1.0
        for weights in facing:
            equity *= equity_vs_classes(hand, weights)
        if len(facing) > 1:
            equity = equity ** (1.0 / 1.4)  # opponents' hands overlap: beating all is likelier
        pot = view.pot_total
        odds = view.to_call / (pot + view.to_call)
        stack = view.seats[view.seat or 0].stack
        realise = 0.9 if self._position_bonus(view) > 0.5 else 0.78
        raises = sum(1 for r in view.history if r.street == "preflop" and r.verb == "raise")
        value_line = 0.62 if raises <= 1 else 0.66
        if equity >= value_line and view.can_raise:
            if view.to_call >= stack * 0.35 or raises >= 2:
                return AllIn()
            return _sized(view, 3 * view.current_bet + view.to_call)
        light = raises == 1 and view.can_raise and behind == 0 and 0.18 <= share <= 0.3
        if light and self.rng.random() < 0.12:  # a light 3-bet, sized as the value 3-bets
            return _sized(view, 3 * view.current_bet + view.to_call)
        if equity * realise >= odds:
            return Call() if _find(view.legal, Call) else _passive(view)
        return Fold()

    def _steal(self, view: HoldemView) -> float:
        """The chance that everyone else still in the hand folds to an open raise, from how
        often each was seen folding to this seat's raises before the flop."""
        chance = 1.0
        for seat in opponents_in_hand(view):
            chance *= self.habits.get(seat, Habits()).pre_fold_rate
        return chance

    def _behind(self, view: HoldemView) -> int:
        """How many players still to act after this seat in this betting round, pre-flop."""
        n = len(view.seats)
        count = 0
        seat = view.seat or 0
        acted = {r.seat for r in view.history if r.street == "preflop"}
        for step in range(1, n):
            other = view.seats[(seat + step) % n]
            # The blinds are not actions: a blind that has not acted yet is still to act.
            if other.in_hand and not other.folded and not other.all_in and other.seat not in acted:
                count += 1
        return count

    # ------------------------------------------------------------ post-flop

    def _postflop_equity(self, view: HoldemView, ranges: dict[int, Array]) -> float:
        """Monte Carlo equity against the combos each opponent's whole line leaves likely."""
        hole = view.hole or ()
        mine = [c.code for c in hole]
        board = [c.code for c in view.board]
        dead = mine + board
        samplers: list[tuple[list[tuple[int, int]], list[float]]] = []
        fractions = bet_fractions(view)
        for seat, weights in ranges.items():
            combos, values = combo_weights(weights, dead)
            stats = self.stats.get(seat, SeatStats())
            habits = self.habits.get(seat, Habits())
            station = loose_passive(stats, habits)
            for street, cut in (("flop", 3), ("turn", 4), ("river", 5)):
                if cut > len(board):
                    break
                line = [r for r in view.history if r.seat == seat and r.street == street]
                if not line:
                    continue
                place = board_order(combos, board[:cut])
                for record in line:
                    if record.verb in ("bet", "raise") or (record.all_in and record.verb != "call"):
                        # Bets and raises come mostly from the top of a range (more so the
                        # larger they are), with a few bluffs; looser for aggressive seats.
                        aggression = stats.aggression
                        keep = min(0.9, max(0.15, 1.2 * aggression - 0.2))
                        size = fractions.get(id(record), 0.6)
                        keep *= min(1.3, max(0.75, (0.6 / max(size, 0.1)) ** 0.5))
                        floor = 0.06 if aggression < 0.5 else 0.25
                        if record.verb == "bet" and relentless(habits):
                            # It bets about this share of its range when it may: not its top.
                            keep = max(keep, habits.lead_rate)
                            floor = RELENTLESS_FLOOR
                        narrow(values, place, keep, floor)
                    elif record.verb == "call" and station:
                        narrow(values, place, 0.85, 0.5)  # it calls with most of its range
                    elif record.verb == "call":
                        narrow(values, place, 0.7, 0.2)
                    elif record.verb == "check":
                        narrow(values, place, 0.9, 0.55)
            samplers.append((combos, values))
        return self._simulate(mine, board, samplers)

    def _simulate(
        self,
        mine: list[int],
        board: list[int],
        samplers: list[tuple[list[tuple[int, int]], list[float]]],
    ) -> float:
        rng = self.rng
        iterations = self.iterations if len(samplers) <= 2 else self.iterations * 2 // 3
        draws = [
            rng.choices(combos, weights=values, k=iterations) if combos else []
            for combos, values in samplers
        ]
        live = [c for c in range(52) if c not in set(mine) | set(board)]
        board_e7 = [E7[c] for c in board]
        mine_e7 = [E7[c] for c in mine]
        won = 0.0
        done = 0
        for k in range(iterations):
            used: set[int] = set()
            hands: list[tuple[int, int]] = []
            for picks in draws:
                if not picks:
                    continue
                a, b = picks[k]
                if a in used or b in used:
                    break
                used.update((a, b))
                hands.append((a, b))
            else:
                won += showdown_share(mine_e7, board_e7, hands, live, used, rng)
                done += 1
        return won / done if done else 0.5

    def _postflop(self, view: HoldemView, equity: float, opponents: int) -> BettingAction:
        pot = view.pot_total
        to_call = view.to_call
        stack = view.seats[view.seat or 0].stack
        spr = stack / pot if pot else 10.0
        rng = self.rng
        position = self._position_bonus(view)
        river = view.street == "river"
        # One size per decision, drawn without looking at the cards.
        size = rng.choice((0.5, 0.75, 1.0)) if not river else rng.choice((0.6, 1.0))
        # The share of bluffs that makes a call break even against this size.
        bluff_share = size / (1.0 + 2.0 * size)
        stations = self._stations_only(view)
        relentless_alone = self._relentless_alone(view)
        if to_call == 0:
            value_line = 0.6 + 0.08 * (opponents - 1) - 0.04 * position
            if stations:
                value_line -= THIN_VALUE
            first = relentless_alone and not any(r.street == view.street for r in view.history)
            if first and equity >= value_line:
                return Check()  # checked to, it bets: hard answers its bet
            if equity >= value_line and view.can_raise:
                if spr < 1.2:
                    return AllIn()
                # A station calls any size, and hard bluffs none into it: bet the pot.
                return _sized(view, int(pot * (STATION_SIZE if stations else size)))
            if view.can_raise and opponents == 1 and not stations:
                weak = equity < 0.35 if not river else equity < 0.2
                if weak and relentless_alone:
                    return _sized(view, view.min_to)
                chance = bluff_share * (0.9 if not river else 0.7) + 0.4 * self._fold_rate(view)
                if weak and rng.random() < chance:
                    return _sized(view, int(pot * size))
                if not river and rng.random() < self._barrel(view):
                    return _sized(view, int(pot * size))
            return Check()
        odds = to_call / (pot + to_call)
        raise_line = 0.72 + 0.06 * (opponents - 1)
        # On the turn a relentless seat's bet is called, not raised: it bets the river too.
        slow = relentless_alone and view.street == "turn"
        if equity >= raise_line and view.can_raise and not slow:
            if spr < 2.5:
                return AllIn()
            return _sized(view, view.current_bet + int((pot + to_call) * size))
        implied = 0.04 if not river and spr > 3 and position > 0.5 else 0.0
        if equity + implied >= odds + 0.01 * opponents:
            if (
                not river
                and view.can_raise
                and spr > 3
                and not stations
                and rng.random() < self._raise_back(view)
            ):
                return _sized(view, view.current_bet + int((pot + to_call) * size))
            return Call() if _find(view.legal, Call) else _passive(view)
        if (
            view.can_raise
            and opponents == 1
            and not stations
            and view.street == "flop"
            and 0.25 <= equity < 0.45
            and spr > 3
            and rng.random() < 0.1
        ):
            return _sized(view, view.current_bet + int((pot + to_call) * size))
        return Fold()

    def _stations_only(self, view: HoldemView) -> bool:
        """Whether every opponent still in the hand reads as a calling station."""
        others = opponents_in_hand(view)
        return bool(others) and all(self._station(seat) for seat in others)

    def _station(self, seat: int) -> bool:
        """Whether `seat` reads as a calling station (`loose_passive`) from what was seen."""
        return loose_passive(self.stats.get(seat, SeatStats()), self.habits.get(seat, Habits()))

    def _relentless_alone(self, view: HoldemView) -> bool:
        """Whether the one opponent left in the hand reads as `relentless`: checked to, it
        would bet (so hard lets it bet its good hands and probes with its bad ones)."""
        other = _only_opponent(view)
        return other is not None and relentless(self.habits.get(other, Habits()))

    def _barrel(self, view: HoldemView) -> float:
        """How often to bet again, whatever the cards, as the last street's aggressor heads-up
        before the river: more the more the opponent was seen folding to bets after the flop
        (the initiative's bet wins the pot outright that often), never against one that
        rarely folds."""
        other = _only_opponent(view)
        if other is None or view.street == "preflop" or not last_aggressor(view, view.seat):
            return 0.0
        rate = self.habits.get(other, Habits()).fold_rate
        return min(0.8, max(0.0, 2.0 * (rate - 0.2)))

    def _raise_back(self, view: HoldemView) -> float:
        """How often to raise, rather than call, a bet heads-up before the river with a hand
        worth a call: rising with how often the bettor was seen folding to bets after the
        flop, at most 40%, never against one that folds a fifth of the time or less."""
        bettor = _only_opponent(view)
        if bettor is None:
            return 0.0
        rate = self.habits.get(bettor, Habits()).fold_rate
        return min(0.4, max(0.0, rate - 0.2))


def opponents_in_hand(view: HoldemView) -> list[int]:
    """The other seats still in the hand (not folded), all-in ones included."""
    return [s.seat for s in view.seats if s.seat != view.seat and s.in_hand and not s.folded]


def _only_opponent(view: HoldemView) -> int | None:
    """The one other seat still in the hand when the hand is heads-up, else None."""
    others = opponents_in_hand(view)
    return others[0] if len(others) == 1 else None


def last_aggressor(view: HoldemView, seat: int | None) -> bool:
    """Whether `seat` made the last bet or raise of the hand before this betting round (the
    initiative: checked streets since keep it)."""
    last = None
    for record in view.history:
        if record.street == view.street:
            break
        if _aggressive(record):
            last = record.seat
    return last is not None and last == seat


def bet_fractions(view: HoldemView) -> dict[int, float]:
    """Each bet or raise of the hand (by `id` of its record): its size over the pot it faced
    (the chips it adds beyond a call, over the pot once called)."""
    result: dict[int, float] = {}
    street = "preflop"
    totals = {view.small_blind_seat: view.small_blind, view.big_blind_seat: view.big_blind}
    pot_start = 0
    for record in view.history:
        if record.street != street:
            street = record.street
            pot_start += sum(totals.values())
            totals = {}
        current = max(totals.values(), default=0)
        mine = totals.get(record.seat, 0)
        if record.total > current and record.verb != "call":
            called = pot_start + sum(totals.values()) + (current - mine)
            result[id(record)] = (record.total - current) / max(called, 1)
        if record.verb != "fold":
            totals[record.seat] = max(mine, record.total)
    return result


def raise_levels(view: HoldemView) -> dict[int, int]:
    """Each seat's highest raise level before the flop: 1 for an open raise, 2 for a 3-bet
    (a raise over one raise), 3 for a 4-bet...; seats that did not raise are absent."""
    levels: dict[int, int] = {}
    count = 0
    for record in view.history:
        if record.street != "preflop":
            break
        if _aggressive(record):
            count += 1
            levels[record.seat] = count
    return levels


def _aggressive(record: ActionRecord) -> bool:
    """A bet or raise (an all-in that is more than a call included)."""
    return record.verb in ("bet", "raise") or (record.all_in and record.verb != "call")
