"""The match summary picture on a match's result message: the standings, and a line per
seat of its running total over the deals (Big Two: total penalty; the poker games and
the duel: chips held, or net of what was bought where the totals count them so), drawn
with Pillow and the pictures' shipped fonts.

What it shows comes from committed events only: the match is replayed from its stored
seed and action log (`summary_of`), as the front's recovery does, and the figures are
read from the shared events (`ChipsBought`, `DealSettled`, `MatchEnded`). Replaying and
drawing are CPU-bound: `match_summary` runs both in a worker thread and keeps the last
pictures drawn, by match and language, so a retried post does not draw again.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from PIL import Image

from bot.i18n import t
from bot.pictures.fonts import drawable, fit, text_width
from bot.pictures.kit import MARGIN, PHONE_WIDTH, Canvas, png
from bot.pictures.model import Facts, Picture, fit_alt
from bot.render.phrases import deal_word
from bot.runtime.replay import match_state, opening_events
from engines.base import ChipsBought, DealSettled, Event, MatchEnded
from engines.registry import GameSpec, get_game
from storage.base import ActionRecord, MatchRecord

log = logging.getLogger(__name__)

WIDTH = PHONE_WIDTH
"""As wide as the table pictures: readable on a phone (see `SMALL`)."""
BACKGROUND = (30, 33, 40)
GRID = (60, 64, 74)
TEXT = (220, 222, 228)
DIM = (150, 154, 164)
GOLD = (255, 200, 90)
SEAT_COLOURS = (
    (90, 150, 255),
    (235, 60, 60),
    (50, 190, 80),
    (190, 110, 255),
    (60, 220, 230),
    (255, 130, 20),
    (255, 255, 255),
    (255, 110, 200),
    (185, 235, 50),
)
"""One colour per seat (up to nine seats), told apart without their order: nine hues far
apart (in CIELAB, as the chart's tests measure them) and each far from the winners' `GOLD`, so that
no seat's line reads as the winner's name."""
LISTED_POINTS = 12
"""Up to this many deals, the alt text lists every seat's totals; past it, a range."""


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """What the picture shows: the game, each seat's name and final total, the winners,
    whether totals are penalties (lower is better) and each seat's running total: its
    value before the first deal, then after each deal."""

    game: str
    title: str
    names: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    penalties: bool
    series: tuple[tuple[int, ...], ...]
    net: bool = False
    """The chips are counted net of what was bought (the totals count them so)."""

    def places(self) -> list[tuple[int, int]]:
        """(place, seat) best first; equal totals share a place."""
        sign = 1 if self.penalties else -1
        order = sorted(range(len(self.totals)), key=lambda s: (sign * self.totals[s], s))
        out: list[tuple[int, int]] = []
        for i, seat in enumerate(order):
            same = bool(out) and self.totals[out[-1][1]] == self.totals[seat]
            out.append((out[-1][0] if same else i + 1, seat))
        return out


def line_points(summary: MatchSummary) -> list[list[tuple[int, int]]]:
    """Each seat's line as drawn: (deal, value) points. Where chips are counted as held (not
    net, not penalties), a seat knocked out stops at the deal it reached 0 and stayed there
    (its line does not run on along 0 over the others')."""
    lines = []
    for points in summary.series:
        end = len(points)
        if not summary.penalties and not summary.net and points and points[-1] == 0:
            while end > 1 and points[end - 2] == 0:
                end -= 1
        lines.append(list(enumerate(points[:end])))
    return lines


def deal_ticks(deals: int, most: int = 6) -> list[int]:
    """The deal numbers labelled under the chart: evenly spaced from 0 in steps of 1, 2 or 5
    times a power of ten, at most `most` of them, none past `deals`."""
    if deals <= 0:
        return [0]
    step = 1
    while deals // step + 1 > most:
        step = next(m * 10**p for p in range(12) for m in (1, 2, 5) if m * 10**p > step)
    return list(range(0, deals + 1, step))


def summary_from_events(
    events: Sequence[Event], game: str, title: str, names: Sequence[str], penalties: bool
) -> MatchSummary | None:
    """The summary of a whole match's events in log order (None: the match has not ended).

    A seat's chips start at its buy-in and a rebuy adds to them at the deal it came in;
    where the match's totals count chips net of what was bought (draw poker's caves), the
    lines are net too, so that each line ends at the seat's total."""
    ended = next((e for e in reversed(events) if isinstance(e, MatchEnded)), None)
    if ended is None:
        return None
    seats = len(ended.totals)
    held, bought = [0] * seats, [0] * seats
    points: list[list[tuple[int, int]]] = [[] for _ in range(seats)]
    for event in events:
        if isinstance(event, ChipsBought) and 0 <= event.seat < seats and not penalties:
            held[event.seat] += event.amount
            bought[event.seat] += event.amount
        elif isinstance(event, DealSettled):
            if not points[0]:
                for s in range(seats):
                    points[s].append((held[s], bought[s]))
            figures = event.penalties if penalties else event.chips
            for s in range(seats):
                held[s] += figures[s] if figures is not None and s < len(figures) else 0
                points[s].append((held[s], bought[s]))
    net = any(bought) and tuple(h - b for h, b in zip(held, bought, strict=True)) == ended.totals
    series = [tuple(h - b if net else h for h, b in seat) for seat in points]
    if not points[0]:
        series = [(total,) for total in ended.totals]
    return MatchSummary(
        game,
        title,
        tuple(Facts(tuple(names)).name(s) for s in range(seats)),
        tuple(ended.totals),
        tuple(ended.winners),
        penalties,
        tuple(series),
        net,
    )


def summary_of(
    spec: GameSpec, match: MatchRecord, actions: Sequence[str], names: Sequence[str]
) -> MatchSummary | None:
    """The summary of a stored match, replayed from its seed and logged actions."""
    state = match_state(spec, match)
    events: list[Event] = [e for e in opening_events(state) if e.to is None]
    for text in actions:
        seat = state.to_act
        if seat is None:
            break
        events += [e for e in state.apply(seat, spec.parse_action(text)) if e.to is None]
    return summary_from_events(events, spec.name, spec.title, names, spec.scoring == "penalty")


def alt_text(summary: MatchSummary, lang: str) -> str:
    """The picture in words (the attachment's description), in `lang`: the standings,
    then each seat's totals over the deals."""
    deals = max(len(points) for points in summary.series) - 1
    key = "summary.alt_penalties" if summary.penalties else "summary.alt_chips"
    if get_game(summary.game).deal_word == "hand":
        key = "summary.alt_chips_hands"
    elif summary.net:
        key = "summary.alt_net"
    parts = [t(key, lang, game=summary.title, deals=deals)]
    parts.append(
        t(
            "summary.alt_standings",
            lang,
            standings=", ".join(
                t("summary.alt_place", lang, place=place, name=summary.names[s],
                  total=f"{summary.totals[s]:,}")
                for place, s in summary.places()
            ),
        )
    )  # fmt: skip
    for seat, points in enumerate(summary.series):
        name = summary.names[seat]
        if len(points) <= LISTED_POINTS + 1:
            shown = ", ".join(f"{p:,}" for p in points)
            parts.append(t("summary.alt_line", lang, name=name, points=shown))
        else:
            parts.append(
                t("summary.alt_range", lang, name=name, first=f"{points[0]:,}",
                  last=f"{points[-1]:,}", low=f"{min(points):,}", high=f"{max(points):,}")
            )  # fmt: skip
    unit = deal_word(summary.game, lang)
    for seat, drawn in enumerate(line_points(summary)):
        if len(drawn) < deals + 1:
            name = summary.names[seat]
            parts.append(t("summary.alt_out", lang, name=name, unit=unit, n=len(drawn) - 1))
    return fit_alt(parts)


HEADER = 24
"""The title's font size (condensed, up to two lines)."""
ROW = 24
"""The standings' font size; a row is `ROW_H` tall."""
ROW_H = 34
SMALL = 22
"""The smallest text: the headings, the caption and the axis labels (on a phone 360 px
wide, the picture's `PHONE_WIDTH` shrinks by 0.75 and this stays `MIN_HEIGHT` px tall)."""
CHART_H = 250
SIDE = 2 * MARGIN


def _wrapped(text: str, size: int, width: int, lines: int) -> list[str]:
    """`text` in at most `lines` lines of `width` px (condensed), broken between words;
    what still does not fit is cut with an ellipsis."""
    words, out = text.split(), list[str]()
    while words and len(out) < lines:
        taken = 1
        while taken < len(words) and text_width(" ".join(words[: taken + 1]), size, True) <= width:
            taken += 1
        last = len(out) == lines - 1
        line = " ".join(words if last else words[:taken])
        out.append(fit(line, size, width, condensed=True))
        words = [] if last else words[taken:]
    return out


def _standings(canvas: Canvas, summary: MatchSummary, top: int, lang: str) -> int:
    """The places, best first, from `top`; the y below them."""
    canvas.text((SIDE, top), drawable(t("summary.standings", lang)), SMALL, DIM, condensed=True)
    y = top + ROW_H
    right = WIDTH - SIDE
    for place, seat in summary.places():
        colour = GOLD if seat in summary.winners else TEXT
        canvas.draw.rectangle((SIDE, y + 5, SIDE + 18, y + 23), fill=SEAT_COLOURS[seat % 9])
        canvas.text((SIDE + 28, y), f"{place}.", ROW, colour)
        total = f"{summary.totals[seat]:,}"
        room = right - text_width(total, ROW) - 16 - (SIDE + 62)
        canvas.text((SIDE + 62, y), summary.names[seat], ROW, colour, condensed=True, width=room)
        canvas.text((right, y), total, ROW, colour, anchor="ra")
        y += ROW_H
    return y


def _span(summary: MatchSummary) -> tuple[float, float]:
    values = [float(v) for points in summary.series for v in points]
    return min(values), max(values)


def nice_ticks(low: float, high: float, most: int = 6) -> list[float]:
    """Round values covering `low`..`high` for an axis: steps of 1, 2 or 5 times a power
    of ten, at most `most` of them."""
    if high <= low:
        low, high = low - 1, high + 1
    rough = (high - low) / (most - 1)
    power = 10 ** math.floor(math.log10(rough))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= rough)
    first = math.floor(low / step) * step
    count = math.ceil((high - first) / step - 1e-9)
    return [first + i * step for i in range(count + 1)]


