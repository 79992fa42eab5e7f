"""High Card, the test suite's fifth game: its rules (pure, like every engine).

Two to four seats. Each deal, every seat holding at least two antes antes once and gets one
card from the deal's own deck (`DealSource.deck`); then, in turn from the seat after the
dealer, each says `stay` (puts one more ante in) or `fold`. The highest card among those
who stayed takes the pot (cards rank 2 low to ace high, then by suit); a seat left alone
takes it at once. The match ends after its deals, or when fewer than two seats can ante.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

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
from engines.cards import Card, parse_card
from engines.fair import DealSource
from engines.registry import AtLeast, GameSpec, LazyPolicies, SimHooks, TableOption

NAME = "highcard"


class HighCardConfig(BaseModel):
    """A High Card match: seats, each seat's starting chips, the ante, the deals."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seats: int = Field(3, ge=2, le=4)
    starting_chips: int = Field(100, ge=10, le=100_000)
    ante: int = Field(5, ge=1, le=1_000)
    deals: int = Field(3, ge=1, le=50)


@dataclass(frozen=True)
class Stay:
    """Stay in the deal: one more ante into the pot."""

    def __str__(self) -> str:
        return "stay"


@dataclass(frozen=True)
class Fold:
    """Give up the deal (the card is never shown)."""

    def __str__(self) -> str:
        return "fold"


Action = Stay | Fold


def parse_action(text: str) -> Action:
    """The action of its canonical text (`stay`, `fold`)."""
    word = text.strip().lower()
    if word == "stay":
        return Stay()
    if word == "fold":
        return Fold()
    raise IllegalAction(
        f"{text!r} is not a High Card move (stay or fold)", code="highcard_move", text=text
    )


@dataclass(frozen=True, kw_only=True, slots=True)
class CardDealt(Event):
    """A seat's card, for that seat only."""

    kind: ClassVar[str] = "highcard_dealt"
    seat: int
    card: Card


@dataclass(frozen=True, kw_only=True, slots=True)
class Acted(Event):
    """A seat stayed or folded."""

    kind: ClassVar[str] = "highcard_acted"
    seat: int
    action: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Showdown(Event):
    """A deal's end: the cards of those who stayed (None: folded or not dealt), who won
    the pot and how much it held."""

    kind: ClassVar[str] = "highcard_showdown"
    deal: int
    cards: tuple[Card | None, ...]
    winner: int
    pot: int

    def face_up(self) -> tuple[Card, ...]:
        """The cards shown."""
        return tuple(card for card in self.cards if card is not None)


@dataclass(frozen=True)
class HighCardView:
    """What one seat (None: a spectator) may know."""

    seat: int | None
    deal: int
    deals: int
    dealer: int
    ante: int
    chips: tuple[int, ...]
    dealt: tuple[bool, ...]
    folded: tuple[bool, ...]
    stayed: tuple[bool, ...]
    pot: int
    to_act: int | None
    hand: tuple[Card, ...]
    legal: tuple[Action, ...]
    shown: tuple[Card | None, ...]
    """The cards the last showdown showed (empty before any)."""
    winners: tuple[int, ...] | None


