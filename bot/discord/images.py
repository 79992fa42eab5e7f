"""Card images drawn with Pillow: no downloaded assets, cached by the cards shown.

Suits are drawn as shapes (no font needs the suit symbols); ranks use Pillow's
built-in font. `cards_png(cards)` returns PNG bytes for a row of cards (`None` draws a
card back), cached so repeated boards cost nothing.

Images are made on the event loop, so they must be cheap: each card is drawn once, as a
tile in a fixed 64-colour palette, and a row is those tiles pasted side by side and
saved as a palette PNG with light compression. That is about 1 ms for a 13-card hand,
against 13 ms for drawing and saving it in full colour (`deucebot bench discord`).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from engines.cards import Card, Suit, parse_cards

CARD_W, CARD_H = 84, 120
GAP = 8
MARGIN = 10
RADIUS = 9
TABLE_GREEN = (21, 94, 56, 255)
RED = (200, 30, 45, 255)
BLACK = (25, 25, 30, 255)
WHITE = (252, 252, 250, 255)
BACK_BLUE = (40, 70, 150, 255)
OUTLINE = (160, 160, 160, 255)
BACK_LINE = (90, 120, 200, 255)


@lru_cache(maxsize=4)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _suit_shape(draw: ImageDraw.ImageDraw, suit: Suit, cx: float, cy: float, size: float) -> None:
    """Draw a suit symbol centred on (cx, cy), `size` pixels tall."""
    colour = RED if suit in (Suit.DIAMONDS, Suit.HEARTS) else BLACK
    h = size / 2
    if suit is Suit.DIAMONDS:
        draw.polygon([(cx, cy - h), (cx + h * 0.75, cy), (cx, cy + h), (cx - h * 0.75, cy)], colour)
        return
    r = h * 0.52
    if suit is Suit.HEARTS:
        draw.ellipse((cx - 2 * r, cy - h, cx, cy - h + 2 * r), colour)
        draw.ellipse((cx, cy - h, cx + 2 * r, cy - h + 2 * r), colour)
        draw.polygon(
            [
                (cx - 2 * r + 0.5, cy - h + r * 1.2),
                (cx + 2 * r - 0.5, cy - h + r * 1.2),
                (cx, cy + h),
            ],
            colour,
        )
        return
    stem = [(cx, cy), (cx - h * 0.45, cy + h), (cx + h * 0.45, cy + h)]
    if suit is Suit.SPADES:
        draw.polygon([(cx, cy - h), (cx + 2 * r, cy + r * 0.3), (cx - 2 * r, cy + r * 0.3)], colour)
        draw.ellipse((cx - 2 * r, cy - r * 0.6, cx, cy + r * 1.3), colour)
        draw.ellipse((cx, cy - r * 0.6, cx + 2 * r, cy + r * 1.3), colour)
        draw.polygon(stem, colour)
        return
    small = h * 0.42
    for dx, dy in ((0, -h * 0.5), (-h * 0.48, h * 0.1), (h * 0.48, h * 0.1)):
        draw.ellipse((cx + dx - small, cy + dy - small, cx + dx + small, cy + dy + small), colour)
    draw.polygon(stem, colour)


def _draw_card(canvas: Image.Image, card: Card | None, x: int, y: int) -> None:
    draw = ImageDraw.Draw(canvas)
    box = (x, y, x + CARD_W - 1, y + CARD_H - 1)
    if card is None:
        draw.rounded_rectangle(box, RADIUS, fill=BACK_BLUE, outline=WHITE, width=3)
        for i in range(6, CARD_W - 6, 10):
            draw.line((x + i, y + 6, x + 6, y + i), fill=BACK_LINE, width=2)
        return
    draw.rounded_rectangle(box, RADIUS, fill=WHITE, outline=OUTLINE, width=1)
    colour = RED if card.suit in (Suit.DIAMONDS, Suit.HEARTS) else BLACK
    label = card.rank.label
    font = _font(26)
    draw.text((x + 7, y + 4), label, fill=colour, font=font)
    _suit_shape(draw, card.suit, x + 17, y + 44, 18)
    _suit_shape(draw, card.suit, x + CARD_W / 2 + 6, y + CARD_H / 2 + 18, 42)


_EXACT = (TABLE_GREEN, WHITE, RED, BLACK, BACK_BLUE, OUTLINE, BACK_LINE)
"""The colours cards are drawn with: kept exact in the palette (index 0 is the table)."""


def _row_size(count: int) -> tuple[int, int]:
    """Width and height of a row of `count` cards (at least one card's room)."""
    count = max(1, count)
    return MARGIN * 2 + count * CARD_W + (count - 1) * GAP, CARD_H + MARGIN * 2


def _card_x(index: int) -> int:
    """Left edge of the `index`-th card of a row."""
    return MARGIN + index * (CARD_W + GAP)


def draw_cards(cards: Sequence[Card | None]) -> Image.Image:
    """A row of cards drawn in full colour on a green table (the slow way: `render_cards`
    is the same picture from cached tiles). An empty row shows the table."""
    canvas = Image.new("RGBA", _row_size(len(cards)), TABLE_GREEN)
    for i, card in enumerate(cards):
        _draw_card(canvas, card, _card_x(i), MARGIN)
    return canvas


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The palette of every card image: the exact drawing colours, then the blends that
    antialiasing makes between them (learned once from a sample row)."""
    sample = draw_cards([*parse_cards("10H AS QD KC 8S"), None])
    quantized = sample.convert("RGB").quantize(colors=64, dither=Image.Dither.NONE)
    blends = quantized.getpalette() or []
    colours = [c[:3] for c in _EXACT]
    colours += [(blends[i], blends[i + 1], blends[i + 2]) for i in range(0, len(blends) - 2, 3)]
    image = Image.new("P", (1, 1))
    image.putpalette([v for colour in colours[:256] for v in colour])
    return image


@lru_cache(maxsize=1)
def _palette_values() -> list[int]:
    return _palette().getpalette() or []


@lru_cache(maxsize=53)
def _tile(code: int | None) -> Image.Image:
    """One card (or the back), drawn once and mapped to the palette."""
    canvas = Image.new("RGBA", (CARD_W, CARD_H), TABLE_GREEN)
    _draw_card(canvas, None if code is None else Card.from_code(code), 0, 0)
    return canvas.convert("RGB").quantize(palette=_palette(), dither=Image.Dither.NONE)


def _codes(cards: Sequence[Card | None]) -> tuple[int | None, ...]:
    return tuple(None if c is None else c.code for c in cards)


def _row(codes: Sequence[int | None]) -> Image.Image:
    """The row of the cards with these codes (None: a back), pasted from the tiles."""
    canvas = Image.new("P", _row_size(len(codes)), 0)
    canvas.putpalette(_palette_values())
    for i, code in enumerate(codes):
        canvas.paste(_tile(code), (_card_x(i), MARGIN))
    return canvas


def render_cards(cards: Sequence[Card | None]) -> Image.Image:
    """A row of cards on a green table (a palette image); `None` draws a card back. An
    empty row shows the table."""
    return _row(_codes(cards))


@lru_cache(maxsize=2048)
def _png(codes: tuple[int | None, ...]) -> bytes:
    buffer = io.BytesIO()
    _row(codes).save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def cards_png(cards: Sequence[Card | None]) -> bytes:
    """PNG bytes of a row of cards (cached by the exact cards and order)."""
    return _png(_codes(cards))


def warm() -> None:
    """Draw every card tile now (about 30 ms, once), so the first board does not wait."""
    for code in [*range(52), None]:
        _tile(code)


def cache_info() -> str:
    """Hits and misses of the image cache (for the benchmark)."""
    return str(_png.cache_info())