def _lines(canvas: Canvas, summary: MatchSummary, top: int) -> None:
    """The running totals from `top`: the value axis on the left, the deals below."""
    ticks = nice_ticks(*_span(summary), most=5)
    low, high = ticks[0], ticks[-1]
    labels = [f"{value:,.0f}" for value in ticks]
    left = SIDE + max(text_width(label, SMALL, True) for label in labels) + 8
    right, bottom = WIDTH - SIDE - 8, top + CHART_H
    draw = canvas.draw
    draw.rectangle((left, top, right, bottom), outline=GRID)

    def y(v: float) -> float:
        return bottom - (bottom - top) * (v - low) / (high - low)

    for value, label in zip(ticks, labels, strict=True):
        draw.line((left, y(value), right, y(value)), fill=GRID)
        canvas.text((left - 6, y(value)), label, SMALL, DIM, anchor="rm", condensed=True)
    n = max(len(points) for points in summary.series)

    def x(i: int) -> float:
        return left + (right - left) * (i / (n - 1) if n > 1 else 0.5)

    for tick in deal_ticks(n - 1):
        canvas.text((x(tick), bottom + 6), f"{tick:,}", SMALL, DIM, anchor="ma", condensed=True)
    for seat, points in enumerate(line_points(summary)):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        width = 6 if seat in summary.winners else 4
        xy = [(x(i), y(v)) for i, v in points]
        if len(xy) > 1:
            draw.line(xy, fill=colour, width=width, joint="curve")
        end = xy[-1]
        if len(points) < n:  # knocked out: a cross where the line stops
            draw.line((end[0] - 6, end[1] - 6, end[0] + 6, end[1] + 6), fill=colour, width=3)
            draw.line((end[0] - 6, end[1] + 6, end[0] + 6, end[1] - 6), fill=colour, width=3)
        else:
            draw.ellipse((end[0] - 5, end[1] - 5, end[0] + 5, end[1] + 5), fill=colour)


