"""The private hand picture, made to be read on a phone: large cards with large corner
indices, up to five side by side, longer hands as overlapped fans in two rows (Big Two's
thirteen cards: seven over six), so that at 360 px of display width every rank and suit
index stays at least `MIN_INDEX` px tall (`display_index_height`)."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from bot.pictures.cards import HAND
from bot.pictures.kit import BACKGROUND, Canvas
from bot.pictures.model import cards_text, word
from engines.cards import Card

MARGIN = 10
GAP = 8
FAN_STEP = 72
"""The step of an overlapped fan (wider than the corner index, `HAND.step`)."""
ROW_MAX = 7
DISPLAY_WIDTH = 360
MIN_INDEX = 12


def rows_of(count: int) -> list[int]:
    """How many cards go in each row: one row up to `ROW_MAX`, else two (the longer first)."""
    if count <= ROW_MAX:
        return [count]
    first = (count + 1) // 2
    return [first, count - first]


def step_of(count: int) -> int:
    """The horizontal step between cards of a hand of `count` (side by side up to five)."""
    return HAND.width + GAP if count <= 5 else FAN_STEP


def layout(count: int) -> tuple[int, int]:
    """Width and height of the picture of a hand of `count` cards."""
    rows = rows_of(max(1, count))
    step = step_of(count)
    width = MARGIN * 2 + HAND.width + step * (max(rows) - 1)
    height = MARGIN * 2 + HAND.height * len(rows) + GAP * (len(rows) - 1)
    return width, height


def display_index_height(count: int, display: int = DISPLAY_WIDTH) -> float:
    """How tall a card's rank index is when the picture of a hand of `count` cards is shown
    `display` px wide (a picture narrower than that is shown at its own size): the smaller of
    the rank and the suit index."""
    width, _ = layout(count)
    scale = min(1.0, display / width)
    return min(HAND.index_height, HAND.suit_index_height) * scale


@dataclass(frozen=True, slots=True)
class HandModel:
    """A hand picture: the cards in order, the reader's language, the deck's colours."""

    cards: tuple[Card, ...]
    lang: str
    deck: str = "two"

    def draw(self) -> Canvas:
        """The cards, in rows (`rows_of`), on a dark background."""
        canvas = Canvas(Image.new("RGB", layout(len(self.cards)), BACKGROUND))
        step = step_of(len(self.cards))
        start = 0
        for r, count in enumerate(rows_of(len(self.cards))):
            y = MARGIN + r * (HAND.height + GAP)
            for i, card in enumerate(self.cards[start : start + count]):
                canvas.card(card, HAND, MARGIN + i * step, y, self.deck)
            start += count
        return canvas

    def alt(self) -> str:
        """The hand in words."""
        return word("alt.hand", self.lang, n=len(self.cards), cards=cards_text(self.cards))
