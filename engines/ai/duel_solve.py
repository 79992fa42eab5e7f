"""Deuce Duel as a one-deal game, solved by CFR+ (`deucebot train duel`).

The formulation (docs/duel.md has the rules, docs/benchmarks.md the figures):

- A deal's chips only: each player's payoff is what it wins or loses in this deal (the
  value of the card it keeps for the next deal is not counted).
- Suits never matter and the 104-card shoe is treated as infinite: each card held is an
  independent rank, uniform over its public group (UP 8-A, DOWN 2-7). Under that model
  a player's two cards depend on its public signal only (the known group of a carried
  card adds nothing: kept-UP + new-DOWN and kept-DOWN + new-UP are the same hand
  distribution), so one game per signal pair covers every carried-card situation.
- Only the effective stack counts: chips behind after the ante, the smaller of the two
  (`effective` 0 to 19 covers every split of the 40 chips of a default match; 20/20 is
  19). A bet above the shorter stack is the same as putting it all in.
- Public information: both signals, the betting; private: the two cards, the locked card.
  The first player locks, then the second without seeing which card (so the locks are
  simultaneous); the betting's private information is the locked rank (the other card
  does not change this deal's payoff, so a strategy needs nothing more).
- Bets are abstracted: an opening bet may be any total, a raise is one of
  `RAISE_FRACTIONS` of the pot after a call or all-in; the `MAX_AGGRESSIVE`-th bet or
  raise of a round can only be all-in.

All nine signal pairs of one effective stack are solved at once (the batch axis of
`engines.ai.duel_cfr.BettingSolver`). The solve is deterministic: the seed is recorded.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engines.ai.duel_cfr import (
    BET,
    CALL,
    CHECK,
    FOLD,
    RAISE,
    Array,
    BettingSolver,
    Node,
    StrategyFn,
    matched,
    normalised,
)

RANKS = tuple(range(2, 15))
"""Ranks in array order: index 0 is a 2, index 12 an ace."""
UP = tuple(r for r in RANKS if r >= 8)
DOWN = tuple(r for r in RANKS if r < 8)
SIGNALS = 3
"""A player's signal as its number of UP cards: 0, 1 or 2."""
PAIRS = SIGNALS * SIGNALS
"""Batch index of a signal pair: 3 x (first player's UP count) + second player's."""
MAX_EFFECTIVE = 19
"""The largest effective stack solved (a default match: 20 chips each, ante 1)."""
RAISE_FRACTIONS = (0.4, 0.7, 1.0, 1.5, 2.2)
"""Raise sizes, as fractions of the pot after a call (opening bets: every total)."""
MAX_AGGRESSIVE = 4
ITERATIONS = 1000
KEEP_ROUNDS = 3
"""Solves of the 20/20 deal that find the kept cards' values (`carried_values`)."""
KEEP_ITERATIONS = 400
HANDS = len(UP) * len(DOWN)
"""Most distinct hands a signal allows (one UP, one DOWN: 42); tables are padded to it."""


def showdown_matrix() -> Array:
    """+1/0/-1 for rank index i against rank index j (2 beats A)."""
    win = np.zeros((len(RANKS), len(RANKS)))
    for i, a in enumerate(RANKS):
        for j, b in enumerate(RANKS):
            if a == b:
                continue
            if a == 2 and b == 14:
                win[i, j] = 1
            elif a == 14 and b == 2:
                win[i, j] = -1
            else:
                win[i, j] = 1 if a > b else -1
    return win


@dataclass(frozen=True, slots=True)
class Hands:
    """The hands one signal allows: rank indices (`cards[h] = (i, j)`, i <= j), chance."""

    cards: tuple[tuple[int, int], ...]
    prior: tuple[float, ...]


def hands_of(signal: int) -> Hands:
    """Every unordered hand of a signal with its chance (cards independent, uniform in group)."""
    first = UP if signal == 2 else DOWN
    second = DOWN if signal == 0 else UP
    chance: dict[tuple[int, int], float] = {}
    for a in first:
        for b in second:
            key = tuple(sorted((RANKS.index(a), RANKS.index(b))))
            chance[(key[0], key[1])] = chance.get((key[0], key[1]), 0.0) + 1.0
    total = sum(chance.values())
    keys = tuple(sorted(chance))
    return Hands(cards=keys, prior=tuple(chance[k] / total for k in keys))


