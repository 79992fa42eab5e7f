"""Big Two's `pg` sparring partner (a policy trained by policy gradient) and the frozen
levels: the shipped weights load, it plays legal moves from the seat's view only and beats
random and greedy on fixed seeds; the policy-gradient update solves a bandit whose answer
is known; training reproduces from its seed."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from engines.ai.bigtwo import POLICIES, RandomPolicy
from engines.ai.bigtwo_pg import (
    CONTEXT,
    PG_WEIGHTS_PATH,
    PgPolicy,
    PolicyNet,
    policy_gradient,
    shipped_pg,
)
from engines.ai.bigtwo_pg_train import train_pg
from engines.ai.small_net import Adam, softmax
from engines.base import DealSettled
from engines.bigtwo import BigTwoConfig, BigTwoState
from engines.cards import parse_cards
from engines.play import play_out
from tests.engines.test_ai_bigtwo_levels import penalties_against_greedy


def test_the_shipped_pg_weights_are_small_and_loaded_at_import() -> None:
    assert PG_WEIGHTS_PATH.name == "bigtwo_pg_v1.npz"
    assert PG_WEIGHTS_PATH.stat().st_size < 100_000
    net = shipped_pg()
    assert [w.shape for w in net.params] == [(32, 32), (32,), (32, 16), (16,), (16,)]
    assert all(np.isfinite(w).all() for w in (*net.params, net.critic))
    assert PgPolicy(random.Random(0)).net is net
    assert POLICIES["pg"](random.Random(0)).name == "pg"


def test_the_frozen_levels_pin_todays_parameters() -> None:
    strong2 = POLICIES["strong2"](random.Random(0))
    hard3 = POLICIES["hard3"](random.Random(0))
    assert (strong2.name, strong2.rollouts, strong2.budget, strong2.win_bonus) == (
        "strong2",
        480,
        None,
        8.0,
    )
    assert not strong2.zero_sum and POLICIES["strong"](random.Random(0)).zero_sum
    strong3 = POLICIES["strong3"](random.Random(0))
    assert (strong3.name, strong3.rollouts, strong3.max_candidates, strong3.budget) == (
        "strong3",
        480,
        10,
        None,
    )
    assert strong3.zero_sum and not hasattr(strong3, "net")
    assert (hard3.name, hard3.rollouts, hard3.top, hard3.margin, hard3.zero_sum) == (
        "hard3",
        160,
        3,
        0.5,
        True,
    )
    assert hard3.net_play_outs and hard3.budget is None


def _hidden_cards_shuffled(state: BigTwoState, rng: random.Random) -> BigTwoState:
    """The same state from the seat to act, the other seats' cards dealt anew among them
    (each keeps its count)."""
    data = state.snapshot()
    me = state.to_act
    assert me is not None
    others = [s for s in range(4) if s != me]
    pool = [c for s in others for c in parse_cards(data["hands"][s])]
    rng.shuffle(pool)
    hands = list(data["hands"])
    at = 0
    for s in others:
        n = len(parse_cards(data["hands"][s]))
        hands[s] = " ".join(str(c) for c in pool[at : at + n])
        at += n
    data["hands"] = hands
    return BigTwoState.restore(data)


def test_pg_decides_from_the_seat_view_only_all_through_deals() -> None:
    # At every decision of several deals, the same view with the hidden cards dealt
    # differently gets the same action, and the action is legal.
    rng = random.Random(12)
    policy = PgPolicy(random.Random(0))
    compared = 0
    for _ in range(6):
        state = BigTwoState(BigTwoConfig(deals=1), random.Random(rng.getrandbits(32)))
        while not state.finished:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            action = policy.decide(view)
            assert action in view.legal
            if len(view.legal) > 1:
                other = _hidden_cards_shuffled(state, rng)
                assert other.view(seat).hand == view.hand
                assert policy.decide(other.view(seat)) == action
                compared += 1
            state.apply(seat, action)
    assert compared > 50


def test_pg_beats_greedy_on_fixed_seeds() -> None:
    mine, greedy = penalties_against_greedy(PgPolicy, 120, seed=23)
    assert mine < 0.9 * greedy, (mine, greedy)


def test_pg_beats_random_on_fixed_seeds() -> None:
    rng = random.Random(41)
    mine = theirs = 0.0
    for deal in range(60):
        seat = deal % 4
        players: list[object] = [RandomPolicy(random.Random(deal * 4 + s)) for s in range(4)]
        players[seat] = PgPolicy(random.Random(0))
        state = BigTwoState(BigTwoConfig(deals=1), random.Random(rng.getrandbits(32)))
        for event in play_out(state, players).events:  # type: ignore[arg-type]
            if isinstance(event, DealSettled) and event.penalties is not None:
                mine += event.penalties[seat]
                theirs += (sum(event.penalties) - event.penalties[seat]) / 3
    assert mine < 0.5 * theirs, (mine, theirs)


def _bandit_rows() -> np.ndarray:
    rows = np.random.default_rng(3).normal(0, 1, (3, 32))
    rows[:, :CONTEXT] = rows[0, :CONTEXT]  # one situation, three actions
    return rows


def test_the_policy_gradient_matches_finite_differences() -> None:
    net = PolicyNet.fresh(np.random.default_rng(1), h1=5, h2=4)
    rows = _bandit_rows()
    advantage, entropy = 0.7, 0.3

    def objective() -> float:
        p = softmax(net.scores(rows))
        return float(advantage * np.log(p[2]) - entropy * (p @ np.log(p)))

    grads = [np.zeros_like(w) for w in net.params]
    policy_gradient(net, rows, 2, advantage, entropy, grads)
    for w, g in zip(net.params, grads, strict=True):
        flat, gflat = w.reshape(-1), g.reshape(-1)
        for k in range(0, flat.size, max(1, flat.size // 7)):
            old = flat[k]
            flat[k] = old + 1e-6
            up = objective()
            flat[k] = old - 1e-6
            down = objective()
            flat[k] = old
            assert gflat[k] == pytest.approx((up - down) / 2e-6, rel=1e-4, abs=1e-7)


def test_reinforce_with_a_baseline_solves_a_bandit() -> None:
    # Three actions paying 0.0, 1.0 and 0.2 (plus noise) in one situation: sampling and
    # updating as training does, the policy ends up on the middle one and the critic
    # near its payoff.
    payoff = [0.0, 1.0, 0.2]
    rng = np.random.default_rng(7)
    net = PolicyNet.fresh(np.random.default_rng(2), h1=8, h2=4)
    rows = _bandit_rows()
    opt = Adam(net.params, lr=0.02)
    grads = [np.zeros_like(w) for w in net.params]
    start = softmax(net.scores(rows))[1]
    for _ in range(400):
        for _ in range(8):
            index = int(rng.choice(3, p=softmax(net.scores(rows))))
            reward = payoff[index] + rng.normal(0, 0.3)
            advantage = reward - net.value(rows)
            policy_gradient(net, rows, index, advantage / 8, 0.0, grads)
            net.critic[:CONTEXT] += 0.01 * advantage * rows[0, :CONTEXT]
            net.critic[CONTEXT] += 0.01 * advantage
        opt.step(grads)
    p = softmax(net.scores(rows))
    assert start < 0.6 and p[1] > 0.95, (start, p)
    assert net.value(rows) == pytest.approx(1.0, abs=0.25)


def test_pg_training_reproduces_its_weights_from_the_seed() -> None:
    def run(seed: int) -> PolicyNet:
        net, report = train_pg(seed, 48, batch=16, check_deals=8, log=lambda _: None)
        assert report.deals == 48 and len(report.checks) == 1
        return net

    first, again, other = run(5), run(5), run(6)
    assert all(np.array_equal(a, b) for a, b in zip(first.params, again.params, strict=True))
    assert np.array_equal(first.critic, again.critic)
    assert not np.array_equal(first.params[0], other.params[0])
    assert not np.array_equal(first.params[0], PolicyNet.fresh(np.random.default_rng(5)).params[0])


def test_the_train_command_writes_the_weights_the_seed_gives(tmp_path: Path) -> None:
    from bot.cli import main

    out = tmp_path / "pg.npz"
    assert main(["train", "bigtwo-pg", "--seed", "3", "--deals", "16", "--out", str(out)]) == 0
    written = PolicyNet.load(out)
    expected, _ = train_pg(3, 16, log=lambda _: None)
    assert all(np.array_equal(a, b) for a, b in zip(written.params, expected.params, strict=True))
    assert np.array_equal(written.critic, expected.critic)
