"""The `hard` Big Two player: the trained network's instinct, checked by a search.

The network (`engines.ai.bigtwo_net`) proposes: its `top` best-scored moves, plus the
rule-based player's favourite, are the only candidates. `strong`'s search (sampled deals of
the unseen cards that respect what each seat's plays and passes say, each candidate played
out to the end of the deal) then plays the network's first choice unless another candidate
does better by more than `margin` points per sampled deal: 0.25 since 5 December 2026 (0.5
before, a guard tuned when the play-outs were greedy and biased; with the network's
play-outs the search's overrides were worth more than that guard let through, see
docs/benchmarks.md, "Big Two hard: where it loses").

The play-outs are played by the network for every seat (`net_play_out`, each seat from
what it would see), not by greedy players: a table of strong players does not play the
lowest card that beats the table, and greedy play-outs misjudged the middle of the deal
against them. A network play-out costs some twenty greedy ones, so `hard` runs 160 of them
per decision (`strong` 480 greedy ones).

What a play-out is worth is what the table's score counts (`zero_sum`): this seat's
penalty minus the other three's average, so a play that leaves two opponents with ten
cards each is worth something even when this seat does not go out, and a won deal is worth
what the others pay rather than a fixed bonus. Fixed sample counts, no time cut-off: its
choices never depend on the machine's speed. From the seat's view only.

The `normal` level (the policy named `strong`) is this player with greedy play-outs, 480
of them, which cost what the search of `StrongPolicy` alone costs: the network's proposals
are one scoring of the legal moves per decision (since 6 December 2026, 10:00 UTC; 0.899x
`net`'s penalty where that search scored 0.948x, docs/benchmarks.md).

Since 6 December 2026 (evening) `hard` also reads the opponents' hands: given a hand model
(`engines.ai.bigtwo_hands`), its sampled deals are dealt by the model's probabilities of who
holds each unseen card, read from the deal's public history, instead of at random within
the greedy reads. It falls back on those reads when the history could not be followed.

`hard1` is the first `hard` (its own penalty, a won deal counting as a bonus of
`win_bonus`, as `strong` values a play-out), `hard2` the second (greedy play-outs, 480 of
them), `hard3` the third (network play-outs, `margin` 0.5), `hard4` the fourth (no hand
model), all frozen as sparring partners.
"""

from __future__ import annotations

import random

import numpy as np

from engines.ai.bigtwo_hands import DealHistory, HandModel, sample_deals
from engines.ai.bigtwo_net import Net, action_features, net_play_out, shipped_net
from engines.ai.bigtwo_strong import StrongPolicy
from engines.bigtwo import Action, BigTwoView, Play
from engines.bigtwo_combos import ALL_CARDS, Combo, keys_of_mask, mask_of_cards


class HardPolicy(StrongPolicy):
    """Network proposals, search decisions (see the module docstring)."""

    name = "hard"

    def __init__(
        self,
        rng: random.Random,
        net: Net | None = None,
        top: int = 3,
        margin: float = 0.25,
        rollouts: int = 160,
        zero_sum: bool = True,
        net_play_outs: bool = True,
        hands: HandModel | None = None,
    ) -> None:
        """`net`: the shipped weights unless given. `hands`: the hand model that deals the
        sampled deals (None: dealt at random within the greedy reads, as `hard4` and the
        `normal` level do). `net_play_outs` False (greedy play-outs) with 480 `rollouts` and
        `margin` 0.5 gives `hard2`, and `zero_sum` False too `hard1`; `margin` 0.5 alone
        `hard3`."""
        super().__init__(rng, rollouts=rollouts, budget_ms=None, zero_sum=zero_sum)
        self.net = net if net is not None else shipped_net()
        self.top = top
        self.margin = margin
        self.net_play_outs = net_play_outs
        self.hands = hands
        self.history = DealHistory()

    def decide(self, view: BigTwoView) -> Action:
        """Choose a legal action for the seat of `view`, keeping the deal's history."""
        if self.hands is None:
            return super().decide(view)
        self.history.see(view)
        action = super().decide(view)
        self.history.acted(view, action)
        return action

    def values(
        self, view: BigTwoView, seat: int, candidates: list[int], samples: int
    ) -> list[float]:
        """As `StrongPolicy.values`, on deals dealt by the hand model when there is one and
        the deal's history is known."""
        record = self.history.record
        if self.hands is None or record is None:
            return super().values(view, seat, candidates, samples)
        hand = view.hand_mask
        unseen = ALL_CARDS & ~hand & ~mask_of_cards(view.played)
        counts = list(view.cards_left)
        probs = self.hands.probabilities(record.features(seat, hand, unseen, counts))
        others = [(seat + k) % 4 for k in (1, 2, 3)]
        gen = np.random.default_rng(self.rng.getrandbits(64))
        deals = sample_deals(probs, keys_of_mask(unseen), [counts[s] for s in others], samples, gen)
        totals = [0.0] * len(candidates)
        for dealt in deals:
            table_hands = [0, 0, 0, 0]
            table_hands[seat] = hand
            for s, mask in zip(others, dealt, strict=True):
                table_hands[s] = mask
            self._play_out(table_hands, view, seat, candidates, totals)
        return totals

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

    def _finish(
        self, hands: list[int], turn: int, table: Combo | None, table_seat: int, passes: int
    ) -> list[int]:
        if not self.net_play_outs:
            return super()._finish(hands, turn, table, table_seat, passes)
        return net_play_out(self.net, hands, turn, table, table_seat, passes)

    def _pick(self, candidates: list[int], totals: list[float], samples: int) -> int:
        best = super()._pick(candidates, totals, samples)
        return best if totals[0] - totals[best] > self.margin * samples else 0
