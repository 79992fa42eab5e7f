"""Deuce Duel pictures, made to be read on a phone: the two seats' plates side by side
(chips, the bet, the UP and DOWN signals as arrows with their words, as the text board
writes them, each locked card face down once locked, who plays first) under the felt with
the ante and the pot, the previous deal's two locked cards with their owners' names; and
each deal's showdown (both locked cards, who won the pot, or a tie's split pot). Built
from the spectator's `DuelView`: it never holds a seat's cards, only their signals."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import join_names
from bot.pictures.cards import SMALL
from bot.pictures.fonts import fit
from bot.pictures.kit import (
    CHIP,
    DISC,
    PHONE_WIDTH,
    POT_BG,
    TAG_ALL_IN,
    TAG_AWAY,
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
from bot.pictures.model import Facts, cards_text, fit_alt, pot_text, to_act_words, word
from bot.pictures.sheet import Sheet, SheetRow
from engines.base import Event
from engines.cards import Card
from engines.duel import DuelView, Showdown

UP_COLOUR = (40, 170, 90)
DOWN_COLOUR = (210, 60, 60)
LAST_APART = 200
"""How far apart the centres of the previous deal's two cards are (room for each name)."""


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
    last_names: tuple[str, ...] = ()
    """Whose each of the `last` cards was, in the same order."""

    def draw(self) -> Canvas:
        """The picture: the header, the felt (the pot, the previous deal's locked cards,
        the end-of-match banner), then both seats' plates side by side."""
        lang = self.lang
        plates = [_plate(seat, lang) for seat in self.seats]
        inner = 56 + (SMALL.height + 72 if self.last else 0) + (44 if self.banner else 0)
        backs = [int(s.locked) for s in self.seats]
        canvas, box, plates_top = table_canvas(self.header, inner, plates, backs)
        mid_x = PHONE_WIDTH / 2
        y = box[1] + 12
        if self.last:
            canvas.text(
                (mid_x, y + 12), self.last_label, 23, TEXT, anchor="mm", condensed=True, width=400
            )
            # Each card over its owner's name, the two halves of the felt apart.
            for i, card in enumerate(self.last[:2]):
                x = mid_x + (i - 0.5) * LAST_APART
                row(canvas, (card,), SMALL, (x, y + 30 + SMALL.height / 2))
                if i < len(self.last_names):
                    name = fit(self.last_names[i], 23, LAST_APART - 16, True)
                    at = (x, y + 46 + SMALL.height)
                    canvas.text(at, name, 23, TEXT, anchor="mm", condensed=True)
            y += SMALL.height + 72
        pot = pot_text(word("pot.main", lang), self.pot) if self.pot else ""
        if pot:
            pill(canvas, (mid_x, y + 22), pot, 24, POT_BG, TURN)
        if self.banner:
            pill(canvas, (mid_x, y + 22 + (44 if pot else 0)), self.banner, 23, TURN, (0, 0, 0))
        seat_grid(canvas, plates_top, plates, backs)
        return canvas

    def alt(self) -> str:
        """The table in words."""
        lang = self.lang
        parts = [self.header + "."]
        if self.pot:
            parts.append(pot_text(word("pot.main", lang), self.pot) + ".")
        if self.last:
            owned = [
                f"{name} {cards_text((card,))}"
                for name, card in zip(self.last_names, self.last, strict=False)
            ]
            parts.append(f"{self.last_label}: {', '.join(owned) or cards_text(self.last)}.")
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


def _plate(seat: DuelSeat, lang: str) -> Plate:
    """What `seat`'s plate shows: name, chips, and as tags its signals (green: how many UP
    cards, red: how many DOWN, with the words the text board uses), who plays first, its
    bet, all-in, away."""
    tags: list[tuple[str, Colour]] = []
    if seat.up:
        tags.append((word("duel.up", lang, n=seat.up), UP_COLOUR))
    if seat.down:
        tags.append((word("duel.down", lang, n=seat.down), DOWN_COLOUR))
    if seat.first:
        tags.append((word("mark.first", lang), DISC))
    if seat.bet:
        tags.append((f"{seat.bet:,}", CHIP))
    if seat.all_in:
        tags.append((word("tag.allin", lang), TAG_ALL_IN))
    if seat.away:
        tags.append((word("tag.away", lang), TAG_AWAY))
    return Plate(seat.name, f"{seat.chips:,}", tuple(tags), seat.to_act, seat.seconds, lang=lang)


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
    if over:  # no ante is paid any more (the view's antes are back to 0)
        header = word("duel.header_over", lang, deal=view.deal)
    else:
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
    owners = tuple(facts.name(s) for s in range(len(last)))
    return DuelTable(lang, header, seats, view.pot, last, last_label, banner, owners)


def result(events: Sequence[Event], view: Any, facts: Facts, lang: str) -> Sheet | None:
    """A deal's showdown: both locked cards, a fold, who won the pot; on a tie nobody won:
    the pot is split back (no gold frame, each gets its half back)."""
    showdown = next((e for e in events if isinstance(e, Showdown)), None)
    if showdown is None:
        return None
    split = len(showdown.winners) > 1
    rows = tuple(
        SheetRow(
            name=facts.name(seat),
            cards=(card,),
            label=word("duel.folded", lang)
            if showdown.folded == seat
            else word("duel.tie", lang)
            if split
            else "",
            figure=f"+{showdown.won[seat]:,}"
            if not split and seat < len(showdown.won) and showdown.won[seat]
            else "",
            winner=seat in showdown.winners and not split,
            dim=showdown.folded == seat,
        )
        for seat, card in enumerate(showdown.locked)
    )
    pot = pot_text(word("pot.main", lang), showdown.pot)
    if split:
        share = max(showdown.won) if showdown.won else 0
        line = word("duel.split", lang, pot=pot, n=share)
    else:
        names = join_names(facts.name(s) for s in showdown.winners)
        line = word("pot_won", lang, pot=pot, names=names)
    return Sheet(
        lang=lang,
        title=word("duel.result_header", lang, deal=showdown.deal),
        rows=rows,
        pots=(line,),
    )