def summary_canvas(summary: MatchSummary, lang: str) -> Canvas:
    """The picture, as wide as the table pictures (`PHONE_WIDTH`), top to bottom: the
    title, the standings, then the running totals under their caption."""
    title = _wrapped(drawable(t("summary.title", lang, game=summary.title)), HEADER,
                     WIDTH - 2 * SIDE, 2)  # fmt: skip
    key = "summary.penalties" if summary.penalties else "summary.chips"
    if summary.net:
        key = "summary.net"
    caption = _wrapped(drawable(t(key, lang, unit=deal_word(summary.game, lang))), SMALL,
                       WIDTH - 2 * SIDE, 2)  # fmt: skip
    standings_top = 12 + len(title) * 32 + 8
    caption_top = standings_top + ROW_H * (1 + len(summary.totals)) + 14
    chart_top = caption_top + len(caption) * 28 + 8
    height = chart_top + CHART_H + 40
    canvas = Canvas(Image.new("RGB", (WIDTH, height), BACKGROUND))
    for i, line in enumerate(title):
        canvas.text((SIDE, 12 + i * 32), line, HEADER, TEXT, condensed=True)
    _standings(canvas, summary, standings_top, lang)
    for i, line in enumerate(caption):
        canvas.text((SIDE, caption_top + i * 28), line, SMALL, DIM, condensed=True)
    _lines(canvas, summary, chart_top)
    return canvas


