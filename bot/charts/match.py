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

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.pictures import fonts
from bot.pictures.kit import png
from bot.pictures.model import Facts, Picture, fit_alt
from bot.render.phrases import deal_word
from bot.runtime.replay import match_state, opening_events
from engines.base import ChipsBought, DealSettled, Event, MatchEnded
from engines.registry import GameSpec
from storage.base import ActionRecord, MatchRecord

log = logging.getLogger(__name__)

WIDTH = 800
BACKGROUND = (30, 33, 40)
GRID = (60, 64, 74)
TEXT = (220, 222, 228)
DIM = (150, 154, 164)
GOLD = (255, 200, 90)
SEAT_COLOURS = (
    (120, 170, 255),
    (235, 95, 90),
    (90, 200, 120),
    (255, 200, 90),
    (200, 130, 240),
    (80, 210, 220),
    (245, 150, 60),
    (230, 230, 230),
    (170, 120, 90),
)
"""One colour per seat (up to nine seats), told apart without their order."""
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
    if summary.game == "holdem":
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
    return fit_alt(parts)


def _standings(draw: ImageDraw.ImageDraw, summary: MatchSummary, top: int, lang: str) -> None:
    size = 17
    heading = fonts.drawable(t("summary.standings", lang))
    draw.text((20, top), heading, fill=DIM, font=fonts.font(13))
    y = top + 24
    for place, seat in summary.places():
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        won = seat in summary.winners
        draw.rectangle((20, y + 3, 34, y + 17), fill=colour)
        draw.text((42, y), f"{place}.", fill=GOLD if won else TEXT, font=fonts.font(size))
        name = fonts.fit(summary.names[seat], size, 170, condensed=True)
        draw.text((70, y), name, fill=GOLD if won else TEXT, font=fonts.font(size, True))
        total = f"{summary.totals[seat]:,}"
        right = 310 - fonts.text_width(total, size)
        draw.text((right, y), total, fill=GOLD if won else TEXT, font=fonts.font(size))
        y += 30


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


def _lines(
    draw: ImageDraw.ImageDraw, summary: MatchSummary, box: tuple[int, int, int, int]
) -> None:
    left, top, right, bottom = box
    ticks = nice_ticks(*_span(summary))
    low, high = ticks[0], ticks[-1]
    small = fonts.font(12)
    draw.rectangle(box, outline=GRID)
    for value in ticks:
        row = bottom - (bottom - top) * (value - low) / (high - low)
        draw.line((left, row, right, row), fill=GRID)
        label = f"{value:,.0f}"
        draw.text((left - 6 - fonts.text_width(label, 12), row - 7), label, fill=DIM, font=small)
    n = max(len(points) for points in summary.series)

    def x(i: int) -> float:
        return left + (right - left) * (i / (n - 1) if n > 1 else 0.5)

    def y(v: float) -> float:
        return bottom - (bottom - top) * (v - low) / (high - low)

    for tick in sorted({0, n - 1, (n - 1) // 2}):
        label = str(tick)
        draw.text((x(tick) - fonts.text_width(label, 12) / 2, bottom + 4), label, fill=DIM,
                  font=small)  # fmt: skip
    for seat, points in enumerate(summary.series):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        width = 5 if seat in summary.winners else 3
        xy = [(x(i), y(v)) for i, v in enumerate(points)]
        if len(xy) > 1:
            draw.line(xy, fill=colour, width=width, joint="curve")
        end = xy[-1]
        draw.ellipse((end[0] - 4, end[1] - 4, end[0] + 4, end[1] + 4), fill=colour)


def draw_summary(summary: MatchSummary, lang: str) -> Picture:
    """The picture (PNG) with its alt text."""
    rows = len(summary.totals)
    height = max(300, 96 + rows * 30)
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    title = fonts.drawable(t("summary.title", lang, game=summary.title))
    draw.text((20, 12), fonts.fit(title, 20, WIDTH - 40), fill=TEXT, font=fonts.font(20))
    _standings(draw, summary, 52, lang)
    key = "summary.penalties" if summary.penalties else "summary.chips"
    if summary.net:
        key = "summary.net"
    caption = fonts.drawable(t(key, lang, unit=deal_word(summary.game, lang)))
    draw.text((330, 54), fonts.fit(caption, 12, WIDTH - 350), fill=DIM, font=fonts.font(12))
    _lines(draw, summary, (380, 76, WIDTH - 20, height - 28))
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


_drawn: OrderedDict[tuple[int, str], Picture | None] = OrderedDict()
CACHED = 64
"""How many summaries are kept drawn (by match and language)."""


def _summary_picture(
    spec: GameSpec, match: MatchRecord, actions: Sequence[str], names: Sequence[str], lang: str
) -> Picture | None:
    summary = summary_of(spec, match, actions, names)
    return None if summary is None else draw_summary(summary, lang)


async def match_summary(
    reads: MatchReads | None, spec: GameSpec, match_id: int, names: Sequence[str], lang: str
) -> Picture | None:
    """The summary picture of the finished match `match_id` in `lang`, replayed and drawn in
    a worker thread (then kept); None without storage, for a match that has not ended, or
    if it cannot be read or drawn (logged: the result is posted without it)."""
    key = (match_id, lang)
    if key in _drawn:
        _drawn.move_to_end(key)
        return _drawn[key]
    if reads is None:
        return None
    try:
        match = await reads.match(match_id)
        if match is None:
            return None
        actions = [a.action for a in await reads.actions(match_id)]
        drawn = await asyncio.to_thread(_summary_picture, spec, match, actions, names, lang)
    except Exception:  # the result goes out without its summary rather than not at all
        log.exception("match %s: no summary picture", match_id)
        return None
    _drawn[key] = drawn
    while len(_drawn) > CACHED:
        _drawn.popitem(last=False)
    return drawn
