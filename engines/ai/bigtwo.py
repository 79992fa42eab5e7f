"""Big Two AI players. Each decides from a `BigTwoView` only, never from the engine state.

- `random`: uniform over the legal plays and pass;
- `greedy`: plays the lowest combination that beats the table and never passes
  when it can play; when leading, plays its lowest card in the largest
  combination that contains it (five cards, then triple, pair, single);
- `strong`: the `normal` level. Since 6 December 2026 (10:00 UTC) `hard`'s player (the
  network's proposals checked by a search, `engines.ai.bigtwo_hard`) with 480 greedy
  play-outs where `hard` runs 160 played by the network; `strong3` is the `normal` it replaced;
- `easy`: the rule-based player with human-looking slips (`EasyPolicy`);
- `strong1`: the first `strong`, frozen (as shipped before the levels, without its time
  cut-off): a sparring partner for its successors;
- `net`: the trained sparring partner, see `engines.ai.bigtwo_net`;
- `hard`: the network's proposals checked by a search on deals dealt by the hand model
  (`engines.ai.bigtwo_hands`), see `engines.ai.bigtwo_hard`;
- `hard1`: the first `hard`, frozen (a play-out is worth its own penalty, as for `strong2`):
  a sparring partner for its successors;
- `hard2`: the second `hard`, frozen (480 greedy play-outs where `hard` runs 160 played by
  the network): a sparring partner too;
- `hard3`, `strong2`: `hard` and `strong` (the `normal` level) as of 5 December 2026 (`hard3`
  with the margin of 0.5 that `hard` then lowered to 0.25; `strong2` valuing a play-out by its
  own penalty and a bonus for a win, as `strong` then did), every parameter pinned, so that
  later changes to the levels are measured against them;
- `hard4`: `hard` as of 6 December 2026 before it read hands (deals dealt at random within
  the greedy reads), every parameter pinned;
- `strong3`: the `normal` level of 6 December 2026 08:00-10:00 UTC, pinned: the search of
  `engines.ai.bigtwo_strong` (the heuristic's candidates, 480 greedy play-outs), its
  play-outs valued as the table's score counts them;
- `pg`: a policy trained by policy gradient against a mixed pool, a sparring partner
  that does not think like the levels, see `engines.ai.bigtwo_pg`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from engines.ai.bigtwo_fast import greedy_move
from engines.bigtwo import PASS, Action, BigTwoView, Pass, Play, play_of_mask
from engines.bigtwo_combos import mask_of_cards


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


class EasyPolicy:
    """The `easy` level: the rule-based player (`heuristic`) with human-looking slips.

    About one decision in three (`slips`) it plays another sensible move instead: a
    lower or higher answer, a pass, another lead. A slip never spends a 2 (a 2 is played
    only when the heuristic itself plays it), and it never misses going out with its
    whole hand; so it plays loosely but never absurdly."""

    name = "easy"

    def __init__(self, rng: random.Random, slips: float = 0.3) -> None:
        """`rng` draws the slips and the moves they play."""
        from engines.ai.bigtwo_strong import HeuristicPolicy

        self.rng = rng
        self.slips = slips
        self.heuristic = HeuristicPolicy(rng)

    def decide(self, view: BigTwoView) -> Action:
        """The heuristic's choice, or now and then a sensible other one."""
        chosen = self.heuristic.decide(view)
        legal = view.legal
        if len(legal) == 1 or self.rng.random() >= self.slips:
            return chosen
        if any(isinstance(a, Play) and len(a.cards) == len(view.hand) for a in legal):
            return chosen
        sensible = [a for a in legal if a != chosen and _no_two(a)]
        if view.table is not None:
            sensible = sensible[:3] + ([PASS] if PASS in sensible[3:] else [])
        else:
            sensible = sensible[:6]
        return self.rng.choice(sensible) if sensible else chosen


def _no_two(action: Action) -> bool:
    return not isinstance(action, Play) or not mask_of_cards(action.cards) & _TWOS


