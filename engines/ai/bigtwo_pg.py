"""The `pg` Big Two player: a policy trained by policy gradient, a sparring partner.

It does not think like `hard` (no search, no reads of the other seats) nor quite like
`net`: two hidden layers instead of one, trained from scratch by REINFORCE against a
learned baseline (a critic that values the situation, not a running average) with an
entropy bonus, against a mixed pool (itself, its frozen earlier versions, `net` and
`greedy`); see `engines.ai.bigtwo_pg_train`. It reads the same per-action features as
`net` (`engines.ai.bigtwo_net.action_features`) and is masked to the legal moves: it only
ever scores the moves it may play. Weights: `bigtwo_pg_v1.npz` beside this module, loaded
at import.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Final

import numpy as np

from engines.ai.bigtwo_net import FEATURES, Array, action_features
from engines.bigtwo import PASS, Action, BigTwoView, Play, play_of_mask
from engines.bigtwo_combos import ALL_CARDS, mask_of_cards

PG_WEIGHTS_PATH: Final = Path(__file__).with_name("bigtwo_pg_v1.npz")
"""The shipped weights of `pg`."""

CONTEXT: Final = 9
"""The first columns of every feature row describe the situation, not the action (the
critic's input)."""


class PolicyNet:
    """Two tanh hidden layers giving a score per legal action, and a linear critic."""

    def __init__(
        self, w1: Array, b1: Array, w2: Array, b2: Array, w3: Array, critic: Array
    ) -> None:
        """`w1` FEATURES x h1, `w2` h1 x h2, `w3` h2; `critic` CONTEXT + 1 (a bias last)."""
        self.w1, self.b1, self.w2, self.b2, self.w3 = w1, b1, w2, b2, w3
        self.critic = critic

    @classmethod
    def fresh(cls, rng: np.random.Generator, h1: int = 32, h2: int = 16) -> PolicyNet:
        """Small random weights, a zero critic."""
        return cls(
            rng.normal(0, 1 / np.sqrt(FEATURES), (FEATURES, h1)),
            np.zeros(h1),
            rng.normal(0, 1 / np.sqrt(h1), (h1, h2)),
            np.zeros(h2),
            rng.normal(0, 0.1, h2),
            np.zeros(CONTEXT + 1),
        )

    @property
    def params(self) -> list[Array]:
        """The policy's weights, in a fixed order (the critic apart)."""
        return [self.w1, self.b1, self.w2, self.b2, self.w3]

    @classmethod
    def load(cls, path: Path = PG_WEIGHTS_PATH) -> PolicyNet:
        """The weights saved by `save`."""
        with np.load(path) as data:
            return cls(*(data[k] for k in ("w1", "b1", "w2", "b2", "w3", "critic")))

    def save(self, path: Path) -> None:
        """Write the weights to `path` (.npz)."""
        np.savez(
            path, w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2, w3=self.w3, critic=self.critic
        )

    def copy(self) -> PolicyNet:
        """An independent copy (a frozen opponent)."""
        return PolicyNet(*(w.copy() for w in (*self.params, self.critic)))

    def forward(self, rows: Array) -> tuple[Array, Array, Array]:
        """(first hidden layer, second hidden layer, scores) for `rows`."""
        h1 = np.tanh(rows @ self.w1 + self.b1)
        h2 = np.tanh(h1 @ self.w2 + self.b2)
        return h1, h2, h2 @ self.w3

    def scores(self, rows: Array) -> Array:
        """A score per row (per legal action)."""
        return self.forward(rows)[2]

    def value(self, rows: Array) -> float:
        """The critic's estimate of the reward from this situation (its context columns)."""
        return float(rows[0, :CONTEXT] @ self.critic[:CONTEXT] + self.critic[CONTEXT])


def softmax(scores: Array) -> Array:
    """Probabilities from scores."""
    p: Array = np.exp(scores - scores.max())
    p /= p.sum()
    return p


def policy_gradient(
    net: PolicyNet, rows: Array, index: int, advantage: float, entropy: float, grads: list[Array]
) -> None:
    """Add to `grads` (shaped as `net.params`) the gradient of
    advantage x log p(index) + entropy x H(p), p the softmax of the scores of `rows`."""
    h1, h2, s = net.forward(rows)
    p = softmax(s)
    d = -p * advantage
    d[index] += advantage
    if entropy:
        logp = np.log(p + 1e-12)
        # dH/ds_i = -p_i (log p_i + H): the entropy's gradient through the softmax.
        d -= entropy * p * (logp - float(p @ logp))
    grads[4] += h2.T @ d
    d2 = np.outer(d, net.w3) * (1 - h2 * h2)
    grads[3] += d2.sum(axis=0)
    grads[2] += h1.T @ d2
    d1 = (d2 @ net.w2.T) * (1 - h1 * h1)
    grads[1] += d1.sum(axis=0)
    grads[0] += rows.T @ d1


class Adam:
    """Adam steps that increase an objective (gradient ascent)."""

    def __init__(self, params: list[Array], lr: float) -> None:
        """Moments for each of `params`, updated in place by `step`."""
        self.params = params
        self.lr = lr
        self.m = [np.zeros_like(w) for w in params]
        self.v = [np.zeros_like(w) for w in params]
        self.t = 0

    def step(self, grads: list[Array]) -> None:
        """Move every parameter along its gradient; `grads` are zeroed."""
        self.t += 1
        for w, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            w += self.lr * (m / (1 - 0.9**self.t)) / (np.sqrt(v / (1 - 0.999**self.t)) + 1e-8)
            g[...] = 0


_SHIPPED: PolicyNet | None = PolicyNet.load() if PG_WEIGHTS_PATH.exists() else None


def shipped_pg() -> PolicyNet:
    """The shipped weights (loaded at import)."""
    if _SHIPPED is None:
        raise FileNotFoundError(f"no weights at {PG_WEIGHTS_PATH}; run `deucebot train bigtwo-pg`")
    return _SHIPPED


class PgPolicy:
    """Plays the legal action the policy network scores highest, from the view only."""

    name = "pg"

    def __init__(self, rng: random.Random, net: PolicyNet | None = None) -> None:
        """`net`: the shipped weights unless given. Decisions are deterministic."""
        self.rng = rng
        self.net = net if net is not None else shipped_pg()

    def decide(self, view: BigTwoView) -> Action:
        """The best-scored legal action of the seat of `view`."""
        seat = view.seat
        assert seat is not None
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        moves = [mask_of_cards(a.cards) if isinstance(a, Play) else 0 for a in legal]
        hand = view.hand_mask
        unseen = ALL_CARDS & ~hand & ~mask_of_cards(view.played)
        c = view.cards_left
        counts = (c[seat], c[(seat + 1) % 4], c[(seat + 2) % 4], c[(seat + 3) % 4])
        rows = action_features(hand, moves, view.table, counts, unseen)
        move = moves[int(np.argmax(self.net.scores(rows)))]
        return play_of_mask(move) if move else PASS
