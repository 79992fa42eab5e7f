"""Self-play training of the `net` Big Two player (`deucebot train bigtwo`).

REINFORCE with a running baseline: every learner seat samples its actions from the
softmax of the network's scores, and at the end of the deal each of its decisions is
pushed towards the chosen action in proportion to how much better than usual the seat
did (its edge: the other seats' average penalty minus its own). Opponents are, deal by
deal, copies of the learner (self-play), frozen earlier versions of it (one kept every
`snapshot_every` updates) and `greedy`. Deals are played on bitmasks (`FastDeal`), not
through the engine, for speed; the rules are the engine's (3♦ opens, three passes clear
the table, penalties by cards left).

Training is a tool, not part of the test suite. Everything random comes from `seed`, so a
run reproduces its weights exactly (on the same numpy version).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engines.ai.bigtwo_fast import greedy_move, legal_moves
from engines.ai.bigtwo_net import Net, action_features, choose
from engines.ai.small_net import Adam, Array, TanhScorer, softmax
from engines.bigtwo_combos import ALL_CARDS, Combo, classify_mask, penalty

Agent = Callable[[int, int, list[int], Combo | None, tuple[int, int, int, int], int], int]
"""(seat, hand, moves, table, counts from the seat on, unseen) -> index of the chosen move."""


Watcher = Callable[[int, list[int], list[int], int, Combo | None, bool], None]
"""(seat, every seat's hand, its legal moves, the move it chose, the table, the opening
play?) -> None: called before each move is played (`engines.ai.bigtwo_hands_train`)."""


def play_deal(rng: random.Random, agents: list[Agent], watch: Watcher | None = None) -> list[int]:
    """One deal of freshly shuffled cards, seat `s` played by `agents[s]`; the penalties.
    `watch`, if given, sees each move before it is played."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [sum(1 << k for k in deck[s::4]) for s in range(4)]
    turn = next(s for s in range(4) if hands[s] & 1)
    table: Combo | None = None
    table_seat = turn
    passes = 0
    opening = True
    played = 0
    while True:
        hand = hands[turn]
        moves = legal_moves(hand, table, opening)
        counts = (
            hand.bit_count(),
            hands[(turn + 1) % 4].bit_count(),
            hands[(turn + 2) % 4].bit_count(),
            hands[(turn + 3) % 4].bit_count(),
        )
        unseen = ALL_CARDS & ~hand & ~played
        move = moves[agents[turn](turn, hand, moves, table, counts, unseen)]
        if watch is not None:
            watch(turn, hands, moves, move, table, opening)
        if move:
            opening = False
            hands[turn] = hand & ~move
            played |= move
            if not hands[turn]:
                return [penalty(h.bit_count()) for h in hands]
            table = classify_mask(move)
            table_seat = turn
            passes = 0
            turn = (turn + 1) % 4
        else:
            passes += 1
            if passes == 3:
                table, passes, turn = None, 0, table_seat
            else:
                turn = (turn + 1) % 4


def greedy_agent(
    seat: int, hand: int, moves: list[int], table: Combo | None, counts: object, unseen: int
) -> int:
    """The `greedy` player as an `Agent`."""
    return moves.index(greedy_move(hand, table))


def argmax_agent(net: TanhScorer) -> Agent:
    """`net` playing its best-scored move (as `NetPolicy` and `PgPolicy` do)."""

    def agent(seat: int, *situation: Any) -> int:
        return choose(net, *situation)

    return agent


@dataclass
class Sampler:
    """Samples from the softmax of `net`'s scores and records each decision of each seat
    (the learner's seats while training)."""

    net: TanhScorer
    rng: np.random.Generator
    records: dict[int, list[tuple[Array, int]]] = field(default_factory=dict)

    def agent(self) -> Agent:
        """An `Agent` that samples its move and records (the features, its index)."""

        def agent(seat: int, *situation: Any) -> int:
            moves = situation[1]
            if len(moves) == 1:
                return 0
            rows = action_features(*situation)
            index = int(self.rng.choice(len(moves), p=softmax(self.net.scores(rows))))
            self.records.setdefault(seat, []).append((rows, index))
            return index

        return agent


