"""The `hard` Big Two player: the trained network's instinct, checked by `strong`'s search.

The network (`engines.ai.bigtwo_net`) proposes: its `top` best-scored moves, plus the
rule-based player's favourite, are the only candidates. `strong`'s search (sampled deals of
the unseen cards that respect what each seat's plays and passes say, play-outs to the end
of the deal) then plays the network's first choice unless another candidate does better by
more than `margin` penalty points per sampled deal. Fixed sample counts, no time cut-off:
its choices never depend on the machine's speed. From the seat's view only.
"""

from __future__ import annotations

import random

import numpy as np

from engines.ai.bigtwo_net import Net, action_features, shipped_net
from engines.ai.bigtwo_strong import _MIN_SAMPLES, StrongPolicy
from engines.bigtwo import BigTwoView, Play
from engines.bigtwo_combos import ALL_CARDS, mask_of_cards


class HardPolicy(StrongPolicy):
    """Network proposals, search decisions (see the module docstring)."""

    name = "hard"

    def __init__(
        self,
        rng: random.Random,
        net: Net | None = None,
        top: int = 3,
        margin: float = 0.5,
        rollouts: int = 480,
    ) -> None:
        """`net`: the shipped weights unless given."""
        super().__init__(rng, rollouts=rollouts, budget_ms=None)
        self.net = net if net is not None else shipped_net()
        self.top = top
        self.margin = margin

    def _candidates(self, view: BigTwoView, hand: int) -> list[int]:
        seat = view.seat
        assert seat is not None
        moves = [mask_of_cards(a.cards) if isinstance(a, Play) else 0 for a in view.legal]
        unseen = ALL_CARDS & ~hand & ~mask_of_cards(view.played)
        c = view.cards_left
        counts = (c[seat], c[(seat + 1) % 4], c[(seat + 2) % 4], c[(seat + 3) % 4])
        scores = self.net.scores(action_features(hand, moves, view.table, counts, unseen))
        order = np.argsort(-scores, kind="stable")
        out = [moves[int(i)] for i in order[: self.top]]
        favourite = self.fallback.decide(view)
        first = mask_of_cards(favourite.cards) if isinstance(favourite, Play) else 0
        if first not in out:
            out.append(first)
        return out

    def _pick(self, candidates: list[int], totals: list[float]) -> int:
        samples = max(_MIN_SAMPLES, self.rollouts // len(candidates))
        best = min(range(len(candidates)), key=lambda i: (totals[i], i))
        return best if totals[0] - totals[best] > self.margin * samples else 0
