"""Card images: drawn with Pillow, one card width per card, cached, colours by suit."""

from __future__ import annotations

import io

from PIL import Image

from bot.discord import images
from engines.cards import parse_cards


def _open(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGBA")


def test_a_row_is_one_card_wide_per_card_and_a_valid_png() -> None:
    one = _open(images.cards_png(parse_cards("3D")))
    five = _open(images.cards_png(parse_cards("3D 4D 5D 6D 7D")))
    assert one.height == five.height == images.CARD_H + 2 * images.MARGIN
    assert five.width - one.width == 4 * (images.CARD_W + images.GAP)


def test_images_are_cached_and_depend_on_the_exact_cards_and_order() -> None:
    first = images.cards_png(parse_cards("QS KH"))
    assert images.cards_png(parse_cards("QS KH")) is first
    assert images.cards_png(parse_cards("KH QS")) != first
    assert images.cards_png(parse_cards("QS KD")) != first


def _has_colour(image: Image.Image, colour: tuple[int, int, int, int]) -> bool:
    colours = image.getcolors(maxcolors=image.width * image.height) or []
    return any(found == colour for _, found in colours)


def test_red_suits_are_red_and_black_suits_black() -> None:
    hearts = _open(images.cards_png(parse_cards("9H")))
    spades = _open(images.cards_png(parse_cards("9S")))
    assert _has_colour(hearts, images.RED) and not _has_colour(hearts, images.BLACK)
    assert _has_colour(spades, images.BLACK) and not _has_colour(spades, images.RED)


def test_a_card_back_shows_no_face() -> None:
    back = _open(images.cards_png([None]))
    assert _has_colour(back, images.BACK_BLUE)
    assert not _has_colour(back, images.RED) and not _has_colour(back, images.BLACK)


def test_the_fast_tiled_row_matches_the_row_drawn_in_full_colour() -> None:
    from PIL import ImageChops

    cards = [*parse_cards("3D 10S JH QC KD AS 2H 7C 9D"), None]
    fast = images.render_cards(cards).convert("RGB")
    drawn = images.draw_cards(cards).convert("RGB")
    assert fast.size == drawn.size
    difference = ImageChops.difference(fast, drawn)
    # Only antialiased edge pixels may move to a neighbouring palette colour.
    assert max(high for _, high in difference.getextrema()) <= 24
    changed = difference.convert("L").point(lambda v: 255 if v else 0).histogram()[255]
    assert changed < fast.width * fast.height * 0.02
