"""The drawing toolkit every game's picture shares: colours, the canvas (which records the
card faces it shows), the felt table (drawn once per size), seat plates, chips, dealer and
blind discs, labels, rows and fans of cards, and the PNG encoder (a palette PNG).

Everything here is a pure function of its arguments: no Discord, no table, no clock.
"""

from __future__ import annotations

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
    MINI,
    RED,
    CardSize,
    tile,
)
from bot.pictures.encode import palette_png
from bot.pictures.fonts import cap_height, fit, font, text_width
from bot.pictures.model import word
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
    as cards or written in a label): what the alt text must name; and what its legibility
    depends on: the size of every text written (`texts`: font size, condensed, text) and
    of every face pasted (`face_sizes`)."""

    image: Image.Image
    faces: list[Card] = field(default_factory=list)
    backs: int = 0
    texts: list[tuple[int, bool, str]] = field(default_factory=list)
    face_sizes: list[CardSize] = field(default_factory=list)

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
            self.face_sizes.append(size)

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
        self.texts.append((size, condensed, text))


def new_canvas(background: Image.Image) -> Canvas:
    """A canvas starting as a copy of a cached background layer."""
    return Canvas(background.copy())


@lru_cache(maxsize=64)
def felt(
    width: int, height: int, box: tuple[int, int, int, int], radius: int | None = None
) -> Image.Image:
    """The background of a table picture: a dark room and a felt table with its rail
    inside `box`, its corners rounded by `radius` (None: an oval; drawn once per size)."""
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = box
    r = (y1 - y0) // 2 if radius is None else radius
    rail = (x0 - 14, y0 - 14, x1 + 14, y1 + 14)
    draw.rounded_rectangle(rail, r + 14, fill=RAIL)
    draw.rounded_rectangle(rail, r + 14, outline=RAIL_EDGE, width=3)
    draw.rounded_rectangle(box, r, fill=FELT)
    inset = 26 if radius is None else 10
    inner = (x0 + inset, y0 + inset, x1 - inset, y1 - inset)
    inner_r = (inner[3] - inner[1]) // 2 if radius is None else max(2, r - inset)
    draw.rounded_rectangle(inner, inner_r, outline=FELT_LIGHT, width=2)
    return image


Point = tuple[float, float]


def _stamp_canvas(width: int, height: int) -> Canvas:
    """A transparent canvas to draw a piece on once (pasted wherever it is needed)."""
    return Canvas(Image.new("RGBA", (max(1, int(width)), max(1, int(height))), (0, 0, 0, 0)))


def _paste(canvas: Canvas, stamp: Canvas, offset: Point, at: Point) -> None:
    """Paste `stamp` so that its point `offset` lands on `at` (its texts and faces with it)."""
    image = stamp.image
    canvas.image.paste(image, (round(at[0] - offset[0]), round(at[1] - offset[1])), image)
    canvas.texts.extend(stamp.texts)
    canvas.faces.extend(stamp.faces)
    canvas.face_sizes.extend(stamp.face_sizes)
    canvas.backs += stamp.backs


def _pill_size(text: str, size: int, fill: Colour | None = None) -> tuple[int, int]:
    height = size + size // 2
    chip = height if fill == CHIP else 0  # room for the chip of a bet
    return text_width(text, size, True) + size + chip, height


@lru_cache(maxsize=2048)
def _pill_stamp(text: str, size: int, fill: Colour, colour: Colour) -> Canvas:
    w, h = _pill_size(text, size, fill)
    stamp = _stamp_canvas(w + 1, h + 1)
    stamp.draw.rounded_rectangle((0, 0, w, h), h // 2, fill=fill)
    if fill == CHIP:  # a bet: a chip at the left of its amount
        r = h / 2 - 4
        stamp.draw.ellipse((4, 4, 4 + 2 * r, 4 + 2 * r), fill=CHIP, outline=CHIP_EDGE, width=2)
        stamp.text((w / 2 + r, h / 2), text, size, colour, anchor="mm", condensed=True)
    else:
        stamp.text((w / 2, h / 2), text, size, colour, anchor="mm", condensed=True)
    return stamp


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
    w, h = _pill_size(text, size, fill)
    x = centre[0] - w / 2 if anchor == "m" else centre[0]
    box = (int(x), int(centre[1] - h / 2), int(x + w), int(centre[1] + h / 2))
    _paste(canvas, _pill_stamp(text, size, fill, colour), (0, 0), (box[0], box[1]))
    return box


@dataclass(frozen=True, slots=True)
class Plate:
    """What a seat plate shows: name, a figure line (stack or penalty), its tags (folded,
    all-in, away...) and whether it is the seat to act (with seconds left, written in
    `lang`) or dimmed."""

    name: str
    figure: str
    tags: tuple[tuple[str, Colour], ...] = ()
    to_act: bool = False
    seconds: int | None = None
    dim: bool = False
    winner: bool = False
    lang: str = "en"


PLATE_W, PLATE_H = 160, 76
TAG_SIZE = 23
NAME_SIZE, FIGURE_SIZE = 27, 30
NAME_SIZES = (NAME_SIZE, 25, TAG_SIZE, 21)
"""The sizes a name is tried at on one line before it takes two (at the smallest, whose
capitals are still `MIN_HEIGHT` px tall on a phone)."""
NAME_LINE = 24
"""The distance between the two lines of a name."""
BREAKS = " -_."


def name_lines(name: str, width: int) -> tuple[int, tuple[str, ...]]:
    """How a plate writes `name` in `width` px: (font size, lines). The whole name on one
    line at the largest of `NAME_SIZES` it fits; else in two lines at the smallest, broken
    after a space, hyphen, underscore or dot; only what still does not fit is cut with an
    ellipsis."""
    for size in NAME_SIZES:
        if text_width(name, size, True) <= width:
            return size, (name,)
    size = NAME_SIZES[-1]
    splits = [
        (name[: i + 1].rstrip(), name[i + 1 :].lstrip())
        for i, char in enumerate(name[:-1])
        if char in BREAKS and name[: i + 1].strip() and name[i + 1 :].strip()
    ]
    splits = [pair for pair in splits if text_width(pair[0], size, True) <= width]
    if not splits:
        return size, (fit(name, size, width, True),)
    # The most even break whose lines both fit, else the longest first line that fits.
    both = [pair for pair in splits if text_width(pair[1], size, True) <= width]
    if both:
        first, second = min(both, key=lambda pair: max(text_width(p, size, True) for p in pair))
    else:
        first, second = splits[-1]
    return size, (first, fit(second, size, width, True))


def _name_room(width: int, room: int) -> int:
    return width - 16 - room


def _extra_height(seat: Plate, width: int, room: int) -> int:
    """How much taller than `PLATE_H` a plate is for a name in two lines."""
    lines = name_lines(seat.name, _name_room(width, room))[1]
    return NAME_LINE * (len(lines) - 1)


TAG_GAP = 4
TAG_LINE = TAG_SIZE * 3 // 2 + 6
"""The height of a line of tags under a plate."""


def plate(canvas: Canvas, centre: Point, seat: Plate, width: int = PLATE_W, room: int = 0) -> None:
    """A seat plate centred on `centre`: name on top (`room` px kept free at its right end),
    figure below, tags under the plate (in as many lines as they need within its width), a
    gold frame (and the time left) for the seat to act. Each plate is drawn once and
    pasted again while it does not change."""
    stamp, offset = _plate_stamp(seat, width, room)
    _paste(canvas, stamp, offset, centre)


def plate_height(seat: Plate, width: int = PLATE_W, room: int = 0) -> int:
    """How tall `seat`'s plate is with its name's lines (`room` px kept free at its right)
    and its lines of tags."""
    tags = TAG_LINE * len(_tag_lines(_tags_of(seat), width))
    return PLATE_H + _extra_height(seat, width, room) + tags


def _tags_of(seat: Plate) -> list[tuple[str, Colour]]:
    tags = list(seat.tags)
    if seat.to_act and seat.seconds is not None:
        tags.insert(0, (word("clock", seat.lang, n=seat.seconds), TURN))
    return tags


def _tag_lines(tags: Sequence[tuple[str, Colour]], width: int) -> list[list[tuple[str, Colour]]]:
    """`tags` in lines no wider than `width` (a tag wider than that alone on its line)."""
    lines: list[list[tuple[str, Colour]]] = []
    room = 0
    for tag in tags:
        w = _pill_size(tag[0], TAG_SIZE, tag[1])[0]
        if not lines or w > room:
            lines.append([])
            room = width
        lines[-1].append(tag)
        room -= w + TAG_GAP
    return lines


@lru_cache(maxsize=1024)
def _plate_stamp(seat: Plate, width: int, room: int) -> tuple[Canvas, Point]:
    lines = _tag_lines(_tags_of(seat), width)
    size, names = name_lines(seat.name, _name_room(width, room))
    high = PLATE_H + NAME_LINE * (len(names) - 1)
    stamp_w = width + 8
    stamp = _stamp_canvas(stamp_w, high + 8 + TAG_LINE * len(lines))
    x, y = stamp_w / 2, PLATE_H / 2 + 4
    box = (
        int(x - width / 2),
        int(y - PLATE_H / 2),
        int(x + width / 2),
        int(y - PLATE_H / 2 + high),
    )
    edge = TURN if seat.to_act or seat.winner else PLATE_EDGE
    stamp.draw.rounded_rectangle(
        box,
        12,
        fill=PLATE_DIM if seat.dim else PLATE,
        outline=edge,
        width=4 if seat.to_act or seat.winner else 2,
    )
    ink = DIM_TEXT if seat.dim else TEXT
    first = box[1] + (17 if len(names) > 1 else 21)
    for i, name in enumerate(names):
        stamp.text(
            (x - room / 2, first + i * NAME_LINE),
            name,
            size,
            ink,
            anchor="mm",
            condensed=True,
            width=_name_room(width, room),
        )
    figure_ink = TURN if seat.to_act else ink
    stamp.text(
        (x - room / 2, box[3] - 21),
        seat.figure,
        FIGURE_SIZE,
        figure_ink,
        anchor="mm",
        width=width - 16 - room,
    )
    for i, line in enumerate(lines):
        widths = [_pill_size(text, TAG_SIZE, fill)[0] for text, fill in line]
        left = x - (sum(widths) + TAG_GAP * (len(widths) - 1)) / 2
        for (text, fill), w in zip(line, widths, strict=True):
            ink_tag = BLACK if fill in (TURN, DISC) else TEXT
            middle = box[3] + TAG_LINE * i + TAG_LINE / 2 + 1
            pill(stamp, (left, middle), text, TAG_SIZE, fill, ink_tag, anchor="l")
            left += w + TAG_GAP
    return stamp, (x, y)


PHONE_WIDTH = 480
"""The width of every table picture: shown 360 px wide on a phone (scaled by 0.75), its
smallest text (`TAG_SIZE`) and card index stay at least `MIN_HEIGHT` px tall."""
MARGIN = 10
COLUMN_W = (PHONE_WIDTH - 3 * MARGIN) // 2
"""Seats go in two columns of plates."""
DISPLAY_WIDTH = 360
MIN_HEIGHT = 12
BACKS_STEP = 10
BACKS_FAN = 32
"""The widest a fan of backs in a plate spreads (past its first card)."""


def backs_room(held: int) -> tuple[int, int]:
    """The step of a plate's fan of `held` backs and the room it takes at the plate's right
    end (0, 0 for none)."""
    step = min(BACKS_STEP, BACKS_FAN // (held - 1)) if held > 1 else 0
    return step, MINI.width + step * (held - 1) + 4 if held else 0


def _held(backs: Sequence[int], i: int) -> int:
    return backs[i] if i < len(backs) else 0


def grid_height(seats: Sequence[Plate], backs: Sequence[int] = ()) -> int:
    """How tall the two columns of `seats`' plates are (rows as tall as their taller plate;
    `backs`: the cards each holds face down, which narrow its name's room)."""
    heights = [
        plate_height(seat, COLUMN_W, backs_room(_held(backs, i))[1]) for i, seat in enumerate(seats)
    ]
    return sum(max(heights[i : i + 2]) + MARGIN for i in range(0, len(heights), 2))


