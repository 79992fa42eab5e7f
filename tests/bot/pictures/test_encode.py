"""The PNG encoder: a file any decoder reads back to the very pixels, with either deflater."""

from __future__ import annotations

import io
import random
import zlib

import pytest
from PIL import Image

from bot.pictures import encode
from bot.pictures.cards import FACE, RED
from bot.pictures.encode import palette_png
from bot.pictures.kit import FELT, _palette, png


def _noisy(width: int, height: int, seed: int) -> Image.Image:
    """A palette image of random indices in runs (as pictures have), every index used."""
    rng = random.Random(seed)
    data = bytearray()
    while len(data) < width * height:
        data += bytes([rng.randrange(256)]) * rng.randrange(1, 40)
    image = Image.frombytes("P", (width, height), bytes(data[: width * height]))
    image.putpalette(_palette().getpalette() or [])
    return image


@pytest.mark.parametrize(("width", "height", "seed"), [(1, 1, 0), (7, 3, 1), (480, 556, 2)])
def test_the_file_decodes_to_the_same_indices_and_palette(
    width: int, height: int, seed: int
) -> None:
    image = _noisy(width, height, seed)
    data = palette_png(image)
    Image.open(io.BytesIO(data)).verify()  # the chunks' CRCs and structure
    back = Image.open(io.BytesIO(data))
    assert back.mode == "P"
    assert back.size == (width, height)
    assert back.tobytes() == image.tobytes()
    assert back.getpalette() == image.getpalette()


def test_the_zlib_fallback_writes_a_file_with_the_same_pixels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    image = _noisy(97, 41, 3)
    fast = palette_png(image)
    monkeypatch.setattr(encode, "deflate", lambda data: zlib.compress(data, encode.LEVEL))
    slow = palette_png(image)
    assert Image.open(io.BytesIO(slow)).tobytes() == Image.open(io.BytesIO(fast)).tobytes()


def test_a_picture_reads_back_as_its_drawing_on_the_palette() -> None:
    drawn = Image.new("RGB", (64, 32), FELT)
    drawn.paste(FACE, (10, 5, 40, 25))
    drawn.paste(RED, (20, 10, 24, 14))
    back = Image.open(io.BytesIO(png(drawn))).convert("RGB")
    on_palette = drawn.quantize(palette=_palette(), dither=Image.Dither.NONE).convert("RGB")
    assert back.tobytes() == on_palette.tobytes()
    assert back.getpixel((0, 0)) == FELT
    assert back.getpixel((21, 11)) == RED


def test_only_a_palette_image_is_encoded() -> None:
    with pytest.raises(ValueError, match="mode P image, not RGB"):
        palette_png(Image.new("RGB", (2, 2)))
