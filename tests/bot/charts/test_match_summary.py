"""The match summary picture: its figures from whole matches of every game (each line
starts at the seat's buy-in, or 0, and ends at its total), shared places, golden images
in three languages, legibility (every seat's colour and the whole standings drawn, long
names cut, Cyrillic drawn), the alt text, and drawing each match once, off the loop."""

from __future__ import annotations

import io
import itertools
import math
import random
import threading
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.charts import match as match_module
from bot.charts.match import (
    SEAT_COLOURS,
    MatchSummaries,
    MatchSummary,
    alt_text,
    draw_summary,
    nice_ticks,
    summary_canvas,
    summary_from_events,
    summary_of,
)
from bot.pictures import fonts
from bot.pictures.kit import MIN_HEIGHT, PHONE_WIDTH, display_heights, png
from bot.runtime.replay import match_state, opening_events
from engines.base import ChipsBought, DealSettled, MatchEnded
from engines.play import play_out
from engines.registry import get_game
from storage.base import ActionRecord, MatchRecord
from tests.bot.charts.golden import check_golden

OPTIONS: dict[str, dict[str, Any]] = {
    "bigtwo": {},
    "holdem": {"seats": 4},
    "draw": {"seats": 3, "deals": 4},
    "duel": {},
}


def played(game: str, seed: int) -> tuple[list[Any], int]:
    """A whole match of `game` by random AI: its public events with the opening ones."""
    spec = get_game(game)
    config = spec.make_config(**OPTIONS[game])
    state = spec.new_state(config, random.Random(seed))
    events = [e for e in opening_events(state) if e.to is None]
    seats = getattr(config, "seats", None) or (2 if game == "duel" else 4)
    policies = [spec.make_policy("random", random.Random(seed + i)) for i in range(seats)]
    events += [e for e in play_out(state, policies).events if e.to is None]
    return events, seats


@settings(max_examples=12, deadline=None)
@given(game=st.sampled_from(sorted(OPTIONS)), seed=st.integers(0, 10_000))
def test_each_line_runs_from_the_start_to_the_seats_total(game: str, seed: int) -> None:
    spec = get_game(game)
    events, seats = played(game, seed)
    names = [f"P{s}" for s in range(seats)]
    summary = summary_from_events(events, game, spec.title, names, spec.scoring == "penalty")
    assert summary is not None
    ended = next(e for e in events if isinstance(e, MatchEnded))
    deals = sum(isinstance(e, DealSettled) for e in events)
    assert summary.totals == ended.totals
    assert all(len(points) == deals + 1 for points in summary.series)
    assert tuple(points[-1] for points in summary.series) == ended.totals
    bought = {
        e.seat: e.amount for e in events if isinstance(e, ChipsBought) and e.reason == "buy-in"
    }
    for seat, points in enumerate(summary.series):
        start = 0 if spec.scoring == "penalty" or summary.net else bought.get(seat, 0)
        assert points[0] == start
    if spec.scoring == "penalty":  # a penalty total never goes down
        assert all(list(p) == sorted(p) for p in summary.series)


def test_a_match_that_has_not_ended_has_no_summary() -> None:
    events, _ = played("duel", 1)
    cut = [e for e in events if not isinstance(e, MatchEnded)]
    assert summary_from_events(cut, "duel", "Deuce Duel", ["a", "b"], False) is None


def test_the_summary_of_a_stored_match_is_its_replay() -> None:
    """`summary_of` replays the stored seed and action texts (as the front's recovery)."""
    spec = get_game("duel")
    match = MatchRecord(1, 7, 1, 424242, {}, 0, 0.0)
    state = match_state(spec, match)
    texts: list[str] = []
    rng = random.Random(3)
    policy = spec.make_policy("random", rng)
    while state.to_act is not None:
        seat = state.to_act
        action = policy.decide(state.view(seat))  # type: ignore[attr-defined]
        texts.append(str(action))
        state.apply(seat, action)
    summary = summary_of(spec, match, texts, ["Ana", "Bo"])
    assert summary is not None and summary.names == ("Ana", "Bo")
    assert tuple(p[-1] for p in summary.series) == summary.totals
    assert summary_of(spec, match, texts[:-1], ["Ana", "Bo"]) is None


