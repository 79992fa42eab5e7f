"""The drawing toolkit every game's picture shares: colours, the canvas (which records the
card faces it shows), the felt table (drawn once per size), seat plates, chips, dealer and
blind discs, labels, rows and fans of cards, and the PNG encoder (a palette PNG).

Everything here is a pure function of its arguments: no Discord, no table, no clock.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.pictures.cards import (
    BACK,
    BACK_EDGE,
    BACK_LINE,
    BLACK,
    BLUE,
    FACE,
    FACE_EDGE,
    GREEN,
    RED,
    CardSize,
    tile,
)
from bot.pictures.fonts import fit, font, text_width
from engines.cards import Card

Colour = tuple[int, int, int]

BACKGROUND = (30, 33, 38)
FELT = (24, 100, 60)
FELT_LIGHT = (30, 116, 70)
RAIL = (86, 52, 30)
RAIL_EDGE = (58, 34, 20)
PLATE = (18, 22, 28)
PLATE_EDGE = (96, 102, 112)
PLATE_DIM = (44, 48, 54)
TURN = (250, 196, 50)
WIN = (250, 196, 50)
TEXT = (244, 244, 244)
MUTED = (176, 182, 192)
DIM_TEXT = (120, 124, 132)
CHIP = (214, 48, 48)
CHIP_EDGE = (250, 250, 250)
DISC = (250, 250, 250)
TAG_ALL_IN = (196, 36, 48)
TAG_FOLD = (92, 96, 104)
TAG_AWAY = (150, 110, 30)
TAG_PASS = (80, 84, 160)
POT_BG = (12, 60, 36)

EXACT: tuple[Colour, ...] = (
    BACKGROUND,
    FELT,
    FELT_LIGHT,
    RAIL,
    RAIL_EDGE,
    PLATE,
    PLATE_EDGE,
    PLATE_DIM,
    TURN,
    TEXT,
    MUTED,
    DIM_TEXT,
    CHIP,
    CHIP_EDGE,
    DISC,
    TAG_ALL_IN,
    TAG_FOLD,
    TAG_AWAY,
    TAG_PASS,
    POT_BG,
    FACE,
    FACE_EDGE,
    RED,
    BLACK,
    BLUE,
    GREEN,
    BACK,
    BACK_LINE,
    BACK_EDGE,
)
"""The colours pictures are drawn with, kept exact in the PNG palette."""


@dataclass
class Canvas:
    """An RGB picture being drawn, with the card faces it shows (`faces`, in order: pasted
    as cards or written in a label): what the alt text must name."""

    image: Image.Image
    faces: list[Card] = field(default_factory=list)
    backs: int = 0

    @property
    def draw(self) -> ImageDraw.ImageDraw:
        """A drawing context on the image."""
        return ImageDraw.Draw(self.image)

    def card(self, card: Card | None, size: CardSize, x: int, y: int, deck: str = "two") -> None:
        """Paste `card` (None: a back) with its top-left corner at (x, y)."""
        piece = tile(None if card is None else card.code, size, deck)
        self.image.paste(piece, (x, y), piece)
        if card is None:
            self.backs += 1
        else:
            self.faces.append(card)

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        colour: Colour = TEXT,
        *,
        anchor: str = "la",
        condensed: bool = False,
        width: int | None = None,
    ) -> None:
        """Draw `text` at `xy` (cut with an ellipsis to `width` pixels when given)."""
        if width is not None:
            text = fit(text, size, width, condensed)
        self.draw.text(xy, text, fill=colour, font=font(size, condensed), anchor=anchor)


def new_canvas(background: Image.Image) -> Canvas:
    """A canvas starting as a copy of a cached background layer."""
    return Canvas(background.copy())


@lru_cache(maxsize=16)
def felt(width: int, height: int, box: tuple[int, int, int, int]) -> Image.Image:
    """The background of a table picture: a dark room and an oval felt table with its rail
    inside `box` (drawn once per size)."""
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = box
    draw.rounded_rectangle((x0 - 14, y0 - 14, x1 + 14, y1 + 14), (y1 - y0) // 2 + 14, fill=RAIL)
    draw.rounded_rectangle(
        (x0 - 14, y0 - 14, x1 + 14, y1 + 14), (y1 - y0) // 2 + 14, outline=RAIL_EDGE, width=3
    )
    draw.rounded_rectangle(box, (y1 - y0) // 2, fill=FELT)
    inner = (x0 + 26, y0 + 26, x1 - 26, y1 - 26)
    draw.rounded_rectangle(inner, (inner[3] - inner[1]) // 2, outline=FELT_LIGHT, width=2)
    return image


def around(count: int, centre: tuple[float, float], radii: tuple[float, float]) -> list[Point]:
    """`count` points on an ellipse, the first at the bottom, then clockwise (play order)."""
    cx, cy = centre
    rx, ry = radii
    points = []
    for i in range(count):
        angle = math.pi / 2 + 2 * math.pi * i / count
        points.append((cx + rx * math.cos(angle), cy + ry * math.sin(angle)))
    return points


Point = tuple[float, float]


def _stamp_canvas(width: int, height: int) -> Canvas:
    """A transparent canvas to draw a piece on once (pasted wherever it is needed)."""
    return Canvas(Image.new("RGBA", (max(1, int(width)), max(1, int(height))), (0, 0, 0, 0)))


def _paste(canvas: Canvas, stamp: Image.Image, offset: Point, at: Point) -> None:
    """Paste `stamp` so that its point `offset` lands on `at`."""
    canvas.image.paste(stamp, (round(at[0] - offset[0]), round(at[1] - offset[1])), stamp)


def _pill_size(text: str, size: int) -> tuple[int, int]:
    return text_width(text, size, True) + size, size + size // 2


@lru_cache(maxsize=2048)
def _pill_stamp(text: str, size: int, fill: Colour, colour: Colour) -> Image.Image:
    w, h = _pill_size(text, size)
    stamp = _stamp_canvas(w + 1, h + 1)
    stamp.draw.rounded_rectangle((0, 0, w, h), h // 2, fill=fill)
    stamp.text((w / 2, h / 2), text, size, colour, anchor="mm", condensed=True)
    return stamp.image


def pill(
    canvas: Canvas,
    centre: Point,
    text: str,
    size: int,
    fill: Colour,
    colour: Colour = TEXT,
    *,
    anchor: str = "m",
) -> tuple[int, int, int, int]:
    """A rounded label with `text`, centred on `centre` (`anchor` "l": its left edge there);
    returns its box."""
    w, h = _pill_size(text, size)
    x = centre[0] - w / 2 if anchor == "m" else centre[0]
    box = (int(x), int(centre[1] - h / 2), int(x + w), int(centre[1] + h / 2))
    _paste(canvas, _pill_stamp(text, size, fill, colour), (0, 0), (box[0], box[1]))
    return box


@lru_cache(maxsize=1024)
def _chips_stamp(amount: int, below: bool, size: int) -> tuple[Image.Image, Point]:
    label = f"{amount:,}"
    r = size // 2
    w = max(text_width(label, size, True) + 12, 2 * r + 2)
    height = 2 * r + 12 + size + 10
    stamp = _stamp_canvas(w + 2, height + 2)
    x = w / 2 + 1
    y = r + 8 if below else height - r - 4
    for i in range(3):
        cy = y + 4 - i * 4
        stamp.draw.ellipse((x - r, cy - r, x + r, cy + r), fill=CHIP, outline=CHIP_EDGE, width=2)
    mid = y + r + 4 + size / 2 + 2 if below else y - r - 8 - size / 2 - 2
    box = (int(x - w / 2), int(mid - size / 2 - 3), int(x + w / 2), int(mid + size / 2 + 3))
    stamp.draw.rounded_rectangle(box, 7, fill=POT_BG)
    stamp.text((x, mid), label, size, TEXT, anchor="mm", condensed=True)
    return stamp.image, (x, y)


def chips(
    canvas: Canvas, centre: Point, amount: int, *, below: bool = True, size: int = 22
) -> None:
    """A small stack of chips centred on `centre` with the amount under it (`below`) or
    over it (a bet in front of a seat)."""
    stamp, offset = _chips_stamp(amount, below, size)
    _paste(canvas, stamp, offset, centre)


@lru_cache(maxsize=256)
def _disc_stamp(label: str, fill: Colour, size: int) -> Image.Image:
    stamp = _stamp_canvas(size + 2, size + 2)
    r = size / 2
    x = y = r + 1
    stamp.draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=BLACK, width=2)
    text_size = size // 2 if len(label) > 1 else size * 2 // 3
    ink = BLACK if fill in (DISC, TURN) else TEXT
    stamp.text((x, y + 1), label, text_size, ink, anchor="mm", condensed=True)
    return stamp.image


def disc(canvas: Canvas, centre: Point, label: str, fill: Colour = DISC, size: int = 30) -> None:
    """A round marker (the dealer button "D", a blind "SB"/"BB") centred on `centre`."""
    _paste(canvas, _disc_stamp(label, fill, size), (size / 2 + 1, size / 2 + 1), centre)


@dataclass(frozen=True, slots=True)
class Plate:
    """What a seat plate shows: name, a figure line (stack or penalty), its tags (folded,
    all-in, away...) and whether it is the seat to act (with seconds left) or dimmed."""

    name: str
    figure: str
    tags: tuple[tuple[str, Colour], ...] = ()
    to_act: bool = False
    seconds: int | None = None
    dim: bool = False
    winner: bool = False


PLATE_W, PLATE_H = 160, 76
TAG_SIZE = 20
NAME_SIZE, FIGURE_SIZE = 27, 30


def plate(canvas: Canvas, centre: Point, seat: Plate, width: int = PLATE_W, room: int = 0) -> None:
    """A seat plate centred on `centre`: name on top (`room` px kept free at its right end),
    figure below, tags under the plate, a gold frame (and the time left) for the seat to
    act. Each plate is drawn once and pasted again while it does not change."""
    stamp, offset = _plate_stamp(seat, width, room)
    _paste(canvas, stamp, offset, centre)


def _tags_of(seat: Plate) -> list[tuple[str, Colour]]:
    tags = list(seat.tags)
    if seat.to_act and seat.seconds is not None:
        tags.insert(0, (f"{seat.seconds} s", TURN))
    return tags


@lru_cache(maxsize=1024)
def _plate_stamp(seat: Plate, width: int, room: int) -> tuple[Image.Image, Point]:
    tags = _tags_of(seat)
    widths = [_pill_size(text, TAG_SIZE)[0] for text, _ in tags]
    tags_w = sum(widths) + 4 * max(0, len(widths) - 1)
    stamp_w = max(width, tags_w) + 8
    stamp = _stamp_canvas(stamp_w, PLATE_H + 8 + (TAG_SIZE * 2 + 4 if tags else 0))
    x, y = stamp_w / 2, PLATE_H / 2 + 4
    box = (int(x - width / 2), int(y - PLATE_H / 2), int(x + width / 2), int(y + PLATE_H / 2))
    edge = TURN if seat.to_act or seat.winner else PLATE_EDGE
    stamp.draw.rounded_rectangle(
        box,
        12,
        fill=PLATE_DIM if seat.dim else PLATE,
        outline=edge,
        width=4 if seat.to_act or seat.winner else 2,
    )
    ink = DIM_TEXT if seat.dim else TEXT
    stamp.text(
        (x - room / 2, box[1] + 21),
        seat.name,
        NAME_SIZE,
        ink,
        anchor="mm",
        condensed=True,
        width=width - 16 - room,
    )
    figure_ink = TURN if seat.to_act else ink
    stamp.text((x, box[1] + 55), seat.figure, FIGURE_SIZE, figure_ink, anchor="mm")
    left = x - tags_w / 2
    for (text, fill), w in zip(tags, widths, strict=True):
        ink_tag = BLACK if fill == TURN else TEXT
        pill(stamp, (left, box[3] + 17), text, TAG_SIZE, fill, ink_tag, anchor="l")
        left += w + 4
    return stamp.image, (x, y)


def row(
    canvas: Canvas,
    cards: Sequence[Card | None],
    size: CardSize,
    centre: Point,
    *,
    gap: int = 6,
    step: int | None = None,
    deck: str = "two",
) -> None:
    """A row of cards centred on `centre` (`step`: overlap them, left card under right)."""
    if not cards:
        return
    advance = size.width + gap if step is None else step
    total = size.width + advance * (len(cards) - 1)
    left = int(centre[0] - total / 2)
    top = int(centre[1] - size.height / 2)
    for i, card in enumerate(cards):
        canvas.card(card, size, left + i * advance, top, deck)


def slots(canvas: Canvas, count: int, size: CardSize, centre: Point, gap: int = 6) -> None:
    """Outlines of `count` empty card places centred on `centre` (the board still to come)."""
    total = size.width * count + gap * (count - 1)
    left = centre[0] - total / 2
    top = centre[1] - size.height / 2
    for i in range(count):
        x = left + i * (size.width + gap)
        canvas.draw.rounded_rectangle(
            (x, top, x + size.width - 1, top + size.height - 1),
            size.radius,
            outline=FELT_LIGHT,
            width=2,
        )


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The palette of every picture: the exact colours, then the antialiasing blends learned
    once from a sample (text and cards on felt, plates and the background)."""
    from bot.pictures.cards import HAND, SMALL, TABLE

    sample = Canvas(felt(720, 480, (120, 110, 600, 370)).copy())
    for i, code in enumerate((8, 21, 35, 51, None)):
        sample.card(None if code is None else Card.from_code(code), TABLE, 140 + i * 90, 180)
        sample.card(None if code is None else Card.from_code(code), HAND, 20 + i * 110, 330)
        sample.card(None if code is None else Card.from_code(code), SMALL, 560, 20 + i * 60, "four")
    plate(sample, (120, 60), Plate("Анна Éloïse", "1,240", (("ALL-IN", TAG_ALL_IN),), True, 20))
    plate(sample, (360, 60), Plate("Bob", "980", (("FOLD", TAG_FOLD),), dim=True))
    chips(sample, (300, 300), 120)
    disc(sample, (460, 300), "D")
    quantized = sample.image.quantize(colors=256 - len(EXACT), dither=Image.Dither.NONE)
    blends = quantized.getpalette() or []
    colours = list(EXACT)
    colours += [tuple(blends[i : i + 3]) for i in range(0, len(blends) - 2, 3)]  # type: ignore[misc]
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for colour in colours[:256] for v in colour])
    return palette


def png(image: Image.Image) -> bytes:
    """`image` as a palette PNG (a fixed palette: small files, quick to write)."""
    quantized = image.quantize(palette=_palette(), dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    quantized.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()
