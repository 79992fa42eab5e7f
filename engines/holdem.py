"""No-limit Texas hold'em, chip match (rules: docs/holdem.md).

`HoldemConfig` (2-10 seats, 1000 chips, blinds 10/20 by default) and
`HoldemState`, built from the config and an injected `random.Random`. The
engine plays hand after hand on its own: after a hand settles the next one
is dealt at once (fresh shuffle, stacks carried over, eliminated players
skipped), until one player holds every chip. Restarting a match (every stack
back to the start) is a new state from the same config.

Seats are numbered in play order; "next player" is the next seat number
(wrapping) that still has chips. The betting itself is
`engines.poker.betting.BettingRound`; pots and odd chips are
`engines.poker.pots`; hand values are `engines.poker.ranking`.

Randomness: hand ``h`` deals from `source.deck(h)` (an `engines.fair.DealSource`
injected at creation, by default one with a secret drawn from the RNG):
`DealStarted.commitment` commits to the hand's seed and `MatchEnded.seeds` reveals
it once the match is over. A snapshot therefore needs no RNG internals.

For simulations, ``reset_stacks=True`` puts every stack back to its starting
value after each hand, so every hand is played at the same depth, and
``max_hands`` ends the match after that many hands (the winners are then the
seats with the most chips). `deucebot simulate holdem` uses both: 1000 chips
(50 big blinds) restored every hand, 25 hands per seat per match.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

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
from engines.cards import Card, Deck, parse_card
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
from engines.poker.pots import Pot, best_of, build_pots, odd_chip_order, payouts, settle
from engines.poker.ranking import HandRank, rank_hand
from engines.registry import AtLeast, GameSpec, LazyPolicies, SimHooks, TableOption

__all__ = [
    "SPEC",
    "STREETS",
    "ActionRecord",
    "BlindsPosted",
    "BoardDealt",
    "Eliminated",
    "HoldemConfig",
    "HoldemState",
    "HoldemView",
    "HoleCards",
    "PlayerActed",
    "PotAwarded",
    "SeatView",
    "Showdown",
    "ShowdownHand",
    "UncalledReturned",
]

STREETS = ("preflop", "flop", "turn", "river")
"""Street names, in order."""


class HoldemConfig(BaseModel):
    """Table settings for a hold'em match."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seats: int = Field(4, ge=2, le=10, description="players at the table, 2 to 10")
    starting_chips: int = Field(1000, ge=1, description="chips each player starts with")
    small_blind: int = Field(10, ge=1, description="the small blind")
    big_blind: int = Field(20, ge=1, description="the big blind, also the minimum bet")
    button: int = Field(0, ge=0, description="the seat on the button for the first hand")
    stacks: tuple[int, ...] | None = Field(
        None, description="per-seat starting stacks (overrides starting_chips; replays)"
    )
    reset_stacks: bool = Field(
        False, description="restore every starting stack after each hand (simulations)"
    )
    max_hands: int | None = Field(
        None,
        ge=1,
        description="end the match after this many hands (simulations); None: play until one "
        "player holds every chip",
    )

    @model_validator(mode="after")
    def _consistent(self) -> HoldemConfig:
        if self.big_blind < self.small_blind:
            raise ValueError(
                f"the big blind ({self.big_blind}) cannot be smaller than the small blind "
                f"({self.small_blind})"
            )
        if self.button >= self.seats:
            raise ValueError(f"button seat {self.button} is not one of the {self.seats} seats")
        if self.stacks is not None:
            if len(self.stacks) != self.seats:
                raise ValueError(f"stacks lists {len(self.stacks)} seats, not {self.seats}")
            if any(s < 0 for s in self.stacks):
                raise ValueError("a starting stack cannot be negative")
            if sum(1 for s in self.stacks if s > 0) < 2:
                raise ValueError("at least two players need chips to play")
        return self

    def starting_stacks(self) -> list[int]:
        """Every seat's chips at the start of the match."""
        if self.stacks is not None:
            return list(self.stacks)
        return [self.starting_chips] * self.seats


