"""The small networks Big Two's `net` and `pg` are built on (`engines.ai.small_net`): the
scores are tanh layers then a linear output, `backprop` is the true gradient of the scores
for any depth, and both players' weights survive a save and a load."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.ai.bigtwo_net import FEATURES, Net, shipped_net
from engines.ai.bigtwo_pg import PolicyNet, shipped_pg
from engines.ai.small_net import Adam, TanhScorer


def _scorer(widths: list[int], seed: int) -> TanhScorer:
    rng = np.random.default_rng(seed)
    params = []
    for below, above in itertools.pairwise(widths):
        params += [rng.normal(0, 0.5, (below, above)), rng.normal(0, 0.5, above)]
    return TanhScorer(*params, rng.normal(0, 0.5, widths[-1]))


def test_the_scores_are_tanh_layers_then_a_linear_output() -> None:
    net = _scorer([4, 3, 2], seed=1)
    rows = np.random.default_rng(2).normal(0, 1, (5, 4))
    w1, b1, w2, b2, out = net.params
    expected = np.tanh(np.tanh(rows @ w1 + b1) @ w2 + b2) @ out
    assert np.allclose(net.scores(rows), expected)
    assert [h.shape for h in net.hidden(rows)] == [(5, 3), (5, 2)]


@settings(max_examples=25, deadline=None)
@given(
    widths=st.lists(st.integers(1, 4), min_size=2, max_size=4),
    count=st.integers(1, 4),
    seed=st.integers(0, 2**16),
)
def test_backprop_is_the_gradient_of_the_scores_at_any_depth(
    widths: list[int], count: int, seed: int
) -> None:
    net = _scorer(widths, seed)
    rng = np.random.default_rng(seed + 1)
    rows = rng.normal(0, 1, (count, widths[0]))
    d = rng.normal(0, 1, count)
    grads = [np.zeros_like(w) for w in net.params]
    net.backprop(rows, net.hidden(rows), d, grads)
    for w, g in zip(net.params, grads, strict=True):
        flat, gflat = w.reshape(-1), g.reshape(-1)
        for k in range(flat.size):
            old = flat[k]
            flat[k] = old + 1e-6
            up = float(d @ net.scores(rows))
            flat[k] = old - 1e-6
            down = float(d @ net.scores(rows))
            flat[k] = old
            assert gflat[k] == pytest.approx((up - down) / 2e-6, rel=1e-4, abs=1e-6)


def test_adam_climbs_a_concave_objective_and_zeroes_the_gradients() -> None:
    # Maximise -(x - 3)^2 from x = 0: the gradient is -2 (x - 3).
    x = np.zeros(1)
    opt = Adam([x], lr=0.1)
    grads = [np.zeros(1)]
    for _ in range(300):
        grads[0] += -2 * (x - 3)
        opt.step(grads)
        assert grads[0][0] == 0
    assert x[0] == pytest.approx(3, abs=0.05)


def test_both_players_weights_survive_a_save_and_a_load(tmp_path: Path) -> None:
    rows = np.random.default_rng(4).normal(0, 1, (6, FEATURES))
    net, pg = shipped_net(), shipped_pg()
    net.save(tmp_path / "net.npz")
    pg.save(tmp_path / "pg.npz")
    net_again, pg_again = Net.load(tmp_path / "net.npz"), PolicyNet.load(tmp_path / "pg.npz")
    assert np.array_equal(net_again.scores(rows), net.scores(rows))
    assert np.array_equal(pg_again.scores(rows), pg.scores(rows))
    assert np.array_equal(pg_again.critic, pg.critic)
    # A copy shares no array with the original, and is of the same kind.
    copy = pg.copy()
    copy.params[0][0, 0] += 1.0
    copy.critic[0] += 1.0
    assert copy.params[0][0, 0] == pg.params[0][0, 0] + 1.0
    assert copy.critic[0] == pg.critic[0] + 1.0 and isinstance(copy, PolicyNet)
