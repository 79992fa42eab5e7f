"""Small numpy networks that score rows of features, and what trains them.

`TanhScorer`: tanh hidden layers, then a linear output giving one score per row (per
legal action); `backprop` adds a gradient of those scores to the weights' gradients.
`softmax` turns scores into the probabilities a learner samples from; `Adam` steps the
weights up their gradient. Big Two's `net` (one hidden layer) and `pg` (two) are both
built on them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar, Self

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.float64]


class TanhScorer:
    """Tanh hidden layers, then a linear output: a score per row of features.

    `params` is [w1, b1, ..., wk, bk, out]: each hidden layer's weights and bias, then the
    output weights (no bias). Training updates these arrays in place. A subclass names the
    arrays it saves (`NAMES`, in the order its constructor takes them)."""

    NAMES: ClassVar[tuple[str, ...]] = ()
    """The names `save` writes the arrays of `saved()` under."""

    def __init__(self, *params: Array) -> None:
        """`params` in the order above (an odd count, at least three)."""
        self.params = list(params)

    @property
    def out(self) -> Array:
        """The output weights (one per unit of the last hidden layer)."""
        return self.params[-1]

    def saved(self) -> list[Array]:
        """The arrays `save` writes and the constructor takes: `params`, unless a subclass
        keeps more."""
        return self.params

    @classmethod
    def read(cls, path: Path) -> Self:
        """The weights `save` wrote at `path`."""
        with np.load(path) as data:
            return cls(*(data[name] for name in cls.NAMES))

    def save(self, path: Path) -> None:
        """Write the weights to `path` (.npz)."""
        arrays: dict[str, Any] = dict(zip(self.NAMES, self.saved(), strict=True))
        np.savez(path, **arrays)

    def copy(self) -> Self:
        """An independent copy (a frozen opponent)."""
        return type(self)(*(w.copy() for w in self.saved()))

    def hidden(self, rows: Array) -> list[Array]:
        """Each hidden layer's activations for `rows`, the first layer first."""
        layers = []
        h = rows
        for k in range(0, len(self.params) - 1, 2):
            h = np.tanh(h @ self.params[k] + self.params[k + 1])
            layers.append(h)
        return layers

    def scores(self, rows: Array) -> Array:
        """A score per row."""
        return self.hidden(rows)[-1] @ self.out

    def backprop(self, rows: Array, layers: list[Array], d: Array, grads: list[Array]) -> None:
        """Add to `grads` (shaped as `params`) the gradient of `d` . scores(rows).

        `layers` is `hidden(rows)`; `d` holds one number per row."""
        grads[-1] += layers[-1].T @ d
        dh = np.outer(d, self.out) * (1 - layers[-1] * layers[-1])
        for k in range(len(layers) - 1, -1, -1):
            below = layers[k - 1] if k else rows
            grads[2 * k + 1] += dh.sum(axis=0)
            grads[2 * k] += below.T @ dh
            if k:
                dh = (dh @ self.params[2 * k].T) * (1 - below * below)


def softmax(scores: Array) -> Array:
    """Probabilities from scores."""
    p: Array = np.exp(scores - scores.max())
    p /= p.sum()
    return p


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
