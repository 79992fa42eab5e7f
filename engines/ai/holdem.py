"""AI players for no-limit hold'em. Every policy decides from a `HoldemView` only.

- `random`: a uniformly random legal action; bet and raise amounts are sane
  (between the minimum and about the pot, all-in only as its own choice).
- `calling`: always checks or calls.
- `tight`: plays only strong starting hands (about the top 12%), bets and
  raises made hands (top pair or better), calls with them, folds the rest.
- `strong`: estimates its equity by Monte Carlo (eval7) against the hands the
  opponents' actions make plausible, and plays by pot odds, position,
  stack-to-pot ratio and a few pot-fraction bet sizes, with semi-bluffs and
  bluffs at frequencies tied to how often the opponents fold. It keeps
  per-seat statistics of what it has seen (how often each opponent enters the
  pot, bets, folds to bets): what a human across the table would remember.

`hard` (`engines.ai.holdem_hard`) and the sparring pool (`engines.ai.holdem_styles`) build on
these; `engines.ai.holdem_policies` names them all.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

import eval7

from engines.ai.holdem_e7 import E7 as _E7
from engines.cards import FULL_DECK, Card, Rank
from engines.holdem import ActionRecord, HoldemView
from engines.poker.actions import AllIn, Bet, BettingAction, Call, Check, Fold, Raise
from engines.registry import PolicyFactory

_evaluate = eval7.evaluate


# Starting hands ------------------------------------------------------------------------------


def chen_score(a: Card, b: Card) -> float:
    """Bill Chen's quick starting-hand score (higher is better), used to order the 1326 hands."""
    high, low = (a, b) if a.rank >= b.rank else (b, a)
    points = {Rank.ACE: 10.0, Rank.KING: 8.0, Rank.QUEEN: 7.0, Rank.JACK: 6.0}.get(
        high.rank, int(high.rank) / 2
    )
    if high.rank == low.rank:
        return max(points * 2, 5.0)
    if high.suit == low.suit:
        points += 2
    gap = int(high.rank) - int(low.rank) - 1
    points -= (0, 1, 2, 4)[gap] if gap < 4 else 5
    if gap <= 1 and high.rank < Rank.QUEEN:
        points += 1
    return points


def _percentiles() -> list[list[float]]:
    """table[a][b]: the share of starting hands at least as good as {a, b} (0 best, 1 worst)."""
    scored = sorted(
        ((chen_score(FULL_DECK[a], FULL_DECK[b]), a, b) for a, b in combinations(range(52), 2)),
        reverse=True,
    )
    table = [[1.0] * 52 for _ in range(52)]
    total = len(scored)
    index = 0
    while index < total:
        end = index
        while end < total and scored[end][0] == scored[index][0]:
            end += 1
        share = end / total
        for _, a, b in scored[index:end]:
            table[a][b] = table[b][a] = share
        index = end
    return table


PERCENTILE = _percentiles()
"""PERCENTILE[a][b] for card codes a, b: 0.0 for the best starting hands up to 1.0."""


def hand_percentile(hole: Sequence[Card]) -> float:
    """The share of starting hands at least as good as `hole` (0 best, 1 worst)."""
    return PERCENTILE[hole[0].code][hole[1].code]


# Baselines -----------------------------------------------------------------------------------


def _find(legal: Sequence[BettingAction], kind: type) -> BettingAction | None:
    for action in legal:
        if isinstance(action, kind):
            return action
    return None


def _passive(view: HoldemView) -> BettingAction:
    return _find(view.legal, Check) or _find(view.legal, Call) or Fold()


def _sized(view: HoldemView, total: int) -> BettingAction:
    """A bet or raise to `total`, clamped to the legal range (all-in when it reaches the stack)."""
    if total >= view.max_to:
        return AllIn()
    total = max(total, view.min_to)
    if total >= view.max_to:
        return AllIn()
    return Bet(total) if view.current_bet == 0 else Raise(total)


