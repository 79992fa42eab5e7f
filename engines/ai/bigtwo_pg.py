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

from engines.ai.bigtwo_net import FEATURES, NetPolicy
from engines.ai.small_net import Array, TanhScorer, softmax

PG_WEIGHTS_PATH: Final = Path(__file__).with_name("bigtwo_pg_v1.npz")
"""The shipped weights of `pg`."""

CONTEXT: Final = 9
"""The first columns of every feature row describe the situation, not the action (the
critic's input)."""


class PolicyNet(TanhScorer):
    """Two tanh hidden layers giving a score per legal action, and a linear critic."""

    NAMES = ("w1", "b1", "w2", "b2", "w3", "critic")

    def __init__(
        self, w1: Array, b1: Array, w2: Array, b2: Array, w3: Array, critic: Array
    ) -> None:
        """`w1` FEATURES x h1, `w2` h1 x h2, `w3` h2; `critic` CONTEXT + 1 (a bias last)."""
        super().__init__(w1, b1, w2, b2, w3)
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

    @classmethod
    def load(cls, path: Path = PG_WEIGHTS_PATH) -> PolicyNet:
        """The weights saved by `save`."""
        return cls.read(path)

    def saved(self) -> list[Array]:
        """The policy's weights and the critic."""
        return [*self.params, self.critic]

    def value(self, rows: Array) -> float:
        """The critic's estimate of the reward from this situation (its context columns)."""
        return float(rows[0, :CONTEXT] @ self.critic[:CONTEXT] + self.critic[CONTEXT])


def policy_gradient(
    net: PolicyNet, rows: Array, index: int, advantage: float, entropy: float, grads: list[Array]
) -> None:
    """Add to `grads` (shaped as `net.params`) the gradient of
    advantage x log p(index) + entropy x H(p), p the softmax of the scores of `rows`."""
    layers = net.hidden(rows)
    p = softmax(layers[-1] @ net.out)
    d = -p * advantage
    d[index] += advantage
    if entropy:
        logp = np.log(p + 1e-12)
        # dH/ds_i = -p_i (log p_i + H): the entropy's gradient through the softmax.
        d -= entropy * p * (logp - float(p @ logp))
    net.backprop(rows, layers, d, grads)


_SHIPPED: PolicyNet | None = PolicyNet.load() if PG_WEIGHTS_PATH.exists() else None


def shipped_pg() -> PolicyNet:
    """The shipped weights (loaded at import)."""
    if _SHIPPED is None:
        raise FileNotFoundError(f"no weights at {PG_WEIGHTS_PATH}; run `deucebot train bigtwo-pg`")
    return _SHIPPED


class PgPolicy(NetPolicy):
    """Plays the legal action the policy network scores highest, from the view only."""

    name = "pg"

    def __init__(self, rng: random.Random, net: PolicyNet | None = None) -> None:
        """`net`: the shipped weights unless given. Decisions are deterministic."""
        super().__init__(rng, net if net is not None else shipped_pg())