# Events ----------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True, slots=True)
class BlindsPosted(Event):
    """The blinds went in (amounts may be short: a blind a player cannot cover is all-in)."""

    kind: ClassVar[str] = "blinds_posted"
    small_blind_seat: int
    small_blind: int
    big_blind_seat: int
    big_blind: int


@dataclass(frozen=True, kw_only=True, slots=True)
class HoleCards(Event):
    """A seat's two private cards (private to that seat)."""

    kind: ClassVar[str] = "hole_cards"
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class PlayerActed(Event):
    """A betting action: `verb` fold/check/call/bet/raise, `total` the seat's round total after it,
    `added` the chips put in now, `all_in` when the seat has nothing left."""

    kind: ClassVar[str] = "player_acted"
    seat: int
    street: str
    verb: str
    total: int
    added: int
    all_in: bool


@dataclass(frozen=True, kw_only=True, slots=True)
class BoardDealt(Event):
    """A burn card then the flop (3 cards), the turn or the river (1 card) were dealt."""

    kind: ClassVar[str] = "board_dealt"
    street: str
    cards: tuple[Card, ...]
    board: tuple[Card, ...]

    def face_up(self) -> tuple[Card, ...]:
        """The cards dealt to the board."""
        return self.cards


@dataclass(frozen=True, slots=True)
class ShowdownHand:
    """One shown hand: its two cards, the best-five value and its name."""

    seat: int
    cards: tuple[Card, ...]
    value: int
    name: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Showdown(Event):
    """The players still in show their cards."""

    kind: ClassVar[str] = "showdown"
    hands: tuple[ShowdownHand, ...]

    def face_up(self) -> tuple[Card, ...]:
        """Every shown hand's cards."""
        return tuple(c for hand in self.hands for c in hand.cards)


@dataclass(frozen=True, kw_only=True, slots=True)
class PotAwarded(Event):
    """A pot (0 = main) was paid: winners and their shares; `shown` is False when everyone else
    folded and no card was shown."""

    kind: ClassVar[str] = "pot_awarded"
    pot: int
    amount: int
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    shown: bool


@dataclass(frozen=True, kw_only=True, slots=True)
class Eliminated(Event):
    """A seat ran out of chips and gets no more cards."""

    kind: ClassVar[str] = "eliminated"
    seat: int


# Views -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One betting action of the current hand, as everyone saw it."""

    street: str
    seat: int
    verb: str
    total: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class SeatView:
    """What anyone may know of one seat: chips behind, this round's bet, the hand total."""

    seat: int
    stack: int
    bet: int
    invested: int
    in_hand: bool
    folded: bool
    all_in: bool
    eliminated: bool


@dataclass(frozen=True, slots=True)
class HoldemView:
    """Everything one seat (or a spectator, `seat` None) may know now.

    `hole` is the seat's own cards (None for a spectator). `pots` are built from
    the chips of finished betting rounds; `bets` of the current round are in
    `seats[i].bet`. The `legal` actions, `to_call`, `min_to` and `max_to`
    describe the seat's options when it is to act (empty otherwise).
    """

    seat: int | None
    hand: int
    street: str
    button: int
    small_blind_seat: int
    big_blind_seat: int
    small_blind: int
    big_blind: int
    board: tuple[Card, ...]
    seats: tuple[SeatView, ...]
    pots: tuple[Pot, ...]
    to_act: int | None
    current_bet: int
    hole: tuple[Card, ...] | None
    legal: tuple[BettingAction, ...]
    to_call: int
    min_to: int
    max_to: int
    can_raise: bool
    history: tuple[ActionRecord, ...]
    finished: bool
    winners: tuple[int, ...]

    @property
    def pot_total(self) -> int:
        """Chips in the middle, this round's bets included."""
        return sum(p.amount for p in self.pots) + sum(s.bet for s in self.seats)

    @property
    def players_in_hand(self) -> int:
        """Seats dealt in and not folded."""
        return sum(1 for s in self.seats if s.in_hand and not s.folded)


# The state -------------------------------------------------------------------------------------


