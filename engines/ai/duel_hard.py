"""The duel's `cfr` player (the `hard` level): the CFR+ solution of `engines.ai.duel_solve`.

The tables (`duel_cfr_v1.npz`, `deucebot train duel --seed 1`) are read once, on the
first decision. A decision reads only the seat's view:

- the effective stack (the smaller of the two players' chips behind plus round bets), the
  signal pair, the seat's role (first or second) and its two cards or its locked rank;
- the betting so far, rebuilt from the two round totals as the shortest sequence that
  leads to them (one seat's round bet, then the other's), then walked down the abstract
  tree: a bet or raise the abstraction lacks goes to the nearer of the two abstract sizes
  around it by the pseudo-harmonic mapping (Ganzfried and Sandholm 2013), sizes read as
  fractions of the pot after a call;
- the abstract action drawn from the solution is played as the same fraction of the real
  pot (clipped to what is legal; all-in stays all-in).

Tables outside the solved game (an ante other than 1, more than `MAX_EFFECTIVE` chips
behind) hand the decision to `strong`.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engines.ai.duel import StrongPolicy
from engines.ai.duel_cfr import BET, CALL, CHECK, FOLD, RAISE, Array, Node
from engines.ai.duel_solve import MAX_EFFECTIVE, RANKS, SIGNALS, TABLES, betting_tree, hands_of
from engines.duel import DuelAction, DuelView, Lock
from engines.poker.actions import AllIn, Bet, Call, Check, Fold, Raise


@dataclass(frozen=True, slots=True)
class Tables:
    """The solved strategies: per effective stack, the lock chances and, per decision node
    of `betting_tree(effective)`, the betting strategy (see `duel_solve.Solution`)."""

    lock: tuple[Array, ...]
    bet: tuple[Array | None, ...]
    trees: tuple[tuple[Node, ...], ...]
    decisions: tuple[dict[int, int], ...]
    """Per effective stack: tree node index -> row of `bet`."""
    keep: Array
    """The kept cards' values the tables were solved with (chips per rank index)."""


def load_tables(path: Path = TABLES) -> Tables:
    """Read a tables file written by `duel_solve.train`."""
    with np.load(path) as data:
        locks = []
        bets: list[Array | None] = []
        trees = []
        decisions = []
        for effective in range(MAX_EFFECTIVE + 1):
            locks.append(data[f"lock_{effective}"].astype(np.float64))
            key = f"bet_{effective}"
            bets.append(data[key].astype(np.float64) if key in data else None)
            tree = tuple(betting_tree(effective))
            trees.append(tree)
            rows = [i for i, node in enumerate(tree) if not node.leaf]
            decisions.append({index: row for row, index in enumerate(rows)})
        keep = data["keep"].astype(np.float64)
    return Tables(tuple(locks), tuple(bets), tuple(trees), tuple(decisions), keep)


@functools.cache
def shipped_tables() -> Tables:
    """The shipped tables, read once per process."""
    return load_tables()


def pseudo_harmonic(low: float, high: float, x: float) -> float:
    """The chance of reading size `x` as `low` rather than `high` (sizes as pot fractions,
    low <= x <= high): f = (high - x)(1 + low) / ((high - low)(1 + x))."""
    if high <= low:
        return 1.0
    return (high - x) * (1 + low) / ((high - low) * (1 + x))


@dataclass(frozen=True, slots=True)
class _Spot:
    """A betting decision mapped onto the tables: its effective stack, tree node and signal
    pair."""

    effective: int
    node: int
    pair: int


