"""Big Two pictures, made to be read on a phone: the four seats' plates in play order, two
to a row (each with its cards left as a fan of backs and their number, its penalty so
far, PASS when it passed this trick, LEADS for who leads it, the dealer) under the felt
with the combination to beat, who played it and its kind, the deal number of the match;
and each deal's result (the winning play, the cards each seat was left with, the
penalties). Built from the spectator's
`BigTwoView`, which holds no hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import join_names, t
from bot.pictures.cards import BACK, TABLE
from bot.pictures.kit import (
    DISC,
    PHONE_WIDTH,
    POT_BG,
    TAG_AWAY,
    TAG_PASS,
    TEXT,
    TURN,
    Canvas,
    Colour,
    Plate,
    pill,
    row,
    seat_grid,
    table_canvas,
)
from bot.pictures.model import Facts, cards_text, fit_alt, settled_deal, to_act_words, word
from bot.pictures.sheet import Sheet, SheetRow
from engines.base import Event
from engines.bigtwo import BigTwoView, DealWon, Played
from engines.cards import Card

COMBO_STEP = 76
"""The step of a five-card combination (slightly overlapped to stay on the felt)."""


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
        """The picture: the header, the felt with the combination to beat and who played
        it (or who leads), then the four plates in play order, two to a row."""
        lang = self.lang
        plates = [_plate(seat, lang) for seat in self.seats]
        backs = [seat.left for seat in self.seats]
        canvas, box, plates_top = table_canvas(self.header, TABLE.height + 70, plates, backs)
        mid = (PHONE_WIDTH / 2, box[1] + 12 + TABLE.height / 2)
        below = (mid[0], mid[1] + TABLE.height / 2 + 28)
        if self.combo:
            step = TABLE.width + 6 if len(self.combo) <= 4 else COMBO_STEP
            row(canvas, self.combo, TABLE, mid, step=step)
            pill(canvas, below, self.combo_label, 23, POT_BG, TEXT)
        elif self.note:
            pill(canvas, (mid[0], (box[1] + box[3]) / 2), self.note, 23, POT_BG, TURN)
            canvas.faces.extend(self.note_cards)
        if self.banner:
            pill(canvas, below, self.banner, 23, TURN, (0, 0, 0))
        seat_grid(canvas, plates_top, plates, backs)
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


def _plate(seat: BigTwoSeat, lang: str) -> Plate:
    """What `seat`'s plate shows: name, penalty so far, and as tags the cards it has left,
    the dealer, who leads the trick, who passed, who is away."""
    tags: list[tuple[str, Colour]] = []
    if seat.left:
        tags.append((word("bigtwo.left", lang, n=seat.left), BACK))
    if seat.dealer:
        tags.append((word("mark.dealer", lang), DISC))
    if seat.leads:
        tags.append((word("tag.lead", lang), POT_BG))
    if seat.passed:
        tags.append((word("tag.pass", lang), TAG_PASS))
    if seat.away:
        tags.append((word("tag.away", lang), TAG_AWAY))
    figure = word("bigtwo.penalty", lang, n=seat.penalty)
    return Plate(
        seat.name, figure, tuple(tags), seat.to_act, seat.seconds, winner=seat.winner, lang=lang
    )


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
    deal = settled_deal(events, view.deal if isinstance(view, BigTwoView) else 0)
    return Sheet(
        lang=lang,
        title=word("bigtwo.result_header", lang, deal=deal, name=facts.name(won.seat)),
        rows=rows,
        middle=tuple(last.cards) if last is not None else (),
        middle_label=_combo_label(last.combo, facts.name(last.seat), lang) if last else "",
    )
