"""Table, result and hand pictures of every game: they render from random states within
their size and legibility bounds, show only what the public view may show (the same bytes
whatever the hidden parts hold), and their alt text names exactly the card faces drawn."""

from __future__ import annotations

import dataclasses
import io
import itertools
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from bot.pictures import Facts, clear_cache, hand_picture, result_picture, table_picture
from bot.pictures.cards import HAND, TABLE
from bot.pictures.fonts import font
from bot.pictures.gallery import GAMES, NAMES, play, seat_counts
from bot.pictures.hand import DISPLAY_WIDTH, MIN_INDEX, display_index_height, layout
from bot.pictures.model import ALT_LIMIT
from engines.base import DealSettled, Event
from engines.bigtwo import BigTwoView
from engines.cards import Card, parse_card, parse_cards
from engines.draw.view import DrawView
from engines.duel import DuelView
from engines.holdem import HoldemView
from tests.e2e.pictures import cards_in_picture

MAX_PNG = 150_000
SUITED = re.compile(r"(10|[2-9JQKA])([♦♣♥♠])")


def named_cards(text: str) -> list[Card]:
    """Every card face an alt text names (with its suit symbol), in order."""
    return [parse_card(m.group(0)) for m in SUITED.finditer(text)]


def public_cards(view: Any) -> set[Card]:
    """The card faces a spectator view may show."""
    if isinstance(view, HoldemView):
        return set(view.board)
    if isinstance(view, BigTwoView):
        opening = {view.must_include} if view.must_include is not None else set()
        return (set(view.table.cards) if view.table is not None else set()) | opening
    if isinstance(view, DuelView):
        return set(view.last.locked) if view.last is not None else set()
    return set()


def event_cards(events: tuple[Event, ...]) -> set[Card]:
    """Every card face named in public events (shown hands, boards, plays)."""
    found: set[Card] = set()
    for event in events:
        for value in dataclasses.asdict(event).values():  # type: ignore[call-overload]
            found |= _cards_in(value)
    return found


def _cards_in(value: Any) -> set[Card]:
    if isinstance(value, Card):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(_cards_in(v) for v in value)) if value else set()
    return set()


def with_hidden_parts(view: Any, seed: int) -> Any:
    """`view` with what a spectator must not see filled in (a hand, a locked card)."""
    cards = parse_cards("AS KS QS JS 10S")[: 1 + seed % 5]
    if isinstance(view, HoldemView):
        return dataclasses.replace(view, hole=tuple(cards[:2]))
    if isinstance(view, DrawView):
        return dataclasses.replace(view, hand=tuple(cards), set_aside=tuple(cards[:1]))
    if isinstance(view, DuelView):
        return dataclasses.replace(view, hand=tuple(cards[:2]), my_lock=cards[0])
    changed = dataclasses.replace(view)
    changed.hand_mask = (1 << (1 + seed % 13)) - 1
    return changed


def check_picture(picture: Any) -> Image.Image:
    """A picture is a valid PNG of its stated size, small, with alt text naming exactly
    the faces it drew."""
    image = Image.open(io.BytesIO(picture.png))
    image.load()
    assert image.format == "PNG"
    assert image.size == (picture.width, picture.height)
    assert len(picture.png) <= MAX_PNG
    assert 0 < len(picture.alt) <= ALT_LIMIT
    assert sorted(c.code for c in named_cards(picture.alt)) == sorted(c.code for c in picture.faces)
    return image


def moments(game: str, seats: int, seed: int, count: int) -> list[Any]:
    return list(itertools.islice(play(game, seats, seed), count))


@st.composite
def states(draw: st.DrawFn) -> tuple[str, int, Any, tuple[Event, ...], Any]:
    """A random public moment of a random game: (game, seats, view, events, view before)."""
    game = draw(st.sampled_from(GAMES))
    seats = draw(st.sampled_from(seat_counts(game)))
    seed = draw(st.integers(0, 10_000))
    steps = draw(st.integers(0, 160))
    found = moments(game, seats, seed, steps + 1)
    before = found[-2].view if len(found) > 1 else None
    return game, seats, found[-1].view, found[-1].events, before


@settings(max_examples=60)
@given(states(), st.sampled_from(["en", "fr", "uk"]), st.integers(0, 99))
def test_every_board_state_draws_within_bounds_from_the_public_view_only(
    state: tuple[str, int, Any, tuple[Event, ...], Any], lang: str, salt: int
) -> None:
    game, seats, view, _, _ = state
    facts = Facts(tuple(NAMES[i % len(NAMES)] for i in range(seats)), seconds=salt % 30)
    picture = table_picture(game, view, facts, lang)
    assert picture is not None
    check_picture(picture)
    assert set(picture.faces) <= public_cards(view)
    clear_cache()
    hidden = table_picture(game, with_hidden_parts(view, salt), facts, lang)
    assert hidden is not None and hidden.png == picture.png and hidden.alt == picture.alt


@settings(max_examples=40)
@given(st.sampled_from(GAMES), st.integers(0, 10_000), st.sampled_from(["en", "fr", "uk"]))
def test_each_deal_result_draws_what_its_public_events_showed(
    game: str, seed: int, lang: str
) -> None:
    seats = seat_counts(game)[seed % len(seat_counts(game))]
    facts = Facts(tuple(NAMES[i % len(NAMES)] for i in range(seats)))
    previous = None
    results = 0
    for moment in itertools.islice(play(game, seats, seed), 600):
        if any(isinstance(e, DealSettled) for e in moment.events):
            picture = result_picture(game, moment.events, previous, facts, lang)
            if picture is not None:
                results += 1
                check_picture(picture)
                shown = event_cards(moment.events) | public_cards(previous)
                assert set(picture.faces) <= shown
        previous = moment.view
        if results >= 3:
            break


