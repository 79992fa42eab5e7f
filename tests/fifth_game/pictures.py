"""High Card's pictures: the table (each seat's plate with its chips and choice, the pot,
the last showdown's cards) and each deal's result, with their alt text. Built from the
spectator's view: it never holds a card still in a hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import t
from bot.pictures.cards import SMALL
from bot.pictures.kit import POT_BG, TURN, Canvas, Plate, pill, row, seat_grid, table_canvas
from bot.pictures.model import Facts, cards_text, fit_alt, pot_text, to_act_words, word
from bot.pictures.sheet import Sheet, SheetRow
from engines.base import Event
from engines.cards import Card
from tests.fifth_game.engine import HighCardView, Showdown


@dataclass(frozen=True, slots=True)
class HighCardTable:
    """A High Card table picture in `lang`."""

    lang: str
    header: str
    names: tuple[str, ...]
    chips: tuple[int, ...]
    states: tuple[str, ...]
    to_act: int | None
    seconds: int | None
    pot: int
    shown: tuple[Card, ...]
    shown_by: tuple[str, ...]

    def draw(self) -> Canvas:
        """The header, the felt (the pot, the last showdown's cards), the seats' plates."""
        plates = [
            Plate(
                name,
                f"{chips:,}",
                ((state, POT_BG),) if state else (),
                seat == self.to_act,
                self.seconds if seat == self.to_act else None,
                lang=self.lang,
            )
            for seat, (name, chips, state) in enumerate(
                zip(self.names, self.chips, self.states, strict=True)
            )
        ]
        inner = 56 + (SMALL.height + 20 if self.shown else 0)
        canvas, box, top = table_canvas(self.header, inner, plates)
        x, y = (box[0] + box[2]) / 2, box[1] + 12
        if self.shown:
            row(canvas, self.shown, SMALL, (x, y + SMALL.height / 2))
            y += SMALL.height + 20
        if self.pot:
            pill(
                canvas,
                (x, y + 22),
                pot_text(word("pot.main", self.lang), self.pot),
                24,
                POT_BG,
                TURN,
            )
        seat_grid(canvas, top, plates, [0] * len(plates))
        return canvas

    def alt(self) -> str:
        """The table in words: every card face it shows is named."""
        parts = [self.header + "."]
        if self.pot:
            parts.append(pot_text(word("pot.main", self.lang), self.pot) + ".")
        if self.shown:
            owned = ", ".join(
                f"{name} {cards_text((card,))}"
                for name, card in zip(self.shown_by, self.shown, strict=True)
            )
            parts.append(t("highcard.picture.shown", self.lang, cards=owned) + ".")
        for seat, name in enumerate(self.names):
            facts = [word("alt.stack", self.lang, n=self.chips[seat])]
            if self.states[seat]:
                facts.append(self.states[seat])
            if seat == self.to_act:
                facts.append(to_act_words(self.seconds, self.lang))
            parts.append(f"{name}: {', '.join(facts)}.")
        return fit_alt(parts)


def board(view: HighCardView, facts: Facts, lang: str) -> HighCardTable:
    """The table picture of a public view."""
    states = tuple(
        ""
        if not view.dealt[s] or view.winners is not None
        else t("highcard.seat.folded", lang)
        if view.folded[s]
        else t("highcard.seat.stayed", lang)
        if view.stayed[s]
        else ""
        for s in range(len(view.chips))
    )
    shown = tuple((s, c) for s, c in enumerate(view.shown) if c is not None)
    header = t("highcard.picture.header", lang, deal=view.deal, deals=view.deals, ante=view.ante)
    return HighCardTable(
        lang=lang,
        header=header,
        names=tuple(facts.name(s) for s in range(len(view.chips))),
        chips=view.chips,
        states=states,
        to_act=view.to_act,
        seconds=facts.seconds,
        pot=view.pot,
        shown=tuple(c for _, c in shown),
        shown_by=tuple(facts.name(s) for s, _ in shown),
    )


def result(events: Sequence[Event], view: Any, facts: Facts, lang: str) -> Sheet | None:
    """A deal's result: the cards shown, who took the pot."""
    showdown = next((e for e in events if isinstance(e, Showdown)), None)
    if showdown is None:
        return None
    rows = tuple(
        SheetRow(
            name=facts.name(seat),
            cards=() if card is None else (card,),
            figure=f"+{showdown.pot:,}" if seat == showdown.winner else "",
            winner=seat == showdown.winner,
            dim=card is None and seat != showdown.winner,
        )
        for seat, card in enumerate(showdown.cards)
    )
    pot = pot_text(word("pot.main", lang), showdown.pot)
    line = word("pot_won", lang, pot=pot, names=facts.name(showdown.winner))
    title = t("highcard.picture.result", lang, deal=showdown.deal)
    return Sheet(lang=lang, title=title, rows=rows, pots=(line,))
