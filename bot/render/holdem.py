"""No-limit hold'em as text: the public board (board cards, pots, stacks, bets, button and
blinds, whose turn), a player's cards and options, event lines, and the grammar people type
("check", "call", "fold", "bet 60", "raise 120", "allin").

Built from views and events only; every string goes through `bot.i18n.t` (catalog area
``holdem``, in English, French and Ukrainian).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import t
from bot.render import Gallery, GameFace, GameRenderer, ViewAccessors, chip_standings
from bot.render.betting import BetSpot, spot_if_betting, typed_bet
from bot.render.phrases import (
    acted,
    buttons_line,
    hand_name,
    match_over,
    options_line,
    pot_name,
    returned,
    seat_status,
    turn_marker,
    uncontested,
)
from bot.render.text import pretty_cards, seat_name
from bot.render.words import read_move, say_move, suggest, words_help
from engines.base import ChipsBought, DealStarted, Event, IllegalAction, MatchEnded
from engines.cards import Card
from engines.holdem import (
    BlindsPosted,
    BoardDealt,
    Eliminated,
    HoldemView,
    HoleCards,
    PlayerActed,
    PotAwarded,
    Showdown,
    UncalledReturned,
)
from engines.poker.actions import Bet, BettingAction, Raise, parse_betting_action
from engines.poker.ranking import hand_value


class HoldemRenderer(ViewAccessors):
    """The `GameRenderer` of no-limit hold'em."""

    plays_cards = False
    dealing: tuple[type[Event], ...] = (HoleCards,)
    move_areas: tuple[str, ...] = ("poker",)

    def board(
        self, view: HoldemView, names: Sequence[str], lang: str, *, brief: bool = False
    ) -> str:
        """The public table, safe to post: hand, street, blinds, board, pots, every seat's chips
        and bet with the button and blinds marked, and whose turn it is."""
        lines = [
            t(
                "holdem.board.title",
                lang,
                hand=view.hand,
                street=t(f"holdem.street.{view.street}", lang),
                sb=view.small_blind,
                bb=view.big_blind,
                pot=view.pot_total,
            )
        ]
        board = pretty_cards(view.board) if view.board else t("holdem.board.no_cards", lang)
        lines.append(t("holdem.board.board", lang, cards=board))
        if view.pots:
            parts = []
            for index, pot in enumerate(view.pots):
                parts.append(f"{pot_name(index, lang)} {pot.amount}")
            lines.append(t("holdem.board.pots", lang, pots=", ".join(parts)))
        if not brief:
            for seat in view.seats:
                tags = []
                if seat.seat == view.button:
                    tags.append(t("holdem.tag.button", lang))
                if seat.in_hand and seat.seat == view.small_blind_seat:
                    tags.append(t("holdem.tag.small_blind", lang))
                if seat.in_hand and seat.seat == view.big_blind_seat:
                    tags.append(t("holdem.tag.big_blind", lang))
                if seat.eliminated:
                    tags.append(t("holdem.tag.out", lang))
                elif seat.folded:
                    tags.append(t("holdem.tag.folded", lang))
                elif seat.all_in:
                    tags.append(t("holdem.tag.all_in", lang))
                marker = turn_marker(view.to_act, seat.seat)
                bet = t("holdem.board.bet", lang, bet=seat.bet) if seat.bet else ""
                lines.append(
                    marker
                    + t(
                        "holdem.board.seat",
                        lang,
                        name=seat_name(names, seat.seat),
                        stack=seat.stack,
                        bet=bet,
                        tags=seat_status(tags),
                    )
                )
        if view.finished:
            winners = [seat_name(names, s) for s in view.winners]
            totals = ", ".join(f"{seat_name(names, seat.seat)} {seat.stack}" for seat in view.seats)
            lines.append(match_over(winners, totals, "chips", lang))
        elif view.to_act is not None:
            lines.append(t("holdem.board.turn", lang, name=seat_name(names, view.to_act)))
        return "\n".join(lines)

    def hand(
        self,
        view: HoldemView,
        lang: str,
        order: Sequence[Card] | None = None,
        *,
        menu: bool = False,
    ) -> str:
        """The seat's two cards, its best hand so far, and its options when it is to act."""
        if view.seat is None or not view.hole:
            return ""
        lines = [t("holdem.hand.cards", lang, cards=pretty_cards(view.hole))]
        if len(view.board) >= 3:
            value = hand_value([*view.hole, *view.board])
            lines.append(t("holdem.hand.made", lang, hand=hand_name(value, lang)))
        # Nobody may just match the blind: the price to come in, not a call refused.
        entry = None if "call" in self.legal_moves(view) else view.min_to
        if view.legal and menu:
            lines.append(buttons_line(view.to_call, view.pot_total, lang, entry))
        elif view.legal:
            options = [say_move(self._option(a, view), self.move_areas, lang) for a in view.legal]
            lines.append(
                options_line(options, lang, to_call=view.to_call, pot=view.pot_total, entry=entry)
            )
        return "\n".join(lines)

    @staticmethod
    def _option(action: BettingAction, view: HoldemView) -> str:
        if isinstance(action, (Bet, Raise)):
            return f"{action.verb} {view.min_to}-{view.max_to}"
        return str(action)

    def event(self, event: Event, names: Sequence[str], lang: str) -> str | None:
        """One line per event worth showing."""
        if isinstance(event, ChipsBought):
            return t(
                "holdem.event.buy_in", lang, name=seat_name(names, event.seat), amount=event.amount
            )
        if isinstance(event, DealStarted):
            return t(
                "holdem.event.hand", lang, hand=event.deal, name=seat_name(names, event.dealer)
            )
        if isinstance(event, BlindsPosted):
            return t(
                "holdem.event.blinds",
                lang,
                sb_name=seat_name(names, event.small_blind_seat),
                sb=event.small_blind,
                bb_name=seat_name(names, event.big_blind_seat),
                bb=event.big_blind,
            )
        if isinstance(event, HoleCards):
            return t("holdem.event.hole", lang, cards=pretty_cards(event.cards))
        if isinstance(event, PlayerActed):
            return acted(
                event.verb,
                seat_name(names, event.seat),
                lang,
                added=event.added,
                total=event.total,
                all_in=event.all_in,
            )
        if isinstance(event, UncalledReturned):
            return returned(seat_name(names, event.seat), event.amount, lang)
        if isinstance(event, BoardDealt):
            return t(
                f"holdem.event.{event.street}",
                lang,
                cards=pretty_cards(event.cards),
                board=pretty_cards(event.board),
            )
        if isinstance(event, Showdown):
            parts = [
                t(
                    "holdem.event.shows",
                    lang,
                    name=seat_name(names, hand.seat),
                    cards=pretty_cards(hand.cards),
                    hand=hand_name(hand.value, lang),
                )
                for hand in event.hands
            ]
            return t("holdem.event.showdown", lang, hands="; ".join(parts))
        if isinstance(event, PotAwarded):
            pot = f"{pot_name(event.pot, lang)} {event.amount}"
            winners = ", ".join(
                f"{seat_name(names, seat)} +{share}"
                for seat, share in zip(event.winners, event.shares, strict=True)
            )
            if not event.shown and len(event.winners) == 1:
                return uncontested(seat_name(names, event.winners[0]), event.amount, lang)
            return t("holdem.event.pot", lang, pot=pot, winners=winners)
        if isinstance(event, Eliminated):
            return t("holdem.event.eliminated", lang, name=seat_name(names, event.seat))
        if isinstance(event, MatchEnded):
            totals = ", ".join(
                f"{seat_name(names, s)} {chips}" for s, chips in enumerate(event.totals)
            )
            return match_over([seat_name(names, s) for s in event.winners], totals, "chips", lang)
        return None

    def parse_input(self, text: str, view: HoldemView) -> BettingAction:
        """Read check, call, fold, bet N, raise N (N = your total this round), allin.

        A "bet" typed while there is already a bet is read as a raise to that total, and a
        "raise" with no bet yet as a bet: people mix the words up; the engine still checks
        the amount."""
        if view.seat is None:
            raise IllegalAction(
                "spectators cannot act: take a seat first", code="not_seated", text=text
            )
        typed = typed_bet(read_move(text, self.move_areas), self.bet_spot(view))
        try:
            action = parse_betting_action(typed)
        except IllegalAction as error:
            raise suggest(error, text, self.move_areas) from None
        if isinstance(action, Bet) and view.current_bet > 0:
            return Raise(action.amount)
        if isinstance(action, Raise) and view.current_bet == 0:
            return Bet(action.amount)
        return action

    def standings(self, view: HoldemView, names: Sequence[str], lang: str) -> str:
        """Every seat's chips as the hand starts (the blinds it posted counted back in)."""
        return chip_standings([s.stack + s.invested for s in view.seats], names, lang)

    def eliminated(self, view: HoldemView) -> bool:
        """True when the view's seat has no chips left and the match goes on without it."""
        if view.seat is None or view.finished:
            return False
        return any(s.seat == view.seat and s.eliminated for s in view.seats)

    def knocked_out(self, event: Event) -> int | None:
        """The seat an `Eliminated` event puts out."""
        return event.seat if isinstance(event, Eliminated) else None

    def input_help(self, lang: str, view: HoldemView | None = None) -> str:
        """How to type actions in hold'em."""
        return t("holdem.help", lang) + "\n" + words_help(self.move_areas, lang)

    def bet_spot(self, view: HoldemView) -> BetSpot | None:
        """The seat's betting options when it is to act."""
        return spot_if_betting(
            view.seat,
            view.to_act,
            tuple(str(a) for a in view.legal),
            to_call=view.to_call,
            current_bet=view.current_bet,
            pot=view.pot_total,
            low=view.min_to,
            high=view.max_to,
        )

    def table_cards(self, view: HoldemView) -> list[Card]:
        """The community cards."""
        return list(view.board)

    def hand_cards(self, view: HoldemView) -> list[Card]:
        """The seat's two hole cards (none for a spectator or a seat out of the hand)."""
        return list(view.hole or ())


RENDERER: GameRenderer = HoldemRenderer()
"""Hold'em's renderer (see `bot.render.GameRenderer`)."""

GALLERY_STACKS = (1000, 400, 1000, 250, 1000, 600, 1000, 150, 800)
"""Uneven starting stacks in the gallery (so that all-ins make side pots)."""

FACE = GameFace(
    renderer=RENDERER,
    pictures="bot.pictures.holdem",
    trainers={"holdem": "bot.commands.train_holdem"},
    sparring="bot.commands.holdem_pool",
    gallery=Gallery(
        mid_deal=lambda view: len(view.board) >= 3 and any(s.bet for s in view.seats),
        policies=("calling", "random", "tight"),
        settings=lambda seats: {"stacks": GALLERY_STACKS[:seats]},
        side_pots=True,
    ),
)
"""Hold'em's bot side (see `bot.render.GameFace`)."""