@pytest.mark.parametrize("count", range(1, 14))
def test_a_hand_reads_on_a_phone(count: int) -> None:
    """At 360 px of display width every rank and suit index is at least 12 px tall."""
    assert display_index_height(count) >= MIN_INDEX
    cards = parse_cards("3D 4C 5H 6S 7D 8C 9H 10S JD QC KH AS 2D")[:count]
    picture = hand_picture(cards, "en")
    image = check_picture(picture)
    assert image.size == layout(count)
    assert picture.faces == tuple(cards)


def test_the_legibility_bound_is_computed_from_the_drawn_glyphs() -> None:
    """The index height is the drawn ink of the corner rank, and a 13-card strip of the old
    kind (one row, 1208 px) would fail the bound."""
    ink = font(HAND.rank_size, True).getbbox("8", anchor="ls")
    assert HAND.index_height >= ink[3] - ink[1] - 1
    assert HAND.index_height * DISPLAY_WIDTH / 1208 < MIN_INDEX
    assert TABLE.index_height < HAND.index_height


def test_the_four_colour_deck_gives_each_suit_its_own_ink() -> None:
    cards = parse_cards("2C 2D 2H 2S")
    two = Image.open(io.BytesIO(hand_picture(cards, "en").png)).convert("RGB")
    four = Image.open(io.BytesIO(hand_picture(cards, "en", "four").png)).convert("RGB")
    assert two.size == four.size
    colours_two = {two.getpixel((x, 60)) for x in range(two.width)}
    colours_four = {four.getpixel((x, 60)) for x in range(four.width)}
    assert (22, 86, 200) in colours_four and (16, 128, 52) in colours_four
    assert (22, 86, 200) not in colours_two and (16, 128, 52) not in colours_two


def test_cyrillic_and_accented_names_draw_real_glyphs() -> None:
    """The shipped font has the letters (Pillow's default font has no Cyrillic)."""
    for condensed in (False, True):
        bold = font(24, condensed)
        notdef = bytes(bold.getmask("\ue000"))
        for letter in "ЖЇЄҐЩєїґéèçöÉ♠♥♦♣":
            mask = bold.getmask(letter)
            assert mask.getbbox() is not None
            assert bytes(mask) != notdef, letter


def test_alt_text_stays_within_discords_limit_at_nine_long_names() -> None:
    long = tuple(f"{'Олександра-Éloïse' * 3}{i}" for i in range(9))
    for moment in itertools.islice(play("holdem", 9, 3), 40):
        picture = table_picture("holdem", moment.view, Facts(long, seconds=9), "uk")
        assert picture is not None
        check_picture(picture)


def test_names_lose_what_the_font_cannot_draw() -> None:
    facts = Facts(("Ann 🎲", "🎲🎲", "Олександра ✨ Ї", "Zoë"))
    assert [facts.name(s) for s in range(5)] == ["Ann", "#2", "Олександра Ї", "Zoë", "#5"]


@settings(max_examples=40)
@given(states(), st.sampled_from(["two", "four"]))
def test_the_faces_drawn_read_back_from_the_pixels(
    state: tuple[str, int, Any, tuple[Event, ...], Any], deck: str
) -> None:
    """Every face a picture says it shows is there in its pixels with its whole corner
    index (no seat, chip or other card covers it), and no other face is."""
    game, seats, view, events, before = state
    facts = Facts(tuple(NAMES[i % len(NAMES)] for i in range(seats)), seconds=5)
    pictures = [table_picture(game, view, facts, "en")]
    if any(isinstance(e, DealSettled) for e in events):
        pictures.append(result_picture(game, events, before, facts, "en"))
    for picture in pictures:
        if picture is None:
            continue
        written = {view.must_include} if getattr(view, "must_include", None) else set()
        drawn = [c for c in picture.faces if not (picture.kind == "table" and c in written)]
        read = cards_in_picture(picture.png)
        assert sorted(c.code for c in read if c) == sorted(c.code for c in drawn)
    cards = parse_cards("3D 4C 5H 6S 7D 8C 9H 10S JD QC KH AS 2D")[: 1 + len(facts.names)]
    hand = hand_picture(cards, "en", deck)
    assert sorted(c.code for c in cards_in_picture(hand.png) if c) == sorted(c.code for c in cards)


@pytest.mark.parametrize(("count", "step"), [(1, 10), (5, 8), (13, 2), (4, 56)])
def test_a_fan_of_backs_pastes_as_its_backs_pasted_one_by_one(count: int, step: int) -> None:
    """A seat's fan is one paste of a fan composed once: on the felt it looks as the backs
    pasted one over the next did (an edge pixel may round one step apart), and it counts
    as that many backs."""
    from bot.pictures.cards import MINI
    from bot.pictures.kit import FELT, Canvas, fan_of_backs

    def felt() -> Canvas:
        return Canvas(Image.new("RGB", (MINI.width + 13 * 56, MINI.height + 4), FELT))

    one_by_one, fanned = felt(), felt()
    for i in range(count):
        one_by_one.card(None, MINI, 2 + i * step, 2)
    fan_of_backs(fanned, count, MINI, (2, 2), step)
    assert fanned.backs == one_by_one.backs == count
    assert max(ImageChops.difference(one_by_one.image, fanned.image).tobytes()) <= 1
    assert fanned.image.tobytes() != felt().image.tobytes()  # the backs are there