class HoldemState:
    """One hold'em match (see the module docstring). Build with `HoldemState(config, rng)`."""

    def __init__(
        self,
        config: HoldemConfig,
        rng: random.Random,
        source: DealSource | None = None,
        *,
        first_deck: Sequence[Card] | None = None,
    ) -> None:
        """Start the match and deal the first hand from `source` (default: a source with a
        secret drawn from `rng`).

        `first_deck` stacks the first hand's deck (top card first; dealt one card at a time
        from the seat after the button, then burn and board cards): for tests and replays of
        recorded hands (the same as `source.stacked(1, first_deck)`). The buy-ins
        (`ChipsBought`) and the first hand's events are kept in `opening_events`.
        """
        self.config = config
        self.source = source if source is not None else DealSource.from_rng(rng)
        if first_deck is not None:
            self.source = self.source.stacked(1, first_deck)
        self.stacks = config.starting_stacks()
        self.hand = 0
        self.button = -1
        self.last_big_blind: int | None = None
        self.last_heads_up = False
        self.finished = False
        self.winners: tuple[int, ...] = ()
        self._clear_hand()
        buy_ins: list[Event] = [
            ChipsBought(seat=seat, amount=chips, reason="buy-in")
            for seat, chips in enumerate(self.stacks)
            if chips > 0
        ]
        self.opening_events: list[Event] = buy_ins + self._start_hand()

    def _clear_hand(self) -> None:
        n = self.config.seats
        self.deck: Deck = Deck.stacked([])
        self.holes: list[tuple[Card, ...] | None] = [None] * n
        self.board: list[Card] = []
        self.street = 0
        self.invested = [0] * n
        self.hand_start = list(self.stacks)
        self.dealt = [False] * n
        self.sb_seat = 0
        self.bb_seat = 0
        self.history: list[ActionRecord] = []
        self.round: BettingRound = BettingRound([0] * n, [], min_bet=self.config.big_blind)
        self.round.closed = True

    # ------------------------------------------------------------ protocol

    @property
    def to_act(self) -> int | None:
        """The seat to act, or None once the match is over."""
        return None if self.finished else self.round.to_act

    def legal_actions(self, seat: int) -> list[BettingAction]:
        """Check/call/fold, the minimum bet or raise and all-in for the seat to act (any total
        between the minimum and all-in is accepted too); empty for other seats."""
        if self.finished:
            return []
        return self.round.legal_actions(seat)

    def check(self, seat: int, action: BettingAction) -> None:
        """Raise `IllegalAction` if `apply(seat, action)` would refuse it; change nothing."""
        require_seat(seat, self.config.seats)
        if self.finished:
            raise IllegalAction("the match is over: no more actions", code="match_over")
        if not isinstance(action, (Fold, Check, Call, Bet, Raise, AllIn)):
            raise IllegalAction(
                f"{action!r} is not a hold'em action: check, call, fold, bet, raise or allin",
                code="bad_action",
                action=str(action),
            )
        if seat != self.round.to_act:
            raise NotYourTurn(seat, self.round.to_act)
        self.round.check(seat, action)

    def apply(self, seat: int, action: BettingAction) -> list[Event]:
        """Apply a legal action; the hand (and the next hands' start) follow automatically."""
        self.check(seat, action)
        move = self.round.act(seat, action)
        street = STREETS[self.street]
        self.history.append(ActionRecord(street, seat, move.verb, move.total, move.all_in))
        events: list[Event] = [
            PlayerActed(
                seat=seat,
                street=street,
                verb=move.verb,
                total=move.total,
                added=move.added,
                all_in=move.all_in,
            )
        ]
        if self.round.done:
            self._continue(events)
        return events

    # --------------------------------------------------------------- flow

    def _next_alive(self, seat: int) -> int:
        n = self.config.seats
        stacks = self.stacks
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if stacks[candidate] > 0:
                return candidate
        raise RuntimeError("no player has chips")

    def _start_hand(self) -> list[Event]:
        config = self.config
        n = config.seats
        self._clear_hand()
        self.hand += 1
        alive = [s for s in range(n) if self.stacks[s] > 0]
        heads_up = len(alive) == 2
        if self.button < 0:
            button = config.button if self.stacks[config.button] > 0 else None
            if button is None:
                button = self._next_alive(config.button)
        else:
            button = self._next_alive(self.button)
        if heads_up:
            big = self._next_alive(button)
            if not self.last_heads_up and big == self.last_big_blind:
                # First heads-up hand: move the button so nobody posts the big blind twice.
                button = big
                big = self._next_alive(button)
            small = button
        else:
            small = self._next_alive(button)
            big = self._next_alive(small)
        self.button = button
        self.sb_seat = small
        self.bb_seat = big
        self.last_big_blind = big
        self.last_heads_up = heads_up
        self.hand_start = list(self.stacks)

        self.deck = Deck.stacked(self.source.deck(self.hand))
        commitment = self.source.commitment(self.hand)
        events: list[Event] = [DealStarted(deal=self.hand, dealer=button, commitment=commitment)]

        deal_order = [(button + i) % n for i in range(1, n + 1) if self.stacks[(button + i) % n]]
        first = [self.deck.draw_one() for _ in deal_order]
        second = [self.deck.draw_one() for _ in deal_order]
        for i, seat in enumerate(deal_order):
            self.holes[seat] = (first[i], second[i])
            self.dealt[seat] = True

        # Acting order before the flop: after the big blind (heads-up: the button first).
        start = alive.index(big) + 1
        order = alive[start:] + alive[:start]
        self.round = BettingRound(self.stacks, order, min_bet=config.big_blind)
        sb_paid = self.round.post(small, config.small_blind)
        bb_paid = self.round.post(big, config.big_blind)
        self.round.start()
        events.append(
            BlindsPosted(
                small_blind_seat=small,
                small_blind=sb_paid,
                big_blind_seat=big,
                big_blind=bb_paid,
            )
        )
        for seat in deal_order:
            events.append(HoleCards(to=seat, seat=seat, cards=self.holes[seat] or ()))
        if self.round.done:
            self._continue(events)
        return events

    def _collect(self, events: list[Event]) -> None:
        """Move the closed round's chips into the hand totals."""
        round_ = self.round
        if round_.returned is not None:
            seat, amount = round_.returned
            events.append(UncalledReturned(seat=seat, amount=amount))
        self.stacks = list(round_.stacks)
        invested = self.invested
        for seat, chips in enumerate(round_.committed):
            invested[seat] += chips

    def _continue(self, events: list[Event]) -> None:
        """The betting round closed: deal on, show down or settle, then start the next hand."""
        while True:
            self._collect(events)
            live = self.round.live
            if len(live) == 1:
                self._settle(events, live, shown=False)
                return
            if self.street == 3:
                self._settle(events, live, shown=True)
                return
            self.street += 1
            self.deck.draw_one()  # burn
            cards = self.deck.draw(3 if self.street == 1 else 1)
            self.board.extend(cards)
            events.append(
                BoardDealt(street=STREETS[self.street], cards=tuple(cards), board=tuple(self.board))
            )
            n = self.config.seats
            order = [(self.button + i) % n for i in range(1, n + 1)]
            order = [s for s in order if s in live]
            self.round = BettingRound(
                self.stacks, order, min_bet=self.config.big_blind, folded=self.round.folded
            )
            self.round.start()
            if not self.round.done:
                return

    def _settle(self, events: list[Event], live: list[int], *, shown: bool) -> None:
        n = self.config.seats
        alive = [False] * n
        for seat in live:
            alive[seat] = True
        pots = build_pots(self.invested, alive)
        order = odd_chip_order(self.button, n)
        if shown:
            board = self.board
            values: dict[int, HandRank] = {}
            hands = []
            for seat in order:
                if alive[seat]:
                    hole = self.holes[seat] or ()
                    value = rank_hand([*hole, *board])
                    values[seat] = value
                    hands.append(ShowdownHand(seat, tuple(hole), int(value), value.name))
            events.append(Showdown(hands=tuple(hands)))
            awards = settle(pots, best_of(values), order)
        else:
            total = sum(p.amount for p in pots)
            pots = [Pot(total, (live[0],))] if total else []
            awards = settle(pots, lambda e: e, order)
        paid = payouts(awards, n)
        self.stacks = [chips + won for chips, won in zip(self.stacks, paid, strict=True)]
        for award in awards:
            events.append(
                PotAwarded(
                    pot=award.pot,
                    amount=award.amount,
                    winners=award.winners,
                    shares=award.shares,
                    shown=shown,
                )
            )
        deltas = tuple(self.stacks[s] - self.hand_start[s] for s in range(n))
        dealt = tuple(s for s in range(n) if self.dealt[s])
        committed = self.source.commitment(self.hand)
        events.append(DealSettled(deal=self.hand, chips=deltas, dealt=dealt, commitment=committed))
        self.invested = [0] * n
        if self.config.reset_stacks:
            self.stacks = self.config.starting_stacks()
        else:
            for seat in range(n):
                if self.hand_start[seat] > 0 and self.stacks[seat] == 0:
                    events.append(Eliminated(seat=seat))
        limit = self.config.max_hands
        if sum(1 for s in self.stacks if s > 0) < 2 or (limit is not None and self.hand >= limit):
            self.finished = True
            top = max(self.stacks)
            self.winners = tuple(s for s in range(n) if self.stacks[s] == top)
            self.round.to_act = None
            seeds = self.source.revealed(self.hand)
            events.append(MatchEnded(winners=self.winners, totals=tuple(self.stacks), seeds=seeds))
            return
        events.extend(self._start_hand())

    # -------------------------------------------------------------- views

    def view(self, seat: int | None) -> HoldemView:
        """What `seat` may know (its own cards, public chips and board); None: a spectator."""
        if seat is not None:
            require_seat(seat, self.config.seats)
        round_ = self.round
        n = self.config.seats
        stacks = round_.stacks if not round_.closed else self.stacks
        committed = round_.committed if not round_.closed else [0] * n
        folded = round_.folded
        seats = tuple(
            SeatView(
                seat=s,
                stack=stacks[s],
                bet=committed[s],
                invested=self.invested[s] + committed[s],
                in_hand=self.dealt[s],
                folded=self.dealt[s] and folded[s],
                all_in=self.dealt[s] and not folded[s] and stacks[s] == 0,
                eliminated=self.hand_start[s] == 0 and not self.dealt[s],
            )
            for s in range(n)
        )
        live = [self.dealt[s] and not folded[s] for s in range(n)]
        pots = tuple(build_pots(self.invested, live)) if any(self.invested) else ()
        mine = seat is not None and seat == self.to_act
        legal = tuple(round_.legal_actions(seat)) if mine and seat is not None else ()
        return HoldemView(
            seat=seat,
            hand=self.hand,
            street=STREETS[self.street],
            button=self.button,
            small_blind_seat=self.sb_seat,
            big_blind_seat=self.bb_seat,
            small_blind=self.config.small_blind,
            big_blind=self.config.big_blind,
            board=tuple(self.board),
            seats=seats,
            pots=pots,
            to_act=self.to_act,
            current_bet=round_.current_bet,
            hole=self.holes[seat] if seat is not None else None,
            legal=legal,
            to_call=max(0, round_.owed(seat)) if mine and seat is not None else 0,
            min_to=round_.min_raise_to() if mine else 0,
            max_to=round_.max_total(seat) if mine and seat is not None else 0,
            can_raise=round_.can_raise(seat) if mine and seat is not None else False,
            history=tuple(self.history),
            finished=self.finished,
            winners=self.winners,
        )

    # ------------------------------------------------------ serialisation

    def snapshot(self) -> JSON:
        """Plain JSON data from which `restore` rebuilds this state exactly (a test and
        replay tool, never stored: see `engines.base`)."""
        return {
            "game": "holdem",
            "config": self.config.model_dump(mode="json"),
            "source": self.source.to_json(),
            "stacks": list(self.stacks),
            "hand": self.hand,
            "button": self.button,
            "last_big_blind": self.last_big_blind,
            "last_heads_up": self.last_heads_up,
            "finished": self.finished,
            "winners": list(self.winners),
            "deck": [str(c) for c in self.deck.cards()],
            "holes": [[str(c) for c in h] if h is not None else None for h in self.holes],
            "board": [str(c) for c in self.board],
            "street": self.street,
            "invested": list(self.invested),
            "hand_start": list(self.hand_start),
            "dealt": list(self.dealt),
            "sb_seat": self.sb_seat,
            "bb_seat": self.bb_seat,
            "history": [[r.street, r.seat, r.verb, r.total, r.all_in] for r in self.history],
            "round": self.round.to_json(),
        }

    @classmethod
    def restore(cls, data: Mapping[str, Any]) -> HoldemState:
        """Rebuild a state from `snapshot()` data."""
        state = cls.__new__(cls)
        state.config = HoldemConfig.model_validate(data["config"])
        state.source = DealSource.from_json(data["source"])
        state.stacks = list(data["stacks"])
        state.hand = int(data["hand"])
        state.button = int(data["button"])
        state.last_big_blind = data["last_big_blind"]
        state.last_heads_up = bool(data["last_heads_up"])
        state.finished = bool(data["finished"])
        state.winners = tuple(data["winners"])
        state.deck = Deck.stacked([parse_card(c) for c in data["deck"]])
        state.holes = [
            tuple(parse_card(c) for c in h) if h is not None else None for h in data["holes"]
        ]
        state.board = [parse_card(c) for c in data["board"]]
        state.street = int(data["street"])
        state.invested = list(data["invested"])
        state.hand_start = list(data["hand_start"])
        state.dealt = list(data["dealt"])
        state.sb_seat = int(data["sb_seat"])
        state.bb_seat = int(data["bb_seat"])
        state.history = [ActionRecord(r[0], r[1], r[2], r[3], r[4]) for r in data["history"]]
        state.round = BettingRound.from_json(dict(data["round"]))
        state.opening_events = []
        return state