def seat_grid(canvas: Canvas, top: int, seats: Sequence[Plate], backs: Sequence[int]) -> int:
    """The seats' plates in play order, two to a row from `top` (each with the number of
    cards it holds face down, `backs`, drawn small at the plate's right end); the y below."""
    y = top
    for first in range(0, len(seats), 2):
        pair = seats[first : first + 2]
        rooms = [backs_room(_held(backs, first + i)) for i in range(len(pair))]
        height = max(
            plate_height(seat, COLUMN_W, room[1]) for seat, room in zip(pair, rooms, strict=True)
        )
        for i, seat in enumerate(pair):
            held = _held(backs, first + i)
            step, room = rooms[i]
            x = MARGIN + COLUMN_W / 2 + i * (COLUMN_W + MARGIN)
            centre = (x, y + PLATE_H / 2)
            plate(canvas, centre, seat, COLUMN_W, room)
            right = x + COLUMN_W / 2 - 10 - MINI.width
            top = int(y + (PLATE_H - MINI.height) / 2)
            if held:
                fan_of_backs(canvas, held, MINI, (int(right - (held - 1) * step), top), step)
        y += height + MARGIN
    return y


FELT_TOP = 44
"""Where a table picture's felt (its rail) starts: below the header line."""
HEADER_SIZE = 24


