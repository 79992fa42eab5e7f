"""Every picture reads on a phone: shown 360 px wide, each text a player needs (names,
stacks, bets, penalties, tags such as the button, the blinds, all-in, folded, the pots,
the header) and each card's rank and suit index is at least 12 px tall, for every game at
2, 4, 6 and 9 seats where it seats them, at every kind of moment (boards of a whole
seeded match, each deal's result, the hands).

The heights are those of the texts and faces each picture records while it is drawn
(`Canvas.texts`, `Canvas.face_sizes`): the drawn height of capitals and digits at the
font size used, scaled to the display width (checked against the ink read back from a
PNG's pixels)."""

from __future__ import annotations

import io
import itertools
from typing import Any

import pytest
from PIL import Image

from bot.pictures import board_model, hand_model, result_model
from bot.pictures.fonts import cap_height
from bot.pictures.gallery import GAMES, facts_for, play, seat_counts
from bot.pictures.kit import (
    BACKGROUND,
    DISPLAY_WIDTH,
    MIN_HEIGHT,
    TAG_SIZE,
    TEXT,
    Canvas,
    display_heights,
    png,
)
from bot.render import get_renderer
from engines.base import DealSettled

CASES = [(game, seats) for game in GAMES for seats in seat_counts(game)]


def too_small(canvas: Any) -> list[tuple[float, str]]:
    """The texts and indices of a drawn picture under the bound at a phone's width."""
    return [(round(h, 1), what) for h, what in display_heights(canvas) if h < MIN_HEIGHT]


def moments(game: str, seats: int, every: int = 2, most: int = 150) -> list[Any]:
    """A sample of a seeded match's moments: every `every`-th and each deal's end."""
    found = []
    for moment in itertools.islice(play(game, seats, 3), 4000):
        ended = any(isinstance(e, DealSettled) for e in moment.events)
        if moment.number % every == 0 or ended:
            found.append(moment)
        if len(found) >= most:
            break
    return found


@pytest.mark.parametrize(("game", "seats"), CASES)
def test_boards_results_and_hands_are_legible_at_a_phone_width(game: str, seats: int) -> None:
    facts = facts_for(seats)
    boards = results = hands = 0
    previous = None
    for moment in moments(game, seats):
        for lang in ("en", "uk"):
            model = board_model(game, moment.view, facts, lang)
            assert model is not None
            canvas = model.draw()
            assert len(canvas.texts) >= seats  # every plate's name was recorded
            assert too_small(canvas) == [], (game, seats, moment.number, lang)
            boards += 1
        shown = result_model(game, moment.events, previous, facts, "fr")
        if shown is not None:
            assert too_small(shown.draw()) == [], (game, seats, moment.number)
            results += 1
        if moment.own is not None:
            cards = get_renderer(game).hand_cards(moment.own)
            if cards:
                assert too_small(hand_model(cards, "en").draw()) == []
                hands += 1
        previous = moment.view
    assert boards >= 8 and results >= 1 and hands > 0


@pytest.mark.parametrize("text", ["FOLD", "ALL-IN", "BB", "1240", "Ann"])
def test_a_recorded_height_is_the_ink_the_pixels_show(text: str) -> None:
    """The height a text is recorded with is the ink of its capitals and digits in the
    picture (read back from the PNG's pixels), to a pixel."""
    canvas = Canvas(Image.new("RGB", (200, 60), BACKGROUND))
    canvas.text((10, 45), text, TAG_SIZE, TEXT, anchor="ls", condensed=True)
    image = Image.open(io.BytesIO(png(canvas.image))).convert("RGB")
    rows = [
        y
        for y in range(image.height)
        if any(min(image.getpixel((x, y))) > 150 for x in range(image.width))
    ]
    ink = rows[-1] - rows[0] + 1
    (recorded, _), *_ = display_heights(canvas, display=image.width)
    assert abs(ink - recorded) <= 1, (ink, recorded)


def test_the_old_layout_would_fail_the_bound() -> None:
    """At the width the tables used to be drawn (900 px), the same tags (20 px) would be
    under 7 px on a phone: the bound can fail."""
    assert cap_height(20, True) * DISPLAY_WIDTH / 900 < 7 < MIN_HEIGHT


def test_with_long_names_every_seat_stays_in_the_alt_text() -> None:
    """Nine seats with 32-character names (Discord's longest) and three pots: the alt text
    (1,024 characters at most) still says every seat's stack; the pots then go without
    who may win them (with them, the last seats would be cut)."""
    from bot.pictures import Facts, board_model, table_picture
    from bot.pictures.gallery import play
    from bot.pictures.poker import _alt_parts

    view = next(m.view for m in play("holdem", 9, 4) if len(m.view.pots) >= 3)
    names = tuple(("Олександра-Éloïse-" * 2)[:30] + f"{i:02d}" for i in range(9))
    model = board_model("holdem", view, Facts(names), "fr")
    assert len(" ".join(_alt_parts(model, with_names=True))) > 1024  # type: ignore[arg-type]
    picture = table_picture("holdem", view, Facts(names), "fr")
    assert picture is not None and len(picture.alt) <= 1024
    for seat, name in zip(view.seats, names, strict=True):
        assert f"{name}: {seat.stack} " in picture.alt, (name, picture.alt)