class RandomPolicy:
    """A uniformly random legal action with sane amounts."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        """A policy drawing every choice from `rng`."""
        self.rng = rng

    def decide(self, view: HoldemView) -> BettingAction:
        """Pick one legal action at random; amounts between the minimum and about the pot."""
        choice = self.rng.choice(view.legal)
        if isinstance(choice, (Bet, Raise)):
            high = max(view.min_to, view.current_bet + view.pot_total)
            return _sized(view, self.rng.randint(view.min_to, high))
        return choice


class CallingPolicy:
    """Always checks or calls (a calling station)."""

    name = "calling"

    def __init__(self, rng: random.Random) -> None:
        """No randomness is used; `rng` is accepted for the common factory signature."""
        self.rng = rng

    def decide(self, view: HoldemView) -> BettingAction:
        """Check when free, else call."""
        return _find(view.legal, Check) or _find(view.legal, Call) or Fold()


def made_strength(hole: Sequence[Card], board: Sequence[Card]) -> int:
    """A coarse made-hand level: 0 nothing, 1 a pair below top pair, 2 top pair or an overpair,
    3 two pair or better (using at least one hole card)."""
    value = _evaluate([_E7[c.code] for c in (*hole, *board)])
    category = value >> 24
    board_value = _evaluate([_E7[c.code] for c in board]) if len(board) >= 5 else -1
    if category >= 2 and value != board_value:
        board_category = _board_category(board)
        return 3 if category > board_category else 1
    if category == 1:
        top = max(int(c.rank) for c in board)
        pair_rank = ((value >> 16) & 0xF) + 2
        if any(int(c.rank) == pair_rank for c in hole):
            return 2 if pair_rank >= top else 1
        return 0
    return 0


def _board_category(board: Sequence[Card]) -> int:
    ranks = [int(c.rank) for c in board]
    counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
    if counts[0] >= 3:
        return 3
    if counts[0] == 2 and len(counts) > 1 and counts[1] == 2:
        return 2
    return 1 if counts[0] == 2 else 0


class TightPolicy:
    """Plays only strong starting hands; bets made hands, folds the rest."""

    name = "tight"

    def __init__(self, rng: random.Random) -> None:
        """A deterministic policy; `rng` is accepted for the common factory signature."""
        self.rng = rng

    def decide(self, view: HoldemView) -> BettingAction:
        """Raise the top 12% pre-flop (call raises with the top 6%); after the flop bet or raise
        two pair or better, bet and call with top pair, check or fold otherwise."""
        hole = view.hole or ()
        if len(hole) < 2:
            return _passive(view)
        big = view.big_blind
        if view.street == "preflop":
            pct = hand_percentile(hole)
            raised = view.current_bet > big
            if pct <= 0.06 and view.can_raise:
                return _sized(view, 3 * view.current_bet if raised else 3 * big)
            if pct <= 0.12:
                if not raised and view.can_raise:
                    return _sized(view, 3 * big)
                if view.to_call <= 6 * big or pct <= 0.06:
                    return _passive(view)
            return _find(view.legal, Check) or Fold()
        level = made_strength(hole, view.board)
        pot = view.pot_total
        if level >= 3 and view.can_raise:
            return _sized(view, view.current_bet + pot * 2 // 3 + view.to_call)
        if level >= 2:
            if view.to_call == 0 and view.can_raise:
                return _sized(view, pot // 2)
            return _passive(view)
        return _find(view.legal, Check) or Fold()


# Strong --------------------------------------------------------------------------------------


@dataclass
class SeatStats:
    """What this policy has seen one opponent do (with a mild prior)."""

    pre: float = 6.0
    pre_in: float = 2.4
    post: float = 6.0
    post_aggr: float = 1.8
    faced: float = 6.0
    folded: float = 2.4

    @property
    def vpip(self) -> float:
        """How often they put chips in voluntarily before the flop."""
        return self.pre_in / self.pre

    @property
    def aggression(self) -> float:
        """How often their actions after the flop are bets or raises."""
        return self.post_aggr / self.post

    @property
    def fold_rate(self) -> float:
        """How often they fold when facing a bet."""
        return self.folded / self.faced


@dataclass
class Opponent:
    """One opponent in the current hand: the starting-hand share it plausibly holds, and the
    share of those it keeps after its aggression on later streets."""

    seat: int
    top: float
    keep: float = 1.0


@dataclass
class StrongPolicy:
    """Monte Carlo equity against action-narrowed ranges, pot odds, position, SPR, sizing."""

    rng: random.Random
    iterations: int = 400
    name: str = "strong"
    stats: dict[int, SeatStats] = field(default_factory=dict)
    _seen: tuple[int, int] = (-1, 0)

    # ------------------------------------------------------------- memory

    def _observe(self, view: HoldemView) -> None:
        hand, count = self._seen
        start = count if hand == view.hand else 0
        history = view.history
        bet_on: dict[str, bool] = {}
        for index, record in enumerate(history):
            street = record.street
            facing = bet_on.get(street, street == "preflop")
            if index >= start and record.seat != view.seat:
                self._count(record, facing)
            if record.verb in ("bet", "raise"):
                bet_on[street] = True
        self._seen = (view.hand, len(history))

    def _count(self, record: ActionRecord, facing: bool) -> None:
        stats = self.stats.setdefault(record.seat, SeatStats())
        verb = record.verb
        if record.street == "preflop":
            stats.pre += 1
            if verb != "fold" and verb != "check":
                stats.pre_in += 1
        else:
            stats.post += 1
            if verb in ("bet", "raise"):
                stats.post_aggr += 1
        if facing and verb in ("fold", "call", "raise"):
            stats.faced += 1
            if verb == "fold":
                stats.folded += 1

    # ------------------------------------------------------------- ranges

    def _opponents(self, view: HoldemView) -> list[Opponent]:
        me = view.seat
        result = []
        raises: dict[int, int] = {}
        post_aggr: dict[int, int] = {}
        for record in view.history:
            if record.verb in ("raise", "bet") or (record.all_in and record.verb != "call"):
                if record.street == "preflop":
                    raises[record.seat] = raises.get(record.seat, 0) + 1
                else:
                    post_aggr[record.seat] = post_aggr.get(record.seat, 0) + 1
        for seat in view.seats:
            if seat.seat == me or not seat.in_hand or seat.folded:
                continue
            stats = self.stats.get(seat.seat, SeatStats())
            acted_pre = any(
                r.seat == seat.seat and r.street == "preflop" and r.verb != "check"
                for r in view.history
            )
            top = min(1.0, max(0.08, stats.vpip)) if acted_pre else 1.0
            top *= 0.45 ** raises.get(seat.seat, 0)
            keep = 1.0
            aggr = post_aggr.get(seat.seat, 0)
            if aggr:
                keep = min(1.0, max(0.2, 1.6 * stats.aggression)) ** aggr
            result.append(Opponent(seat.seat, max(top, 0.02), keep))
        return result

    def equity(self, view: HoldemView, opponents: list[Opponent], iterations: int) -> float:
        """Monte Carlo share of the pot at showdown against `opponents`' plausible hands."""
        hole = view.hole or ()
        mine = [c.code for c in hole]
        board = [c.code for c in view.board]
        dead = set(mine) | set(board)
        live = [c for c in range(52) if c not in dead]
        board_e7 = [_E7[c] for c in board]
        ranges = [self._range(o, live, board_e7) for o in opponents]
        rng = self.rng
        mine_e7 = [_E7[c] for c in mine]
        won = 0.0
        done = 0
        for _ in range(iterations):
            used: set[int] = set()
            hands = []
            ok = True
            for combos in ranges:
                for _try in range(12):
                    a, b = combos[int(rng.random() * len(combos))]
                    if a not in used and b not in used:
                        break
                else:
                    ok = False
                    break
                used.add(a)
                used.add(b)
                hands.append((a, b))
            if not ok:
                continue
            won += showdown_share(mine_e7, board_e7, hands, live, used, rng)
            done += 1
        return won / done if done else 0.0

    def _range(
        self, opponent: Opponent, live: list[int], board_e7: list[eval7.Card]
    ) -> list[tuple[int, int]]:
        combos = [
            (a, b)
            for i, a in enumerate(live)
            for b in live[i + 1 :]
            if PERCENTILE[a][b] <= opponent.top
        ]
        if len(combos) < 6:
            combos = [(a, b) for i, a in enumerate(live) for b in live[i + 1 :]]
        if opponent.keep < 1.0 and len(board_e7) >= 3:
            scored = sorted(
                combos, key=lambda ab: _evaluate([_E7[ab[0]], _E7[ab[1]], *board_e7]), reverse=True
            )
            combos = scored[: max(6, int(len(scored) * opponent.keep))]
        return combos

    # ------------------------------------------------------------ deciding

    def decide(self, view: HoldemView) -> BettingAction:
        """Choose from the view: see the module docstring."""
        self._observe(view)
        hole = view.hole
        if not hole or not view.legal:
            return _passive(view)
        if view.street == "preflop" and view.current_bet <= view.big_blind:
            return self._unopened(view, hole)
        opponents = self._opponents(view)
        if not opponents:
            return _passive(view)
        iterations = self.iterations if len(opponents) <= 2 else self.iterations * 2 // 3
        eq = self.equity(view, opponents, iterations)
        return self._by_equity(view, eq, opponents)

    def _position_bonus(self, view: HoldemView) -> float:
        """0 for the first to act after the button up to 1 on the button."""
        n = len(view.seats)
        live = [s.seat for s in view.seats if s.in_hand and not s.folded]
        order = [(view.button + i) % n for i in range(1, n + 1)]
        ranked = [s for s in order if s in live]
        if view.seat not in ranked or len(ranked) < 2:
            return 0.5
        return ranked.index(view.seat) / (len(ranked) - 1)

    def _fold_rate(self, view: HoldemView) -> float:
        rates = [
            self.stats.get(s.seat, SeatStats()).fold_rate
            for s in view.seats
            if s.seat != view.seat and s.in_hand and not s.folded
        ]
        if not rates:
            return 0.0
        product = 1.0
        for rate in rates:
            product *= rate
        return product

    def _unopened(self, view: HoldemView, hole: Sequence[Card]) -> BettingAction:
        """Pre-flop with no raise yet: open-raise a position-dependent share of hands."""
        pct = hand_percentile(hole)
        players = sum(1 for s in view.seats if s.in_hand and not s.folded)
        position = self._position_bonus(view)
        steal = self._fold_rate(view)
        width = 0.10 + 0.14 * position + 0.6 * steal + (0.08 if players <= 3 else 0.0)
        looseness = [
            self.stats.get(s.seat, SeatStats()).vpip
            for s in view.seats
            if s.seat != view.seat and s.in_hand and not s.folded
        ]
        loose = sum(looseness) / len(looseness) if looseness else 0.4
        # Against players who call too much, open wider for value but stop stealing.
        width = max(width, 0.12 + 0.25 * loose) if loose > 0.6 else width
        big = view.big_blind
        limpers = sum(1 for s in view.seats if s.bet >= big and s.seat != view.big_blind_seat)
        if pct <= width and view.can_raise:
            return _sized(view, 3 * big + big * limpers)
        if view.to_call == 0:
            return Check() if _find(view.legal, Check) else _passive(view)
        if view.to_call <= big // 2 and pct <= 0.5:
            return _passive(view)
        return Fold()

    def _by_equity(self, view: HoldemView, eq: float, opponents: list[Opponent]) -> BettingAction:
        pot = view.pot_total
        to_call = view.to_call
        stack = view.seats[view.seat].stack if view.seat is not None else 0
        n_opp = len(opponents)
        position = self._position_bonus(view)
        fold_rate = self._fold_rate(view)
        spr = stack / pot if pot else 10.0
        rng = self.rng
        value_line = 0.52 + 0.1 * (n_opp - 1) - 0.04 * position
        if to_call == 0:
            if eq >= value_line and view.can_raise:
                frac = 0.75 if eq > 0.75 else 0.55
                if spr < 1.3 and eq > 0.6:
                    return AllIn()
                return _sized(view, int(pot * frac))
            draw_street = view.street in ("flop", "turn")
            if view.can_raise and n_opp <= 2:
                if draw_street and eq >= 0.3 and rng.random() < 0.25 + 0.8 * fold_rate:
                    return _sized(view, int(pot * 0.55))
                if rng.random() < 1.2 * fold_rate - 0.35:
                    return _sized(view, int(pot * 0.6))
            return Check()
        odds = to_call / (pot + to_call)
        raise_line = 0.66 + 0.08 * (n_opp - 1)
        if eq >= raise_line and view.can_raise:
            if spr < 2.0:
                return AllIn()
            return _sized(view, view.current_bet + int((pot + to_call) * 0.8))
        if eq >= odds + 0.02 or (eq >= odds - 0.03 and position > 0.7 and spr > 3):
            return Call() if _find(view.legal, Call) else _passive(view)
        if (
            view.can_raise
            and n_opp == 1
            and view.street in ("flop", "turn")
            and eq >= 0.28
            and rng.random() < 0.6 * fold_rate
        ):
            return _sized(view, view.current_bet + int((pot + to_call) * 0.9))
        return Fold()