def table_canvas(
    header: str, inner: int, plates: Sequence[Plate], backs: Sequence[int] = ()
) -> tuple[Canvas, tuple[int, int, int, int], int]:
    """A table picture's canvas, `PHONE_WIDTH` wide: the `header` line, then a felt with
    `inner` px of room, then room for `plates` in two columns (`seat_grid`, with the
    `backs` each holds). Returns the canvas, the felt's box and the y where the plates go."""
    felt_bottom = FELT_TOP + 28 + inner
    height = felt_bottom + MARGIN + grid_height(plates, backs)
    box = (MARGIN + 14, FELT_TOP + 14, PHONE_WIDTH - MARGIN - 14, felt_bottom - 14)
    canvas = new_canvas(felt(PHONE_WIDTH, height, box, 22))
    width = PHONE_WIDTH - 2 * MARGIN - 8
    canvas.text((MARGIN + 4, 10), header, HEADER_SIZE, TEXT, condensed=True, width=width)
    return canvas, box, felt_bottom + MARGIN


def display_heights(canvas: Canvas, display: int = DISPLAY_WIDTH) -> list[tuple[float, str]]:
    """How tall each text and card index of `canvas` is when the picture is shown `display`
    px wide (never enlarged): (height in px, what it is), the smallest first. A text's
    height is that of its capitals and digits; a face's, the smaller of its rank and suit
    index."""
    scale = min(1.0, display / canvas.image.width)
    found = [(cap_height(size, condensed) * scale, text) for size, condensed, text in canvas.texts]
    found += [
        (min(size.index_height, size.suit_index_height) * scale, f"{size.name} card index")
        for size in set(canvas.face_sizes)
    ]
    return sorted(found)


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
    if all(card is None for card in cards):
        fan_of_backs(canvas, len(cards), size, (left, top), advance)
        return
    for i, card in enumerate(cards):
        canvas.card(card, size, left + i * advance, top, deck)