def signal_chance(signal: int) -> float:
    """The chance of a signal (each card UP with chance 7/13)."""
    up = len(UP) / len(RANKS)
    return [(1 - up) ** 2, 2 * up * (1 - up), up**2][signal]


# --- the betting tree -------------------------------------------------------


def betting_tree(effective: int) -> list[Node]:
    """The abstract betting tree for `effective` chips behind each (ante 1 already in).

    Players are 0 (first to act) and 1. Action totals are the chips put in this round.
    """
    nodes: list[Node] = []

    def add(node: Node) -> int:
        nodes.append(node)
        return len(nodes) - 1

    def leaf(bets: tuple[int, int], folder: int | None = None) -> Node:
        return Node(player=-1, put=(1 + bets[0], 1 + bets[1]), folder=folder)

    def build(bets: tuple[int, int], actor: int, last: int, aggressive: int) -> int:
        index = add(Node(player=actor, put=(1 + bets[0], 1 + bets[1])))
        other = 1 - actor
        top = max(bets)
        pot = 2 + bets[0] + bets[1]
        actions: list[tuple[str, int]] = []
        children: list[int] = []
        if top == bets[actor]:  # nothing to call: both at 0
            actions.append((CHECK, 0))
            if actor == 0:
                children.append(build(bets, 1, 0, aggressive))
            else:
                children.append(add(leaf(bets)))
            for total in _sizes(range(1, effective + 1), 1, effective, aggressive):
                actions.append((BET, total))
                children.append(build(_put(bets, actor, total), other, total, aggressive + 1))
        else:
            actions.append((FOLD, 0))
            children.append(add(leaf(bets, folder=actor)))
            actions.append((CALL, top))
            children.append(add(leaf((top, top))))
            if top < effective:
                to_call = top - bets[actor]
                wanted = [top + f * (pot + to_call) for f in RAISE_FRACTIONS]
                for total in _sizes(wanted, top + max(last, 1), effective, aggressive):
                    actions.append((RAISE, total))
                    children.append(
                        build(_put(bets, actor, total), other, total - top, aggressive + 1)
                    )
        nodes[index] = Node(
            player=actor,
            put=(1 + bets[0], 1 + bets[1]),
            actions=tuple(actions),
            children=tuple(children),
        )
        return index

    if effective <= 0:
        add(leaf((0, 0)))
        return nodes
    build((0, 0), 0, 0, 0)
    return nodes


def _put(bets: tuple[int, int], actor: int, total: int) -> tuple[int, int]:
    return (total, bets[1]) if actor == 0 else (bets[0], total)


def _sizes(wanted: Sequence[float], least: int, effective: int, aggressive: int) -> list[int]:
    """Abstract totals: the wanted sizes rounded, at least `least`, capped by all-in;
    only all-in once `MAX_AGGRESSIVE` bets and raises were made."""
    totals = {effective}
    if aggressive < MAX_AGGRESSIVE - 1:
        for size in wanted:
            total = max(least, int(size + 0.5))
            if total < effective:
                totals.add(total)
    return sorted(totals)


# --- one effective stack ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Solution:
    """The average strategies of one effective stack.

    `lock[role, b, h, s]`: the chance that `role` (0 first, 1 second) locks card `s` of
    hand `h` of its signal in signal pair `b`. `bet[k][b, r, a]`: the strategy at the
    k-th decision node of `betting_tree(effective)` (in tree order) for locked rank `r`.
    """

    effective: int
    lock: Array
    bet: tuple[Array, ...]


