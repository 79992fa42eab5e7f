"""Deuce Duel as text: the public board, a player's two cards and options, event lines, and the
grammar people type ("lock 1", "1", "7s", "check", "bet 3", "call", "raise 6", "fold", "allin").

Built from views and events only; every string goes through `bot.i18n.t` (catalog area
``duel``, in English, French and Ukrainian).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Addressee, join_names, t
from bot.render import Gallery, GameFace, GameRenderer, ViewAccessors, chip_standings
from bot.render.betting import BetSpot, CardPick, spot_if_betting, typed_bet
from bot.render.phrases import (
    acted,
    buttons_line,
    match_over,
    options_line,
    returned,
    turn_marker,
    uncontested,
)
from bot.render.text import numbered_cards, pretty_cards, seat_name
from bot.render.words import read_move, say_move, suggest, words_help
from engines.base import ChipsBought, DealStarted, Event, IllegalAction, MatchEnded
from engines.cards import Card, CardParseError, Rank, parse_card
from engines.duel import (
    Acted,
    AntesPaid,
    BettingSkipped,
    CardsDealt,
    DuelAction,
    DuelView,
    Lock,
    Locked,
    Reshuffled,
    Showdown,
    SignalsShown,
    YouLocked,
)
from engines.numbers import is_number
from engines.poker.actions import BETTING_WORDS, parse_betting_action
from engines.poker.events import UncalledReturned


def _signal(signal: Sequence[int], lang: str) -> str:
    return t("duel.signal", lang, up=signal[0], down=signal[1])


def _card_like(word: str) -> bool:
    """Whether `word` names a card the way a lock may: a position (1, #2), a rank or a card."""
    if is_number(word.removeprefix("#")):
        return True
    try:
        parse_card(word)
    except CardParseError:
        return any(word.upper() in (rank.label, rank.char) for rank in Rank)
    return True


class DuelRenderer(ViewAccessors):
    """The `GameRenderer` of Deuce Duel."""

    plays_cards = False
    dealing: tuple[type[Event], ...] = (CardsDealt,)
    move_areas: tuple[str, ...] = ("poker", "duel")

    def board(self, view: DuelView, names: Sequence[str], lang: str, *, brief: bool = False) -> str:
        """The public table: deal, pot, each player's chips, bet, signal and lock, whose turn,
        and the previous deal's locked cards."""
        lines = [
            t(
                "duel.board.title",
                lang,
                deal=view.deal,
                pot=view.pot,
                stock=view.stock_size,
                discards=len(view.discards),
            )
        ]
        if not brief:
            for seat in range(len(view.chips)):
                status = (
                    t("duel.board.locked", lang)
                    if view.locked[seat]
                    else t("duel.board.choosing", lang)
                )
                if view.phase == "over":
                    lines.append(
                        t(
                            "duel.board.seat_over",
                            lang,
                            name=seat_name(names, seat),
                            chips=view.chips[seat],
                        )
                    )
                    continue
                marker = turn_marker(view.to_act, seat)
                first = t("duel.board.first", lang) if view.first == seat else ""
                lines.append(
                    marker
                    + t(
                        "duel.board.seat",
                        lang,
                        name=seat_name(names, seat),
                        chips=view.chips[seat],
                        bet=view.bets[seat],
                        signal=_signal(view.signals[seat], lang),
                        status=status,
                        first=first,
                    )
                )
        if view.last is not None:
            lines.append(self._last(view, names, lang))
        if view.winners is not None:
            winners = [seat_name(names, s) for s in view.winners]
            totals = ", ".join(
                f"{seat_name(names, s)} {chips}" for s, chips in enumerate(view.chips)
            )
            lines.append(match_over(winners, totals, "chips", lang))
        elif view.to_act is not None:
            key = "duel.board.turn_lock" if view.phase == "lock" else "duel.board.turn_bet"
            lines.append(t(key, lang, name=seat_name(names, view.to_act)))
        return "\n".join(lines)

    def _last(self, view: DuelView, names: Sequence[str], lang: str) -> str:
        last = view.last
        assert last is not None
        shown = ", ".join(
            f"{seat_name(names, seat)} {card.pretty}" for seat, card in enumerate(last.locked)
        )
        return t(
            "duel.board.last",
            lang,
            deal=last.deal,
            cards=shown,
            result=self._result(last.winners, last.folded, last.pot, names, lang),
        )

    @staticmethod
    def _result(
        winners: Sequence[int], folded: int | None, pot: int, names: Sequence[str], lang: str
    ) -> str:
        if folded is not None:
            return uncontested(seat_name(names, winners[0]), pot, lang)
        if len(winners) > 1:
            return t("duel.result.tie", lang, pot=pot)
        return t("duel.result.win", lang, winner=seat_name(names, winners[0]), pot=pot)

    def hand(
        self, view: DuelView, lang: str, order: Sequence[Card] | None = None, *, menu: bool = False
    ) -> str:
        """The seat's two cards (numbered for locking), its locked card and its options."""
        if view.seat is None:
            return ""
        cards = numbered_cards(view.hand, order)
        lines = [
            t("duel.hand.cards", lang, cards=cards, signal=_signal(view.signals[view.seat], lang))
        ]
        if view.my_lock is not None:
            lines.append(t("duel.hand.locked", lang, card=view.my_lock.pretty))
        if view.legal:
            if view.phase == "lock":
                lines.append(t("duel.hand.lock_menu" if menu else "duel.hand.lock_prompt", lang))
            elif menu:
                lines.append(buttons_line(view.to_call, view.pot, lang))
            else:
                options = []
                for action in view.legal:
                    text = str(action)
                    if text.startswith(("bet", "raise")):
                        verb = text.split()[0]
                        text = f"{verb} {view.min_raise_to}-{view.max_total}"
                    options.append(say_move(text, self.move_areas, lang))
                lines.append(options_line(options, lang, to_call=view.to_call, pot=view.pot))
        return "\n".join(lines)

    def event(self, event: Event, names: Sequence[str], lang: str) -> str | None:
        """One line per event worth showing."""
        if isinstance(event, ChipsBought):
            return t(
                "duel.event.buy_in", lang, name=seat_name(names, event.seat), amount=event.amount
            )
        if isinstance(event, DealStarted):
            return t("duel.event.deal", lang, deal=event.deal, name=seat_name(names, event.dealer))
        if isinstance(event, AntesPaid):
            return t("duel.event.antes", lang, ante=max(event.amounts))
        if isinstance(event, Reshuffled):
            return t("duel.event.reshuffled", lang, stock=event.stock)
        if isinstance(event, CardsDealt):
            return t(
                "duel.event.dealt", lang, new=pretty_cards(event.new), hand=pretty_cards(event.hand)
            )
        if isinstance(event, SignalsShown):
            parts = ", ".join(
                f"{seat_name(names, seat)} {_signal(signal, lang)}"
                for seat, signal in enumerate(event.signals)
            )
            return t("duel.event.signals", lang, signals=parts)
        if isinstance(event, Locked):
            name = seat_name(names, event.seat)
            # Your own lock is said once, by the private line naming the card.
            return None if isinstance(name, Addressee) else t("duel.event.locked", lang, name=name)
        if isinstance(event, YouLocked):
            return t("duel.event.you_locked", lang, card=event.card.pretty)
        if isinstance(event, BettingSkipped):
            who = join_names(seat_name(names, s) for s in event.all_in)
            return t("duel.event.no_betting", lang, names=who)
        if isinstance(event, Acted):
            return acted(
                event.action,
                seat_name(names, event.seat),
                lang,
                added=event.put_in,
                total=event.total,
                all_in=event.all_in,
            )
        if isinstance(event, UncalledReturned):
            return returned(seat_name(names, event.seat), event.amount, lang)
        if isinstance(event, Showdown):
            shown = ", ".join(
                f"{seat_name(names, seat)} {card.pretty}" for seat, card in enumerate(event.locked)
            )
            result = self._result(event.winners, event.folded, event.pot, names, lang)
            return t("duel.event.showdown", lang, cards=shown, result=result)
        if isinstance(event, MatchEnded):
            winners = [seat_name(names, s) for s in event.winners]
            totals = ", ".join(
                f"{seat_name(names, s)} {chips}" for s, chips in enumerate(event.totals)
            )
            return match_over(winners, totals, "chips", lang)
        return None

    def parse_input(self, text: str, view: DuelView) -> DuelAction:
        """Read "lock 1" / "1" / "lock 7s" / "7s" while locking, else a betting action (the
        move words in any catalog language, `read_move`)."""
        typed = text
        text = read_move(text, self.move_areas)
        words = text.strip().lower().split()
        if view.phase == "lock" and words and words[0] not in BETTING_WORDS:
            if words[0] != "lock" and not _card_like(words[0]):
                # Neither the lock nor a card: a mistyped move ("lokc 2♦", "chekc")?
                unread = IllegalAction(
                    f"{typed.strip()!r} is not a card or a move: type #1 or #2, or the card",
                    code="duel_bad_lock",
                    text=typed.strip(),
                )
                raise suggest(unread, typed, self.move_areas)
            choice = words[1:] if words[0] == "lock" else words
            if len(choice) == 1:
                return self._lock_choice(choice[0], view)
            if len(choice) > 1:
                raise IllegalAction(
                    f"lock one card only, not {len(choice)}: type 'lock 1' or 'lock 2'",
                    code="duel_lock_one",
                    count=len(choice),
                )
            if not choice:
                raise IllegalAction(
                    "lock which card? type 'lock 1' or 'lock 2' (or the card, e.g. 'lock 7s')",
                    code="duel_bad_lock",
                    text=text.strip(),
                )
        elif words and (words[0] == "lock" or words[0].startswith("#")):
            raise IllegalAction(
                f"{text.strip()!r} refused: your card is already locked for this deal and "
                "cannot be changed",
                code="duel_already_locked",
                action=text.strip(),
            )
        try:
            return parse_betting_action(typed_bet(text, self.bet_spot(view)))
        except IllegalAction as error:
            raise suggest(error, typed, self.move_areas) from None

    @staticmethod
    def _lock_choice(word: str, view: DuelView) -> DuelAction:
        """A card by its position (``#2``), by itself (``2d``, ``K♣``), or a bare number or
        rank when it can mean one card only: ``2`` with "[1] 2♦ [2] K♣" could be the deuce
        or position 2, so it is asked back, never guessed."""
        if not view.hand:
            raise IllegalAction("you have no cards to lock", code="duel_bad_lock", text=word)
        position = word.removeprefix("#")
        same_rank = [c for c in view.hand if word.upper() in (c.rank.label, c.rank.char)]
        if is_number(position) and (word.startswith("#") or not same_rank):
            if not 1 <= int(position) <= len(view.hand):
                raise IllegalAction(
                    f"there is no card #{position}: type #1 or #2",
                    code="duel_bad_lock",
                    text=word,
                )
            return Lock(view.hand[int(position) - 1])
        if is_number(position) and 1 <= int(position) <= len(view.hand):
            at = view.hand[int(position) - 1]
            raise IllegalAction(
                f"{word!r} could be card #{position} ({at}) or your {same_rank[0]}: "
                f"type #{position} or {same_rank[0]}",
                code="duel_which_card",
                text=word,
                position=f"#{position}",
                at=at.pretty,
                card=same_rank[0].pretty,
            )
        if len(same_rank) == 1:
            return Lock(same_rank[0])
        try:
            card = parse_card(word)
        except CardParseError as error:
            raise IllegalAction(
                f"cannot lock {word!r}: type 1 or 2, or one of your cards ({error})",
                code="duel_bad_lock",
                text=word,
            ) from None
        if card not in view.hand:
            held = " ".join(str(c) for c in view.hand)
            raise IllegalAction(
                f"lock {card} refused: you do not hold {card} (you hold {held})",
                code="duel_not_your_card",
                card=str(card),
                hand=held,
            )
        return Lock(card)

    def card_pick(self, view: DuelView) -> CardPick | None:
        """While locking: one of the seat's two cards."""
        if view.seat is None or view.to_act != view.seat or view.phase != "lock":
            return None
        return CardPick("lock", 1, 1)

    def bet_spot(self, view: DuelView) -> BetSpot | None:
        """The seat's betting options once both cards are locked."""
        return spot_if_betting(
            view.seat,
            view.to_act,
            tuple(str(a) for a in view.legal),
            to_call=view.to_call,
            current_bet=max(view.bets, default=0),
            pot=view.pot,
            low=view.min_raise_to,
            high=view.max_total,
        )

    def standings(self, view: DuelView, names: Sequence[str], lang: str) -> str:
        """Both seats' chips as the deal starts (antes and bets counted back in)."""
        chips = [c + b + a for c, b, a in zip(view.chips, view.bets, view.antes, strict=True)]
        return chip_standings(chips, names, lang)

    def input_help(self, lang: str, view: DuelView | None = None) -> str:
        """How to type actions in the duel."""
        return t("duel.help", lang) + "\n" + words_help(self.move_areas, lang)


RENDERER: GameRenderer = DuelRenderer()
"""The duel's renderer (see `bot.render.GameRenderer`)."""

FACE = GameFace(
    renderer=RENDERER,
    pictures="bot.pictures.duel",
    trainers={"duel": "bot.commands.train_duel"},
    gallery=Gallery(mid_deal=lambda view: any(view.locked) or any(view.bets)),
)
"""The duel's bot side (see `bot.render.GameFace`)."""