class CfrPolicy:
    """Plays the CFR+ solution (see the module docstring); `distribution` gives its mixed
    strategy at a view, `decide` draws from it."""

    name = "cfr"

    def __init__(self, rng: random.Random, tables: Tables | None = None) -> None:
        """A player drawing its mixed choices from `rng` (tables: the shipped ones)."""
        self.rng = rng
        self._tables = tables
        self._fallback = StrongPolicy(rng)

    @property
    def tables(self) -> Tables:
        """The strategies played (the shipped tables unless others were given)."""
        if self._tables is None:
            self._tables = shipped_tables()
        return self._tables

    def decide(self, view: DuelView) -> DuelAction:
        """An action drawn from the solution's mixed strategy at this view."""
        choices = self.distribution(view)
        if choices is None:
            return self._fallback.decide(view)
        draw = self.rng.random()
        for action, chance in choices:
            draw -= chance
            if draw < 0:
                return action
        return choices[-1][0]

    def distribution(self, view: DuelView) -> list[tuple[DuelAction, float]] | None:
        """The solution's actions at this view with their chances (None outside the solved
        game: the `strong` player decides there)."""
        assert view.seat is not None
        me, opp = view.seat, 1 - view.seat
        if view.antes != (1, 1):
            return None
        effective = min(view.chips[s] + view.bets[s] for s in (me, opp))
        if effective > MAX_EFFECTIVE:
            return None
        role = 0 if me == view.first else 1
        first = view.first
        pair = SIGNALS * view.signals[first][0] + view.signals[1 - first][0]
        if view.phase == "lock":
            return self._lock(view, effective, role, pair)
        spot = self._walk(view, effective, role, pair)
        if spot is None:
            return None
        return self._betting(view, spot)

    # --- lock ------------------------------------------------------------

    def _lock(
        self, view: DuelView, effective: int, role: int, pair: int
    ) -> list[tuple[DuelAction, float]]:
        a, b = view.hand
        i, j = RANKS.index(int(a.rank)), RANKS.index(int(b.rank))
        if i == j:
            return [(Lock(a), 1.0)]
        low, high = (a, b) if i < j else (b, a)
        signal = view.signals[view.seat if view.seat is not None else 0][0]
        hand = hands_of(signal).cards.index((min(i, j), max(i, j)))
        chances = self.tables.lock[effective][role, pair, hand]
        return [(Lock(low), float(chances[0])), (Lock(high), float(chances[1]))]

    # --- betting ---------------------------------------------------------

    def _walk(self, view: DuelView, effective: int, role: int, pair: int) -> _Spot | None:
        """The abstract node of this decision (None if the walk leaves the tree)."""
        tree = self.tables.trees[effective]
        first = view.first
        totals = (view.bets[first], view.bets[1 - first])
        index = 0
        for actor, verb, total in _history(role, totals):
            node = tree[index]
            if node.leaf or node.player != actor:
                return None
            child = _map(node, verb, min(total, effective), effective)
            if child is None:
                return None
            index = node.children[child]
        node = tree[index]
        if node.leaf or node.player != role:
            return None
        return _Spot(effective, index, pair)

    def _betting(self, view: DuelView, spot: _Spot) -> list[tuple[DuelAction, float]] | None:
        assert view.my_lock is not None
        tables = self.tables
        node = tables.trees[spot.effective][spot.node]
        strategy = tables.bet[spot.effective]
        if strategy is None:
            return None
        row = strategy[tables.decisions[spot.effective][spot.node], spot.pair]
        chances = row[RANKS.index(int(view.my_lock.rank)), : len(node.actions)]
        total = float(chances.sum())
        if total <= 0:  # a row the solve never reached: every action alike
            chances, total = np.ones(len(node.actions)), float(len(node.actions))
        merged: dict[str, tuple[DuelAction, float]] = {}
        for (verb, amount), chance in zip(node.actions, chances, strict=True):
            action = _real(view, node, verb, amount, spot.effective)
            key = str(action)
            previous = merged.get(key, (action, 0.0))[1]
            merged[key] = (action, previous + float(chance) / total)
        return list(merged.values())


def _history(role: int, totals: tuple[int, int]) -> list[tuple[int, str, int]]:
    """The shortest betting sequence leading to round totals (first's, second's) with
    `role` to act: (actor, verb, total) steps."""
    first, second = totals
    if first == second == 0:
        return [] if role == 0 else [(0, CHECK, 0)]
    if role == 0:  # facing the second player's bet or raise
        if first == 0:
            return [(0, CHECK, 0), (1, BET, second)]
        return [(0, BET, first), (1, RAISE, second)]
    if second == 0:
        return [(0, BET, first)]
    return [(0, CHECK, 0), (1, BET, second), (0, RAISE, first)]


def _fraction(node: Node, total: int) -> float:
    """A bet or raise to `total` at `node` as a fraction of the pot after a call."""
    top = max(node.put) - 1
    to_call = top - (node.put[node.player] - 1)
    pot = sum(node.put)
    return (total - top) / (pot + to_call)


def _map(node: Node, verb: str, total: int, effective: int) -> int | None:
    """The action index at `node` that a real action maps to."""
    verbs = [v for v, _ in node.actions]
    if verb == CHECK:
        return verbs.index(CHECK) if CHECK in verbs else None
    sizes = [(i, t) for i, (v, t) in enumerate(node.actions) if v in (BET, RAISE)]
    if not sizes:
        return None
    if total >= effective:
        return sizes[-1][0]
    x = _fraction(node, total)
    below = [(i, _fraction(node, t)) for i, t in sizes if _fraction(node, t) <= x]
    above = [(i, _fraction(node, t)) for i, t in sizes if _fraction(node, t) > x]
    if not below:
        return above[0][0]
    if not above:
        return below[-1][0]
    (low_i, low), (high_i, high) = below[-1], above[0]
    return low_i if pseudo_harmonic(low, high, x) >= 0.5 else high_i


def _real(view: DuelView, node: Node, verb: str, amount: int, effective: int) -> DuelAction:
    """The abstract action as a legal action at the real view."""
    if verb == FOLD:
        return Fold() if view.to_call > 0 else Check()
    if verb == CHECK:
        return Check() if view.to_call == 0 else Call()
    if verb == CALL:
        return Call()
    if not view.can_raise:
        return Call() if view.to_call > 0 else Check()
    if amount >= effective:
        return AllIn()
    top = max(view.bets)
    pot_after_call = view.pot + view.to_call
    total = top + round(_fraction(node, amount) * pot_after_call)
    total = max(total, view.min_raise_to)
    if total >= view.max_total:
        return AllIn()
    return Bet(total) if top == 0 else Raise(total)


__all__: Sequence[str] = ("CfrPolicy", "Tables", "load_tables", "pseudo_harmonic", "shipped_tables")
"""The `cfr` player, its tables and the bet mapping."""
