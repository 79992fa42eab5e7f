"""Checks of the pictures the bot posts, read from their pixels.

`cards_in_picture` finds every card face a picture drawn by `bot.pictures` shows: a face is
a tile with a grey left edge on white (the straight part of its outline as long as one
card size's), whose corner index (rank over suit, the part always visible, even in a fan)
is compared with every card's index at that size, in both decks. An edge of a face whose
index is none of them fails the check: a picture the check cannot read is not let
through. `check_pictures` checks a channel's boards and results carry their pictures.
"""

from __future__ import annotations

import io
import re
from functools import lru_cache

from PIL import Image

from bot.pictures.cards import DECKS, FACE, FACE_EDGE, HAND, SMALL, TABLE, CardSize, tile
from bot.pictures.kit import BACKGROUND, _palette
from deucebot_dev.discord_standin import FakeDiscord
from engines.cards import Card
from tests.e2e.helpers import BOARD_COLOUR, first_embed, version_image

SIZES = (HAND, TABLE, SMALL)
DEALT = re.compile(r"(?:deal|hand) (\d+) · turn")


def _index_box(size: CardSize) -> tuple[int, int, int, int]:
    """The part of a face's corner index inside its outline (left, top, right, bottom),
    visible however a fan overlaps the card."""
    bottom = size.pad + size.index_height + max(3, size.rank_size // 6) + size.suit_index_height
    return size.radius, size.radius, size.step, min(size.height - size.radius, bottom + 2)


@lru_cache(maxsize=8)
def _edge(size: CardSize) -> tuple[int, int]:
    """Where the straight part of a face's left outline starts and how long it is (grey
    at the left, white beside it), measured on a drawn face."""
    face = tile(0, size).convert("RGB")
    rows = [
        y
        for y in range(size.height)
        if face.getpixel((0, y)) == FACE_EDGE and face.getpixel((1, y)) == FACE
    ]
    return rows[0], len(rows)


@lru_cache(maxsize=1)
def _indices() -> dict[tuple[str, bytes], Card]:
    """Every card's corner index at each size and deck, in palette indices."""
    found: dict[tuple[str, bytes], Card] = {}
    for size in SIZES:
        for deck in DECKS:
            for code in range(52):
                face = Image.new("RGB", (size.width, size.height), BACKGROUND)
                piece = tile(code, size, deck)
                face.paste(piece, (0, 0), piece)
                quantized = face.quantize(palette=_palette(), dither=Image.Dither.NONE)
                found[(size.name, quantized.crop(_index_box(size)).tobytes())] = Card.from_code(
                    code
                )
    return found


def _colour_index(colour: tuple[int, int, int]) -> int:
    probe = Image.new("RGB", (1, 1), colour).quantize(palette=_palette(), dither=Image.Dither.NONE)
    return int(probe.getpixel((0, 0)))  # type: ignore[arg-type]


def cards_in_picture(data: bytes) -> list[Card | None]:
    """The card faces a picture shows (in no particular order); fails on a face it cannot
    read."""
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.mode == "P", f"not a picture of the bot: {image.mode}"
    width, height = image.size
    pixels = image.tobytes()
    pattern = bytes([_colour_index(FACE_EDGE), _colour_index(FACE)])
    runs: dict[tuple[int, int], int] = {}
    for y in range(height):
        row = pixels[y * width : (y + 1) * width]
        x = row.find(pattern)
        while x != -1:
            start = y - runs.pop((x, y - 1), 0)
            runs[(x, y)] = y - start + 1
            x = row.find(pattern, x + 1)
    shown: list[Card | None] = []
    indices = _indices()
    lengths = {_edge(size)[1]: size for size in SIZES}
    for (x, y), length in runs.items():
        size = lengths.get(length)
        if size is None:
            continue
        top = y - length + 1 - _edge(size)[0]
        left, upper, right, lower = _index_box(size)
        box = (x + left, top + upper, x + right, top + lower)
        card = indices.get((size.name, image.crop(box).tobytes()))
        assert card is not None, f"a card face at {(x, top)} that reads as no card"
        shown.append(card)
    return shown


def check_pictures(fake: FakeDiscord) -> int:
    """Every version of every board of a dealt match carries its table picture, named by the
    embed and described (alt text, at most 1,024 characters), or is followed by one that
    does (a board does not wait long for a picture: a late one follows by another edit);
    results carry theirs likewise. Returns how many result pictures there were."""
    results = boards = 0
    for message in fake.public_messages():
        if not message.embeds:
            continue
        board = message.embeds[0].get("color") == BOARD_COLOUR
        waiting: str | None = None  # the footer of a live version still without its picture
        for version in message.history:
            names = version["attachments"]
            about = version.get("descriptions") or []
            assert len(about) == len(names)
            assert all(0 < len(text) <= 1024 for text in about), about
            embed = first_embed(version)
            url = version_image(version)
            if url:
                assert url.removeprefix("attachment://") in names, (url, names)
            footer = str((embed.get("footer") or {}).get("text") or "")
            dealt = DEALT.search(footer)
            live = "db:hand:" in str(version.get("components"))
            pictured = any(n.startswith("table-") for n in names)
            if board and live and dealt and int(dealt.group(1)) > 0:
                waiting = None if pictured else waiting or footer
                boards += pictured
            elif not live:
                waiting = None  # no longer the board anyone plays from
        assert waiting is None, f"a board never got its picture: {waiting}"
        if not board and message.attachments:
            results += 1
    assert boards > 0, "no live board of a dealt match"
    return results
