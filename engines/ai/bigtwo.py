"""Big Two AI players. Each decides from a `BigTwoView` only, never from the engine state.

- `random`: uniform over the legal plays and pass;
- `greedy`: plays the lowest combination that beats the table and never passes
  when it can play; when leading, plays its lowest card in the largest
  combination that contains it (five cards, then triple, pair, single);
- `strong`: see `engines.ai.bigtwo_strong`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from engines.ai.bigtwo_fast import greedy_move
from engines.bigtwo import PASS, Action, BigTwoView, Pass, play_of_mask


class RandomPolicy:
    """Uniform over every legal action (each play and, when allowed, pass)."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        """Use `rng` for every choice."""
        self.rng = rng

    def decide(self, view: BigTwoView) -> Action:
        """A uniformly random legal action."""
        return self.rng.choice(view.legal)


class GreedyPolicy:
    """The lowest play that beats the table; leads its lowest card in its largest combination."""

    name = "greedy"

    def __init__(self, rng: random.Random) -> None:
        """Greedy play is deterministic; `rng` is kept for the common signature."""
        self.rng = rng

    def decide(self, view: BigTwoView) -> Action:
        """The greedy choice, computed from the hand and the table of `view`."""
        move = greedy_move(view.hand_mask, view.table)
        return play_of_mask(move) if move else PASS


def _strong(rng: random.Random) -> Any:
    from engines.ai.bigtwo_strong import StrongPolicy

    return StrongPolicy(rng)


def _heuristic(rng: random.Random) -> Any:
    from engines.ai.bigtwo_strong import HeuristicPolicy

    return HeuristicPolicy(rng)


POLICIES: Mapping[str, Callable[[random.Random], Any]] = {
    "random": RandomPolicy,
    "greedy": GreedyPolicy,
    "strong": _strong,
    "heuristic": _heuristic,
}
"""Policy name -> factory taking the policy's own `random.Random`."""

__all__ = ["POLICIES", "GreedyPolicy", "Pass", "RandomPolicy"]
