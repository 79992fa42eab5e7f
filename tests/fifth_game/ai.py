"""High Card's AI players, deciding from views only."""

from __future__ import annotations

import random

from engines.cards import Rank
from tests.fifth_game.engine import Action, Fold, HighCardView, Stay


class RandomPlayer:
    """Stays or folds at random."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        """A player with its own RNG."""
        self.rng = rng

    def decide(self, view: HighCardView) -> Action:
        """A random legal move."""
        return self.rng.choice(view.legal)


class StrongPlayer:
    """Stays with a ten or better (a queen or better against three), else folds."""

    name = "strong"

    def __init__(self, rng: random.Random) -> None:
        """A player (its RNG is unused: it decides from the card alone)."""
        self.rng = rng

    def decide(self, view: HighCardView) -> Action:
        """Stay with a high enough card."""
        others = sum(view.dealt) - 1
        least = Rank.TEN if others < 3 else Rank.QUEEN
        return Stay() if view.hand and view.hand[0].rank >= least else Fold()


POLICIES = {"random": RandomPlayer, "strong": StrongPlayer}
"""High Card's policies by name."""