# Spec ------------------------------------------------------------------------------------------


def parse_action(text: str) -> BettingAction:
    """Read an action from its canonical text: check, call, fold, bet 60, raise 120, allin."""
    return parse_betting_action(text)


def timeout_action(view: HoldemView) -> BettingAction:
    """The safe default for an absent player: check when free, else fold."""
    return Check() if any(isinstance(a, Check) for a in view.legal) else Fold()


def _figures(event: Event, state: Any) -> dict[str, list[float]]:
    if isinstance(event, DealSettled) and event.chips is not None:
        big = state.config.big_blind
        return {"bb_per_100": [100.0 * c / big for c in event.chips]}
    return {}


def _sim_config(seats: int) -> HoldemConfig:
    # Every hand at 50 big blinds deep; a "match" of 25 hands per seat lets `--rotate` move
    # the policies round the table.
    return HoldemConfig(seats=seats, reset_stacks=True, max_hands=25 * seats)


def _new_state(
    config: HoldemConfig, rng: random.Random, source: DealSource | None = None
) -> HoldemState:
    return HoldemState(config, rng, source)


SPEC = GameSpec(
    name="holdem",
    title="No-limit Texas hold'em",
    min_seats=2,
    max_seats=9,  # what tables offer; the engine itself (HoldemConfig) accepts 10
    default_seats=4,
    config_type=HoldemConfig,
    new_state=_new_state,
    restore=HoldemState.restore,
    parse_action=parse_action,
    timeout_action=timeout_action,
    policies=LazyPolicies("engines.ai.holdem_policies"),
    default_policy="strong",
    levels={"easy": "calling", "normal": "strong", "hard": "hard"},
    sim=SimHooks(
        unit="hand",
        unit_event=DealSettled,
        figures=_figures,
        config=_sim_config,
    ),
    extra={"engine_max_seats": 10},
    options=(
        TableOption("stack", "starting_chips"),
        TableOption("small_blind", "small_blind"),
        TableOption("big_blind", "big_blind"),
        TableOption("deals", "max_hands"),
    ),
    option_rules=(AtLeast("big_blind", "small_blind"),),
    history_formats=("json", "phh"),
    deal_word="hand",
)
