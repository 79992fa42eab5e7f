"""Deuce Duel pictures: the two seats face to face (chips, bet in front, the UP and DOWN
signals drawn as arrows, each locked card face down once locked, who speaks first), the
ante and the pot in the middle, the previous deal's two locked cards; and each deal's
showdown (both locked cards, who won the pot). Built from the spectator's `DuelView`: it
never holds a seat's cards, only their signals."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import join_names
from bot.pictures.cards import SMALL
from bot.pictures.kit import (
    PLATE_H,
    POT_BG,
    TAG_ALL_IN,
    TAG_AWAY,
    TEXT,
    TURN,
    Canvas,
    Plate,
    chips,
    disc,
    felt,
    new_canvas,
    pill,
    plate,
)
from bot.pictures.model import Facts, cards_text, fit_alt, pot_text, to_act_words, word
from bot.pictures.sheet import Sheet, SheetRow
from engines.base import Event
from engines.cards import Card
from engines.duel import DuelView, Showdown

WIDTH, HEIGHT = 720, 470
FELT_BOX = (70, 100, 650, 360)
SEATS = ((360.0, 60.0), (360.0, 396.0))
"""Seat 0 at the top, seat 1 at the bottom."""
UP_COLOUR = (40, 170, 90)
DOWN_COLOUR = (210, 60, 60)
PLATE_WIDTH = 220


@dataclass(frozen=True, slots=True)
class DuelSeat:
    """One seat as the picture shows it (public facts only)."""

    name: str
    chips: int
    bet: int
    up: int
    down: int
    locked: bool
    first: bool
    to_act: bool
    seconds: int | None
    away: bool
    all_in: bool


@dataclass(frozen=True, slots=True)
class DuelTable:
    """A duel table picture in the reader's language `lang`."""

    lang: str
    header: str
    seats: tuple[DuelSeat, ...]
    pot: int
    last: tuple[Card, ...] = ()
    last_label: str = ""
    banner: str = ""

    def draw(self) -> Canvas:
        """The picture."""
        canvas = new_canvas(felt(WIDTH, HEIGHT, FELT_BOX))
        lang = self.lang
        for i, line in enumerate(self.header.split(" · ", 1)):
            canvas.text(
                (WIDTH - 14, 12 + i * 26), line, 20, TEXT, anchor="ra", condensed=True, width=230
            )
        mid = (WIDTH / 2, HEIGHT / 2)
        if self.pot:
            pill(canvas, mid, pot_text(word("pot.main", lang), self.pot), 24, POT_BG, TURN)
        if self.banner:
            pill(canvas, (mid[0], mid[1] + 40), self.banner, 22, TURN, (0, 0, 0))
        if self.last:
            # the previous deal's locked cards, each on its seat's side (seat 0 above)
            for i, card in enumerate(self.last[:2]):
                top = mid[1] + (-44 if i == 0 else 44) - SMALL.height / 2
                canvas.card(card, SMALL, int(130 - SMALL.width / 2), int(top))
            canvas.text((130, mid[1] - 100), self.last_label, 18, TEXT, anchor="mm", condensed=True)
        for seat, centre in zip(self.seats, SEATS, strict=True):
            tags = []
            if seat.all_in:
                tags.append((word("tag.allin", lang), TAG_ALL_IN))
            if seat.away:
                tags.append((word("tag.away", lang), TAG_AWAY))
            figure = f"{seat.chips:,}"
            plate(
                canvas,
                centre,
                Plate(seat.name, figure, tuple(tags), seat.to_act, seat.seconds),
                PLATE_WIDTH,
            )
            top = centre[1] < mid[1]
            _signals(canvas, seat, (centre[0] - PLATE_WIDTH / 2 - 70, centre[1]))
            if seat.locked:
                y = centre[1] + (PLATE_H / 2 + 16 if top else -PLATE_H / 2 - 16 - SMALL.height)
                canvas.card(None, SMALL, int(centre[0] + PLATE_WIDTH / 2 - SMALL.width), int(y))
            if seat.bet:
                y = centre[1] + (PLATE_H / 2 + 60 if top else -PLATE_H / 2 - 60)
                chips(canvas, (centre[0] - 40, y), seat.bet, below=top)
            if seat.first:
                disc(
                    canvas, (centre[0] + PLATE_WIDTH / 2 + 26, centre[1]), word("mark.first", lang)
                )
        return canvas

    def alt(self) -> str:
        """The table in words."""
        lang = self.lang
        parts = [self.header + "."]
        if self.pot:
            parts.append(pot_text(word("pot.main", lang), self.pot) + ".")
        if self.last:
            parts.append(f"{self.last_label}: {cards_text(self.last)}.")
        if self.banner:
            parts.append(self.banner + ".")
        for seat in self.seats:
            facts = [word("alt.stack", lang, n=seat.chips)]
            if seat.bet:
                facts.append(word("alt.bet", lang, n=seat.bet))
            facts.append(word("alt.signals", lang, up=seat.up, down=seat.down))
            if seat.locked:
                facts.append(word("alt.locked", lang))
            if seat.first:
                facts.append(word("alt.mark.first", lang))
            if seat.all_in:
                facts.append(word("alt.tag.allin", lang))
            if seat.away:
                facts.append(word("alt.tag.away", lang))
            if seat.to_act:
                facts.append(to_act_words(seat.seconds, lang))
            parts.append(f"{seat.name}: {', '.join(facts)}.")
        return fit_alt(parts)