def _strong(rng: random.Random) -> StrongPolicy:
    return StrongPolicy(rng)


POLICIES: dict[str, PolicyFactory] = {
    "random": RandomPolicy,
    "calling": CallingPolicy,
    "tight": TightPolicy,
    "strong": _strong,
}
"""The baseline policies: name -> factory taking the policy's own `random.Random`. The game's
whole set, with `hard` and the sparring pool, is `engines.ai.holdem_policies.POLICIES`."""


def showdown_share(
    mine: list[eval7.Card],
    board: list[eval7.Card],
    hands: Sequence[tuple[int, int]],
    live: Sequence[int],
    used: set[int],
    rng: random.Random,
) -> float:
    """One Monte Carlo showdown: `board` dealt out to five cards from the `live` card codes
    not in `used` (each draw ``live[int(rng.random() * len(live))]``; the dealt ones are added
    to `used`), then `mine`'s share of the pot against the opponents' `hands`: 0 when one
    beats it, else 1 over the number of hands tied for best."""
    full = list(board)
    while len(full) < 5:
        c = live[int(rng.random() * len(live))]
        if c not in used:
            used.add(c)
            full.append(_E7[c])
    best = _evaluate(mine + full)
    ties = 1
    for a, b in hands:
        value = _evaluate([_E7[a], _E7[b], *full])
        if value > best:
            return 0.0
        if value == best:
            ties += 1
    return 1.0 / ties
