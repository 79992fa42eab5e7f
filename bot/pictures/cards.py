"""Playing cards as picture tiles: faces with large corner indices, backs, in the two-colour
deck (red and black) or the four-colour deck (spades black, hearts red, diamonds blue, clubs
green), at a few fixed sizes. Each tile is drawn once and cached (an RGBA image whose
rounded corners are transparent, pasted onto any background).

The corner index (rank above suit, top left) is what stays visible when cards overlap in a
fan, so a fan's step is never narrower than the index (`CardSize.step`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.pictures.fonts import cap_height, font, text_width
from engines.cards import Card, Suit

Colour = tuple[int, int, int]

FACE = (252, 252, 250)
FACE_EDGE = (150, 150, 150)
RED = (204, 28, 44)
BLACK = (22, 22, 28)
BLUE = (22, 86, 200)
GREEN = (16, 128, 52)
BACK = (40, 70, 150)
BACK_LINE = (92, 124, 204)
BACK_EDGE = (240, 240, 240)

DECKS = ("two", "four")
"""The decks a member may choose: two colours (the default) or four."""

SUIT_GLYPH = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}


def suit_colour(suit: Suit, deck: str = "two") -> Colour:
    """The ink of `suit` in `deck` ("two" or "four" colours)."""
    if deck == "four":
        return {Suit.SPADES: BLACK, Suit.HEARTS: RED, Suit.DIAMONDS: BLUE, Suit.CLUBS: GREEN}[suit]
    return RED if suit in (Suit.DIAMONDS, Suit.HEARTS) else BLACK


@dataclass(frozen=True, slots=True)
class CardSize:
    """One size of card: the tile, its corner index fonts and the narrowest fan step."""

    name: str
    width: int
    height: int
    rank_size: int
    suit_size: int
    radius: int

    @property
    def index_height(self) -> int:
        """The drawn height of the rank index (capital letters and digits), in pixels."""
        return cap_height(self.rank_size, condensed=True)

    @property
    def suit_index_height(self) -> int:
        """The drawn height of the suit index under the rank, in pixels."""
        box = font(self.suit_size).getbbox("♠", anchor="ls")
        return int(box[3] - box[1])

    @property
    def step(self) -> int:
        """The narrowest horizontal step of a fan that leaves the corner index readable."""
        return max(text_width("10", self.rank_size, True), self.suit_size) + self.pad * 2

    @property
    def pad(self) -> int:
        """Space between the tile's edge and its corner index."""
        return max(3, self.width // 16)


HAND = CardSize("hand", 100, 140, 40, 34, 10)
"""A private hand's cards (the hand picture)."""
TABLE = CardSize("table", 80, 112, 34, 28, 8)
"""Cards in the middle of a table (the board, the combination to beat)."""
SMALL = CardSize("small", 56, 78, 24, 23, 6)
"""Cards in front of a seat (a showdown, a locked card)."""
MINI = CardSize("mini", 30, 42, 14, 12, 4)
"""Backs in a seat's fan (how many cards it holds)."""


def _draw_face(draw: ImageDraw.ImageDraw, card: Card, size: CardSize, deck: str) -> None:
    w, h = size.width, size.height
    draw.rounded_rectangle((0, 0, w - 1, h - 1), size.radius, fill=FACE, outline=FACE_EDGE)
    ink = suit_colour(card.suit, deck)
    pad = size.pad
    top = pad + size.index_height
    draw.text((pad, top), card.rank.label, fill=ink, font=font(size.rank_size, True), anchor="ls")
    glyph = SUIT_GLYPH[card.suit]
    suit_top = top + max(3, size.rank_size // 6)
    rank_w = text_width(card.rank.label, size.rank_size, True)
    suit_w = text_width(glyph, size.suit_size)
    draw.text(
        (pad + max(0, (rank_w - suit_w) // 2), suit_top),
        glyph,
        fill=ink,
        font=font(size.suit_size),
        anchor="lt",
    )
    big = int(h * 0.46)
    draw.text((w * 0.62, h * 0.68), glyph, fill=ink, font=font(big), anchor="mm")


def _draw_back(draw: ImageDraw.ImageDraw, size: CardSize) -> None:
    w, h = size.width, size.height
    draw.rounded_rectangle((0, 0, w - 1, h - 1), size.radius, fill=BACK, outline=BACK_EDGE, width=2)
    step = max(6, w // 8)
    inset = max(3, w // 12)
    for i in range(-h, w + h, step):
        draw.line((i, inset, i + h, inset + h), fill=BACK_LINE, width=1)
        draw.line((i + h, inset, i, inset + h), fill=BACK_LINE, width=1)
    draw.rounded_rectangle(
        (inset, inset, w - 1 - inset, h - 1 - inset),
        max(2, size.radius - 3),
        outline=BACK_EDGE,
        width=1,
    )


@lru_cache(maxsize=1024)
def tile(code: int | None, size: CardSize, deck: str = "two") -> Image.Image:
    """The tile of the card with `code` (None: a back) at `size` in `deck`: RGBA, drawn once."""
    image = Image.new("RGBA", (size.width, size.height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if code is None:
        _draw_back(draw, size)
        # the lattice ran past the rounded corners: cut them off again
        mask = Image.new("L", image.size, 0)
        ImageDraw.Draw(mask).rounded_rectangle(
            (0, 0, size.width - 1, size.height - 1), size.radius, fill=255
        )
        image.putalpha(mask)
    else:
        _draw_face(draw, Card.from_code(code), size, deck)
    return image
