"""The `/stats` chart: a person's rating over their rated matches (top) and their result
per deal (bottom: penalties per deal for Big Two, chips won or lost per hand for the
poker games), drawn with Pillow from plain figures read from storage.

`stats_chart(figures, lang)` returns PNG bytes and the alt text; it is pure and CPU-bound,
so callers run it off the event loop (`asyncio.to_thread`) and cache it (`ChartCache`).
Titles are drawn in the reader's language with the pictures' shipped fonts
(`bot.pictures.fonts`: Latin with accents and Cyrillic, the same glyphs in every clone).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import t
from bot.pictures import fonts

WIDTH, HEIGHT = 800, 520
BACKGROUND = (30, 33, 40)
GRID = (60, 64, 74)
TEXT = (220, 222, 228)
MU_LINE = (120, 170, 255)
BAND = (55, 75, 115)
CONSERVATIVE = (255, 200, 90)
GOOD, BAD = (90, 200, 120), (235, 95, 90)

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@dataclass(frozen=True, slots=True)
class StatsFigures:
    """What the chart shows: per rated match mu and sigma (oldest first), per deal the
    person's result, and whether results are penalties (lower is better) or chips."""

    name: str
    game_title: str
    mus: tuple[float, ...]
    sigmas: tuple[float, ...]
    deals: tuple[int, ...]
    penalties: bool


def _font(size: int) -> Font:
    return fonts.font(size)


def _label(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, font: Font) -> None:
    draw.text(xy, fonts.drawable(text), fill=TEXT, font=font)


def _panel_range(values: Sequence[float]) -> tuple[float, float]:
    low, high = min(values), max(values)
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    pad = (high - low) * 0.08
    return low - pad, high + pad


def _axis(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], low: float, high: float, font: Font
) -> None:
    left, top, right, bottom = box
    draw.rectangle(box, outline=GRID)
    for i in range(5):
        value = low + (high - low) * i / 4
        y = bottom - (bottom - top) * i / 4
        draw.line((left, y, right, y), fill=GRID)
        draw.text((4, y - 7), f"{value:.0f}", fill=TEXT, font=font)


def _rating_panel(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], f: StatsFigures, font: Font
) -> None:
    left, top, right, bottom = box
    lows = [m - s for m, s in zip(f.mus, f.sigmas, strict=True)]
    highs = [m + s for m, s in zip(f.mus, f.sigmas, strict=True)]
    cons = [m - 3 * s for m, s in zip(f.mus, f.sigmas, strict=True)]
    low, high = _panel_range([*lows, *highs, *cons])
    _axis(draw, box, low, high, font)
    n = len(f.mus)

    def x(i: int) -> float:
        return left + (right - left) * (i / (n - 1) if n > 1 else 0.5)

    def y(v: float) -> float:
        return bottom - (bottom - top) * (v - low) / (high - low)

    band = [(x(i), y(v)) for i, v in enumerate(highs)] + [
        (x(i), y(v)) for i, v in reversed(list(enumerate(lows)))
    ]
    if n > 1:
        draw.polygon(band, fill=BAND)
        draw.line([(x(i), y(v)) for i, v in enumerate(f.mus)], fill=MU_LINE, width=3)
        draw.line([(x(i), y(v)) for i, v in enumerate(cons)], fill=CONSERVATIVE, width=2)
    for i, v in enumerate(f.mus):
        draw.ellipse((x(i) - 3, y(v) - 3, x(i) + 3, y(v) + 3), fill=MU_LINE)


def _deal_panel(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], f: StatsFigures, font: Font
) -> None:
    left, top, right, bottom = box
    values = list(f.deals)
    low, high = _panel_range([0, *values])
    _axis(draw, box, low, high, font)
    n = len(values)
    width = (right - left) / max(n, 1)

    def y(v: float) -> float:
        return bottom - (bottom - top) * (v - low) / (high - low)

    for i, v in enumerate(values):
        good = v == 0 if f.penalties else v > 0
        x0 = left + i * width + width * 0.15
        x1 = left + (i + 1) * width - width * 0.15
        draw.rectangle(
            (x0, min(y(0), y(v)), max(x0 + 1, x1), max(y(0), y(v))), fill=GOOD if good else BAD
        )


def decimal(value: float, lang: str) -> str:
    """``12.3`` (a decimal comma in French and Ukrainian)."""
    text = f"{value:.1f}"
    return text.replace(".", ",") if lang in ("fr", "uk") else text


def alt_text(f: StatsFigures, lang: str) -> str:
    """The chart in words (the attachment's description), in `lang`."""
    parts = [t("ratings.chart.alt", lang, name=f.name, game=f.game_title)]
    if f.mus:
        first, last = f.mus[0] - 3 * f.sigmas[0], f.mus[-1] - 3 * f.sigmas[-1]
        parts.append(
            t("ratings.chart.alt_rating", lang, matches=len(f.mus),
              first=decimal(first, lang), last=decimal(last, lang))
        )  # fmt: skip
    if f.deals:
        key = "ratings.chart.alt_penalties" if f.penalties else "ratings.chart.alt_chips"
        total = sum(f.deals)
        parts.append(
            t(
                key,
                lang,
                deals=len(f.deals),
                total=total,
                average=decimal(total / len(f.deals), lang),
            )
        )
    return " ".join(parts)


def stats_chart(f: StatsFigures, lang: str) -> tuple[bytes, str]:
    """The chart as PNG bytes, with its alt text."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    small, big = _font(12), _font(18)
    _label(draw, (50, 8), t("ratings.chart.title", lang, name=f.name, game=f.game_title), big)
    _label(draw, (50, 36), t("ratings.chart.rating", lang), small)
    top_box = (50, 54, WIDTH - 16, 270)
    if f.mus:
        _rating_panel(draw, top_box, f, small)
    else:
        draw.rectangle(top_box, outline=GRID)
    key = "ratings.chart.penalties" if f.penalties else "ratings.chart.chips"
    _label(draw, (50, 284), t(key, lang), small)
    deal_box = (50, 302, WIDTH - 16, HEIGHT - 16)
    if f.deals:
        _deal_panel(draw, deal_box, f, small)
    else:
        draw.rectangle(deal_box, outline=GRID)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue(), alt_text(f, lang)
