"""The `net` Big Two player: a small trained network that scores each legal action.

A sparring partner that does not think like `strong`: it searches nothing and reads
nobody; its choices come from weights learned by self-play (REINFORCE against copies of
itself, frozen earlier versions and `greedy`; see `engines.ai.bigtwo_train`).

Each legal action is described by `FEATURES` numbers (what it plays, what it leaves in
the hand, the seats' card counts, whether the unseen cards can beat it); a network with
one hidden layer turns them into a score, and the policy plays the best-scored action
(a softmax over the scores while training). Weights live in `bigtwo_net_v<N>.npz` beside
this module (a few kB), loaded once at import: the AI pool imports every game's AI at
start-up.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from engines.ai.bigtwo_strong import _beaten_by_unseen, plan
from engines.bigtwo import PASS, Action, BigTwoView, Play, play_of_mask
from engines.bigtwo_combos import ALL_CARDS, Combo, classify_mask, mask_of_cards

Array = npt.NDArray[np.float64]

WEIGHTS_VERSION: Final = 1
"""The version of the shipped weights (`bigtwo_net_v1.npz`)."""
WEIGHTS_PATH: Final = Path(__file__).with_name(f"bigtwo_net_v{WEIGHTS_VERSION}.npz")

_TWOS: Final = 0xF << 48
_ACES: Final = 0xF << 44
FEATURES: Final = 32
"""Numbers describing one action (see `action_features`)."""


def action_features(
    hand: int, moves: list[int], table: Combo | None, counts: tuple[int, int, int, int], unseen: int
) -> Array:
    """One row of `FEATURES` numbers per move (a mask, 0 = pass) of the seat holding `hand`.

    `counts` are the cards held by this seat and the next three in turn order; `unseen` the
    cards neither in `hand` nor played."""
    base = plan(hand)
    base_parts = len(base)
    others = counts[1:]
    max_other = max(others)
    danger = min(others)
    context = [
        1.0 if table is None else 0.0,
        counts[0] / 13,
        others[0] / 13,
        others[1] / 13,
        others[2] / 13,
        1.0 if danger <= 2 else 0.0,
        1.0 if others[0] <= 2 else 0.0,
        base_parts / 8,
        (hand & _TWOS).bit_count() / 4,
    ]
    rows = np.zeros((len(moves), FEATURES))
    for i, move in enumerate(moves):
        row = rows[i]
        row[: len(context)] = context
        if not move:
            rest = hand
            row[9] = 1.0
            parts = base
        else:
            combo = classify_mask(move)
            assert combo is not None
            rest = hand & ~move
            parts = plan(rest) if rest else ()
            row[10 + (3 if combo.size == 5 else combo.size - 1)] = 1.0
            if combo.size == 5:
                row[14 + (combo.power >> 16)] = 1.0
            top = (move.bit_length() - 1) >> 2
            low = ((move & -move).bit_length() - 1) >> 2
            row[19] = top / 12
            row[20] = low / 12
            row[21] = (move & _TWOS).bit_count() / 2
            row[22] = (move & _ACES).bit_count() / 2
            row[23] = 0.0 if _beaten_by_unseen(combo, unseen, max_other) else 1.0
            row[24] = 1.0 if not rest else 0.0
            row[25] = (len(parts) + 1 - base_parts) / 2
        row[26] = rest.bit_count() / 13
        row[27] = len(parts) / 8
        row[28] = sum(_beaten_by_unseen(c, unseen, max_other) for c in parts) / 6
        row[29] = sum(1 for c in parts if c.size == 1) / 6
        row[30] = (rest & _TWOS).bit_count() / 4
        row[31] = (((rest & -rest).bit_length() - 1) >> 2) / 12 if rest else 1.0
    return rows


class Net:
    """One hidden layer of tanh units; a score per row of features."""

    def __init__(self, w1: Array, b1: Array, w2: Array) -> None:
        """Weights: `w1` (FEATURES x hidden), `b1` (hidden), `w2` (hidden)."""
        self.w1 = w1
        self.b1 = b1
        self.w2 = w2

    @classmethod
    def fresh(cls, hidden: int, rng: np.random.Generator) -> Net:
        """Small random weights."""
        return cls(
            rng.normal(0, 0.3, (FEATURES, hidden)), np.zeros(hidden), rng.normal(0, 0.1, hidden)
        )

    @classmethod
    def load(cls, path: Path = WEIGHTS_PATH) -> Net:
        """The weights saved by `save` at `path`."""
        with np.load(path) as data:
            return cls(data["w1"], data["b1"], data["w2"])

    def save(self, path: Path) -> None:
        """Write the weights to `path` (.npz)."""
        np.savez(path, w1=self.w1, b1=self.b1, w2=self.w2)

    def copy(self) -> Net:
        """An independent copy (a frozen opponent)."""
        return Net(self.w1.copy(), self.b1.copy(), self.w2.copy())

    def hidden(self, rows: Array) -> Array:
        """The hidden layer's activations for `rows`."""
        return np.tanh(rows @ self.w1 + self.b1)

    def scores(self, rows: Array) -> Array:
        """A score per row."""
        return self.hidden(rows) @ self.w2


_SHIPPED: Net | None = Net.load() if WEIGHTS_PATH.exists() else None


def shipped_net() -> Net:
    """The shipped weights (loaded at import)."""
    if _SHIPPED is None:
        raise FileNotFoundError(f"no weights at {WEIGHTS_PATH}; run `deucebot train bigtwo`")
    return _SHIPPED


def choose(
    net: Net,
    hand: int,
    moves: list[int],
    table: Combo | None,
    counts: tuple[int, int, int, int],
    unseen: int,
) -> int:
    """The index of the best-scored move (the first on ties)."""
    if len(moves) == 1:
        return 0
    return int(np.argmax(net.scores(action_features(hand, moves, table, counts, unseen))))


class NetPolicy:
    """Plays the action the trained network scores highest, from the view only."""

    name = "net"

    def __init__(self, rng: random.Random, net: Net | None = None) -> None:
        """`net`: the shipped weights unless given. Decisions are deterministic."""
        self.rng = rng
        self.net = net if net is not None else shipped_net()

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
        move = moves[choose(self.net, hand, moves, view.table, counts, unseen)]
        return play_of_mask(move) if move else PASS
