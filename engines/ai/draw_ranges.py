"""What an opponent's final hand is likely to be, from the number of cards it drew.

`ranges()` samples, once and from a fixed seed, random deals played the way a sound player
draws (`strong_draw`) and keeps each final hand's value under the number of cards changed
(a pat hand, "0", is any of the sample's final hands of a straight or better). `Range.beats(
value)` is then the chance that a hand worth `value` beats one of those hands
(ties count half), read by bisection: no Monte Carlo per decision. `floor` narrows a
range to its strongest part, the fraction `floor` of its weakest hands left out (a player
who bet or raised); card removal between the two hands is ignored.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

import numpy as np

from engines.ai.draw import strong_draw
from engines.cards import FULL_DECK
from engines.poker.ranking import hand_value

SAMPLES = 60_000
"""Random deals behind the ranges (about a second, once per process)."""

STRAIGHT = 4 << 24
"""The lowest straight's value and more: what a sound player stands pat with."""


@dataclass(frozen=True, slots=True)
class Range:
    """Final hand values, sorted."""

    values: tuple[int, ...]

    def beats(self, value: int, floor: float = 0.0) -> float:
        """The chance that `value` beats a hand of this range, its weakest `floor` (0 to
        1) left out; ties count half."""
        n = len(self.values)
        if not n:
            return 0.5
        start = min(n - 1, int(floor * n))
        below = bisect_left(self.values, value, lo=start) - start
        equal = bisect_right(self.values, value, lo=start) - start - below
        return (below + equal / 2) / (n - start)


@dataclass(frozen=True, slots=True)
class Ranges:
    """The ranges by cards drawn (0 to 5) and over every draw (`any`)."""

    by_drawn: tuple[Range, ...]
    any: Range

    def of(self, drawn: int | None) -> Range:
        """The range of an opponent that changed `drawn` cards (None: not drawn yet)."""
        return self.any if drawn is None else self.by_drawn[drawn]


RANGES_PATH: Final = Path(__file__).with_name("draw_ranges.npz")
"""The ranges as `build_ranges()` makes them, shipped: building them takes seconds, which
would be the first decision of every AI process (`python -m engines.ai.draw_ranges`
writes the file again; a test checks it matches)."""


@cache
def ranges() -> Ranges:
    """The ranges: the shipped file, else built (the same values either way)."""
    if RANGES_PATH.exists():
        with np.load(RANGES_PATH) as data:
            by_drawn = tuple(Range(tuple(data[f"drawn{d}"].tolist())) for d in range(6))
            return Ranges(by_drawn, Range(tuple(data["any"].tolist())))
    return build_ranges()


def build_ranges() -> Ranges:
    """The ranges, built from seed 43."""
    rng = random.Random(43)
    buckets: list[list[int]] = [[] for _ in range(6)]
    everything: list[int] = []
    for _ in range(SAMPLES):
        cards = rng.sample(FULL_DECK, 10)
        hand = cards[:5]
        draw = strong_draw(hand)
        final = [c for i, c in enumerate(hand) if i + 1 not in draw.positions]
        final += cards[5 : 5 + len(draw.positions)]
        value = hand_value(final)
        buckets[len(draw.positions)].append(value)
        everything.append(value)
    # Pat hands are rare in a sample: take them from the pat hands of the sample's final
    # hands instead (every straight or better a player ends with is one it could stand on).
    buckets[0] = [v for v in everything if v >= STRAIGHT]
    return Ranges(tuple(Range(tuple(sorted(b))) for b in buckets), Range(tuple(sorted(everything))))


def save(table: Ranges, path: Path = RANGES_PATH) -> None:
    """Write `table` where `ranges()` reads it."""
    arrays = {f"drawn{d}": np.array(r.values, dtype=np.int64) for d, r in enumerate(table.by_drawn)}
    arrays["any"] = np.array(table.any.values, dtype=np.int64)
    with path.open("wb") as out:
        np.savez_compressed(out, allow_pickle=False, **arrays)


if __name__ == "__main__":
    save(build_ranges())