def sample(seats: int, deals: int, penalties: bool, seed: int) -> MatchSummary:
    rng = random.Random(seed)
    names = ("Ana", "Богдан", "Zoë", "Dee", "Eve", "Fay", "Gus", "Hana", "Ivo")[:seats]
    series = []
    for _ in range(seats):
        value = 0 if penalties else 1000
        points = [value]
        for _ in range(deals):
            value += rng.randint(0, 13) if penalties else rng.randint(-300, 300)
            points.append(value)
        series.append(tuple(points))
    totals = tuple(p[-1] for p in series)
    best = min(totals) if penalties else max(totals)
    winners = tuple(s for s in range(seats) if totals[s] == best)
    game = "bigtwo" if penalties else "holdem"
    title = "Big Two" if penalties else "No-limit Texas hold'em"
    return MatchSummary(game, title, names, totals, winners, penalties, tuple(series))


GOLDEN_CASES = [(4, 5, True, 1, "en"), (6, 40, False, 2, "fr"), (9, 3, False, 3, "uk")]


@pytest.mark.parametrize(("seats", "deals", "penalties", "seed", "lang"), GOLDEN_CASES)
def test_summaries_match_their_golden_images(
    seats: int, deals: int, penalties: bool, seed: int, lang: str
) -> None:
    picture = draw_summary(sample(seats, deals, penalties, seed), lang)
    image = Image.open(io.BytesIO(picture.png)).convert("RGB")
    assert image.width == PHONE_WIDTH and picture.name.startswith("summary-")
    check_golden(image, f"summary_{seed}")


def _colours(data: bytes) -> set[tuple[int, int, int]]:
    image = Image.open(io.BytesIO(data)).convert("RGB")
    return {c for _, c in image.getcolors(1 << 16) or []}


@pytest.mark.parametrize("seats", [2, 4, 9])
def test_every_seat_is_drawn_in_its_own_colour(seats: int) -> None:
    summary = sample(seats, 6, seats != 4, seats)
    drawn = _colours(draw_summary(summary, "en").png)
    # Each seat's colour as the palette PNG keeps it (its swatch and its line).
    for seat in range(seats):
        swatch = Image.new("RGB", (1, 1), SEAT_COLOURS[seat])
        kept = Image.open(io.BytesIO(png(swatch, SEAT_COLOURS))).convert("RGB").getpixel((0, 0))
        assert kept in drawn, (seat, kept)
    kept_colours = {
        Image.open(io.BytesIO(png(Image.new("RGB", (1, 1), c), SEAT_COLOURS)))
        .convert("RGB")
        .getpixel((0, 0))
        for c in SEAT_COLOURS
    }
    assert len(kept_colours) == len(SEAT_COLOURS)  # nine seats stay nine colours


def test_the_picture_grows_with_the_seats_so_every_place_is_drawn() -> None:
    small = summary_canvas(sample(2, 3, True, 1), "en")
    big = summary_canvas(sample(9, 3, False, 1), "en")
    assert big.image.height - small.image.height >= 7 * 30
    for canvas, seats in ((small, 2), (big, 9)):
        places = [text for _, _, text in canvas.texts if text.endswith(".") and text[:-1].isdigit()]
        numbers = [int(place[:-1]) for place in places]
        assert len(numbers) == seats and numbers == sorted(numbers) and numbers[0] == 1


@pytest.mark.parametrize(
    ("seats", "deals", "penalties"), [(2, 3, True), (4, 12, True), (6, 40, False), (9, 150, False)]
)
@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
def test_the_summary_reads_on_a_phone(seats: int, deals: int, penalties: bool, lang: str) -> None:
    """As wide as the table pictures, and shown 360 px wide every text (title, places,
    names, totals, caption, axis labels) is at least 12 px tall, like the table pictures'."""
    summary = sample(seats, deals, penalties, seats)
    canvas = summary_canvas(summary, lang)
    assert canvas.image.width == PHONE_WIDTH
    assert [(h, what) for h, what in display_heights(canvas) if h < MIN_HEIGHT] == []
    written = " ".join(text for _, _, text in canvas.texts)
    for seat in range(seats):
        assert f"{summary.totals[seat]:,}" in written


