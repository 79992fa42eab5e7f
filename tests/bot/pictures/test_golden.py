"""Golden pictures: a few fixed moments of seeded matches drawn exactly as committed in
`golden/`, within a small tolerance (antialiasing may move a little between Pillow or
FreeType releases), so an accidental change of layout shows in review.

After a deliberate change of the pictures, write them again and look at them:
``python -m tests.bot.pictures.test_golden``.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.pictures import Picture
from bot.pictures.gallery import key_moments

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = {
    "holdem-4-mid-deal": ("holdem", 4, 5, "mid-deal"),
    "holdem-9-side-pots": ("holdem", 9, 5, "side-pots"),
    "draw-6-mid-deal": ("draw", 6, 5, "mid-deal"),
    "draw-4-mid-deal": ("draw", 4, 5, "mid-deal"),
    "duel-2-mid-deal": ("duel", 2, 5, "mid-deal"),
    "bigtwo-4-mid-deal": ("bigtwo", 4, 5, "mid-deal"),
    "bigtwo-4-showdown": ("bigtwo", 4, 5, "showdown"),
    "bigtwo-4-hand-four-colour": ("bigtwo", 4, 5, "hand-four-colour"),
}
MOST_CHANGED = 0.005
"""The share of pixels that may differ (by more than `NOISE` in a channel)."""
NOISE = 48


def _picture(game: str, seats: int, seed: int, label: str) -> Picture:
    moments = dict(key_moments(game, seats, seed, "uk"))
    return moments[label]


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_picture_matches_its_golden_image(name: str) -> None:
    picture = _picture(*CASES[name])
    drawn = Image.open(io.BytesIO(picture.png)).convert("RGB")
    golden = Image.open(GOLDEN / f"{name}.png").convert("RGB")
    assert drawn.size == golden.size
    diff = (
        ImageChops.difference(drawn, golden).convert("L").point(lambda v: 255 if v > NOISE else 0)
    )
    changed = sum(diff.histogram()[255:]) / (drawn.width * drawn.height)
    assert changed <= MOST_CHANGED, f"{name}: {changed:.2%} of the pixels changed"


def test_the_comparison_sees_a_changed_layout() -> None:
    """Two different moments of the same game are far apart under the same measure."""
    one = Image.open(GOLDEN / "bigtwo-4-mid-deal.png").convert("RGB")
    other = _picture("bigtwo", 4, 6, "mid-deal")
    drawn = Image.open(io.BytesIO(other.png)).convert("RGB")
    diff = ImageChops.difference(drawn, one).convert("L").point(lambda v: 255 if v > NOISE else 0)
    assert sum(diff.histogram()[255:]) / (one.width * one.height) > MOST_CHANGED


if __name__ == "__main__":
    GOLDEN.mkdir(exist_ok=True)
    for case, args in CASES.items():
        (GOLDEN / f"{case}.png").write_bytes(_picture(*args).png)
        print(GOLDEN / f"{case}.png")