def _signals(canvas: Canvas, seat: DuelSeat, centre: tuple[float, float]) -> None:
    """The seat's signals: a green arrow up per UP card, a red arrow down per DOWN card."""
    x, y = centre
    arrows = [True] * seat.up + [False] * seat.down
    left = x - (len(arrows) * 40 - 8) / 2
    for i, up in enumerate(arrows):
        ax = left + i * 40 + 16
        if up:
            points = [(ax, y - 18), (ax + 16, y + 2), (ax + 6, y + 2), (ax + 6, y + 18)]
            points += [(ax - 6, y + 18), (ax - 6, y + 2), (ax - 16, y + 2)]
        else:
            points = [(ax, y + 18), (ax + 16, y - 2), (ax + 6, y - 2), (ax + 6, y - 18)]
            points += [(ax - 6, y - 18), (ax - 6, y - 2), (ax - 16, y - 2)]
        canvas.draw.polygon(points, fill=UP_COLOUR if up else DOWN_COLOUR, outline=TEXT)


def board(view: DuelView, facts: Facts, lang: str) -> DuelTable:
    """The table picture of a public duel view."""
    over = view.phase == "over"
    seats = tuple(
        DuelSeat(
            name=facts.name(seat),
            chips=view.chips[seat],
            bet=view.bets[seat],
            up=view.signals[seat][0] if not over else 0,
            down=view.signals[seat][1] if not over else 0,
            locked=view.locked[seat] and not over,
            first=view.first == seat and not over,
            to_act=view.to_act == seat and not over,
            seconds=facts.seconds if view.to_act == seat else None,
            away=facts.is_away(seat),
            all_in=view.chips[seat] == 0 and not over,
        )
        for seat in range(len(view.chips))
    )
    ante = max(view.antes) if view.antes else 0
    header = word("duel.header", lang, deal=view.deal, ante=ante, stock=view.stock_size)
    last: tuple[Card, ...] = ()
    last_label = ""
    if view.last is not None:
        last = tuple(view.last.locked)
        last_label = word("duel.last", lang, deal=view.last.deal)
    banner = ""
    if view.winners is not None:
        banner = word("over", lang, names=join_names(facts.name(s) for s in view.winners))
    return DuelTable(lang, header, seats, view.pot, last, last_label, banner)


def _won(showdown: Showdown, seat: int) -> str:
    amount = showdown.won[seat] if seat < len(showdown.won) else 0
    return f"+{amount:,}" if amount else ""


def result(events: Sequence[Event], view: Any, facts: Facts, lang: str) -> Sheet | None:
    """A deal's showdown: both locked cards, a fold, who won the pot."""
    showdown = next((e for e in events if isinstance(e, Showdown)), None)
    if showdown is None:
        return None
    rows = tuple(
        SheetRow(
            name=facts.name(seat),
            cards=(card,),
            label=word("duel.folded", lang) if showdown.folded == seat else "",
            figure=f"+{showdown.won[seat]:,}"
            if seat < len(showdown.won) and showdown.won[seat]
            else "",
            winner=seat in showdown.winners,
            dim=showdown.folded == seat,
        )
        for seat, card in enumerate(showdown.locked)
    )
    names = join_names(facts.name(s) for s in showdown.winners)
    pot = pot_text(word("pot.main", lang), showdown.pot)
    return Sheet(
        lang=lang,
        title=word("duel.result_header", lang, deal=showdown.deal),
        rows=rows,
        pots=(word("pot_won", lang, pot=pot, names=names),),
    )
