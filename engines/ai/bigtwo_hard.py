"""The `hard` Big Two player: the trained network's instinct, checked by a search.

The network (`engines.ai.bigtwo_net`) proposes: its `top` best-scored moves, plus the
rule-based player's favourite, are the only candidates. `strong`'s search (sampled deals of
the unseen cards that respect what each seat's plays and passes say, each candidate played
out to the end of the deal) then plays the network's first choice unless another candidate
does better by more than `margin` points per sampled deal.

What a play-out is worth is what the table's score counts (`zero_sum`): this seat's
penalty minus the other three's average, so a play that leaves two opponents with ten
cards each is worth something even when this seat does not go out, and a won deal is worth
what the others pay rather than a fixed bonus. Fixed sample counts, no time cut-off: its
choices never depend on the machine's speed. From the seat's view only.

`hard1` is the first `hard` (its own penalty, a won deal counting as a bonus of
`win_bonus`, as `strong` values a play-out), frozen as a sparring partner.
"""

from __future__ import annotations

import random

import numpy as np

from engines.ai.bigtwo_net import Net, action_features, shipped_net
from engines.ai.bigtwo_strong import StrongPolicy
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
        zero_sum: bool = True,
    ) -> None:
        """`net`: the shipped weights unless given. `zero_sum` False gives `hard1`."""
        super().__init__(rng, rollouts=rollouts, budget_ms=None)
        self.net = net if net is not None else shipped_net()
        self.top = top
        self.margin = margin
        self.zero_sum = zero_sum

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

    def _value(self, penalties: list[int], seat: int) -> float:
        if not self.zero_sum:
            return super()._value(penalties, seat)
        return penalties[seat] - (sum(penalties) - penalties[seat]) / 3

    def _pick(self, candidates: list[int], totals: list[float], samples: int) -> int:
        best = min(range(len(candidates)), key=lambda i: (totals[i], i))
        return best if totals[0] - totals[best] > self.margin * samples else 0
