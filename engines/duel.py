"""Deuce Duel (rules: docs/duel.md): two players, two cards each, one locked face down, 2 beats A.

A match is a series of deals from one 104-card shoe until a player has no
chips. Each deal: both pay the ante; each holds two cards (the card kept from
the previous deal plus one new card); public UP/DOWN signals give, per
player, how many of the two cards are 8-A and how many 2-7; the first player
locks a card, then the second; one no-limit betting round (first player
first); showdown of the two locked cards (also after a fold); the locked
cards go to the discards and each player keeps the other card.

The engine auto-continues: after a deal settles the next one is dealt in the
same `apply`, so until the match is over there is always a seat to act.
The opening events of the match (buy-ins, first deal) are in
`DuelState.opening_events`.

Randomness: every deal's cards come from the injected `engines.fair.DealSource`
(by default one with a secret drawn from the RNG). Deal 1 deals from
`deck_order(seed, 2)`; every later deal first reorders the stock carried over (with
the discards added when fewer than two cards are left) by `shuffle_cards(seed,
stock)` with its own seed, so one deal's seed never tells the cards the next deals draw;
it does tell the card each player keeps into the next deal, which is why the seeds are
revealed only when the match is over. `DealStarted.commitment` commits to the seed,
`MatchEnded.seeds` reveals it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engines.base import (
    JSON,
    ChipsBought,
    DealSettled,
    DealStarted,
    Event,
    IllegalAction,
    MatchEnded,
    NotYourTurn,
    require_seat,
)
from engines.cards import Card, CardParseError, parse_card
from engines.fair import DealSource
from engines.poker.actions import (
    AllIn,
    Bet,
    BettingAction,
    Call,
    Check,
    Fold,
    Raise,
    parse_betting_action,
)
from engines.poker.betting import BettingRound
from engines.poker.events import UncalledReturned
from engines.poker.pots import split
from engines.registry import AtLeast, GameSpec, LazyPolicies, SimHooks, TableOption

SEATS = 2
UP_MIN_RANK = 8
"""8, 9, 10, J, Q, K, A are UP; 2 to 7 are DOWN."""

Phase = Literal["lock", "bet", "over"]


# --- card order -------------------------------------------------------------


def compare(a: Card, b: Card) -> int:
    """1 if `a` beats `b` at showdown, -1 if it loses, 0 for equal ranks.

    A high, 2 low, except that a 2 beats an ace. Suits never matter.
    """
    ra, rb = int(a.rank), int(b.rank)
    if ra == rb:
        return 0
    if ra == 2 and rb == 14:
        return 1
    if ra == 14 and rb == 2:
        return -1
    return 1 if ra > rb else -1


def is_up(card: Card) -> bool:
    """True for the UP group (8 to A), False for DOWN (2 to 7)."""
    return int(card.rank) >= UP_MIN_RANK


def signal_of(cards: Sequence[Card]) -> tuple[int, int]:
    """The public signal of a hand: (how many UP, how many DOWN)."""
    up = sum(1 for card in cards if is_up(card))
    return (up, len(cards) - up)


# --- config -----------------------------------------------------------------


class DuelConfig(BaseModel):
    """Table settings of a duel. The defaults are the rules: 20 chips, ante 1, minimum bet 1,
    two decks, seat 0 (the table's first player) starts."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seats: int = Field(default=SEATS, description="always 2")
    starting_chips: int = Field(default=20, ge=2, le=1_000_000)
    ante: int = Field(default=1, ge=1)
    min_bet: int = Field(default=1, ge=1)
    decks: int = Field(default=2, ge=1, le=8)
    first_player: int = Field(default=0, ge=0, le=1)

    @model_validator(mode="after")
    def _consistent(self) -> DuelConfig:
        if self.seats != SEATS:
            raise ValueError(f"Deuce Duel is played by exactly 2 players, not {self.seats}")
        if self.ante >= self.starting_chips:
            raise ValueError(
                f"the ante ({self.ante}) must be smaller than the starting chips "
                f"({self.starting_chips})"
            )
        return self


# --- actions ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Lock:
    """Lock this card (one of the two held) face down for the deal."""

    card: Card

    def __str__(self) -> str:
        return f"lock {self.card}"


DuelAction = Lock | BettingAction
"""A lock, or one of the poker core's betting actions (fold, check, call, bet, raise, allin)."""
BETTING_ACTIONS = (Check, Call, Fold, Bet, Raise, AllIn)


def parse_action(text: str) -> DuelAction:
    """Read an action's canonical text back: ``lock 7S``, ``check``, ``bet 3``, ``allin``..."""
    words = text.strip().lower().split()
    if words and words[0] == "lock":
        if len(words) != 2:
            raise IllegalAction(
                f"cannot read {text.strip()!r}: write lock and one card, e.g. 'lock 7S'",
                code="duel_bad_lock",
                text=text.strip(),
            )
        try:
            return Lock(parse_card(words[1]))
        except CardParseError as error:
            raise IllegalAction(
                f"cannot read {text.strip()!r}: {error}", code="duel_bad_lock", text=text.strip()
            ) from None
    return parse_betting_action(text)


# --- events -----------------------------------------------------------------


@dataclass(frozen=True, kw_only=True, slots=True)
class AntesPaid(Event):
    """Both players paid the ante; `all_in` lists seats left with no chips by it."""

    kind: ClassVar[str] = "duel_antes"
    amounts: tuple[int, ...]
    all_in: tuple[int, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class Reshuffled(Event):
    """The discards and the rest of the stock were shuffled into a new stock (held cards out)."""

    kind: ClassVar[str] = "duel_reshuffled"
    stock: int


@dataclass(frozen=True, kw_only=True, slots=True)
class CardsDealt(Event):
    """Private: the cards `to` received (`new`) and the two cards now held (`hand`)."""

    kind: ClassVar[str] = "duel_cards_dealt"
    new: tuple[Card, ...]
    hand: tuple[Card, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class SignalsShown(Event):
    """Public: per seat, (number of UP cards, number of DOWN cards) held now."""

    kind: ClassVar[str] = "duel_signals"
    signals: tuple[tuple[int, int], ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class Locked(Event):
    """Public: `seat` locked a card (which one is not said)."""

    kind: ClassVar[str] = "duel_locked"
    seat: int


@dataclass(frozen=True, kw_only=True, slots=True)
class YouLocked(Event):
    """Private to the seat that locked: the card it locked."""

    kind: ClassVar[str] = "duel_you_locked"
    card: Card


@dataclass(frozen=True, kw_only=True, slots=True)
class BettingSkipped(Event):
    """No betting this deal: `all_in` seats have no chips left after the ante."""

    kind: ClassVar[str] = "duel_betting_skipped"
    all_in: tuple[int, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class Acted(Event):
    """A betting action: `put_in` chips added now, `total` the seat's total for the round."""

    kind: ClassVar[str] = "duel_acted"
    seat: int
    action: str
    put_in: int
    total: int
    all_in: bool


@dataclass(frozen=True, kw_only=True, slots=True)
class Showdown(Event):
    """Both locked cards turned over. `folded` is the seat that folded (the cards do not
    change that result); `winners` share `pot`; `won` is what each seat took."""

    kind: ClassVar[str] = "duel_showdown"
    deal: int
    locked: tuple[Card, ...]
    folded: int | None
    winners: tuple[int, ...]
    pot: int
    won: tuple[int, ...]

    def face_up(self) -> tuple[Card, ...]:
        """Both locked cards, turned over."""
        return self.locked


# --- views ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealRecord:
    """What everybody saw of a settled deal: its signals, both locked cards and the result."""

    deal: int
    first: int
    signals: tuple[tuple[int, int], ...]
    locked: tuple[Card, ...]
    folded: int | None
    winners: tuple[int, ...]
    pot: int


@dataclass(frozen=True, slots=True)
class DuelView:
    """Everything one seat may know (`seat` None: a spectator).

    Public: chips behind, round bets, pot, signals, who has locked, the
    discards (every card there was shown at a showdown), the stock size and
    the previous deal. Private to `seat`: its two cards and the card it locked.
    `legal` and the amount bounds are filled only for the seat to act.
    """

    seat: int | None
    deal: int
    phase: Phase
    first: int
    to_act: int | None
    chips: tuple[int, ...]
    bets: tuple[int, ...]
    antes: tuple[int, ...]
    pot: int
    signals: tuple[tuple[int, int], ...]
    locked: tuple[bool, ...]
    hand: tuple[Card, ...]
    my_lock: Card | None
    discards: tuple[Card, ...]
    stock_size: int
    shoe_size: int
    last: DealRecord | None
    winners: tuple[int, ...] | None
    legal: tuple[DuelAction, ...]
    to_call: int
    min_bet: int
    min_raise_to: int
    max_total: int
    can_raise: bool


# --- state ------------------------------------------------------------------


class DuelState:
    """The live state of one Deuce Duel match (see the module docstring)."""

    def __init__(
        self, config: DuelConfig, rng: random.Random, source: DealSource | None = None
    ) -> None:
        """A new match: the shoe shuffled, the first deal dealt (its events: `opening_events`).
        Cards come from `source` (default: a source with a secret drawn from `rng`)."""
        self.config = config
        self.source = source if source is not None else DealSource.from_rng(rng)
        self.chips = [config.starting_chips] * SEATS
        self.deal = 0
        self.first = config.first_player
        self.hands: list[list[Card]] = [[], []]
        self.lock_index: list[int | None] = [None, None]
        self.stock: list[Card] = []  # the top of the stock is the end of the list
        self.discards: list[Card] = []
        self.phase: Phase = "lock"
        self.to_act_seat: int | None = None
        self.bets = [0, 0]
        self.antes = [0, 0]
        self.start_chips = list(self.chips)
        self.round: BettingRound | None = None
        self.last: DealRecord | None = None
        self.winners: tuple[int, ...] | None = None
        events: list[Event] = [
            ChipsBought(seat=s, amount=config.starting_chips, reason="buy-in") for s in range(SEATS)
        ]
        events += self._start_deal()
        self.opening_events: list[Event] = events

    # --- protocol --------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        """The seat that must act now, or None once the match is over."""
        return self.to_act_seat

    @property
    def finished(self) -> bool:
        """True once a player has run out of chips."""
        return self.phase == "over"

    def legal_actions(self, seat: int) -> list[DuelAction]:
        """The choices of `seat` now. Bets and raises are listed at their minimum and at
        all-in; every amount in between is accepted too."""
        if seat != self.to_act_seat:
            return []
        if self.phase == "lock":
            hand = self.hands[seat]
            return [Lock(card) for i, card in enumerate(hand) if card not in hand[:i]]
        return self._betting_options(seat)

    def check(self, seat: int, action: DuelAction) -> None:
        """Raise `IllegalAction` if `action` is refused for `seat`; change nothing."""
        require_seat(seat, SEATS)
        if self.phase == "over":
            raise IllegalAction(
                f"{action} refused: the match is over", code="duel_match_over", action=str(action)
            )
        if seat != self.to_act_seat:
            raise NotYourTurn(seat, self.to_act_seat)
        if isinstance(action, Lock):
            self._check_lock(seat, action)
        elif isinstance(action, BETTING_ACTIONS):
            self._check_bet(seat, action)
        else:
            raise IllegalAction(
                f"{action!r} is not a Deuce Duel action", code="duel_bad_action", text=repr(action)
            )

    def apply(self, seat: int, action: DuelAction) -> list[Event]:
        """Apply a legal action and return what happened (refused actions change nothing)."""
        self.check(seat, action)
        if isinstance(action, Lock):
            return self._lock(seat, action.card)
        return self._bet(seat, action)

    def view(self, seat: int | None) -> DuelView:
        """What `seat` may know (None: a spectator): never the opponent's cards nor the stock."""
        if seat is not None:
            require_seat(seat, SEATS)
        mine = seat is not None
        acting = seat is not None and seat == self.to_act_seat
        legal = tuple(self.legal_actions(seat)) if acting and seat is not None else ()
        to_call = max(self.bets) - self.bets[seat] if seat is not None else 0
        my_lock = None
        if seat is not None:
            index = self.lock_index[seat]
            my_lock = None if index is None else self.hands[seat][index]
        betting = acting and self.phase == "bet" and seat is not None
        return DuelView(
            seat=seat,
            deal=self.deal,
            phase=self.phase,
            first=self.first,
            to_act=self.to_act_seat,
            chips=tuple(self.chips),
            bets=tuple(self.bets),
            antes=tuple(self.antes),
            pot=sum(self.antes) + sum(self.bets),
            signals=self.signals(),
            locked=tuple(index is not None for index in self.lock_index),
            hand=tuple(self.hands[seat]) if mine and seat is not None else (),
            my_lock=my_lock,
            discards=tuple(self.discards),
            stock_size=len(self.stock),
            shoe_size=52 * self.config.decks,
            last=self.last,
            winners=self.winners,
            legal=legal,
            to_call=to_call,
            min_bet=self.config.min_bet,
            min_raise_to=self.round.min_raise_to() if betting and self.round else 0,
            max_total=(self.bets[seat] + self.chips[seat]) if seat is not None else 0,
            can_raise=bool(
                betting and self.round and seat is not None and self.round.can_raise(seat)
            ),
        )

    def signals(self) -> tuple[tuple[int, int], ...]:
        """The public signals: per seat, (UP count, DOWN count) of the two cards held."""
        return tuple(signal_of(hand) for hand in self.hands)

    # --- deals -----------------------------------------------------------

    def _start_deal(self) -> list[Event]:
        self.deal += 1
        commitment = self.source.commitment(self.deal)
        events: list[Event] = [
            DealStarted(deal=self.deal, dealer=self.first, commitment=commitment)
        ]
        self.start_chips = list(self.chips)
        self.antes = [min(self.config.ante, chips) for chips in self.chips]
        self.chips = [c - a for c, a in zip(self.chips, self.antes, strict=True)]
        events.append(
            AntesPaid(
                amounts=tuple(self.antes),
                all_in=tuple(s for s in range(SEATS) if self.chips[s] == 0),
            )
        )
        order = (self.first, 1 - self.first)
        new: list[list[Card]] = [[], []]
        if self.deal == 1:
            self.stock = self.source.deck(self.deal, self.config.decks)[::-1]
            rounds = 2
        else:
            rounds = 1
            if len(self.stock) < SEATS:
                self.stock += self.discards
                self.discards = []
                events.append(Reshuffled(stock=len(self.stock)))
            self.stock = self.source.order(self.deal, self.stock)[::-1]
        for _ in range(rounds):
            for seat in order:
                card = self.stock.pop()
                self.hands[seat].append(card)
                new[seat].append(card)
        for seat in order:
            events.append(CardsDealt(to=seat, new=tuple(new[seat]), hand=tuple(self.hands[seat])))
        events.append(SignalsShown(signals=self.signals()))
        self.lock_index = [None, None]
        self.bets = [0, 0]
        self.round = None
        self.phase = "lock"
        self.to_act_seat = self.first
        return events

    # --- locking ---------------------------------------------------------

    def _check_lock(self, seat: int, action: Lock) -> None:
        if self.phase != "lock":
            raise IllegalAction(
                f"{action} refused: your card is already locked for this deal and cannot be "
                "changed",
                code="duel_already_locked",
                action=str(action),
            )
        if not isinstance(action.card, Card):
            raise IllegalAction(
                f"{action!r} refused: not a card", code="duel_bad_action", text=repr(action)
            )
        if action.card not in self.hands[seat]:
            held = " ".join(str(c) for c in self.hands[seat])
            raise IllegalAction(
                f"{action} refused: you do not hold {action.card} (you hold {held})",
                code="duel_not_your_card",
                card=str(action.card),
                hand=held,
            )

    def _lock(self, seat: int, card: Card) -> list[Event]:
        self.lock_index[seat] = self.hands[seat].index(card)
        events: list[Event] = [Locked(seat=seat), YouLocked(to=seat, card=card)]
        if seat == self.first:
            self.to_act_seat = 1 - seat
            return events
        if 0 in self.chips:
            events.append(
                BettingSkipped(all_in=tuple(s for s in range(SEATS) if self.chips[s] == 0))
            )
            return events + self._settle(folded=None)
        self.phase = "bet"
        self.round = BettingRound(
            self.chips, (self.first, 1 - self.first), min_bet=self.config.min_bet
        )
        self.round.start()
        self.to_act_seat = self.round.to_act
        return events

    # --- betting ---------------------------------------------------------
    # One round of the poker core's no-limit `BettingRound`: while it runs it
    # holds the chips behind and the round totals; `_sync` copies them back.

    def _betting_options(self, seat: int) -> list[DuelAction]:
        assert self.round is not None
        return list(self.round.legal_actions(seat))

    def _check_bet(self, seat: int, action: DuelAction) -> None:
        if self.phase != "bet" or self.round is None:
            raise IllegalAction(
                f"{action} refused: both players must lock a card before betting; lock one of "
                "your two cards first",
                code="duel_lock_first",
                action=str(action),
            )
        assert not isinstance(action, Lock)
        self.round.check(seat, action)

    def _bet(self, seat: int, action: DuelAction) -> list[Event]:
        assert self.round is not None and not isinstance(action, Lock)
        move = self.round.act(seat, action)
        self._sync()
        events: list[Event] = [
            Acted(
                seat=seat,
                action=move.verb,
                put_in=move.added,
                total=move.total,
                all_in=move.all_in,
            )
        ]
        if not self.round.done:
            self.to_act_seat = self.round.to_act
            return events
        if self.round.returned is not None:
            back, amount = self.round.returned
            events.append(UncalledReturned(seat=back, amount=amount))
        folded = seat if move.verb == "fold" else None
        self.round = None
        return events + self._settle(folded=folded)

    def _sync(self) -> None:
        assert self.round is not None
        self.chips = list(self.round.stacks)
        self.bets = list(self.round.committed)

    # --- settling --------------------------------------------------------

    def _settle(self, folded: int | None) -> list[Event]:
        events: list[Event] = []
        # With a larger ante setting, a short (all-in) ante leaves part of the other unmatched.
        matched_ante = min(self.antes)
        for seat in range(SEATS):
            extra = self.antes[seat] - matched_ante
            if extra:
                self.antes[seat] = matched_ante
                self.chips[seat] += extra
                events.append(UncalledReturned(seat=seat, amount=extra))
        pot = sum(self.antes) + sum(self.bets)
        locked = tuple(self._locked_card(s) for s in range(SEATS))
        if folded is not None:
            winners: tuple[int, ...] = (1 - folded,)
        else:
            result = compare(locked[0], locked[1])
            winners = (0,) if result > 0 else (1,) if result < 0 else (0, 1)
        # An odd chip cannot happen with equal antes; the first player takes it, as card rooms do.
        shares = split(pot, winners, (self.first, 1 - self.first))
        won = [shares.get(seat, 0) for seat in range(SEATS)]
        for seat in range(SEATS):
            self.chips[seat] += won[seat]
        events.append(
            Showdown(
                deal=self.deal,
                locked=locked,
                folded=folded,
                winners=winners,
                pot=pot,
                won=tuple(won),
            )
        )
        net = tuple(self.chips[s] - self.start_chips[s] for s in range(SEATS))
        committed = self.source.commitment(self.deal)
        events.append(DealSettled(deal=self.deal, chips=net, commitment=committed))
        self.last = DealRecord(
            deal=self.deal,
            first=self.first,
            signals=self.signals(),
            locked=locked,
            folded=folded,
            winners=winners,
            pot=pot,
        )
        # Carry-over: the locked cards go to the discards, each keeps the other card.
        for seat in range(SEATS):
            index = self.lock_index[seat]
            assert index is not None
            self.discards.append(self.hands[seat].pop(index))
        self.lock_index = [None, None]
        self.bets = [0, 0]
        self.antes = [0, 0]
        if 0 in self.chips:
            self.phase = "over"
            self.to_act_seat = None
            self.winners = tuple(s for s in range(SEATS) if self.chips[s] > 0)
            seeds = self.source.revealed(self.deal)
            events.append(MatchEnded(winners=self.winners, totals=tuple(self.chips), seeds=seeds))
            return events
        self.first = winners[0] if len(winners) == 1 else 1 - self.first
        return events + self._start_deal()

    def _locked_card(self, seat: int) -> Card:
        index = self.lock_index[seat]
        assert index is not None
        return self.hands[seat][index]

    # --- serialisation ---------------------------------------------------

    def snapshot(self) -> JSON:
        """Every field as plain JSON; `restore` rebuilds the state exactly (a test and
        replay tool, never stored: see `engines.base`)."""
        last = None
        if self.last is not None:
            last = {
                "deal": self.last.deal,
                "first": self.last.first,
                "signals": [list(s) for s in self.last.signals],
                "locked": [str(c) for c in self.last.locked],
                "folded": self.last.folded,
                "winners": list(self.last.winners),
                "pot": self.last.pot,
            }
        return {
            "game": "duel",
            "config": self.config.model_dump(),
            "source": self.source.to_json(),
            "chips": list(self.chips),
            "deal": self.deal,
            "first": self.first,
            "hands": [[str(c) for c in hand] for hand in self.hands],
            "lock_index": list(self.lock_index),
            "stock": [str(c) for c in self.stock],
            "discards": [str(c) for c in self.discards],
            "phase": self.phase,
            "to_act": self.to_act_seat,
            "bets": list(self.bets),
            "antes": list(self.antes),
            "start_chips": list(self.start_chips),
            "round": None if self.round is None else self.round.to_json(),
            "last": last,
            "winners": None if self.winners is None else list(self.winners),
        }


def restore(data: JSON) -> DuelState:
    """Rebuild a state exactly from `DuelState.snapshot()`."""
    state = DuelState.__new__(DuelState)
    cards = _cards
    state.config = DuelConfig(**data["config"])
    state.source = DealSource.from_json(data["source"])
    state.chips = list(data["chips"])
    state.deal = int(data["deal"])
    state.first = int(data["first"])
    state.hands = [cards(hand) for hand in data["hands"]]
    state.lock_index = list(data["lock_index"])
    state.stock = cards(data["stock"])
    state.discards = cards(data["discards"])
    state.phase = data["phase"]
    state.to_act_seat = data["to_act"]
    state.bets = list(data["bets"])
    state.antes = list(data["antes"])
    state.start_chips = list(data["start_chips"])
    state.round = None if data["round"] is None else BettingRound.from_json(data["round"])
    last = data["last"]
    state.last = (
        None
        if last is None
        else DealRecord(
            deal=last["deal"],
            first=last["first"],
            signals=tuple((int(u), int(d)) for u, d in last["signals"]),
            locked=tuple(cards(last["locked"])),
            folded=last["folded"],
            winners=tuple(last["winners"]),
            pot=last["pot"],
        )
    )
    state.winners = None if data["winners"] is None else tuple(data["winners"])
    state.opening_events = []
    return state


def _cards(texts: Sequence[str]) -> list[Card]:
    return [parse_card(text) for text in texts]


def new_state(
    config: DuelConfig, rng: random.Random, source: DealSource | None = None
) -> DuelState:
    """A new match from `config`, an injected RNG and where its cards come from."""
    return DuelState(config, rng, source)


# --- registry ---------------------------------------------------------------


def timeout_action(view: DuelView) -> DuelAction:
    """The safe default for an absent player: lock the lower card; check, else fold."""
    if view.phase == "lock":
        low = min(view.hand, key=lambda c: (int(c.rank), int(c.suit)))
        return Lock(low)
    return Check() if view.to_call == 0 else Fold()


def _figures(event: Event, state: Any) -> dict[str, list[float]]:
    if isinstance(event, MatchEnded):
        return {"match_win_rate": [1.0 if s in event.winners else 0.0 for s in range(SEATS)]}
    if isinstance(event, DealSettled) and event.chips is not None:
        return {"chips_per_deal": [float(c) for c in event.chips]}
    return {}


SPEC = GameSpec(
    name="duel",
    title="Deuce Duel",
    min_seats=SEATS,
    max_seats=SEATS,
    default_seats=SEATS,
    config_type=DuelConfig,
    new_state=new_state,
    restore=restore,
    parse_action=parse_action,
    timeout_action=timeout_action,
    policies=LazyPolicies("engines.ai.duel_players"),
    default_policy="strong",
    levels={"easy": "casual", "normal": "strong", "hard": "cfr"},
    sim=SimHooks(
        unit="match",
        unit_event=MatchEnded,
        figures=_figures,
        config=lambda seats: DuelConfig(seats=seats),
    ),
    options=(TableOption("stack", "starting_chips"), TableOption("ante", "ante")),
    option_rules=(AtLeast("stack", "ante", plus=1),),
    challenge=True,
    deck="shoe",
)
