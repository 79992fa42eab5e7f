"""Big Two pictures: the four seats in play order around the table (each with its cards
left as a fan of backs and their number, its penalty so far, PASS when it passed this
trick, LEADS for who leads it, the dealer), the combination to beat in the middle with who
played it and its kind, the deal number of the match; and each deal's result (the winning
play, the cards each seat was left with, the penalties). Built from the spectator's
`BigTwoView`, which holds no hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import join_names, t
from bot.pictures.cards import MINI, TABLE
from bot.pictures.kit import (
    PLATE_H,
    POT_BG,
    TAG_AWAY,
    TAG_PASS,
    TEXT,
    TURN,
    Canvas,
    Plate,
    disc,
    felt,
    new_canvas,
    pill,
    plate,
    row,
)
from bot.pictures.model import Facts, cards_text, fit_alt, to_act_words, word
from bot.pictures.sheet import Sheet, SheetRow
from engines.base import Event
from engines.bigtwo import BigTwoView, DealWon, Played
from engines.cards import Card

WIDTH, HEIGHT = 760, 540
FELT_BOX = (150, 130, 610, 410)
SEATS = ((380.0, 470.0), (104.0, 270.0), (380.0, 64.0), (656.0, 270.0))
"""Play order: bottom, left, top, right (clockwise)."""
PLATE_WIDTH = 196
FAN_STEP = 9
COMBO_STEP = 60
"""The step of a combination of four or five cards: overlapped (every corner index shown)
so that it stays clear of the side seats' plates."""


@dataclass(frozen=True, slots=True)
class BigTwoSeat:
    """One seat as the picture shows it (public facts only)."""

    name: str
    left: int
    penalty: int
    passed: bool
    leads: bool
    dealer: bool
    to_act: bool
    seconds: int | None
    away: bool
    winner: bool = False


@dataclass(frozen=True, slots=True)
class BigTwoTable:
    """A Big Two table picture in the reader's language `lang`."""

    lang: str
    header: str
    seats: tuple[BigTwoSeat, ...]
    combo: tuple[Card, ...] = ()
    combo_label: str = ""
    note: str = ""
    note_cards: tuple[Card, ...] = ()
    """Cards the note writes (the 3♦ the opening play must hold)."""
    banner: str = ""

    def draw(self) -> Canvas:
        """The picture."""
        canvas = new_canvas(felt(WIDTH, HEIGHT, FELT_BOX))
        lang = self.lang
        canvas.text((14, 12), self.header, 24, TEXT, condensed=True, width=230)
        mid = (WIDTH / 2, HEIGHT / 2 - 10)
        if self.combo:
            step = TABLE.width + 6 if len(self.combo) <= 3 else COMBO_STEP
            row(canvas, self.combo, TABLE, mid, step=step)
            pill(canvas, (mid[0], mid[1] + 84), self.combo_label, 20, POT_BG, TEXT)
        elif self.note:
            pill(canvas, mid, self.note, 22, POT_BG, TURN)
            canvas.faces.extend(self.note_cards)
        if self.banner:
            pill(canvas, (mid[0], mid[1] + 84), self.banner, 22, TURN, (0, 0, 0))
        for seat, centre in zip(self.seats, SEATS, strict=True):
            tags = []
            if seat.leads:
                tags.append((word("tag.lead", lang), POT_BG))
            if seat.passed:
                tags.append((word("tag.pass", lang), TAG_PASS))
            if seat.away:
                tags.append((word("tag.away", lang), TAG_AWAY))
            figure = word("bigtwo.penalty", lang, n=seat.penalty)
            plate(
                canvas,
                centre,
                Plate(
                    seat.name, figure, tuple(tags), seat.to_act, seat.seconds, winner=seat.winner
                ),
                PLATE_WIDTH,
            )
            _fan(canvas, seat.left, centre)
            if seat.dealer:
                disc(
                    canvas,
                    (centre[0] + PLATE_WIDTH / 2 - 6, centre[1] - PLATE_H / 2 + 2),
                    word("mark.dealer", lang),
                    size=28,
                )
        return canvas

    def alt(self) -> str:
        """The table in words: the combination to beat first, then each seat in play order."""
        lang = self.lang
        parts = [self.header + "."]
        if self.combo:
            parts.append(f"{self.combo_label}: {cards_text(self.combo)}.")
        elif self.note:
            parts.append(self.note + ".")
        if self.banner:
            parts.append(self.banner + ".")
        for seat in self.seats:
            facts = [
                word("alt.cards_left", lang, n=seat.left),
                word("bigtwo.penalty", lang, n=seat.penalty),
            ]
            for flag, key in (
                (seat.leads, "alt.tag.lead"),
                (seat.passed, "alt.tag.pass"),
                (seat.dealer, "alt.mark.dealer"),
                (seat.away, "alt.tag.away"),
                (seat.winner, "alt.winner"),
            ):
                if flag:
                    facts.append(word(key, lang))
            if seat.to_act:
                facts.append(to_act_words(seat.seconds, lang))
            parts.append(f"{seat.name}: {', '.join(facts)}.")
        return fit_alt(parts)