def _grad(net: Net, rows: Array, index: int, weight: float, g: list[Array]) -> None:
    """Add `weight` x the gradient of log softmax(scores)[index] to `g` (w1, b1, w2)."""
    layers = net.hidden(rows)
    # Not `bigtwo_pg.policy_gradient`'s rounding (-p x weight + weight): this order of
    # operations is the one the shipped weights were trained with, kept to reproduce them.
    d = -softmax(layers[-1] @ net.out)
    d[index] += 1.0
    d *= weight
    net.backprop(rows, layers, d, g)


@dataclass
class TrainReport:
    """What a run did: deals played, seconds, and the argmax net's edge against greedy at
    each check (the other seats' penalty per deal minus its own, one net vs three greedy)."""

    deals: int
    seconds: float
    checks: list[tuple[int, float]]


def seat_edge(penalties: list[int], seat: int) -> float:
    """How much better `seat` did than the others: their average penalty minus its own."""
    return (sum(penalties) - penalties[seat]) / 3 - penalties[seat]


def edge_against(agent: Agent, opponent: Agent, deals: int, seed: int) -> float:
    """`agent`'s average edge in each seat in turn against three `opponent`."""
    rng = random.Random(seed)
    total = 0.0
    for i in range(deals):
        seat = i % 4
        agents = [opponent] * 4
        agents[seat] = agent
        total += seat_edge(play_deal(rng, agents), seat)
    return total / deals


class Checks:
    """A training run's checks: every `every` deals and after the last, the argmax net's
    edge against greedy over `check_deals` deals, logged; then the run's report."""

    def __init__(
        self, seed: int, deals: int, every: int, check_deals: int, log: Callable[[str], None]
    ) -> None:
        """For a run of `deals` deals from `seed`."""
        self.seed, self.deals, self.every, self.check_deals = seed, deals, every, check_deals
        self.log = log
        self.checks: list[tuple[int, float]] = []
        self.started = time.perf_counter()

    def after(self, played: int, net: TanhScorer) -> None:
        """Check `net` if deal `played` is due one."""
        if played % self.every == 0 or played == self.deals:
            agent = argmax_agent(net)
            edge = edge_against(agent, greedy_agent, self.check_deals, self.seed + played)
            self.checks.append((played, edge))
            seconds = time.perf_counter() - self.started
            self.log(f"{played} deals, {seconds:.0f} s: edge vs greedy {edge:+.2f}")

    def report(self) -> TrainReport:
        """The run's report."""
        return TrainReport(self.deals, time.perf_counter() - self.started, self.checks)


def train(
    seed: int,
    deals: int,
    hidden: int = 24,
    batch: int = 32,
    lr: float = 0.01,
    snapshot_every: int = 50,
    check_every: int = 5000,
    log: Callable[[str], None] = print,
) -> tuple[Net, TrainReport]:
    """Train a fresh network for `deals` deals from `seed`; return it and a report."""
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    net = Net.fresh(hidden, nrng)
    learner = Sampler(net, nrng)
    frozen: list[Net] = [net.copy()]
    baseline = 0.0
    opt = Adam(net.params, lr)
    grads = [np.zeros_like(w) for w in net.params]
    checks = Checks(seed, deals, check_every, 400, log)
    for played in range(1, deals + 1):
        learner.records = {}
        lineup = rng.random()
        agents: list[Agent] = [learner.agent()] * 4
        if lineup >= 0.4:
            for s in range(4):
                if s != played % 4 and rng.random() < 0.75:
                    if lineup < 0.7:
                        agents[s] = argmax_agent(rng.choice(frozen))
                    else:
                        agents[s] = greedy_agent
        pens = play_deal(rng, agents)
        for seat, decisions in learner.records.items():
            reward = seat_edge(pens, seat) / 10
            advantage = reward - baseline
            baseline += 0.01 * (reward - baseline)
            for rows, index in decisions:
                _grad(net, rows, index, advantage, grads)
        if played % batch == 0:
            for g in grads:
                g /= batch
            opt.step(grads)  # ascent: maximise the reward
            if opt.t % snapshot_every == 0:
                frozen.append(net.copy())
                frozen = frozen[-8:]
        checks.after(played, net)
    return net, checks.report()