def test_long_names_are_cut_and_cyrillic_is_drawn() -> None:
    assert all(fonts.has_glyph(c) for c in "Богдан Ярославович")
    long = "Богдан Ярославович Коваленко-Шевченко"
    cut = fonts.fit(long, 17, 170, condensed=True)
    assert cut.endswith("…") and fonts.text_width(cut, 17, condensed=True) <= 170
    base = sample(3, 4, True, 5)
    other = MatchSummary(base.game, base.title, (long, *base.names[1:]), base.totals,
                         base.winners, True, base.series)  # fmt: skip
    assert draw_summary(other, "uk").png != draw_summary(base, "uk").png


def test_axis_ticks_are_round_and_cover_the_values() -> None:
    assert nice_ticks(0, 23) == [0, 5, 10, 15, 20, 25]
    assert nice_ticks(-146, 332) == [-200, -100, 0, 100, 200, 300, 400]
    ticks = nice_ticks(1000, 1000)
    assert ticks[0] <= 1000 <= ticks[-1]


def test_places_are_shared_by_equal_totals() -> None:
    chips = MatchSummary("holdem", "Hold'em", ("a", "b", "c", "d"), (0, 900, 0, 300), (1,),
                         False, ((1, 0), (1, 900), (1, 0), (1, 300)))  # fmt: skip
    assert chips.places() == [(1, 1), (2, 3), (3, 0), (3, 2)]
    pen = MatchSummary("bigtwo", "Big Two", ("a", "b", "c"), (5, 5, 2), (2,), True,
                       ((0, 5), (0, 5), (0, 2)))  # fmt: skip
    assert pen.places() == [(1, 2), (2, 0), (2, 1)]


def test_alt_text_says_the_standings_and_the_lines_in_the_readers_language() -> None:
    summary = MatchSummary("bigtwo", "Big Two", ("Ana", "Bo"), (3, 11), (0,), True,
                           ((0, 3, 3), (0, 4, 11)))  # fmt: skip
    assert alt_text(summary, "en") == (
        "Match summary of Big Two over 2 deals: total penalty after each deal, lower is "
        "better. Standings: 1. Ana 3, 2. Bo 11. Ana: 0, 3, 3. Bo: 0, 4, 11."
    )
    assert "Classement : 1. Ana 3, 2. Bo 11." in alt_text(summary, "fr")
    assert "за 2 роздачі" in alt_text(summary, "uk")
    long = sample(9, 200, False, 7)
    text = alt_text(long, "en")
    assert len(text) <= 1024 and text.startswith("Match summary of No-limit Texas hold'em")
    assert "200 hands" in text and "Standings: 1." in text and "from 1,000 to" in text


class Reads:
    """A stored duel, read through the protocol the front's storage implements."""

    def __init__(self) -> None:
        spec = get_game("duel")
        self.record = MatchRecord(5, 1, 1, 99, {}, 0, 0.0)
        state = match_state(spec, self.record)
        policy = spec.make_policy("random", random.Random(1))
        self.log: list[ActionRecord] = []
        while state.to_act is not None:
            seat = state.to_act
            action = policy.decide(state.view(seat))  # type: ignore[attr-defined]
            self.log.append(ActionRecord(5, len(self.log), 1, seat, str(action), "ai", 0.0))
            state.apply(seat, action)
        self.reads = 0

    async def match(self, match_id: int) -> MatchRecord | None:
        self.reads += 1
        return self.record if match_id == 5 else None

    async def actions(self, match_id: int) -> Sequence[ActionRecord]:
        return self.log


async def test_a_match_is_replayed_and_drawn_once_per_language_off_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    threads: list[str] = []
    real = match_module.draw_summary

    def spy(summary: MatchSummary, lang: str) -> Any:
        threads.append(threading.current_thread().name)
        return real(summary, lang)

    monkeypatch.setattr(match_module, "draw_summary", spy)
    reads = Reads()
    summaries = MatchSummaries(reads)
    spec = get_game("duel")
    first = await summaries.get(spec, 5, ["Ana", "Bo"], "en")
    assert first is not None and "Ana" in first.alt
    assert await summaries.get(spec, 5, ["Ana", "Bo"], "en") is first
    french = await summaries.get(spec, 5, ["Ana", "Bo"], "fr")
    assert french is not None and french.alt != first.alt
    assert reads.reads == 2 and len(threads) == 2
    assert threading.main_thread().name not in threads
    assert await summaries.get(spec, 6, ["Ana", "Bo"], "en") is None
    assert await MatchSummaries(None).get(spec, 7, ["Ana", "Bo"], "en") is None
    # Another storage's match 5 is another match: a front's summaries are its own.
    other = Reads()
    assert await MatchSummaries(other).get(spec, 5, ["Ana", "Bo"], "en") is not first
    assert other.reads == 1


