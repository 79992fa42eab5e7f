"""High Card's bot side: its renderer (text, input, view accessors) and its declaration
(`FACE`: renderer, pictures, gallery scenes), as `GameSpec.face` names it."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import t
from bot.render import Gallery, GameFace, GameRenderer, ViewAccessors, chip_standings
from bot.render.text import numbered_cards
from bot.render.words import read_move, suggest, words_help
from engines.base import ChipsBought, DealSettled, DealStarted, Event, IllegalAction, MatchEnded
from engines.cards import Card
from tests.fifth_game.engine import (
    Acted,
    Action,
    CardDealt,
    HighCardView,
    Showdown,
    parse_action,
)

AREA = "highcard"


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if seat < len(names) else f"#{seat + 1}"


class HighCardRenderer(ViewAccessors):
    """How High Card reads: one card each, stay or fold."""

    plays_cards = False
    dealing = (CardDealt,)
    move_areas = (AREA,)

    def board(
        self, view: HighCardView, names: Sequence[str], lang: str, *, brief: bool = False
    ) -> str:
        """The deal, the pot and, unless `brief`, each seat's chips and choice."""
        lines = [t("highcard.board.title", lang, deal=view.deal, deals=view.deals, pot=view.pot)]
        if not brief:
            for seat, chips in enumerate(view.chips):
                state = self._seat_word(view, seat, lang)
                mark = "▶ " if view.to_act == seat else "  "
                lines.append(f"{mark}{_name(names, seat)}: {chips} {state}".rstrip())
        if view.to_act is not None:
            lines.append(t("highcard.board.to_act", lang, name=_name(names, view.to_act)))
        return "\n".join(lines)

    def _seat_word(self, view: HighCardView, seat: int, lang: str) -> str:
        if not view.dealt[seat] or view.winners is not None:
            return ""
        if view.folded[seat]:
            return t("highcard.seat.folded", lang)
        if view.stayed[seat]:
            return t("highcard.seat.stayed", lang)
        return ""

    def hand(
        self,
        view: HighCardView,
        lang: str,
        order: Sequence[Card] | None = None,
        *,
        menu: bool = False,
    ) -> str:
        """The seat's card and, on its turn, its choice."""
        if view.seat is None or not view.hand:
            return ""
        lines = [t("highcard.hand.card", lang, card=numbered_cards(view.hand, order))]
        if view.legal:
            lines.append(t("highcard.hand.choose", lang, ante=view.ante))
        return "\n".join(lines)

    def event(self, event: Event, names: Sequence[str], lang: str) -> str | None:
        """One line per event worth showing."""
        if isinstance(event, ChipsBought):
            return t("highcard.event.buy_in", lang, name=_name(names, event.seat), n=event.amount)
        if isinstance(event, DealStarted):
            return t("highcard.event.deal", lang, deal=event.deal, name=_name(names, event.dealer))
        if isinstance(event, CardDealt):
            return t("highcard.event.dealt", lang, card=event.card.pretty)
        if isinstance(event, Acted):
            key = "highcard.event.stay" if event.action == "stay" else "highcard.event.fold"
            return t(key, lang, name=_name(names, event.seat))
        if isinstance(event, Showdown):
            shown = ", ".join(
                f"{_name(names, s)} {card.pretty}"
                for s, card in enumerate(event.cards)
                if card is not None
            )
            key = "highcard.event.showdown" if shown else "highcard.event.uncontested"
            return t(key, lang, name=_name(names, event.winner), pot=event.pot, shown=shown)
        if isinstance(event, DealSettled):
            return None
        if isinstance(event, MatchEnded):
            winners = ", ".join(_name(names, s) for s in event.winners)
            return t("highcard.event.over", lang, names=winners)
        return None

    def parse_input(self, text: str, view: HighCardView) -> Action:
        """`stay` or `fold`, in any catalog language."""
        typed = text
        try:
            return parse_action(read_move(text, self.move_areas))
        except IllegalAction as error:
            raise suggest(error, typed, self.move_areas) from None

    def input_help(self, lang: str, view: HighCardView | None = None) -> str:
        """How to type moves."""
        return t("highcard.help", lang) + "\n" + words_help(self.move_areas, lang)

    def standings(self, view: HighCardView, names: Sequence[str], lang: str) -> str:
        """Every seat's chips as the deal starts (its antes counted back in)."""
        chips = [
            c + (view.ante if view.dealt[s] and view.winners is None else 0)
            for s, c in enumerate(view.chips)
        ]
        return chip_standings(chips, names, lang)

    def knocked_out(self, event: Event) -> int | None:
        """Nobody is knocked out before the match ends."""
        return None


RENDERER: GameRenderer = HighCardRenderer()
"""High Card's renderer."""

FACE = GameFace(
    renderer=RENDERER,
    pictures="tests.fifth_game.pictures",
    gallery=Gallery(
        mid_deal=lambda view: any(view.stayed) or any(view.folded),
        policies=("random",),
        settings=lambda seats: {"deals": 8},
    ),
)
"""High Card's bot side, read through `bot.render.get_face`."""
