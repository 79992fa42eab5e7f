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

from engines.ai.bigtwo_fast import _at_least, highest_five_power, legal_moves, play_out
from engines.ai.bigtwo_strong import plan, plan_after
from engines.ai.small_net import Array, TanhScorer
from engines.bigtwo import PASS, Action, BigTwoView, Play, play_of_mask
from engines.bigtwo_combos import (
    ALL_CARDS,
    Combo,
    classify_mask,
    mask_of_cards,
)

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
    cards neither in `hand` nor played.

    Columns: 0-8 the situation (leading, the four seats' cards, a short opponent, the
    hand's plan size, its 2s); 9 pass; 10-13 the size played (1, 2, 3, 5); 14-18 the five-
    card category; 19-22 its top and low rank, 2s and aces; 23 no unseen combination can
    beat it; 24 it goes out; 25 plays of the plan it breaks; 26-31 what it leaves: cards,
    plan size, plays the unseen cards can beat, singles, 2s, lowest rank."""
    base = plan(hand)
    base_parts = len(base)
    others = counts[1:]
    max_other = max(others)
    danger = min(others)
    beaten = _Beaten(unseen, max_other)
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
    rows = []
    for move in moves:
        if not move:
            rest = hand
            parts = base
            row = context + _PASS_COLUMNS
        else:
            combo, columns = _play_columns(move)
            rest = hand & ~move
            parts = plan_after(hand, move) if rest else ()
            row = context + columns
            row += [
                0.0 if beaten(combo) else 1.0,
                1.0 if not rest else 0.0,
                (len(parts) + 1 - base_parts) / 2,
            ]
        threats = singles = 0
        for part in parts:
            if beaten(part):
                threats += 1
            if part.size == 1:
                singles += 1
        row += [
            rest.bit_count() / 13,
            len(parts) / 8,
            threats / 6,
            singles / 6,
            (rest & _TWOS).bit_count() / 4,
            (((rest & -rest).bit_length() - 1) >> 2) / 12 if rest else 1.0,
        ]
        rows.append(row)
    if not rows:
        return np.zeros((0, FEATURES))
    return np.array(rows, dtype=np.float64)


def _play_columns(move: int) -> tuple[Combo, list[float]]:
    """A play's combination and its columns 9-22, which depend on its cards only."""
    found = _PLAYS.get(move)
    if found is None:
        combo = classify_mask(move)
        assert combo is not None
        columns = [0.0] * 14
        columns[1 + (3 if combo.size == 5 else combo.size - 1)] = 1.0
        if combo.size == 5:
            columns[5 + (combo.power >> 16)] = 1.0
        columns[10] = ((move.bit_length() - 1) >> 2) / 12
        columns[11] = (((move & -move).bit_length() - 1) >> 2) / 12
        columns[12] = (move & _TWOS).bit_count() / 2
        columns[13] = (move & _ACES).bit_count() / 2
        found = _PLAYS[move] = (combo, columns)
    return found


_PLAYS: dict[int, tuple[Combo, list[float]]] = {}
"""Play mask -> `_play_columns`: every legal combination of a deck, filled on first use."""


_PASS_COLUMNS: Final = [1.0] + [0.0] * 16
"""Columns 9-25 of a pass."""


class _Beaten:
    """`_beaten_by_unseen(combo, unseen, max_other)` for one `unseen` and `max_other`: the
    strongest unseen single, pair, triple and five-card power, found once, then compared."""

    def __init__(self, unseen: int, max_other: int) -> None:
        self.max_other = max_other
        self.top = [-1, unseen.bit_length() - 1, -1, -1, -1, -1]
        """Index: a combination's size; the strongest unseen power of that size (-1: none)."""
        pairs = _at_least(unseen, 2)
        if pairs:
            shift = pairs.bit_length() - 1
            self.top[2] = shift + (unseen >> shift & 0xF).bit_length() - 1
        triples = _at_least(unseen, 3)
        if triples:
            self.top[3] = (triples.bit_length() - 1) >> 2
        self.by_kind = unseen.bit_count() > 12
        if not self.by_kind and max_other >= 5:
            self.top[5] = highest_five_power(unseen)

    def __call__(self, combo: Combo) -> bool:
        """Could some combination of the unseen cards of the same size beat `combo`?"""
        size = combo.size
        if size > self.max_other:
            return False
        if size == 5 and self.by_kind:
            # Too many unseen cards to enumerate cheaply: only the strongest hands are safe.
            return combo.kind not in ("straight_flush", "four_of_a_kind")
        return combo.power < self.top[size]


class Net(TanhScorer):
    """One hidden layer of tanh units; a score per row of features."""

    NAMES = ("w1", "b1", "w2")

    def __init__(self, w1: Array, b1: Array, w2: Array) -> None:
        """Weights: `w1` (FEATURES x hidden), `b1` (hidden), `w2` (hidden)."""
        super().__init__(w1, b1, w2)

    @classmethod
    def fresh(cls, hidden: int, rng: np.random.Generator) -> Net:
        """Small random weights."""
        return cls(
            rng.normal(0, 0.3, (FEATURES, hidden)), np.zeros(hidden), rng.normal(0, 0.1, hidden)
        )

    @classmethod
    def load(cls, path: Path = WEIGHTS_PATH) -> Net:
        """The weights saved by `save` at `path`."""
        return cls.read(path)


_SHIPPED: Net | None = Net.load() if WEIGHTS_PATH.exists() else None


def shipped_net() -> Net:
    """The shipped weights (loaded at import)."""
    if _SHIPPED is None:
        raise FileNotFoundError(f"no weights at {WEIGHTS_PATH}; run `deucebot train bigtwo`")
    return _SHIPPED


def choose(
    net: TanhScorer,
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


def net_play_out(
    net: Net,
    hands: list[int],
    turn: int,
    table: Combo | None,
    table_seat: int,
    passes: int,
    seats: int = 0b1111,
    limit: int = 400,
) -> list[int]:
    """Play a (sampled) deal to its end, the seats in the bit set `seats` playing `net`'s
    best-scored move (each from what it would see), the others greedy; each seat's penalty.
    `hands` is changed in place."""

    def by_net(hands: list[int], turn: int, table: Combo | None) -> int:
        hand = hands[turn]
        moves = legal_moves(hand, table, False)
        if len(moves) == 1:
            return moves[0]
        counts = (
            hand.bit_count(),
            hands[(turn + 1) % 4].bit_count(),
            hands[(turn + 2) % 4].bit_count(),
            hands[(turn + 3) % 4].bit_count(),
        )
        # What this seat cannot see is what the others hold: the rest is played.
        unseen = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hand
        return moves[choose(net, hand, moves, table, counts, unseen)]

    players = [by_net if seats >> s & 1 else None for s in range(4)]
    return play_out(hands, turn, table, table_seat, passes, limit, players)


class NetPolicy:
    """Plays the action the trained network scores highest, from the view only (`pg`, a
    subclass, with its own network)."""

    name = "net"

    def __init__(self, rng: random.Random, net: TanhScorer | None = None) -> None:
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
