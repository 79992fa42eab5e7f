"""The fonts pictures are drawn with: DejaVu Sans Bold (and its condensed cut for names),
shipped in this package (`fonts/`, with their licence), so every clone draws the same
glyphs: Latin with accents, Cyrillic (Ukrainian names), the four suits.

Pillow's built-in font has no Cyrillic, and a system path exists only on some machines.
"""

from __future__ import annotations

import io
from functools import lru_cache
from importlib import resources

from PIL import ImageFont

BOLD = "DejaVuSans-Bold.ttf"
CONDENSED = "DejaVuSansCondensed-Bold.ttf"


@lru_cache(maxsize=8)
def _font_bytes(name: str) -> bytes:
    return (resources.files("bot.pictures") / "fonts" / name).read_bytes()


@lru_cache(maxsize=64)
def font(size: int, condensed: bool = False) -> ImageFont.FreeTypeFont:
    """The bold font at `size` pixels (the condensed cut when `condensed`), loaded once."""
    data = _font_bytes(CONDENSED if condensed else BOLD)
    return ImageFont.truetype(io.BytesIO(data), size)


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, condensed: bool = False) -> int:
    """How many pixels wide `text` is drawn at `size`."""
    return int(font(size, condensed).getlength(text) + 0.5)


@lru_cache(maxsize=4096)
def fit(text: str, size: int, width: int, condensed: bool = False) -> str:
    """`text`, cut with an ellipsis so that it is at most `width` pixels wide at `size`."""
    if text_width(text, size, condensed) <= width:
        return text
    cut = text
    while cut and text_width(cut + "…", size, condensed) > width:
        cut = cut[:-1]
    return cut.rstrip() + "…"


@lru_cache(maxsize=64)
def cap_height(size: int, condensed: bool = False) -> int:
    """The drawn height of a capital letter (and a digit) at `size`, in pixels (the ink
    from the baseline up: no tail below it, as Q's)."""
    box = font(size, condensed).getbbox("KHE8", anchor="ls")
    return int(box[3] - box[1])


@lru_cache(maxsize=4096)
def has_glyph(char: str) -> bool:
    """Whether the fonts draw `char` (rather than the empty box of a missing glyph)."""
    if char.isspace():
        return True
    bold = font(24)
    return bytes(bold.getmask(char)) != _missing_mask()


@lru_cache(maxsize=1)
def _missing_mask() -> bytes:
    return bytes(font(24).getmask("\ue000"))


def drawable(text: str) -> str:
    """`text` without the characters the fonts cannot draw (emoji, other scripts), its
    spaces tidied."""
    return " ".join("".join(c for c in text if has_glyph(c)).split())