def fan_of_backs(canvas: Canvas, count: int, size: CardSize, at: Point, step: int) -> None:
    """`count` card backs, the first with its top-left corner at `at`, each next one `step`
    px to the right and over it: one paste of a fan composed once per count (a table
    picture has a fan at every seat: one paste each instead of up to 13 took a sixth off
    a Big Two table's drawing time)."""
    if count > 0:
        _paste(canvas, _backs_stamp(count, size, step), (0, 0), at)


@lru_cache(maxsize=256)
def _backs_stamp(count: int, size: CardSize, step: int) -> Canvas:
    image = Image.new("RGBA", (size.width + step * (count - 1), size.height), (0, 0, 0, 0))
    back = tile(None, size)
    for i in range(count):
        image.alpha_composite(back, (i * step, 0))
    return Canvas(image, backs=count)


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


@lru_cache(maxsize=4)
def _palette(extra: tuple[Colour, ...] = ()) -> Image.Image:
    """The palette of every picture: the exact colours (and `extra`), then the antialiasing
    blends learned once from a sample (text and cards on felt, plates and the background)."""
    from bot.pictures.cards import HAND, SMALL, TABLE

    sample = Canvas(felt(720, 480, (120, 110, 600, 370)).copy())
    for i, code in enumerate((8, 21, 35, 51, None)):
        sample.card(None if code is None else Card.from_code(code), TABLE, 140 + i * 90, 180)
        sample.card(None if code is None else Card.from_code(code), HAND, 20 + i * 110, 330)
        sample.card(None if code is None else Card.from_code(code), SMALL, 560, 20 + i * 60, "four")
    plate(sample, (120, 60), Plate("Анна Éloïse", "1,240", (("ALL-IN", TAG_ALL_IN),), True, 20))
    plate(sample, (360, 60), Plate("Bob", "980", (("FOLD", TAG_FOLD), ("D", DISC)), dim=True))
    plate(sample, (600, 60), Plate("Zoë", "80", (("120", CHIP), ("BB", DISC))))
    exact = EXACT + tuple(c for c in extra if c not in EXACT)
    quantized = sample.image.quantize(colors=256 - len(exact), dither=Image.Dither.NONE)
    blends = quantized.getpalette() or []
    colours = list(exact)
    colours += [tuple(blends[i : i + 3]) for i in range(0, len(blends) - 2, 3)]  # type: ignore[misc]
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for colour in colours[:256] for v in colour])
    return palette


def png(image: Image.Image, exact: tuple[Colour, ...] = ()) -> bytes:
    """`image` as a palette PNG (a fixed palette: small files, quick to write; see
    `bot.pictures.encode`); `exact`: colours of the caller's own that must stay exact and
    apart (a chart's lines)."""
    return palette_png(image.quantize(palette=_palette(exact), dither=Image.Dither.NONE))