def _lab(colour: tuple[int, int, int]) -> tuple[float, float, float]:
    def linear(value: int) -> float:
        u = value / 255
        return ((u + 0.055) / 1.055) ** 2.4 if u > 0.04045 else u / 12.92

    r, g, b = (linear(v) for v in colour)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def colour_distance(one: tuple[int, int, int], other: tuple[int, int, int]) -> float:
    """How far apart two colours look: their distance in CIELAB (CIE76; about 2 is the
    smallest difference seen side by side, lines need far more)."""
    return math.dist(_lab(one), _lab(other))


def test_seat_colours_are_far_apart_and_none_is_the_winners_gold() -> None:
    """Nine lines told apart on a phone: every two seat colours at least 35 apart in CIELAB
    (the old palette had two at 24, and one was the winners' gold), each as far from the
    gold the winners' names are written in."""
    from bot.charts.match import GOLD

    assert 99 < colour_distance((0, 0, 0), (255, 255, 255)) < 101
    colours = list(SEAT_COLOURS)
    assert len(set(colours)) == 9
    for i, one in enumerate(colours):
        assert colour_distance(one, GOLD) >= 35, one
        for other in colours[i + 1 :]:
            assert colour_distance(one, other) >= 35, (one, other)


def _holdem_summary(seats: int) -> MatchSummary:
    from bot.pictures.gallery import facts_for, play

    events = [e for m in play("holdem", seats, 7) for e in m.events]
    spec = get_game("holdem")
    summary = summary_from_events(events, "holdem", spec.title, facts_for(seats).names, False)
    assert summary is not None
    return summary


def test_a_knocked_out_seats_line_stops_where_it_went_out() -> None:
    """Hold'em's eliminated seats no longer run along 0 over each other: each line ends at
    the hand its chips reached 0 for good (marked, and said in the alt text); the winner's
    runs to the end."""
    from bot.charts.match import line_points

    summary = _holdem_summary(9)
    hands = len(summary.series[0]) - 1
    lines = line_points(summary)
    out = 0
    for seat, (points, drawn) in enumerate(zip(summary.series, lines, strict=True)):
        if seat in summary.winners:
            assert len(drawn) == hands + 1
            continue
        went = next(i for i in range(len(points)) if all(v == 0 for v in points[i:]))
        assert drawn == list(enumerate(points[: went + 1]))
        said = f"{summary.names[seat]} was knocked out after hand {went}." in alt_text(
            summary, "en"
        )
        assert said == (went < hands)  # out at the last hand: the line ends there anyway
        out += said
    assert out >= 6
    # No stretch of 0 is drawn twice: at most one line is at 0 between two hands.
    zero_runs = [
        i for drawn in lines for (i, v), (_, w) in itertools.pairwise(drawn) if v == w == 0
    ]
    assert len(zero_runs) == len(set(zero_runs))


def test_deal_axis_labels_are_evenly_spaced_round_numbers() -> None:
    """The deals under the chart: 0, 1, 2, 3 for three deals (it was 0, 1, 3), and for any
    match evenly spaced steps of 1, 2 or 5 times a power of ten from 0, at most six."""
    from bot.charts.match import deal_ticks

    canvas = summary_canvas(sample(2, 3, True, 1), "en")
    labels = [text for _, _, text in canvas.texts]
    assert all(str(deal) in labels for deal in range(4))
    for deals in range(1, 600):
        ticks = deal_ticks(deals)
        step = ticks[1] - ticks[0]
        assert ticks == list(range(0, ticks[-1] + 1, step)), deals
        assert str(step).strip("0") in ("1", "2", "5")
        assert len(ticks) <= 6 and deals - step < ticks[-1] <= deals
