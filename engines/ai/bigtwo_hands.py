"""Who holds the unseen cards: a small network reads it from the deal's public history.

`hard` decides by playing its candidates out on sampled deals of the unseen cards. Dealt at
random (within what a greedy reading of the passes allows), those deals ignore most of what
the opponents' plays and passes say: a player given the true hands scores some 0.3 of the
penalty ratio better (docs/benchmarks.md). The hand model gives, for each unseen card, the
probability that each opponent holds it, from what a human in the seat has seen: its own
hand, the unseen cards, and per opponent the cards it played, the tables it passed on and
the combinations it led (each by size and top rank), and the cards it holds.

The weights (`bigtwo_hands_v<N>.npz`, under a megabyte) come from self-play deals of four
`net` players (`engines.ai.bigtwo_hands_train`, `deucebot train bigtwo-hands`).
`DealHistory` follows a deal from the seat's successive views, as a human reading the
channel would; `sample_deals` deals the unseen cards by the model's probabilities, each
opponent getting exactly the cards it holds.
"""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from engines.bigtwo import Action, BigTwoView, Play
from engines.bigtwo_combos import Combo, classify_mask, mask_of_cards

HANDS_VERSION: Final = 1
"""The version of the shipped weights (`bigtwo_hands_v1.npz`)."""
HANDS_PATH: Final = Path(__file__).with_name(f"bigtwo_hands_v{HANDS_VERSION}.npz")

_SIZE_SLOT: Final = {1: 0, 2: 1, 3: 2, 5: 3}
_PER_OPPONENT: Final = 52 * 3 + 1
INPUTS: Final = 52 * 2 + 3 * _PER_OPPONENT
"""Numbers describing one situation (see `PublicRecord.features`)."""
_COUNT_COLUMNS: Final = [104 + k * _PER_OPPONENT + 156 for k in range(3)]
_CAP: Final = 3

Numbers = npt.NDArray[Any]
"""An array of any number type (bytes of features, float weights, owners)."""


def _bits(mask: int) -> Numbers:
    """The 52 cards of `mask` as 0/1 bytes, card key order."""
    raw = np.frombuffer(mask.to_bytes(7, "little"), np.uint8)
    return np.unpackbits(raw, bitorder="little")[:52]


def _slot(mask: int) -> int:
    """A combination's column in a seat's grid: its size, then its top card's rank."""
    return _SIZE_SLOT[mask.bit_count()] * 13 + ((mask.bit_length() - 1) >> 2)


class PublicRecord:
    """What every seat showed in one deal: the cards it played, the tables it passed on and
    the combinations it led (counted per size and top rank)."""

    def __init__(self) -> None:
        """An empty record: the deal has not started."""
        self.played = [0, 0, 0, 0]
        self.passed = np.zeros((4, 52), np.uint8)
        self.led = np.zeros((4, 52), np.uint8)

    def record(self, who: int, move: int, table: Combo | None) -> None:
        """Seat `who` played `move` (a mask, 0 = pass) on `table` (None: it led)."""
        if move:
            self.played[who] |= move
            if table is None:
                self.led[who, _slot(move)] += 1
        elif table is not None:
            self.passed[who, _slot(table.mask)] += 1

    def features(self, me: int, hand: int, unseen: int, counts: list[int]) -> Numbers:
        """`INPUTS` bytes for seat `me` holding `hand`: its hand, the `unseen` cards, then for
        each opponent in turn order the cards it played, its passes and its leads (each
        capped at 3) and its card count (`counts`, by seat)."""
        parts = [_bits(hand), _bits(unseen)]
        for k in (1, 2, 3):
            s = (me + k) % 4
            parts += [
                _bits(self.played[s]),
                np.minimum(self.passed[s], _CAP),
                np.minimum(self.led[s], _CAP),
                np.array([counts[s]], np.uint8),
            ]
        return np.concatenate(parts)


class DealHistory:
    """A deal's public record, rebuilt from one seat's successive views.

    A view shows only the current trick, so the turns between two of the seat's views are
    read from it: every seat that acted since left an entry, and a trick that was cleared
    means the seats after the last play passed. The record is checked against the view's
    card counts and played cards each time; `record` is None once they disagree (a view
    was missed), until the next deal."""

    def __init__(self) -> None:
        """Nothing seen yet."""
        self._record: PublicRecord | None = None
        self._counts = [13, 13, 13, 13]
        self._table: Combo | None = None
        self._passes = 0
        self._played = 0
        self._hand = -1
        self._seen = 0

    @property
    def record(self) -> PublicRecord | None:
        """The deal's record so far, or None when it could not be followed."""
        return self._record

    def see(self, view: BigTwoView) -> None:
        """Read what happened since the seat's last action (a new deal starts afresh)."""
        me = view.seat
        assert me is not None
        hand = view.hand_mask
        seen = len(view.played)
        trick = view.trick
        if self._hand < 0 or hand & ~self._hand or seen < self._seen:
            self._start()
            entries = list(trick)
        elif self._record is not None:
            k = len(trick)
            for j in range(max(0, 3 - k)):
                self._apply((me + 1 + j) % 4, 0)
            entries = list(trick[-min(3, k) :]) if k else []
        else:
            entries = []
        if self._record is not None:
            for entry in entries:
                self._apply(entry.seat, mask_of_cards(entry.cards) if entry.cards else 0)
            if self._counts != list(view.cards_left) or self._played != mask_of_cards(view.played):
                self._record = None
        self._hand = hand
        self._seen = seen

    def acted(self, view: BigTwoView, action: Action) -> None:
        """Add the seat's own `action`, taken on `view`."""
        me = view.seat
        assert me is not None
        move = mask_of_cards(action.cards) if isinstance(action, Play) else 0
        if self._record is not None:
            self._apply(me, move)
        self._seen = len(view.played) + move.bit_count()
        self._hand = view.hand_mask & ~move

    def _start(self) -> None:
        self._record = PublicRecord()
        self._counts = [13, 13, 13, 13]
        self._table = None
        self._passes = 0
        self._played = 0

    def _apply(self, who: int, move: int) -> None:
        assert self._record is not None
        self._record.record(who, move, self._table)
        if move:
            self._counts[who] -= move.bit_count()
            self._played |= move
            self._table = classify_mask(move)
            self._passes = 0
        else:
            self._passes += 1
            if self._passes == 3:
                self._table, self._passes = None, 0