class DealGame:
    """The deal of one effective stack: the lock layer above the betting tree, nine signal
    pairs at once."""

    def __init__(self, effective: int, keep: Array | None = None) -> None:
        """Tree, hands, chances, and a solver with zero regrets; `keep[r]` is the value in
        chips of keeping rank index r for the next deal (none: this deal's chips only)."""
        self.effective = effective
        self.nodes = betting_tree(effective)
        self.decisions = [i for i, n in enumerate(self.nodes) if not n.leaf]
        ranks = len(RANKS)
        self.solver = BettingSolver(self.nodes, showdown_matrix(), np.ones((ranks, ranks)), PAIRS)
        self.prior = np.zeros((2, PAIRS, HANDS))
        self.onehot = np.zeros((2, PAIRS, HANDS, 2, ranks))
        self.chance = np.zeros(PAIRS)
        for b in range(PAIRS):
            signals = (b // SIGNALS, b % SIGNALS)
            self.chance[b] = signal_chance(signals[0]) * signal_chance(signals[1])
            for role in (0, 1):
                hands = hands_of(signals[role])
                for h, (i, j) in enumerate(hands.cards):
                    self.prior[role, b, h] = hands.prior[h]
                    self.onehot[role, b, h, 0, i] = 1.0
                    self.onehot[role, b, h, 1, j] = 1.0
        self.lock_regret = np.zeros((2, PAIRS, HANDS, 2))
        self.lock_average = np.zeros((2, PAIRS, HANDS, 2))
        self.keep = np.zeros(ranks) if keep is None else keep
        # Locking card s keeps card 1 - s: its value is added to the lock's.
        self.bonus = np.einsum("pbhsr,r->pbhs", self.onehot[:, :, :, ::-1, :], self.keep)

    def reach(self, lock: Array) -> tuple[Array, Array]:
        """Each role's chance of locking each rank, [B, R], from lock strategies."""
        weighted = self.prior[..., None] * lock
        both = np.einsum("pbhs,pbhsr->pbr", weighted, self.onehot)
        return (both[0], both[1])

    def hand_values(self, role: int, root: Array) -> Array:
        """Per hand and card locked, [B, H, 2], from per-rank values at the betting root."""
        result: Array = np.einsum("bhsr,br->bhs", self.onehot[role], root)
        return result

    def iterate(self, t: int) -> None:
        """One CFR+ iteration: both roles in turn, averages weighted by `t`."""
        for role in (0, 1):
            lock = matched(self.lock_regret)
            root = self.solver.iterate(self.reach(lock), role, float(t))
            values = self.hand_values(role, root) + self.bonus[role]
            value = (values * lock[role]).sum(-1, keepdims=True)
            self.lock_regret[role] = np.maximum(self.lock_regret[role] + values - value, 0.0)
            self.lock_average[role] += t * lock[role]

    def solution(self) -> Solution:
        """The average strategies so far."""
        return Solution(
            effective=self.effective,
            lock=normalised(self.lock_average),
            bet=tuple(self.solver.average_strategy(i) for i in self.decisions),
        )

    def evaluate(self, solution: Solution) -> tuple[float, float, float]:
        """(first player's value, best response's gain as first, as second), chips per deal
        plus the kept card's value, minus the opponent's, of `solution` played by both (the
        best response over the abstract tree)."""
        table = StrategyFn(dict(zip(self.decisions, solution.bet, strict=True)))
        reach = self.reach(solution.lock)
        kept = [self._total(r, (self.bonus[r] * solution.lock[r]).sum(-1)) for r in (0, 1)]
        root = self.solver.values(reach, 0, False, table)
        own = self.hand_values(0, root) + self.bonus[0]
        value = self._total(0, (own * solution.lock[0]).sum(-1)) - kept[1]
        gains = []
        for role in (0, 1):
            best = self.solver.values(reach, role, True, table)
            mine = self.hand_values(role, best) + self.bonus[role]
            gains.append(self._total(role, mine.max(-1)) - kept[1 - role])
        return value, gains[0], gains[1]

    def hand_worth(self, solution: Solution) -> Array:
        """Each hand's value to its holder, [role, B, H], with `solution` played by both
        (this deal's chips plus the kept card's value)."""
        table = StrategyFn(dict(zip(self.decisions, solution.bet, strict=True)))
        reach = self.reach(solution.lock)
        worth = np.zeros((2, PAIRS, HANDS))
        for role in (0, 1):
            root = self.solver.values(reach, role, False, table)
            own = self.hand_values(role, root) + self.bonus[role]
            worth[role] = (own * solution.lock[role]).sum(-1)
        return worth

    def _total(self, role: int, per_hand: Array) -> float:
        """Expected value over signal pairs and hands, [B, H] -> a number."""
        return float((self.chance[:, None] * self.prior[role] * per_hand).sum())


def solve(
    effective: int, iterations: int = ITERATIONS, keep: Array | None = None
) -> tuple[Solution, DealGame]:
    """CFR+ for `iterations` on one effective stack (`keep`: see `DealGame`)."""
    game = DealGame(effective, keep)
    for t in range(1, iterations + 1):
        game.iterate(t)
    return game.solution(), game


def keep_values(game: DealGame, solution: Solution) -> Array:
    """What keeping each rank is worth in the next deal, in chips (mean 0 over ranks): the
    value of a hand of that rank and a new card, with both roles and the opponent's signal
    as likely as they come, played by `solution`."""
    worth = game.hand_worth(solution)
    ranks = len(RANKS)
    keep = np.zeros(ranks)
    for r in range(ranks):
        for n in range(ranks):
            signal = (RANKS[r] >= UP[0]) + (RANKS[n] >= UP[0])
            hand = hands_of(signal).cards.index((min(r, n), max(r, n)))
            for role in (0, 1):
                for other in range(SIGNALS):
                    pair = SIGNALS * signal + other if role == 0 else SIGNALS * other + signal
                    keep[r] += signal_chance(other) * worth[role, pair, hand] / (2 * ranks)
    result: Array = keep - keep.mean()
    return result


def carried_values(iterations: int, rounds: int = KEEP_ROUNDS) -> Array:
    """The kept cards' values, found by solving the 20/20 deal `rounds` times, each with
    the values the previous solution gave (starting from none)."""
    keep = np.zeros(len(RANKS))
    for _ in range(rounds):
        solution, game = solve(MAX_EFFECTIVE, iterations, keep)
        keep = keep_values(game, solution)
    return keep


# --- all stacks, saved ------------------------------------------------------

TABLES = Path(__file__).with_name("duel_cfr_v1.npz")
"""The shipped tables (`deucebot train duel --seed 1`)."""


@dataclass(frozen=True, slots=True)
class Report:
    """One effective stack's figures: first player's value, exploitability (chips/deal)."""

    effective: int
    value: float
    exploitability: float
    seconds: float


def train(
    seed: int,
    out: Path,
    iterations: int = ITERATIONS,
    log: Callable[[str], None] = print,
) -> list[Report]:
    """Solve every effective stack 0..`MAX_EFFECTIVE` and save the tables to `out`."""
    arrays: dict[str, Array] = {}
    reports = []
    start = time.perf_counter()
    keep = carried_values(min(iterations, KEEP_ITERATIONS))
    log(
        "kept card values (2 to A): "
        + " ".join(f"{v:+.2f}" for v in keep)
        + f" ({time.perf_counter() - start:.1f} s)"
    )
    arrays["keep"] = keep
    for effective in range(MAX_EFFECTIVE + 1):
        start = time.perf_counter()
        solution, game = solve(effective, iterations, keep)
        value, first, second = game.evaluate(solution)
        seconds = time.perf_counter() - start
        report = Report(effective, value, (first + second) / 2, seconds)
        reports.append(report)
        log(
            f"effective {effective:2d}: {len(game.decisions)} betting nodes, first player "
            f"{value:+.4f}, exploitability {report.exploitability:.5f} chips/deal "
            f"({seconds:.1f} s)"
        )
        arrays[f"lock_{effective}"] = solution.lock.astype(np.float16)
        if solution.bet:
            widest = max(s.shape[-1] for s in solution.bet)
            packed = np.zeros((len(solution.bet), PAIRS, len(RANKS), widest), np.float16)
            for k, strategy in enumerate(solution.bet):
                packed[k, ..., : strategy.shape[-1]] = strategy
            arrays[f"bet_{effective}"] = packed
    arrays["meta"] = np.array([seed, iterations, MAX_EFFECTIVE, MAX_AGGRESSIVE], np.int64)
    np.savez_compressed(out, **arrays)  # type: ignore[arg-type]
    return reports
