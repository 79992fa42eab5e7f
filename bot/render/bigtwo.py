"""Big Two as text: the public board, a player's numbered hand, event lines, and the grammar
people type ("3d 3s", "1 4", "play 5c", "pass").

Built from views and events only; every string goes through `bot.i18n.t` (catalog area
``bigtwo``, in English, French and Ukrainian).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.i18n import t
from bot.render import Gallery, GameFace, GameRenderer, ViewAccessors
from bot.render.phrases import match_over, turn_marker
from bot.render.text import numbered_cards, pretty_cards, seat_name
from bot.render.words import read_move, suggest, words_help
from engines.base import DealSettled, DealStarted, Event, IllegalAction, MatchEnded
from engines.bigtwo import (
    PASS,
    Action,
    BigTwoView,
    CardsDealt,
    DealWon,
    Passed,
    Play,
    Played,
    TableCleared,
)
from engines.bigtwo_combos import Combo
from engines.cards import Card, CardParseError, parse_card
from engines.numbers import is_number

_PASS_WORDS = {"pass", "p", "passe", "passer", "пас"}
_PLAY_WORDS = {"play", "jouer", "joue", "хід"}
_SPLIT = re.compile(r"[\s,;]+")


def _kind(kind: str, lang: str) -> str:
    return t(f"bigtwo.kind.{kind}", lang)


def _combo(combo: Combo, lang: str) -> str:
    return t("bigtwo.combo", lang, cards=pretty_cards(combo.cards), kind=_kind(combo.kind, lang))


class BigTwoRenderer(ViewAccessors):
    """The `GameRenderer` of Big Two."""

    plays_cards = True
    dealing: tuple[type[Event], ...] = (CardsDealt,)
    move_areas: tuple[str, ...] = ("bigtwo",)

    def board(
        self, view: BigTwoView, names: Sequence[str], lang: str, *, brief: bool = False
    ) -> str:
        """The public table: deal, play order, each seat's cards left and penalty total, the
        dealer, the combination to beat and whose turn it is."""
        lines = [t("bigtwo.board.title", lang, deal=view.deal, deals=view.deals)]
        if not brief:
            order = " → ".join(seat_name(names, s) for s in range(len(view.cards_left)))
            lines.append(t("bigtwo.board.order", lang, order=order))
            for seat, left in enumerate(view.cards_left):
                marker = turn_marker(view.to_act, seat)
                dealer = t("bigtwo.board.dealer", lang) if view.dealer == seat else ""
                lines.append(
                    marker
                    + t(
                        "bigtwo.board.seat",
                        lang,
                        name=seat_name(names, seat),
                        dealer=dealer,
                        left=left,
                        total=view.totals[seat],
                    )
                )
        if view.finished:
            winners = [seat_name(names, s) for s in view.winners]
            totals = ", ".join(
                f"{seat_name(names, s)} {total}" for s, total in enumerate(view.totals)
            )
            lines.append(match_over(winners, totals, "penalties", lang))
            return "\n".join(lines)
        if view.table is not None and view.table_seat is not None:
            lines.append(
                t(
                    "bigtwo.board.table",
                    lang,
                    combo=_combo(view.table, lang),
                    name=seat_name(names, view.table_seat),
                    passes=view.passes,
                )
            )
        elif view.must_include is not None:
            lines.append(t("bigtwo.board.opening", lang, card=view.must_include.pretty))
        else:
            lines.append(t("bigtwo.board.clear", lang))
        if view.to_act is not None:
            lines.append(t("bigtwo.board.turn", lang, name=seat_name(names, view.to_act)))
        return "\n".join(lines)

    def hand(
        self,
        view: BigTwoView,
        lang: str,
        order: Sequence[Card] | None = None,
        *,
        menu: bool = False,
    ) -> str:
        """The seat's cards sorted low to high and numbered, and what it may do now."""
        numbered = numbered_cards(view.hand, order)
        lines = [t("bigtwo.hand.cards", lang, count=len(view.hand), cards=numbered)]
        if view.seat is not None and view.to_act == view.seat:
            if view.table is None:
                key = "bigtwo.hand.open" if view.must_include is not None else "bigtwo.hand.lead"
                card = view.must_include.pretty if view.must_include else ""
                lines.append(t(key, lang, card=card))
            else:
                plays = sum(isinstance(a, Play) for a in view.legal)
                key = "bigtwo.hand.answer" if plays else "bigtwo.hand.must_pass"
                lines.append(
                    t(
                        key,
                        lang,
                        combo=_combo(view.table, lang),
                        size=view.table.size,
                        plays=plays,
                    )
                )
        return "\n".join(lines)

    def event(self, event: Event, names: Sequence[str], lang: str) -> str | None:
        """One line for an event; None for events not worth a line."""
        if isinstance(event, DealStarted):
            return t(
                "bigtwo.event.deal", lang, deal=event.deal, dealer=seat_name(names, event.dealer)
            )
        if isinstance(event, CardsDealt):
            return t("bigtwo.event.dealt", lang, cards=pretty_cards(event.cards))
        if isinstance(event, Played):
            return t(
                "bigtwo.event.played",
                lang,
                name=seat_name(names, event.seat),
                cards=pretty_cards(event.cards),
                kind=_kind(event.combo, lang),
                left=event.cards_left,
            )
        if isinstance(event, Passed):
            return t("bigtwo.event.passed", lang, name=seat_name(names, event.seat))
        if isinstance(event, TableCleared):
            return t("bigtwo.event.cleared", lang, name=seat_name(names, event.leader))
        if isinstance(event, DealWon):
            scores = ", ".join(
                t("bigtwo.event.score", lang, name=seat_name(names, s), left=left, penalty=p)
                for s, (left, p) in enumerate(zip(event.cards_left, event.penalties, strict=True))
                if s != event.seat
            )
            return t("bigtwo.event.won", lang, name=seat_name(names, event.seat), scores=scores)
        if isinstance(event, DealSettled):
            return None  # DealWon already says it all
        if isinstance(event, MatchEnded):
            totals = ", ".join(
                f"{seat_name(names, s)} {total}" for s, total in enumerate(event.totals)
            )
            winners = [seat_name(names, s) for s in event.winners]
            return match_over(winners, totals, "penalties", lang)
        return None

    def parse_input(self, text: str, view: BigTwoView) -> Action:
        """``pass``; cards (``3d 3s``, ``10♠``); or their numbers in the shown hand (``1 4``).
        An optional leading ``play`` is accepted."""
        text = read_move(text, self.move_areas)
        words = [w for w in _SPLIT.split(text.strip().lower()) if w]
        if not words:
            raise IllegalAction(
                "type cards (3d 3s), their numbers (1 4) or pass", code="bigtwo.empty_input"
            )
        if len(words) == 1 and words[0] in _PASS_WORDS:
            return PASS
        if words[0] in _PLAY_WORDS:
            words = words[1:]
            if not words:
                raise IllegalAction(
                    "name the cards to play (3d 3s) or their numbers (1 4)",
                    code="bigtwo.empty_input",
                )
        chosen: list[Card] = []
        for word in words:
            try:
                chosen.append(self._card_of(word, view))
            except CardParseError:
                if chosen:  # a bad card among cards: the card parser's message says which
                    raise
                unread = IllegalAction(text, code="bigtwo.unknown_action")
                refusal = suggest(unread, text, self.move_areas)
                if refusal is unread:
                    raise
                raise refusal from None
        return Play(tuple(chosen))

    @staticmethod
    def _card_of(word: str, view: BigTwoView) -> Card:
        if is_number(word.removeprefix("#")):
            number = int(word.removeprefix("#"))
            if not 1 <= number <= len(view.hand):
                raise IllegalAction(
                    f"there is no card number {number}: your hand has cards 1 to {len(view.hand)}",
                    code="bigtwo.bad_number",
                    number=number,
                    count=len(view.hand),
                )
            return view.hand[number - 1]
        if word in _PASS_WORDS:
            raise IllegalAction(
                "'pass' cannot be combined with cards", code="bigtwo.pass_with_cards"
            )
        return parse_card(word)

    def standings(self, view: BigTwoView, names: Sequence[str], lang: str) -> str:
        """The penalties so far, in seat order."""
        seats = ", ".join(f"{seat_name(names, s)} {total}" for s, total in enumerate(view.totals))
        return t("phrase.standings.penalties", lang, seats=seats)

    def input_help(self, lang: str, view: BigTwoView | None = None) -> str:
        """How to type a Big Two action."""
        return t("bigtwo.help", lang) + "\n" + words_help(self.move_areas, lang)

    def table_cards(self, view: BigTwoView) -> list[Card]:
        """The last play of the current trick (none when the trick is new or all passed)."""
        for entry in reversed(view.trick):
            if entry.cards:
                return list(entry.cards)
        return []

    def hand_changed(self, event: Event) -> int | None:
        """A play takes cards from the player's hand."""
        return event.seat if isinstance(event, Played) else None


RENDERER: GameRenderer = BigTwoRenderer()
"""The Big Two renderer."""

FACE = GameFace(
    renderer=RENDERER,
    pictures="bot.pictures.bigtwo",
    trainers={
        "bigtwo": "bot.commands.train_bigtwo",
        "bigtwo-pg": "bot.commands.train_bigtwo_pg",
        "bigtwo-hands": "bot.commands.train_bigtwo_hands",
    },
    sparring="bot.commands.pool",
    gallery=Gallery(
        mid_deal=lambda view: view.table is not None and view.passes > 0,
        policies=("greedy",),
        bare_results=True,
    ),
)
"""Big Two's bot side (see `bot.render.GameFace`)."""