class HandModel:
    """One hidden layer (rectified) from `INPUTS` numbers to three scores per card, one per
    opponent; the log of each opponent's card count is added to its score, so the untrained
    model deals at random and the weights learn how far to lean from that."""

    def __init__(self, params: list[Numbers]) -> None:
        """`params`: the two layers' weights and biases."""
        self.params = params

    @classmethod
    def fresh(cls, rng: np.random.Generator, hidden: int = 256) -> HandModel:
        """Small random weights."""
        return cls(
            [
                rng.normal(0, 1 / math.sqrt(INPUTS), (INPUTS, hidden)).astype(np.float32),
                np.zeros(hidden, np.float32),
                rng.normal(0, 0.5 / math.sqrt(hidden), (hidden, 156)).astype(np.float32),
                np.zeros(156, np.float32),
            ]
        )

    @classmethod
    def load(cls, path: Path) -> HandModel:
        """Weights saved by `save`."""
        with np.load(path) as saved:
            return cls([saved[k] for k in ("w1", "b1", "w2", "b2")])

    def save(self, path: Path) -> None:
        """Write the weights to `path` (.npz)."""
        w1, b1, w2, b2 = self.params
        np.savez_compressed(path, w1=w1, b1=b1, w2=w2, b2=b2)

    def forward(self, rows: Numbers) -> tuple[Numbers, Numbers, Numbers]:
        """For rows of features: (inputs as floats, the hidden layer, log-probabilities of
        each card being with each opponent, shape (rows, 52, 3))."""
        w1, b1, w2, b2 = self.params
        x = rows.astype(np.float32)
        x[:, _COUNT_COLUMNS] /= 13.0
        hidden = np.maximum(x @ w1 + b1, 0)
        with np.errstate(divide="ignore"):
            prior = np.log(rows[:, _COUNT_COLUMNS].astype(np.float32))
        z = (hidden @ w2 + b2).reshape(-1, 52, 3) + prior[:, None, :]
        z = z - z.max(axis=2, keepdims=True)
        return x, hidden, z - np.log(np.exp(z).sum(axis=2, keepdims=True))

    def probabilities(self, features: Numbers) -> Numbers:
        """(52, 3): for each card, the probability each opponent (in turn order) holds it."""
        return np.asarray(np.exp(self.forward(features[None, :])[2][0]))


@cache
def shipped_hand_model() -> HandModel:
    """The shipped weights, loaded once."""
    return HandModel.load(HANDS_PATH)


def sample_deals(
    probs: Numbers, unseen: list[int], counts: list[int], n: int, gen: np.random.Generator
) -> list[tuple[int, int, int]]:
    """`n` deals of the `unseen` card keys to the three opponents (masks, in turn order),
    opponent k getting exactly `counts[k]` cards. Cards go one by one in a random order,
    each to an opponent with probability in proportion to `probs[card, k]` times the share
    of its cards not dealt yet; an opponent with no room left gets none. `ValueError` if the
    counts do not add up to the unseen cards."""
    if sum(counts) != len(unseen):
        raise ValueError(f"{sum(counts)} cards to deal for {len(unseen)} unseen")
    room = np.tile(np.array(counts, np.float64), (n, 1))
    full = np.array([max(c, 1) for c in counts], np.float64)
    masks = [[0, 0, 0] for _ in range(n)]
    order = gen.permutation(len(unseen))
    draws = gen.random((len(unseen), n))
    rows = np.arange(n)
    for j, index in enumerate(order):
        key = unseen[int(index)]
        weights = np.cumsum(probs[key][None, :] * room / full, axis=1)
        picks = np.minimum(((draws[j] * weights[:, 2])[:, None] > weights).sum(axis=1), 2)
        room[rows, picks] -= 1
        bit = 1 << key
        for i, k in enumerate(picks.tolist()):
            masks[i][k] |= bit
    return [(m[0], m[1], m[2]) for m in masks]