class HighCardState:
    """A High Card match (see the module docstring)."""

    def __init__(
        self, config: HighCardConfig, rng: random.Random, source: DealSource | None = None
    ) -> None:
        """A new match, its first deal dealt."""
        self.config = config
        self.source = source or DealSource.from_rng(rng)
        n = config.seats
        self.chips = [config.starting_chips] * n
        self.deal = 0
        self.dealer = rng.randrange(n)
        self.cards: list[Card | None] = [None] * n
        self.dealt = [False] * n
        self.folded = [False] * n
        self.stayed = [False] * n
        self.put = [0] * n
        self.pot = 0
        self.turn: int | None = None
        self.shown: tuple[Card | None, ...] = ()
        self.winners: tuple[int, ...] | None = None
        self.actions: list[tuple[int, str]] = []
        buy_ins: list[Event] = [
            ChipsBought(seat=s, amount=config.starting_chips, reason="buy-in") for s in range(n)
        ]
        self.opening_events = buy_ins + self._next_deal()

    @property
    def to_act(self) -> int | None:
        """The seat to act (None once the match is over)."""
        return self.turn

    @property
    def finished(self) -> bool:
        """True once the match has ended."""
        return self.winners is not None

    def legal_actions(self, seat: int) -> list[Action]:
        """Stay or fold for the seat to act; nothing for the others."""
        return [Stay(), Fold()] if seat == self.turn else []

    def check(self, seat: int, action: Action) -> None:
        """Refuse an action out of turn or unknown; change nothing."""
        require_seat(seat, self.config.seats)
        if seat != self.turn:
            raise NotYourTurn(seat, self.turn)
        if not isinstance(action, Stay | Fold):
            raise IllegalAction(
                f"{action!r} is not a High Card move", code="highcard_move", text=str(action)
            )

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Stay or fold; the deal ends once everyone has spoken or one seat is left."""
        self.check(seat, action)
        self.actions.append((seat, str(action)))
        events: list[Event] = [Acted(seat=seat, action=str(action))]
        if isinstance(action, Stay):
            self.stayed[seat] = True
            self._pay(seat, self.config.ante)
        else:
            self.folded[seat] = True
        live = [s for s in self._order() if not self.folded[s]]
        waiting = [s for s in live if not self.stayed[s]]
        if len(live) == 1 or not waiting:
            events += self._settle(live)
            events += self._next_deal()
        else:
            self.turn = waiting[0]
        return events

    def view(self, seat: int | None) -> HighCardView:
        """What `seat` may know: its own card, everyone's chips and choices."""
        own = self.cards[seat] if seat is not None else None
        return HighCardView(
            seat=seat,
            deal=self.deal,
            deals=self.config.deals,
            dealer=self.dealer,
            ante=self.config.ante,
            chips=tuple(self.chips),
            dealt=tuple(self.dealt),
            folded=tuple(self.folded),
            stayed=tuple(self.stayed),
            pot=self.pot,
            to_act=self.turn,
            hand=(own,) if own is not None and not self.finished else (),
            legal=tuple(self.legal_actions(seat)) if seat is not None else (),
            shown=self.shown,
            winners=self.winners,
        )

    def snapshot(self) -> JSON:
        """The config, the deals' source and the actions: `restore` replays them."""
        return {
            "config": self.config.model_dump(),
            "source": self.source.to_json(),
            "dealer": self._first_dealer,
            "actions": [list(a) for a in self.actions],
        }

    # ------------------------------------------------------------------ inside

    def _order(self) -> list[int]:
        """The dealt seats in speaking order, from the seat after the dealer."""
        n = self.config.seats
        return [
            (self.dealer + 1 + i) % n for i in range(n) if self.dealt[(self.dealer + 1 + i) % n]
        ]

    def _pay(self, seat: int, amount: int) -> None:
        self.chips[seat] -= amount
        self.put[seat] += amount
        self.pot += amount

    def _next_deal(self) -> list[Event]:
        n = self.config.seats
        if self.deal == 0:
            self._first_dealer = self.dealer
        able = [s for s in range(n) if self.chips[s] >= 2 * self.config.ante]
        if self.deal >= self.config.deals or len(able) < 2:
            return self._end()
        self.deal += 1
        if self.deal > 1:
            self.dealer = next(
                s for s in ((self.dealer + 1 + i) % n for i in range(n)) if s in able
            )
        deck = self.source.deck(self.deal)
        self.cards = [None] * n
        self.dealt = [s in able for s in range(n)]
        self.folded = [False] * n
        self.stayed = [False] * n
        self.put = [0] * n
        self.pot = 0
        events: list[Event] = [
            DealStarted(
                deal=self.deal, dealer=self.dealer, commitment=self.source.commitment(self.deal)
            )
        ]
        for i, seat in enumerate(self._order()):
            self.cards[seat] = deck[i]
            self._pay(seat, self.config.ante)
            events.append(CardDealt(seat=seat, card=deck[i], to=seat))
        self.turn = self._order()[0]
        return events

    def _settle(self, live: list[int]) -> list[Event]:
        winner = max(live, key=lambda s: self._strength(s))
        pot = self.pot
        deltas = [-p for p in self.put]
        deltas[winner] += pot
        self.chips[winner] += pot
        alone = len(live) == 1
        self.shown = tuple(
            None if alone or self.folded[s] or not self.dealt[s] else self.cards[s]
            for s in range(self.config.seats)
        )
        self.pot = 0
        self.turn = None
        dealt = tuple(s for s in range(self.config.seats) if self.dealt[s])
        return [
            Showdown(deal=self.deal, cards=self.shown, winner=winner, pot=pot),
            DealSettled(
                deal=self.deal,
                chips=tuple(deltas),
                dealt=dealt,
                commitment=self.source.commitment(self.deal),
            ),
        ]

    def _strength(self, seat: int) -> int:
        card = self.cards[seat]
        return -1 if card is None else card.code

    def _end(self) -> list[Event]:
        best = max(self.chips)
        self.winners = tuple(s for s in range(self.config.seats) if self.chips[s] == best)
        self.turn = None
        self.cards = [None] * self.config.seats
        return [
            MatchEnded(
                winners=self.winners,
                totals=tuple(self.chips),
                seeds=self.source.revealed(self.deal),
            )
        ]