_TWOS = 0xF << 48
"""The four 2s as Big Two keys (rank 12, the highest)."""


def _strong(rng: random.Random) -> Any:
    from engines.ai.bigtwo_hard import HardPolicy

    policy = HardPolicy(rng, top=3, margin=0.25, rollouts=480, zero_sum=True, net_play_outs=False)
    policy.name = "strong"
    return policy


def _strong3(rng: random.Random) -> Any:
    from engines.ai.bigtwo_strong import StrongPolicy

    policy = StrongPolicy(rng, rollouts=480, max_candidates=10, budget_ms=None, zero_sum=True)
    policy.name = "strong3"
    return policy


def _strong1(rng: random.Random) -> Any:
    from engines.ai.bigtwo_strong import StrongPolicy

    return StrongPolicy(rng, budget_ms=None)


def _hard(rng: random.Random) -> Any:
    from engines.ai.bigtwo_hands import shipped_hand_model
    from engines.ai.bigtwo_hard import HardPolicy

    return HardPolicy(rng, hands=shipped_hand_model())


def _hard4(rng: random.Random) -> Any:
    from engines.ai.bigtwo_hard import HardPolicy

    policy = HardPolicy(rng, top=3, margin=0.25, rollouts=160, zero_sum=True, net_play_outs=True)
    policy.name = "hard4"
    return policy


def _hard1(rng: random.Random) -> Any:
    from engines.ai.bigtwo_hard import HardPolicy

    policy = HardPolicy(rng, margin=0.5, rollouts=480, zero_sum=False, net_play_outs=False)
    policy.name = "hard1"
    return policy


def _hard2(rng: random.Random) -> Any:
    from engines.ai.bigtwo_hard import HardPolicy

    policy = HardPolicy(rng, margin=0.5, rollouts=480, net_play_outs=False)
    policy.name = "hard2"
    return policy


def _strong2(rng: random.Random) -> Any:
    from engines.ai.bigtwo_strong import StrongPolicy

    policy = StrongPolicy(rng, rollouts=480, max_candidates=10, win_bonus=8.0, budget_ms=None)
    policy.name = "strong2"
    return policy


def _hard3(rng: random.Random) -> Any:
    from engines.ai.bigtwo_hard import HardPolicy
    from engines.ai.bigtwo_net import WEIGHTS_PATH, Net, shipped_net

    first = WEIGHTS_PATH.with_name("bigtwo_net_v1.npz")
    # Pinned to the first weights, even once `net` is retrained under a new version.
    net = shipped_net() if first == WEIGHTS_PATH else Net.load(first)
    policy = HardPolicy(
        rng, net=net, top=3, margin=0.5, rollouts=160, zero_sum=True, net_play_outs=True
    )
    policy.name = "hard3"
    return policy


def _pg(rng: random.Random) -> Any:
    from engines.ai.bigtwo_pg import PgPolicy

    return PgPolicy(rng)


def _net(rng: random.Random) -> Any:
    from engines.ai.bigtwo_net import NetPolicy

    return NetPolicy(rng)


def _heuristic(rng: random.Random) -> Any:
    from engines.ai.bigtwo_strong import HeuristicPolicy

    return HeuristicPolicy(rng)


POLICIES: Mapping[str, Callable[[random.Random], Any]] = {
    "random": RandomPolicy,
    "greedy": GreedyPolicy,
    "strong": _strong,
    "heuristic": _heuristic,
    "strong1": _strong1,
    "easy": EasyPolicy,
    "net": _net,
    "hard": _hard,
    "hard1": _hard1,
    "hard2": _hard2,
    "hard3": _hard3,
    "hard4": _hard4,
    "strong2": _strong2,
    "strong3": _strong3,
    "pg": _pg,
}
"""Policy name -> factory taking the policy's own `random.Random`."""

__all__ = ["POLICIES", "GreedyPolicy", "Pass", "RandomPolicy"]
