"""Vectorised CFR+ over a public betting tree where each player holds one private rank.

The game this module solves: each player has a private rank (0 to R-1); a public tree of
betting actions follows; a leaf is a fold (the folder loses what it put in) or a showdown
(the result matrix `win` decides, the stake is what each put in). `weight[r0, r1]` is
the joint chance weight of the two ranks (all ones when each player's own distribution is
already in its reach, as in the duel; 1 - identity for Kuhn poker's deal without
replacement). Every array carries a leading batch axis B, so many public situations
(the duel's signal pairs) are solved in the same NumPy operations.

CFR+ (Tammelin 2014): regret matching on clipped cumulative regrets, alternating updates,
the average strategy weighted linearly by iteration. `BettingSolver.iterate` does one
player's pass from given reaches into the root; callers that add a layer above the tree
(the duel's lock) feed their own reaches and read the root's values back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.float64]

FOLD, CHECK, CALL, BET, RAISE = "fold", "check", "call", "bet", "raise"


@dataclass(frozen=True, slots=True)
class Node:
    """One node of a public betting tree.

    A decision node has `player` 0 or 1, `actions` (verb, total after the action) and the
    `children` indices; a leaf has `player` -1 and either `folder` (0 or 1) or a showdown
    (`folder` None). `put` is what each player has put in at this node (ante included),
    so a leaf's stakes are read from it.
    """

    player: int
    put: tuple[int, int]
    actions: tuple[tuple[str, int], ...] = ()
    children: tuple[int, ...] = ()
    folder: int | None = None

    @property
    def leaf(self) -> bool:
        """True for a fold or a showdown."""
        return self.player < 0


def utilities(node: Node, win: Array, weight: Array, player: int) -> Array:
    """A leaf's payoff for `player` as a matrix [own rank, other rank], in chips, times the
    joint chance weight. `win` is +1/0/-1 for player 0's rank against player 1's."""
    if node.folder is not None:
        lost = float(node.put[node.folder])
        mine = np.full_like(win, -lost if node.folder == player else lost)
    else:
        mine = (win if player == 0 else -win.T) * float(min(node.put))
    result: Array = mine * (weight if player == 0 else weight.T)
    return result


class BettingSolver:
    """CFR+ on one public betting tree, for a batch of B situations and R ranks per player.

    `nodes[0]` is the root. `win[r0, r1]` is +1, 0 or -1 for player 0; `weight[r0, r1]`
    the joint chance weight (see the module docstring).
    """

    def __init__(self, nodes: Sequence[Node], win: Array, weight: Array, batch: int) -> None:
        """Zero regrets and averages for every decision node."""
        self.nodes = tuple(nodes)
        ranks = win.shape[0]
        self.batch = batch
        self.ranks = ranks
        self.payoff = [
            [utilities(n, win, weight, p) if n.leaf else None for n in self.nodes] for p in (0, 1)
        ]
        self.regret: dict[int, Array] = {}
        self.average: dict[int, Array] = {}
        for index, node in enumerate(self.nodes):
            if not node.leaf:
                shape = (batch, ranks, len(node.actions))
                self.regret[index] = np.zeros(shape)
                self.average[index] = np.zeros(shape)

    # --- strategies ------------------------------------------------------

    def current(self, index: int) -> Array:
        """Regret matching at a decision node: [B, R, A], uniform where no regret is positive."""
        return matched(self.regret[index])

    def average_strategy(self, index: int) -> Array:
        """The average strategy at a decision node: [B, R, A] (uniform where never reached)."""
        return normalised(self.average[index])

    # --- CFR+ ------------------------------------------------------------

    def iterate(self, reach: tuple[Array, Array], player: int, weight: float) -> Array:
        """One CFR+ pass for `player` from the root; `reach[p]` is [B, R], each player's
        own probability of holding each rank (and reaching the root). Updates `player`'s
        regrets and (weighted by `weight`) average strategy; returns its counterfactual
        values at the root, [B, R]."""
        return self._walk(0, player, reach[player], reach[1 - player], weight)

    def _walk(self, index: int, player: int, mine: Array, other: Array, weight: float) -> Array:
        node = self.nodes[index]
        if node.leaf:
            payoff = self.payoff[player][index]
            assert payoff is not None
            return other @ payoff.T
        strategy = self.current(index)
        if node.player == player:
            values = np.stack(
                [
                    self._walk(child, player, mine * strategy[..., a], other, weight)
                    for a, child in enumerate(node.children)
                ],
                axis=-1,
            )
            value: Array = (values * strategy).sum(-1)
            regret = self.regret[index] + values - value[..., None]
            np.maximum(regret, 0.0, out=regret)
            self.regret[index] = regret
            self.average[index] += weight * mine[..., None] * strategy
            return value
        value = np.zeros((self.batch, self.ranks))
        for a, child in enumerate(node.children):
            value += self._walk(child, player, mine, other * strategy[..., a], weight)
        return value

    # --- evaluation ------------------------------------------------------

    def values(
        self, reach: tuple[Array, Array], player: int, best: bool, strategies: StrategyFn
    ) -> Array:
        """`player`'s values at the root per rank, [B, R], against the other's strategy
        `strategies(index)`: a best response (`best`) or `player` playing it too."""
        return self._evaluate(0, player, reach[1 - player], best, strategies)

    def _evaluate(
        self, index: int, player: int, other: Array, best: bool, strategies: StrategyFn
    ) -> Array:
        node = self.nodes[index]
        if node.leaf:
            payoff = self.payoff[player][index]
            assert payoff is not None
            return other @ payoff.T
        strategy = strategies(index)
        if node.player == player:
            values = np.stack(
                [self._evaluate(c, player, other, best, strategies) for c in node.children],
                axis=-1,
            )
            result: Array = values.max(-1) if best else (values * strategy).sum(-1)
            return result
        value = np.zeros((self.batch, self.ranks))
        for a, child in enumerate(node.children):
            value += self._evaluate(child, player, other * strategy[..., a], best, strategies)
        return value


class StrategyFn:
    """A node index -> [B, R, A] strategy lookup (the solver's average, or a table)."""

    def __init__(self, table: dict[int, Array]) -> None:
        """Strategies by decision-node index."""
        self.table = table

    def __call__(self, index: int) -> Array:
        """The strategy at decision node `index`."""
        return self.table[index]


def matched(regret: Array) -> Array:
    """Regret matching over the last axis: positive regrets normalised, else uniform."""
    positive = np.maximum(regret, 0.0)
    return normalised(positive)


def normalised(weights: Array) -> Array:
    """Rows of the last axis scaled to sum to 1; all-zero rows become uniform."""
    total = weights.sum(-1, keepdims=True)
    uniform = np.full_like(weights, 1.0 / weights.shape[-1])
    safe = np.where(total > 0, total, 1.0)
    result: Array = np.where(total > 0, weights / safe, uniform)
    return result