def new_state(
    config: HighCardConfig, rng: random.Random, source: DealSource | None = None
) -> HighCardState:
    """A new match from `config`, an injected RNG and where its cards come from."""
    return HighCardState(config, rng, source)


class _FixedDealer(random.Random):
    """An RNG whose `randrange` gives a stored first dealer (restoring a snapshot)."""

    def __init__(self, dealer: int) -> None:
        super().__init__(0)
        self.dealer = dealer

    def randrange(self, *args: Any, **kwargs: Any) -> int:
        return self.dealer


def restore(data: JSON) -> HighCardState:
    """Rebuild a state exactly from `HighCardState.snapshot()` (its actions replayed)."""
    config = HighCardConfig(**data["config"])
    state = HighCardState(
        config, _FixedDealer(int(data["dealer"])), DealSource.from_json(data["source"])
    )
    for seat, text in data["actions"]:
        state.apply(int(seat), parse_action(text))
    return state


def timeout_action(view: HighCardView) -> Action:
    """The safe default for an absent player: fold (nothing more is put in)."""
    return Fold()


def _figures(event: Event, state: Any) -> dict[str, list[float]]:
    if isinstance(event, DealSettled) and event.chips is not None:
        return {"chips_per_deal": [float(c) for c in event.chips]}
    return {}


def card_of(text: str) -> Card:
    """A card from its text (tests)."""
    return parse_card(text)


SPEC = GameSpec(
    name=NAME,
    title="High Card",
    min_seats=2,
    max_seats=4,
    default_seats=3,
    config_type=HighCardConfig,
    new_state=new_state,
    restore=restore,
    parse_action=parse_action,
    timeout_action=timeout_action,
    policies=LazyPolicies("tests.fifth_game.ai"),
    default_policy="strong",
    levels={"easy": "random", "normal": "strong", "hard": "strong"},
    sim=SimHooks(
        unit="deal",
        unit_event=DealSettled,
        figures=_figures,
        config=lambda seats: HighCardConfig(seats=seats),
    ),
    options=(
        TableOption("stack", "starting_chips"),
        TableOption("ante", "ante"),
        TableOption("deals", "deals"),
    ),
    option_rules=(AtLeast("stack", "ante", times=2),),
    face="tests.fifth_game.face",
)
"""High Card's declaration (registered by `tests.fifth_game`)."""