def draw_summary(summary: MatchSummary, lang: str) -> Picture:
    """The picture (PNG) with its alt text."""
    image = summary_canvas(summary, lang).image
    data = png(image, SEAT_COLOURS)
    return Picture(data, alt_text(summary, lang), (), image.width, image.height, "summary")


class MatchReads(Protocol):
    """The storage reads a summary needs (`storage.deliveries.Deliveries` has them)."""

    async def match(self, match_id: int) -> MatchRecord | None:
        """The match `match_id`, if it exists."""
        ...

    async def actions(self, match_id: int) -> Sequence[ActionRecord]:
        """The match's action log in order."""
        ...


CACHED = 64
"""How many summaries a `MatchSummaries` keeps drawn (by match, language and names)."""


def _summary_picture(
    spec: GameSpec, match: MatchRecord, actions: Sequence[str], names: Sequence[str], lang: str
) -> Picture | None:
    summary = summary_of(spec, match, actions, names)
    return None if summary is None else draw_summary(summary, lang)


class MatchSummaries:
    """The match summary pictures of one storage's matches, replayed and drawn in a worker
    thread, then kept (one per front: match ids are only unique within a database)."""

    def __init__(self, reads: MatchReads | None, kept: int = CACHED) -> None:
        self.reads = reads
        self.kept = kept
        self._drawn: OrderedDict[tuple[int, str, tuple[str, ...]], Picture | None]
        self._drawn = OrderedDict()

    async def get(
        self, spec: GameSpec, match_id: int, names: Sequence[str], lang: str
    ) -> Picture | None:
        """The summary picture of the finished match `match_id` in `lang`; None without
        storage, for a match that has not ended, or if it cannot be read or drawn (logged:
        the result is posted without it)."""
        key = (match_id, lang, tuple(names))
        if key in self._drawn:
            self._drawn.move_to_end(key)
            return self._drawn[key]
        if self.reads is None:
            return None
        try:
            match = await self.reads.match(match_id)
            if match is None:
                return None
            actions = [a.action for a in await self.reads.actions(match_id)]
            drawn = await asyncio.to_thread(_summary_picture, spec, match, actions, names, lang)
        except Exception:  # the result goes out without its summary rather than not at all
            log.exception("match %s: no summary picture", match_id)
            return None
        self._drawn[key] = drawn
        while len(self._drawn) > self.kept:
            self._drawn.popitem(last=False)
        return drawn
