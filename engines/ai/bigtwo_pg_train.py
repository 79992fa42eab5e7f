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
from collections.abc import Callable

import numpy as np

from engines.ai.bigtwo_net import shipped_net
from engines.ai.bigtwo_pg import CONTEXT, PolicyNet, policy_gradient
from engines.ai.bigtwo_train import (
    Agent,
    Checks,
    Sampler,
    TrainReport,
    argmax_agent,
    greedy_agent,
    play_deal,
    seat_edge,
)
from engines.ai.small_net import Adam


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
) -> tuple[PolicyNet, TrainReport]:
    """Train a fresh policy for `deals` deals from `seed`; return it and a report."""
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    net = PolicyNet.fresh(nrng)
    sampler = Sampler(net, nrng)
    opt = Adam(net.params, lr)
    grads = [np.zeros_like(w) for w in net.params]
    frozen = [net.copy()]
    shipped = argmax_agent(shipped_net())
    checks = Checks(seed, deals, check_every, check_deals, log)
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
                agents[s] = argmax_agent(rng.choice(frozen))
            elif pick < 0.65:
                agents[s] = shipped
            elif pick < 0.9:
                agents[s] = greedy_agent
        pens = play_deal(rng, agents)
        for seat, decisions in sampler.records.items():
            reward = seat_edge(pens, seat) / 10
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
        checks.after(played, net)
    return net, checks.report()
