"""Policy-gradient training of the `pg` Big Two player (`deucebot train bigtwo-pg`).

REINFORCE with a learned baseline: every learner seat samples its actions from the
softmax of the policy's scores over its legal moves; at the end of the deal each decision
is pushed towards its action by its advantage, the seat's reward (its edge: the other
seats' average penalty minus its own, over 10) minus what the critic expected from that
situation; the critic (linear in the situation's columns) is fitted to the rewards by
least squares, and an entropy bonus keeps the policy from settling too early. Opponents,
deal by deal: copies of the learner (self-play), its frozen earlier versions (one kept
every `snapshot_every` updates), the shipped `net` and `greedy`. Nothing is distilled from
a search. Deals are played on bitmasks (`engines.ai.bigtwo_train.play_deal`).

A tool, not part of the tests. Everything random comes from `seed`: a run reproduces its
weights exactly (on the same numpy version).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engines.ai.bigtwo_net import Array, action_features, shipped_net
from engines.ai.bigtwo_pg import CONTEXT, Adam, PolicyNet, policy_gradient, softmax
from engines.ai.bigtwo_train import Agent, argmax_agent, greedy_agent, play_deal


def pg_agent(net: PolicyNet) -> Agent:
    """`net` playing its best-scored move (as `PgPolicy` does)."""

    def agent(seat: int, *situation: Any) -> int:
        if len(situation[1]) == 1:
            return 0
        return int(np.argmax(net.scores(action_features(*situation))))

    return agent


@dataclass
class _Sampler:
    """Samples from the softmax of `net` and records each decision of each seat."""

    net: PolicyNet
    rng: np.random.Generator
    records: dict[int, list[tuple[Array, int]]] = field(default_factory=dict)

    def agent(self) -> Agent:
        def agent(seat: int, *situation: Any) -> int:
            moves = situation[1]
            if len(moves) == 1:
                return 0
            rows = action_features(*situation)
            index = int(self.rng.choice(len(moves), p=softmax(self.net.scores(rows))))
            self.records.setdefault(seat, []).append((rows, index))
            return index

        return agent


@dataclass
class PgReport:
    """What a run did: deals, seconds, and the greedy check (argmax policy, one seat in
    turn against three `greedy`: the others' penalty per deal minus its own) at each check."""

    deals: int
    seconds: float
    checks: list[tuple[int, float]]


def edge_against(agent: Agent, opponent: Agent, deals: int, seed: int) -> float:
    """`agent`'s average edge in each seat in turn against three `opponent`."""
    rng = random.Random(seed)
    total = 0.0
    for i in range(deals):
        seat = i % 4
        agents = [opponent] * 4
        agents[seat] = agent
        pens = play_deal(rng, agents)
        total += sum(pens[s] for s in range(4) if s != seat) / 3 - pens[seat]
    return total / deals


def train_pg(
    seed: int,
    deals: int,
    batch: int = 32,
    lr: float = 0.003,
    entropy: float = 0.01,
    snapshot_every: int = 40,
    check_every: int = 5000,
    check_deals: int = 400,
    log: Callable[[str], None] = print,
) -> tuple[PolicyNet, PgReport]:
    """Train a fresh policy for `deals` deals from `seed`; return it and a report."""
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    net = PolicyNet.fresh(nrng)
    sampler = _Sampler(net, nrng)
    opt = Adam(net.params, lr)
    grads = [np.zeros_like(w) for w in net.params]
    frozen = [net.copy()]
    shipped = argmax_agent(shipped_net())
    checks: list[tuple[int, float]] = []
    started = time.perf_counter()
    for played in range(1, deals + 1):
        sampler.records = {}
        agents: list[Agent] = [sampler.agent()] * 4
        learner = played % 4
        lineup = rng.random()
        for s in range(4):
            if s == learner or lineup < 0.25:
                continue  # a quarter of the deals are pure self-play
            pick = rng.random()
            if pick < 0.3:
                agents[s] = pg_agent(rng.choice(frozen))
            elif pick < 0.65:
                agents[s] = shipped
            elif pick < 0.9:
                agents[s] = greedy_agent
        pens = play_deal(rng, agents)
        for seat, decisions in sampler.records.items():
            reward = ((sum(pens) - pens[seat]) / 3 - pens[seat]) / 10
            for rows, index in decisions:
                advantage = reward - net.value(rows)
                policy_gradient(net, rows, index, advantage / batch, entropy / batch, grads)
                # The critic follows the rewards: one least-squares step.
                net.critic[:CONTEXT] += 0.01 * advantage * rows[0, :CONTEXT]
                net.critic[CONTEXT] += 0.01 * advantage
        if played % batch == 0:
            opt.step(grads)
            if opt.t % snapshot_every == 0:
                frozen = [*frozen, net.copy()][-8:]
        if played % check_every == 0 or played == deals:
            edge = edge_against(pg_agent(net), greedy_agent, check_deals, seed + played)
            checks.append((played, edge))
            log(
                f"{played} deals, {time.perf_counter() - started:.0f} s: edge vs greedy {edge:+.2f}"
            )
    return net, PgReport(deals, time.perf_counter() - started, checks)