def _fan(canvas: Canvas, count: int, centre: tuple[float, float]) -> None:
    """A fan of `count` backs with the number, on the side of the plate toward the middle."""
    if count <= 0:
        return
    width = MINI.width + FAN_STEP * (count - 1)
    x, y = centre
    if y > HEIGHT * 0.7:
        fan_centre = (x, y - PLATE_H / 2 - MINI.height / 2 - 8)
    elif y < HEIGHT * 0.3:
        fan_centre = (x, y + PLATE_H / 2 + MINI.height / 2 + 30)
    else:
        fan_centre = (x, y - PLATE_H / 2 - MINI.height / 2 - 8)
    # the number on the fan's outer end: on the left seat's, it would touch the middle
    outer = -1 if x < WIDTH * 0.3 else 1
    fan_centre = (fan_centre[0] - outer * 10, fan_centre[1])
    row(canvas, [None] * count, MINI, fan_centre, step=FAN_STEP)
    label_x = fan_centre[0] + outer * (width / 2 + 22)
    canvas.draw.ellipse(
        (label_x - 18, fan_centre[1] - 18, label_x + 18, fan_centre[1] + 18), fill=TURN
    )
    canvas.text((label_x, fan_centre[1] + 1), str(count), 22, (0, 0, 0), anchor="mm")


def _combo_label(kind: str, name: str, lang: str) -> str:
    return word("bigtwo.played_by", lang, name=name, kind=t(f"bigtwo.kind.{kind}", lang))


def board(view: BigTwoView, facts: Facts, lang: str) -> BigTwoTable:
    """The table picture of a public Big Two view."""
    passed = {entry.seat for entry in view.trick if not entry.cards}
    seats = tuple(
        BigTwoSeat(
            name=facts.name(seat),
            left=left,
            penalty=view.totals[seat],
            passed=seat in passed and not view.finished,
            leads=view.leader == seat and not view.finished,
            dealer=view.dealer == seat and not view.finished,
            to_act=view.to_act == seat and not view.finished,
            seconds=facts.seconds if view.to_act == seat else None,
            away=facts.is_away(seat),
            winner=view.finished and seat in view.winners,
        )
        for seat, left in enumerate(view.cards_left)
    )
    header = word("bigtwo.header", lang, deal=view.deal, deals=view.deals)
    combo: tuple[Card, ...] = ()
    label = note = banner = ""
    written: tuple[Card, ...] = ()
    if view.finished:
        banner = word("over", lang, names=join_names(facts.name(s) for s in view.winners))
    elif view.table is not None and view.table_seat is not None:
        combo = tuple(view.table.cards)
        label = _combo_label(view.table.kind, facts.name(view.table_seat), lang)
    elif view.must_include is not None:
        note = word("bigtwo.opens", lang, card=view.must_include.pretty)
        written = (view.must_include,)
    elif view.to_act is not None:
        note = word("bigtwo.free_lead", lang, name=facts.name(view.to_act))
    return BigTwoTable(lang, header, seats, combo, label, note, written, banner)


def result(events: Sequence[Event], view: Any, facts: Facts, lang: str) -> Sheet | None:
    """A deal's result: the winning play, each seat's cards left (as backs) and penalty."""
    won = next((e for e in events if isinstance(e, DealWon)), None)
    if won is None:
        return None
    last = next((e for e in reversed(events) if isinstance(e, Played)), None)
    rows = tuple(
        SheetRow(
            name=facts.name(seat),
            backs=left,
            figure=f"+{won.penalties[seat]}" if seat != won.seat else "0",
            winner=seat == won.seat,
        )
        for seat, left in enumerate(won.cards_left)
    )
    deal = view.deal if isinstance(view, BigTwoView) else 0
    return Sheet(
        lang=lang,
        title=word("bigtwo.result_header", lang, deal=deal, name=facts.name(won.seat)),
        rows=rows,
        middle=tuple(last.cards) if last is not None else (),
        middle_label=_combo_label(last.combo, facts.name(last.seat), lang) if last else "",
    )
