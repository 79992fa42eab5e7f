"""French draw poker as text: the table, a player's five numbered cards and options, event lines,
and the grammar people type ("surblind", "no", "open 4", "check", "call", "raise 12", "fold",
"draw 1 3 4" or "draw AS 3D", "stand", "rebuy 1", "sitout").

Built from views and events only; every string goes through `bot.i18n.t` (catalog area
``draw``, in English, French and Ukrainian).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from bot.i18n import LANGUAGES, t
from bot.render import Gallery, GameFace, GameRenderer, ViewAccessors, chip_standings
from bot.render.betting import BetSpot, CardPick, RebuyOffer, spot_if_betting, typed_bet
from bot.render.phrases import (
    acted,
    buttons_line,
    hand_name,
    match_over,
    options_line,
    returned,
    seat_status,
    turn_marker,
    uncontested,
)
from bot.render.text import numbered_cards, pretty_cards, seat_name
from bot.render.words import read_move, say_move, suggest, words_help
from engines.base import ChipsBought, DealSettled, DealStarted, Event, IllegalAction, MatchEnded
from engines.cards import Card, CardParseError, parse_card
from engines.draw.actions import STAND, Draw, DrawAction, Open, Rebuy, parse_action
from engines.draw.events import (
    Acted,
    CardsDealt,
    Carried,
    DealKind,
    Drew,
    NewCards,
    OpenerProof,
    Posted,
    PotReturned,
    PotWon,
    SatOut,
    Shown,
    StockRenewed,
)
from engines.draw.state import rebuy_refusal, split_openers
from engines.draw.view import DrawView
from engines.numbers import is_number
from engines.poker.actions import Bet, Raise
from engines.poker.events import UncalledReturned
from engines.poker.ranking import hand_value


def _all_cards(words: Sequence[str]) -> bool:
    """Whether every word is a position or a card (what a bare draw looks like)."""
    for word in words:
        if is_number(word):
            continue
        try:
            parse_card(word)
        except CardParseError:
            return False
    return True


HELP_STEPS = frozenset({"surblind", "bet", "draw", "rebuy"})
"""The steps of a deal with their own help (`draw.help.<step>`): what can be done then."""


@functools.cache
def _answers(answer: str) -> frozenset[str]:
    """The forms of a yes or no answer (`answer`) in every catalog language."""
    return frozenset(
        form.strip().lower()
        for lang in LANGUAGES
        for form in t(f"draw.answer.{answer}", lang).split("|")
        if form.strip()
    )


def _requirement(name: str | None, lang: str) -> str:
    return t(f"draw.rank.{name}", lang) if name else ""


class DrawRenderer(ViewAccessors):
    """The `GameRenderer` of French draw poker."""

    plays_cards = False
    dealing: tuple[type[Event], ...] = (CardsDealt,)
    move_areas: tuple[str, ...] = ("poker", "draw")

    def board(self, view: DrawView, names: Sequence[str], lang: str, *, brief: bool = False) -> str:
        """The table in play order: deal kind and requirement, pot and carried pot, each seat's
        chips, chips bought, stake, draw and status, and whose turn it is."""
        if view.deal_kind == "jackpot":
            kind = t(
                "draw.board.jackpot",
                lang,
                requirement=_requirement(view.requirement, lang),
                unopened=view.unopened,
            )
        else:
            kind = t("draw.board.blind", lang, blind=view.blind_unit)
        lines = [
            t(
                "draw.board.title" if view.deal_limit is None else "draw.board.title_of",
                lang,
                deal=view.deal,
                deals=view.deal_limit,
                kind=kind,
                dealer=seat_name(names, view.dealer),
            ),
            t(
                "draw.board.pot" if view.carried else "draw.board.pot_only",
                lang,
                pot=view.pot,
                carried=view.carried,
            ),
        ]
        if view.deal == 1 and not view.finished:
            end = "draw.match_end" if view.deal_limit is not None else "draw.match_end_open"
            lines.append(t(end, lang, deals=view.deal_limit))
        if view.deal_kind != "jackpot" and not view.finished:
            # The stakes as they stand: the surblind once posted, the entry once there is one.
            surblind = (
                t(
                    "draw.board.surblind_by",
                    lang,
                    surblind=2 * view.blind_unit,
                    name=seat_name(names, view.surblind_seat),
                )
                if view.surblind_seat is not None
                else ""
            )
            entry = t("draw.board.entry", lang, entry=view.entry) if view.entry > 0 else ""
            lines.append(
                t("draw.board.stakes", lang, blind=view.blind_unit, surblind=surblind, entry=entry)
            )
        if not brief:
            for seat in range(view.seats):
                marker = turn_marker(view.to_act, seat)
                tags = [] if view.finished else self._tags(view, seat, lang)
                lines.append(
                    marker
                    + t(
                        "draw.board.seat",
                        lang,
                        name=seat_name(names, seat),
                        chips=view.stacks[seat],
                        bought=view.bought[seat],
                        stake=view.stakes[seat] + view.put_in[seat],
                        tags=seat_status(tags),
                    )
                )
        if view.finished:
            nets = [view.stacks[s] - view.bought[s] for s in range(view.seats)]
            totals = ", ".join(f"{seat_name(names, s)} {net:+d}" for s, net in enumerate(nets))
            winners = [seat_name(names, s) for s, net in enumerate(nets) if net == max(nets)]
            lines.append(match_over(winners, totals, "net", lang))
        elif view.to_act is not None:
            lines.append(
                t(f"draw.board.turn_{view.phase}", lang, name=seat_name(names, view.to_act))
            )
        return "\n".join(lines)

    @staticmethod
    def _tags(view: DrawView, seat: int, lang: str) -> list[str]:
        """The seat's roles in the deal (dealer, blind, surblind, opener) and status; a seat
        not in the deal is only "sitting out" (the last deal's roles are not theirs now)."""
        if not view.in_deal[seat]:
            return [t("draw.tag.out", lang)]
        roles = [
            ("draw.tag.dealer", view.dealer),
            ("draw.tag.blind", view.blind_seat),
            ("draw.tag.surblind", view.surblind_seat),
            ("draw.tag.opener", view.opener),
        ]
        tags = [t(key, lang) for key, holder in roles if holder == seat]
        if view.folded[seat]:
            tags.append(t("draw.tag.folded", lang))
        elif view.stacks[seat] == 0 and view.phase != "rebuy":
            tags.append(t("draw.tag.all_in", lang))
        drawn = view.drawn[seat]
        if drawn is not None:
            tags.append(
                t("draw.tag.pat", lang) if drawn == 0 else t("draw.tag.drew", lang, n=drawn)
            )
        return tags

    def hand(
        self, view: DrawView, lang: str, order: Sequence[Card] | None = None, *, menu: bool = False
    ) -> str:
        """The seat's five numbered cards, its chips and its options when it is to act."""
        if view.seat is None:
            return ""
        lines = []
        if view.phase == "surblind" and view.to_act == view.seat:
            lines.append(t("draw.hand.face_down", lang, amount=2 * view.blind_unit))
        elif view.hand:
            cards = numbered_cards(view.hand, order)
            lines.append(t("draw.hand.cards", lang, cards=cards))
            if view.set_aside:
                lines.append(t("draw.hand.set_aside", lang, cards=pretty_cards(view.set_aside)))
            if view.deal_kind == "jackpot" and view.phase == "bet1" and view.opener is None:
                key = "draw.hand.can_open" if view.can_open else "draw.hand.cannot_open"
                lines.append(t(key, lang, requirement=_requirement(view.requirement, lang)))
        lines.append(
            t(
                "draw.hand.chips",
                lang,
                chips=view.stacks[view.seat],
                bought=view.bought[view.seat],
                net=view.stacks[view.seat] - view.bought[view.seat],
            )
        )
        # "to call" only when something is owed in a betting round (not at the draw).
        owed = view.phase in ("bet1", "bet2") and view.to_call > 0
        to_call = view.to_call if owed else 0
        # Nobody may just match the blind: the price to come in, not a call refused.
        entry = None if "call" in self.legal_moves(view) else view.min_raise_to
        if view.legal and menu:
            if view.phase == "draw":
                lines.append(t("draw.hand.draw_menu", lang))
            else:
                lines.append(buttons_line(to_call, view.pot, lang, entry))
        elif view.legal:
            options = [say_move(text, self.move_areas, lang) for text in self._options(view)]
            lines.append(options_line(options, lang, to_call=to_call, pot=view.pot, entry=entry))
        return "\n".join(lines)

    @staticmethod
    def _options(view: DrawView) -> list[str]:
        if view.phase == "draw":
            return ["draw N…", "stand"]
        if view.phase == "rebuy":
            return [f"rebuy 1-{view.max_rebuy_units}", "sitout"]
        options: list[str] = []
        for action in view.legal:
            if isinstance(action, (Open, Bet, Raise)):
                verb = str(action).split()[0]
                text = f"{verb} {view.min_raise_to}-{view.max_to}"
                if view.min_raise_to == view.max_to:
                    text = f"{verb} {view.max_to}"
                if text not in options:
                    options.append(text)
            else:
                options.append(str(action))
        return options

    def event(self, event: Event, names: Sequence[str], lang: str) -> str | None:
        """One line per event worth showing."""
        name = seat_name(names, getattr(event, "seat", -1))
        if isinstance(event, ChipsBought):
            key = "draw.event.rebuy" if event.reason == "rebuy" else "draw.event.buy_in"
            return t(key, lang, name=name, amount=event.amount)
        if isinstance(event, DealStarted):
            return t("draw.event.deal", lang, deal=event.deal, name=seat_name(names, event.dealer))
        if isinstance(event, DealKind):
            if event.deal_kind == "jackpot":
                return t(
                    "draw.event.jackpot",
                    lang,
                    requirement=_requirement(event.requirement, lang),
                    carried=event.carried,
                )
            return t("draw.event.blind_deal", lang)
        if isinstance(event, Posted):
            line = t(f"draw.event.posted_{event.what}", lang, name=name, amount=event.amount)
            return line + (t("phrase.poker.all_in", lang) if event.all_in else "")
        if isinstance(event, CardsDealt):
            return t("draw.event.your_cards", lang, cards=pretty_cards(event.cards))
        if isinstance(event, Acted):
            verb = event.action.split()[0]
            if verb == "surblind":
                return None  # the surblind's Posted line says it
            if verb in ("open", "no") or not event.moved:
                line = t(f"draw.event.{verb}", lang, name=name, stake=event.stake)
                return line + (t("phrase.poker.all_in", lang) if event.all_in else "")
            return acted(
                event.moved,
                name,
                lang,
                added=event.added,
                total=event.stake,
                all_in=event.all_in,
            )
        if isinstance(event, UncalledReturned):
            return returned(name, event.amount, lang)
        if isinstance(event, Drew):
            key = "draw.event.stood_pat" if event.count == 0 else "draw.event.drew"
            line = t(key, lang, name=name, n=event.count)
            return line + (t("draw.event.split", lang) if event.split else "")
        if isinstance(event, NewCards):
            if not event.discarded:
                return None
            return t(
                "draw.event.new_cards",
                lang,
                out=pretty_cards(event.discarded),
                got=pretty_cards(event.received),
                hand=pretty_cards(event.hand),
            )
        if isinstance(event, StockRenewed):
            return t("draw.event.stock_renewed", lang, n=event.cards)
        if isinstance(event, Shown):
            hand = hand_name(hand_value(event.cards), lang)
            return t(
                "draw.event.shown", lang, name=name, cards=pretty_cards(event.cards), hand=hand
            )
        if isinstance(event, OpenerProof):
            line = t(
                "draw.event.proof",
                lang,
                name=name,
                cards=pretty_cards(event.proof),
                requirement=_requirement(event.requirement, lang),
            )
            if event.set_aside:
                line += t("draw.event.proof_split", lang, cards=pretty_cards(event.set_aside))
            return line
        if isinstance(event, PotWon):
            if not event.shown:
                return uncontested(name, event.amount, lang)
            key = "draw.event.won" if event.pot == 0 else "draw.event.won_side"
            return t(key, lang, name=name, amount=event.amount, pot=event.pot)
        if isinstance(event, Carried):
            return t(
                f"draw.event.carried_{event.reason}",
                lang,
                amount=event.amount,
                requirement=_requirement(event.requirement, lang),
            )
        if isinstance(event, SatOut):
            return t("draw.event.sat_out", lang, name=name)
        if isinstance(event, PotReturned):
            return t("draw.event.pot_returned", lang, amount=sum(event.amounts))
        if isinstance(event, DealSettled):
            return None
        if isinstance(event, MatchEnded):
            winners = [seat_name(names, s) for s in event.winners]
            totals = ", ".join(f"{seat_name(names, s)} {n:+d}" for s, n in enumerate(event.totals))
            return match_over(winners, totals, "net", lang)
        return None

    def parse_input(self, text: str, view: DrawView) -> DrawAction:
        """The canonical texts, plus "pat" for stand and cards instead of positions at the draw
        ("draw AS 3D"); a bare number at the draw is a position. Move words are read in any
        catalog language (`read_move`)."""
        typed = text
        text = typed_bet(read_move(text, self.move_areas), self.bet_spot(view))
        words = text.strip().lower().split()
        if words in (["pat"], ["keep"]):
            return STAND
        if view.phase == "surblind" and len(words) == 1:
            # The surblind is a question: yes / no (y / n) answer it in every language.
            for answer, action in (("yes", "surblind"), ("no", "no")):
                if words[0] in _answers(answer):
                    return parse_action(action)
        if words == ["rebuy"]:
            offer = self.rebuy_offer(view)
            most = offer.most if offer is not None else view.max_rebuy_units
            raise IllegalAction(
                f"rebuy how many cave units? type rebuy N (1 to {most}); "
                f"rebuy 1 buys {view.cave_unit} chips",
                code="rebuy_how_many",
                most=most,
                cave=view.cave_unit,
            )
        if view.phase == "draw" and words == ["draw"]:
            # A bare "draw" would stand pat and lose the draw: ask which cards instead.
            raise IllegalAction(
                "draw which cards? type draw and their positions (draw 1 2) or the cards "
                "(draw AS 3D), or stand to keep all five",
                code="draw_which_cards",
            )
        if view.phase == "draw":
            # Positions read as hands show them (#2) or bare (2).
            words = [w[1:] if w[:1] == "#" and is_number(w[1:]) else w for w in words]
        if view.phase == "draw" and words and (words[0] == "draw" or _all_cards(words)):
            rest = words[1:] if words[0] == "draw" else words
            if rest and not all(is_number(w) for w in rest):
                return Draw(tuple(sorted(self._positions(rest, view))))
            return parse_action("draw " + " ".join(rest))
        # Anything else (check, fold ...) goes to the engine, which names the step it is.
        try:
            return parse_action(text)
        except IllegalAction as error:
            raise suggest(error, typed, self.move_areas) from None

    @staticmethod
    def _positions(words: Sequence[str], view: DrawView) -> list[int]:
        positions = []
        for word in words:
            try:
                card = parse_card(word)
            except CardParseError as error:
                raise IllegalAction(
                    f"draw {word}: not a card or a position 1-5 ({error})",
                    code="draw_bad_input",
                    text=word,
                ) from None
            if card not in view.hand:
                raise IllegalAction(
                    f"draw {card}: you do not hold {card}",
                    code="draw_not_your_card",
                    card=str(card),
                )
            positions.append(view.hand.index(card) + 1)
        twice = next((p for p in positions if positions.count(p) > 1), None)
        if twice is not None:
            card = view.hand[twice - 1]
            raise IllegalAction(
                f"draw: {card} is named twice; name each card to change once",
                code="draw_card_twice",
                card=str(card),
            )
        return positions

    def card_pick(self, view: DrawView) -> CardPick | None:
        """At the draw: the cards to discard, by card (1 to the most the rules allow), or
        stand pat."""
        draws = [a for a in view.legal if isinstance(a, Draw) and a.positions]
        if view.seat is None or view.to_act != view.seat or view.phase != "draw" or not draws:
            return None
        most = max(len(a.positions) for a in draws)
        other = tuple(str(a) for a in view.legal if not (isinstance(a, Draw) and a.positions))
        return CardPick("draw", 1, most, other)

    def set_aside_by(self, view: DrawView, cards: Sequence[Card]) -> list[Card]:
        """At the draw, the opener's discards that split their openers (from their own view's
        proof); none for anyone else."""
        if view.phase != "draw" or view.seat is None or view.seat != view.opener:
            return []
        return split_openers(view.proof, cards)

    def rebuy_offer(self, view: DrawView) -> RebuyOffer | None:
        """Between deals, the broke seat to decide: 1 to `max_rebuy_units` caves, or sit out."""
        if view.phase != "rebuy" or view.finished or view.to_act is None:
            return None
        return RebuyOffer(view.to_act, view.cave_unit, view.max_rebuy_units)

    def rebuy_refusal(self, view: DrawView) -> IllegalAction | None:
        """The engine's refusal of a rebuy by the view's seat now (during a deal, chips left)."""
        if view.seat is None:
            return IllegalAction("spectators do not buy in", code="no_rebuy")
        return rebuy_refusal(view.phase, view.stacks[view.seat], Rebuy(1))

    def bet_spot(self, view: DrawView) -> BetSpot | None:
        """The seat's betting options in a betting round (not at the surblind, the draw, a
        jackpot's opening or a rebuy: those keep one button per move)."""
        return spot_if_betting(
            view.seat,
            view.to_act,
            tuple(str(a) for a in view.legal),
            to_call=view.to_call,
            current_bet=max(view.stakes, default=0),
            pot=view.pot,
            low=view.min_raise_to,
            high=view.max_to,
        )

    def standings(self, view: DrawView, names: Sequence[str], lang: str) -> str:
        """Every seat's chips as the deal starts (what it posted counted back in)."""
        chips = [
            stack + put + stake
            for stack, put, stake in zip(view.stacks, view.put_in, view.stakes, strict=True)
        ]
        return chip_standings(chips, names, lang)

    def input_help(self, lang: str, view: DrawView | None = None) -> str:
        """How to type actions in draw poker: every move, or, given the `view` of the seat to
        act, only what it can do now (its step's moves and words)."""
        every = t("draw.help", lang) + "\n" + words_help(self.move_areas, lang)
        if view is None or view.seat is None or view.to_act != view.seat or not view.legal:
            return every
        step = "bet" if view.phase in ("bet1", "bet2") else view.phase
        if step not in HELP_STEPS:
            return every
        verbs = {text.split()[0] for text in self.legal_moves(view)}
        if self.bet_spot(view) is not None:
            verbs |= {"min", "half", "pot"}
        moves = ", ".join(say_move(text, self.move_areas, lang) for text in self._options(view))
        now = t(
            f"draw.help.{step}",
            lang,
            moves=moves,
            amount=2 * view.blind_unit,
            cave=view.cave_unit,
            most=view.max_rebuy_units,
        )
        return now + "\n" + words_help(self.move_areas, lang, verbs)


RENDERER: GameRenderer = DrawRenderer()
"""Draw poker's renderer (see `bot.render.GameRenderer`)."""

FACE = GameFace(
    renderer=RENDERER,
    pictures="bot.pictures.draw",
    sparring="bot.commands.draw_pool",
    gallery=Gallery(
        mid_deal=lambda view: view.phase == "bet2" or any(d is not None for d in view.drawn),
        policies=("calling", "random"),
    ),
)
"""Draw poker's bot side (see `bot.render.GameFace`)."""
