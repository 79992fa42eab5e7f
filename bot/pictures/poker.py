"""The poker table picture hold'em and draw poker share: seats around an oval felt table
(name, stack, status tags, the dealer button and blind discs, the bet in front as chips,
cards held as small backs, how many cards were drawn), the board in the middle (hold'em),
the pots and side pots, the table's stakes, and the seat to act framed in gold with its
time left. `PokerTable` is what is drawn: built by `bot.pictures.holdem` or
`bot.pictures.draw` from the spectator view only; its alt text says the same in words.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import join_names
from bot.pictures.cards import MINI, TABLE
from bot.pictures.fonts import text_width
from bot.pictures.kit import (
    PLATE_H,
    TAG_ALL_IN,
    TAG_AWAY,
    TAG_FOLD,
    TEXT,
    TURN,
    Canvas,
    Plate,
    around,
    chips,
    disc,
    felt,
    new_canvas,
    pill,
    plate,
    row,
    slots,
)
from bot.pictures.kit import POT_BG as POT
from bot.pictures.model import cards_text, fit_alt, pot_text, to_act_words, word
from engines.cards import Card

WIDTH, HEIGHT = 900, 590
CENTRE = (450.0, 287.0)
FELT_BOX = (120, 136, 780, 438)
SEAT_RADII = (372.0, 230.0)
HOLDING_STEP = 6


def plate_width(count: int) -> int:
    """The width of a seat plate at a table of `count` seats (narrower past six)."""
    return 220 if count <= 6 else 188


TAG_COLOURS = {"fold": TAG_FOLD, "allin": TAG_ALL_IN, "away": TAG_AWAY, "out": TAG_FOLD}


@dataclass(frozen=True, slots=True)
class PokerSeat:
    """One seat as the picture shows it (public facts only)."""

    name: str
    stack: int
    bet: int = 0
    tags: tuple[str, ...] = ()
    """Status keys, in order: fold, allin, away, out."""
    marks: tuple[str, ...] = ()
    """Disc keys: dealer, small_blind, big_blind (hold'em), blind, surblind (draw)."""
    holding: int = 0
    """Cards held face down (drawn as small backs)."""
    drew: int | None = None
    to_act: bool = False
    seconds: int | None = None
    winner: bool = False


@dataclass(frozen=True, slots=True)
class PokerTable:
    """A poker table picture: header, board cards (with `slots` places), pots, stakes lines,
    seats, an end-of-match banner, in the reader's language `lang`."""

    lang: str
    header: str
    seats: tuple[PokerSeat, ...]
    board: tuple[Card, ...] = ()
    slots: int = 0
    pots: tuple[tuple[str, int, tuple[str, ...]], ...] = ()
    """(label, amount, the names of the seats that may win it)."""
    stakes: tuple[str, ...] = ()
    banner: str = ""

    def draw(self) -> Canvas:
        """The picture."""
        return draw_table(self)

    def alt(self) -> str:
        """The picture in words."""
        return table_alt(self)


def seat_centres(count: int) -> list[tuple[float, float]]:
    """Where the plates of `count` seats go (seat 0 at the bottom, then clockwise), kept
    inside the picture."""
    half_w, half_h = plate_width(count) / 2 + 6, PLATE_H / 2 + 4
    return [
        (min(max(x, half_w), WIDTH - half_w), min(max(y, half_h), HEIGHT - half_h - 26))
        for x, y in around(count, CENTRE, SEAT_RADII)
    ]


BOARD_BOX = (
    CENTRE[0] - (TABLE.width * 5 + 24) / 2 - 34,
    CENTRE[1] - 10 - TABLE.height / 2 - 34,
    CENTRE[0] + (TABLE.width * 5 + 24) / 2 + 34,
    CENTRE[1] - 10 + TABLE.height / 2 + 30,
)
"""Where the board cards lie, with room for a stack of chips around them."""


def _bet_point(seat: tuple[float, float], width: int) -> tuple[float, float]:
    """Where a seat's chips go: just off its plate, toward the middle of the table (above or
    below the board cards when that would put them on the cards)."""
    dx, dy = CENTRE[0] - seat[0], CENTRE[1] - seat[1]
    length = max(1.0, (dx * dx + dy * dy) ** 0.5)
    ux, uy = dx / length, dy / length
    reach = min((width / 2) / abs(ux) if ux else 1e9, (PLATE_H / 2 + 22) / abs(uy) if uy else 1e9)
    x, y = seat[0] + ux * (reach + 30), seat[1] + uy * (reach + 22)
    left, top, right, bottom = BOARD_BOX
    if left < x < right and top < y < bottom:
        y = bottom + 10 if seat[1] >= CENTRE[1] - 20 else top - 10
    return x, y


def _mark_point(seat: tuple[float, float], index: int, width: int) -> tuple[float, float]:
    """Where a seat's discs go: beside its plate on the side nearer the middle, one above
    the other (under the plate when that would touch the board cards)."""
    side = 1 if seat[0] < CENTRE[0] else -1
    x, y = seat[0] + side * (width / 2 + 18), seat[1] - 17 + index * 34
    left, top, right, bottom = BOARD_BOX
    if left < x + 16 and x - 16 < right and top < y + 16 and y - 16 < bottom:
        # beside the plate would touch the board cards: under the plate's inner corner
        return seat[0] + side * (width / 2 - 16 - index * 34), seat[1] + PLATE_H / 2 + 17
    return x, y


def frame(count: int) -> tuple[int, int]:
    """The part of the layout's width a table of `count` seats uses (left, right): heads-up
    leaves the sides empty, so its picture is cut narrower (it reads larger on a phone)."""
    return (90, WIDTH - 90) if count <= 2 else (0, WIDTH)


def draw_table(table: PokerTable) -> Canvas:
    """The picture of `table`."""
    canvas = new_canvas(felt(WIDTH, HEIGHT, FELT_BOX))
    lang = table.lang
    shown = frame(len(table.seats))
    header_width = 330 if shown[0] == 0 else 280
    canvas.text(
        (shown[0] + 14, HEIGHT - 12),
        table.header,
        20,
        TEXT,
        anchor="ls",
        condensed=True,
        width=header_width,
    )
    for i, line in enumerate(reversed(table.stakes)):
        canvas.text(
            (shown[1] - 14, HEIGHT - 12 - i * 26),
            line,
            20,
            TEXT,
            anchor="rs",
            condensed=True,
            width=300,
        )
    mid_x, mid_y = CENTRE
    if table.slots:
        slots(canvas, table.slots, TABLE, (mid_x, mid_y - 10))
    if table.board:
        left = mid_x - (TABLE.width * table.slots + 6 * (table.slots - 1)) / 2
        width = TABLE.width * len(table.board) + 6 * (len(table.board) - 1)
        row(canvas, table.board, TABLE, (left + width / 2, mid_y - 10))
    pots_y = mid_y + 72 if table.slots else mid_y
    if table.pots:
        labels = [pot_text(label, amount) for label, amount, _ in table.pots]
        widths = [text_width(text, 22, True) + 22 + 10 for text in labels]
        x = mid_x - sum(widths) / 2
        for text, w in zip(labels, widths, strict=True):
            pill(canvas, (x + w / 2, pots_y), text, 22, POT, TURN)
            x += w
    if table.banner:
        pill(canvas, (mid_x, pots_y + 40), table.banner, 24, TURN, (0, 0, 0))
    centres = seat_centres(len(table.seats))
    width = plate_width(len(table.seats))
    for seat, centre in zip(table.seats, centres, strict=True):
        tags = tuple((word(f"tag.{tag}", lang), TAG_COLOURS[tag]) for tag in seat.tags)
        if seat.drew is not None:
            tags = (*tags, (word("drew", lang, n=seat.drew), POT))
        plate(
            canvas,
            centre,
            Plate(
                seat.name,
                f"{seat.stack:,}",
                tags,
                seat.to_act,
                seat.seconds,
                dim="fold" in seat.tags or "out" in seat.tags,
                winner=seat.winner,
            ),
            width,
            room=MINI.width + HOLDING_STEP * (seat.holding - 1) - 6 if seat.holding else 0,
        )
        if seat.holding:
            x = centre[0] + width / 2 - 8 - MINI.width
            for i in range(seat.holding):
                top = max(2, int(centre[1] - PLATE_H / 2 - 30))
                canvas.card(None, MINI, int(x - i * HOLDING_STEP), top)
        if seat.bet:
            chips(canvas, _bet_point(centre, width), seat.bet, below=centre[1] < CENTRE[1])
        for i, mark in enumerate(seat.marks):
            disc(canvas, _mark_point(centre, i, width), word(f"mark.{mark}", lang))
    if shown != (0, WIDTH):
        canvas.image = canvas.image.crop((shown[0], 0, shown[1], HEIGHT))
    return canvas


def table_alt(table: PokerTable) -> str:
    """The alt text of `table`: board cards, pots, stakes, then each seat in order."""
    lang = table.lang
    parts = [table.header + "."]
    if table.slots:
        board = cards_text(table.board) if table.board else word("alt.no_board", lang)
        parts.append(word("alt.board", lang, cards=board))
    if table.pots:
        pots = "; ".join(
            word("alt.pot_for", lang, pot=pot_text(label, amount), names=join_names(names))
            for label, amount, names in table.pots
        )
        parts.append(word("alt.pots", lang, pots=pots))
    parts.extend(line + "." for line in table.stakes)
    if table.banner:
        parts.append(table.banner + ".")
    for seat in table.seats:
        facts = [word("alt.stack", lang, n=seat.stack)]
        if seat.bet:
            facts.append(word("alt.bet", lang, n=seat.bet))
        facts += [word(f"alt.mark.{mark}", lang) for mark in seat.marks]
        facts += [word(f"alt.tag.{tag}", lang) for tag in seat.tags]
        if seat.drew is not None:
            facts.append(word("alt.drew", lang, n=seat.drew))
        if seat.to_act:
            facts.append(to_act_words(seat.seconds, lang))
        if seat.winner:
            facts.append(word("alt.winner", lang))
        parts.append(f"{seat.name}: {', '.join(facts)}.")
    return fit_alt(parts)
