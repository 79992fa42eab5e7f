"""Reading which cards a picture the bot uploaded shows, from its pixels.

The bot's card pictures are rows of card tiles (`bot.discord.images`): each slot of a row
is compared with every card face and the back, drawn alone. A slot that is none of them
fails the check: a picture the check cannot read is not let through.
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image

from bot.discord.images import CARD_H, CARD_W, GAP, MARGIN, render_cards
from engines.cards import Card


def _slot(image: Image.Image, index: int) -> bytes:
    """The pixels of the `index`-th card slot of a row."""
    x = MARGIN + index * (CARD_W + GAP)
    return image.crop((x, MARGIN, x + CARD_W, MARGIN + CARD_H)).convert("RGB").tobytes()


@lru_cache(maxsize=1)
def _faces() -> dict[bytes, Card | None]:
    """The pixels of every card face (and the back, None), drawn alone."""
    faces: dict[bytes, Card | None] = {}
    for card in [*(Card.from_code(code) for code in range(52)), None]:
        faces[_slot(render_cards([card]), 0)] = card
    return faces


def cards_in_picture(data: bytes) -> list[Card | None]:
    """The cards a row picture shows, left to right (None: a card back); fails on a picture
    that is not a row of cards."""
    image = Image.open(io.BytesIO(data))
    width, height = image.size
    count, rest = divmod(width - 2 * MARGIN + GAP, CARD_W + GAP)
    assert height == CARD_H + 2 * MARGIN and rest == 0, f"not a row of cards: {image.size}"
    faces = _faces()
    shown: list[Card | None] = []
    for index in range(count):
        pixels = _slot(image, index)
        assert pixels in faces or _is_table(image, index), f"slot {index} is no card"
        if pixels in faces:
            shown.append(faces[pixels])
    return shown


def _is_table(image: Image.Image, index: int) -> bool:
    """Whether slot `index` is bare table, one colour (the picture of an empty row)."""
    x = MARGIN + index * (CARD_W + GAP)
    slot = image.convert("RGB").crop((x, MARGIN, x + CARD_W, MARGIN + CARD_H))
    return len(set(slot.getdata())) == 1
