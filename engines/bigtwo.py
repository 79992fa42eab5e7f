"""Big Two (rules: docs/bigtwo.md): four players, penalty scoring, a match of N deals.

The engine follows the surface of `engines.base`: a `BigTwoConfig`, a
`BigTwoState` built from it and an injected `random.Random`, actions `Play`
and `Pass`, frozen events, `view(seat)`, snapshots and exact replay.

Seats are numbered 0..3 in play order: "next player" is ``(seat + 1) % 4``.
The first dealer is drawn from the RNG when the state is created; every deal's
cards come from the injected `engines.fair.DealSource` (one committed seed per
deal), so a snapshot never needs the RNG's internal state.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final, Literal, NoReturn

from pydantic import BaseModel, ConfigDict, Field

from engines.base import (
    JSON,
    DealSettled,
    DealStarted,
    Event,
    IllegalAction,
    MatchEnded,
    NotYourTurn,
    require_seat,
    to_jsonable,
)
from engines.bigtwo_combos import (
    ALL_CARDS,
    BIT_OF_CARD,
    THREE_OF_DIAMONDS,
    Combo,
    cards_of_mask,
    classify,
    classify_mask,
    combos_of_size,
    five_card_sets,
    keys_of_mask,
    mask_of_cards,
    penalty,
    same_rank_sets,
)
from engines.cards import FULL_DECK, Card, CardParseError, format_cards, parse_cards
from engines.fair import DealSource
from engines.registry import GameSpec, LazyPolicies, SimHooks, TableOption

__all__ = [
    "PASS",
    "SPEC",
    "Action",
    "BigTwoConfig",
    "BigTwoState",
    "BigTwoView",
    "CardsDealt",
    "Combo",
    "DealWon",
    "Pass",
    "Passed",
    "Play",
    "Played",
    "TableCleared",
    "TrickEntry",
    "classify",
    "legal_plays",
    "parse_action",
    "penalty",
    "play_of_mask",
    "prime_caches",
    "timeout_action",
]

SEATS = 4
HAND_SIZE = 13


class BigTwoConfig(BaseModel):
    """Table settings: always four seats; the number of deals in the match (default 4)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seats: Literal[4] = Field(4, description="Big Two is played by exactly four players")
    deals: int = Field(4, ge=1, le=100, description="deals in the match, 1 to 100")


# Actions ---------------------------------------------------------------------------------------


def _order(card: Card) -> int:
    # Anything that is not a card sorts first; `check` refuses it with a clear message.
    return BIT_OF_CARD.get(card, 0).bit_length()


@dataclasses.dataclass(frozen=True, slots=True)
class Play:
    """Play these cards. They are kept in Big Two order, so equal plays compare equal."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.cards, key=_order))
        if ordered != self.cards:
            object.__setattr__(self, "cards", ordered)

    def __str__(self) -> str:
        return "play " + format_cards(self.cards)


@dataclasses.dataclass(frozen=True, slots=True)
class Pass:
    """Pass this turn (not allowed when you lead)."""

    def __str__(self) -> str:
        return "pass"


Action = Play | Pass
PASS = Pass()
"""The one `Pass` action."""
_PLAYS: dict[int, Play] = {}
# The combination of each interned `Play` (built by `play_of_mask`), keyed by the play's id: the
# plays are kept alive by `_PLAYS` forever, so an id found here always means that very play.
# `apply` uses it to skip re-reading the cards of the plays the AI players and menus hand back.
_COMBO_OF_PLAY: dict[int, tuple[Combo, tuple[Card, ...]]] = {}


def play_of_mask(mask: int) -> Play:
    """The `Play` of the cards in `mask` (cached: AI players build many)."""
    play = _PLAYS.get(mask)
    if play is None:
        play = _PLAYS[mask] = Play(cards_of_mask(mask))
        combo = classify_mask(mask)
        if combo is not None:
            _COMBO_OF_PLAY[id(play)] = (combo, play.cards)
    return play


_SINGLE_PLAYS: list[Play] = [play_of_mask(1 << k) for k in range(52)]
# The single plays of each 13-bit chunk of a hand, filled on first use (as `cards_of_mask`).
_SINGLE_CHUNKS: tuple[dict[int, list[Play]], ...] = ({}, {}, {}, {})


def single_plays(mask: int) -> list[Play]:
    """One single `Play` per card of `mask`, lowest first."""
    out: list[Play] = []
    for i, table in enumerate(_SINGLE_CHUNKS):
        chunk = mask >> (13 * i) & 0x1FFF
        if chunk:
            plays = table.get(chunk)
            if plays is None:
                plays = table[chunk] = [_SINGLE_PLAYS[k + 13 * i] for k in keys_of_mask(chunk)]
            out += plays
    return out


def legal_plays(hand: int, table: Combo | None, opening: bool) -> list[Action]:
    """Every legal action for the cards of `hand` (a bitmask) facing `table` (None: leading).

    Leading: every combination (holding 3♦ when `opening`), singles, pairs, triples, then
    five-card hands, each lowest first. Answering: the plays that beat `table`, then `Pass`."""
    if table is None:
        plays = single_plays(hand)
        for size in (2, 3, 5):
            plays += [play_of_mask(c.mask) for c in combos_of_size(hand, size)]
        if opening:
            plays = [p for p in plays if p.cards[0] is THREE_OF_DIAMONDS]
        return [*plays]
    power = table.power
    actions: list[Action]
    if table.size == 1:
        above = hand >> (power + 1)
        actions = [*single_plays(above << (power + 1))]
    else:
        actions = [
            play_of_mask(c.mask) for c in combos_of_size(hand, table.size) if c.power > power
        ]
    actions.append(PASS)
    return actions


def prime_caches() -> int:
    """Classify every legal combination of the deck and build its `Play` (about 20,000), and
    list the cards of every 13-bit part of a hand (as `cards_of_mask` reads hands).

    The caches fill on first use anyway; priming them (well under a second) gives steady-state
    speed from the first deal, which is what benchmarks and long-running tables see.
    Returns the number of combinations."""
    masks = five_card_sets(ALL_CARDS) + same_rank_sets(ALL_CARDS, 2) + same_rank_sets(ALL_CARDS, 3)
    for mask in masks:
        classify_mask(mask)
        play_of_mask(mask)
    for shift in range(0, 52, 13):  # the cards of every 13-bit chunk of a hand (dealing)
        for chunk in range(1, 1 << 13):
            cards_of_mask(chunk << shift)
    return len(masks) + 52


_ACTION_TEXT = re.compile(r"^\s*(pass|play)\b(.*)$", re.IGNORECASE | re.DOTALL)


def parse_action(text: str) -> Action:
    """Read an action's canonical text back: ``"pass"`` or ``"play 3D 3S"``."""
    match = _ACTION_TEXT.match(text)
    if match is None:
        raise IllegalAction(
            f"{text!r} is not a Big Two action: write 'pass' or 'play' and cards",
            code="bigtwo.bad_action_text",
            text=text,
        )
    verb, rest = match.group(1).lower(), match.group(2).strip()
    if verb == "pass":
        if rest:
            raise IllegalAction(
                f"{text!r} is not a Big Two action: 'pass' takes no cards",
                code="bigtwo.bad_action_text",
                text=text,
            )
        return PASS
    try:
        cards = parse_cards(rest)
    except CardParseError as error:
        raise IllegalAction(
            f"{text!r} is not a Big Two action: {error}", code="bigtwo.bad_action_text", text=text
        ) from error
    return Play(tuple(cards))


# Events ----------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class CardsDealt(Event):
    """Private to `seat`: the 13 cards it was dealt."""

    kind: ClassVar[str] = "bigtwo.cards_dealt"
    seat: int
    cards: tuple[Card, ...]


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Played(Event):
    """`seat` played `cards` (a `combo` kind) and has `cards_left`."""

    kind: ClassVar[str] = "bigtwo.played"
    seat: int
    cards: tuple[Card, ...]
    combo: str
    cards_left: int


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Passed(Event):
    """`seat` passed."""

    kind: ClassVar[str] = "bigtwo.passed"
    seat: int


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class TableCleared(Event):
    """Three passes in a row: the table is cleared and `leader` (who played last) leads anything."""

    kind: ClassVar[str] = "bigtwo.table_cleared"
    leader: int


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class DealWon(Event):
    """`seat` emptied its hand and wins the deal; `cards_left` per seat, `penalties` per seat."""

    kind: ClassVar[str] = "bigtwo.deal_won"
    outcome: ClassVar[bool] = True
    seat: int
    cards_left: tuple[int, ...]
    penalties: tuple[int, ...]


_PASSED = tuple(Passed(seat=s) for s in range(4))
_CLEARED = tuple(TableCleared(leader=s) for s in range(4))


# View ------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class TrickEntry:
    """One turn of the current trick: `seat` played `cards`, or passed (`cards` empty)."""

    seat: int
    cards: tuple[Card, ...]


@dataclasses.dataclass(eq=False)
class BigTwoView:
    """What one seat may know (`seat` None: a spectator, who sees no hand).

    `table` is the combination to beat (None when `to_act` leads); `legal` is
    non-empty only for the seat whose turn it is. A view is a copy: changing it
    changes nothing in the game (it is not frozen only because building frozen
    objects costs time on every turn).
    """

    seat: int | None
    hand_mask: int
    """This seat's cards as a bitmask of Big Two keys (0 for a spectator); see `hand`."""
    cards_left: tuple[int, ...]
    dealer: int
    to_act: int | None
    leader: int | None
    """The seat that led the current trick (or must lead it)."""
    table: Combo | None
    table_seat: int | None
    """Who played the combination on the table."""
    passes: int
    """Passes in a row since the last play."""
    trick: tuple[TrickEntry, ...]
    played: tuple[Card, ...]
    """Every card played in this deal, in the order they were played."""
    must_include: Card | None
    """3♦ while the opening play of the deal has not been made, else None."""
    deal: int
    deals: int
    penalties: tuple[tuple[int, ...], ...]
    """Penalties of each settled deal."""
    totals: tuple[int, ...]
    finished: bool
    winners: tuple[int, ...]

    @functools.cached_property
    def hand(self) -> tuple[Card, ...]:
        """This seat's cards, lowest first (empty for a spectator)."""
        return cards_of_mask(self.hand_mask)

    @functools.cached_property
    def legal(self) -> tuple[Action, ...]:
        """Every legal action of this seat now (empty when it is not its turn), computed from
        the view's own hand and table on first use."""
        if self.seat is None or self.seat != self.to_act or self.finished:
            return ()
        return tuple(legal_plays(self.hand_mask, self.table, self.must_include is not None))

    def to_json(self) -> JSON:
        """Plain JSON data, legal actions (as action text) included."""
        data: JSON = to_jsonable(self)
        data["hand"] = [str(c) for c in self.hand]
        data["legal"] = [str(a) for a in self.legal]
        return data


_PASS_ENTRIES = tuple(TrickEntry(s, ()) for s in range(4))
# The `Played` event and trick entry of each (cards, seat, cards left), shared like `_PASSED`:
# both are frozen, and building frozen dataclasses costs time on every play.
_PLAYED: dict[int, tuple[Played, TrickEntry]] = {}


def _played(
    seat: int, combo: Combo, cards: tuple[Card, ...], left: int
) -> tuple[Played, TrickEntry]:
    if len(_PLAYED) >= 200_000:
        _PLAYED.clear()
    made = _PLAYED[combo.mask << 6 | seat << 4 | left] = (
        Played(seat=seat, cards=cards, combo=combo.kind, cards_left=left),
        TrickEntry(seat, cards),
    )
    return made


# State -----------------------------------------------------------------------------------------


class BigTwoState:
    """One Big Two match. See the module docstring for the numbering of seats."""

    def __init__(
        self, config: BigTwoConfig, rng: random.Random, source: DealSource | None = None
    ) -> None:
        """Draw the first dealer from `rng`, then deal the first deal from `source` (default:
        a source with a secret drawn from `rng`).

        The opening events (DealStarted, CardsDealt) are kept in `opening_events`."""
        self.config = config
        self.first_dealer = rng.randrange(SEATS)
        self.source = source if source is not None else DealSource.from_rng(rng)
        self.totals = [0] * SEATS
        self.penalties: list[tuple[int, ...]] = []
        self.winners: tuple[int, ...] = ()
        self.finished = False
        self.deal = 0
        self.dealer = self.first_dealer
        self.hands = [0] * SEATS
        self.counts = [0] * SEATS
        self.turn: int | None = None
        self.leader: int | None = None
        self.table: Combo | None = None
        self.table_seat: int | None = None
        self.passes = 0
        self.opening = True
        self.played = 0
        self.played_cards: tuple[Card, ...] = ()
        self.trick: tuple[TrickEntry, ...] = ()
        self.opening_events = self._start_deal(self.first_dealer)

    # The engine protocol -----------------------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        """The seat to act, None once the match is over."""
        return self.turn

    def legal_actions(self, seat: int) -> list[Action]:
        """Every play `seat` may make now (lowest first by size), then `Pass` when allowed."""
        if self.finished or seat != self.turn:
            return []
        return legal_plays(self.hands[seat], self.table, self.opening)

    def check(self, seat: int, action: Action) -> None:
        """Raise `IllegalAction` (specific message and code) if `action` is refused; change
        nothing."""
        self._combo_for(seat, action)

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply `action` for `seat` and return the events; an illegal action changes nothing."""
        if seat == self.turn and type(seat) is int:
            # Fast path: an interned play (from `play_of_mask`: AI players, menus) is already
            # classified; `_allows` checks it as `_check_play` does, anything else goes the
            # long way.
            known = _COMBO_OF_PLAY.get(id(action))
            if known is not None:
                if self._allows(seat, known[0]):
                    return self._play(seat, known[0], known[1])
            elif action is PASS and self.table is not None:
                return self._pass(seat)
        found = self._combo_for(seat, action)
        if found is None:
            return self._pass(seat)
        assert isinstance(action, Play)
        return self._play(seat, found, action.cards)

    def view(self, seat: int | None) -> BigTwoView:
        """What `seat` may know: its own hand, the public table; spectators (None) see no hand."""
        if seat is None:
            hand = 0
        elif type(seat) is int and 0 <= seat < SEATS:
            hand = self.hands[seat]
        else:
            require_seat(seat, SEATS)
            hand = self.hands[seat]
        # Positional arguments, in the order of the fields: a view is built on every turn.
        return BigTwoView(
            seat,
            hand,
            tuple(self.counts),
            self.dealer,
            self.turn,
            self.leader,
            self.table,
            self.table_seat,
            self.passes,
            self.trick,
            self.played_cards,
            THREE_OF_DIAMONDS if self.opening and not self.finished else None,
            self.deal,
            self.config.deals,
            tuple(self.penalties),
            tuple(self.totals),
            self.finished,
            self.winners,
        )

    def snapshot(self) -> JSON:
        """Everything `restore` needs to rebuild this state exactly (a test and replay
        tool, never stored: see `engines.base`)."""
        return {
            "game": "bigtwo",
            "config": self.config.model_dump(),
            "first_dealer": self.first_dealer,
            "source": self.source.to_json(),
            "deal": self.deal,
            "dealer": self.dealer,
            "hands": [format_cards(cards_of_mask(h)) for h in self.hands],
            "turn": self.turn,
            "leader": self.leader,
            "table": str(self.table) if self.table is not None else None,
            "table_seat": self.table_seat,
            "passes": self.passes,
            "opening": self.opening,
            "played": format_cards(self.played_cards),
            "trick": [[e.seat, format_cards(e.cards)] for e in self.trick],
            "penalties": [list(p) for p in self.penalties],
            "totals": list(self.totals),
            "finished": self.finished,
            "winners": list(self.winners),
        }

    @classmethod
    def restore(cls, data: Mapping[str, Any]) -> BigTwoState:
        """Rebuild a state from `snapshot()` output."""
        state = cls.__new__(cls)
        state.config = BigTwoConfig(**data["config"])
        state.first_dealer = int(data["first_dealer"])
        state.source = DealSource.from_json(data["source"])
        state.deal = int(data["deal"])
        state.dealer = int(data["dealer"])
        state.hands = [mask_of_cards(parse_cards(h)) for h in data["hands"]]
        state.counts = [h.bit_count() for h in state.hands]
        state.turn = data["turn"]
        state.leader = data["leader"]
        table = data["table"]
        state.table = classify_mask(mask_of_cards(parse_cards(table))) if table else None
        state.table_seat = data["table_seat"]
        state.passes = int(data["passes"])
        state.opening = bool(data["opening"])
        state.played_cards = tuple(parse_cards(data["played"]))
        state.played = mask_of_cards(state.played_cards)
        state.trick = tuple(TrickEntry(int(s), tuple(parse_cards(m))) for s, m in data["trick"])
        state.penalties = [tuple(p) for p in data["penalties"]]
        state.totals = [int(t) for t in data["totals"]]
        state.finished = bool(data["finished"])
        state.winners = tuple(data["winners"])
        state.opening_events = []
        return state

    # Rules -------------------------------------------------------------------------------------

    def _combo_for(self, seat: int, action: Action) -> Combo | None:
        """The combination `action` plays (None for a pass) if it is legal; else raise."""
        if type(seat) is not int or seat != self.turn:
            self._check_seat(seat, action)
        if isinstance(action, Pass):
            if self.table is None:
                if self.opening:
                    raise IllegalAction(
                        f"seat {seat} cannot pass: you open the deal and must play 3D",
                        code="bigtwo.must_open",
                        seat=seat,
                    )
                raise IllegalAction(
                    f"seat {seat} cannot pass: the table is clear and you must lead",
                    code="bigtwo.must_lead",
                    seat=seat,
                )
            return None
        if not isinstance(action, Play):
            raise IllegalAction(
                f"{action!r} is not a Big Two action (play cards or pass)",
                code="bigtwo.unknown_action",
                action=repr(action),
            )
        return self._check_play(seat, action)

    def _check_seat(self, seat: int, action: Action) -> None:
        """The slow path of the seat check: no such seat, the match is over, not its turn."""
        require_seat(seat, SEATS)
        if self.finished:
            raise IllegalAction(
                f"seat {seat} cannot {action}: the match is over",
                code="bigtwo.match_over",
                seat=seat,
            )
        if seat != self.turn:
            raise NotYourTurn(seat, self.turn)

    def _check_play(self, seat: int, action: Play) -> Combo:
        cards = action.cards
        try:
            mask = mask_of_cards(cards)
        except (AttributeError, IndexError, KeyError, TypeError):
            mask = -1
        if mask > 0 and mask.bit_count() == len(cards):
            combo = classify_mask(mask)
            if combo is not None and self._allows(seat, combo):
                return combo
        self._refuse_play(seat, action, mask)

    def _allows(self, seat: int, combo: Combo) -> bool:
        """The rules of a play, in one place: `seat` holds the cards, the first play of the
        deal holds 3D, and `combo` beats the table (anything leads a clear table)."""
        mask = combo.mask
        table = self.table
        return (
            not mask & ~self.hands[seat]
            and (not self.opening or mask & 1 != 0)
            and (table is None or combo.beats(table))
        )

    def _refuse_play(self, seat: int, action: Play, mask: int) -> NoReturn:
        """Raise the specific reason why `action` is refused (the fast path found it illegal)."""
        cards = action.cards
        if not cards:
            raise IllegalAction(
                "a play needs at least one card (or pass)", code="bigtwo.empty_play", seat=seat
            )
        if mask < 0:
            raise IllegalAction(
                f"{action!r} holds something that is not a card",
                code="bigtwo.unknown_action",
                action=repr(action),
            )
        text = format_cards(cards)
        if mask.bit_count() != len(cards):
            repeated = format_cards(sorted({c for c in cards if cards.count(c) > 1}, key=_order))
            raise IllegalAction(
                f"cannot play {text}: {repeated} is named more than once",
                code="bigtwo.repeated_cards",
                cards=text,
                repeated=repeated,
            )
        missing = mask & ~self.hands[seat]
        if missing:
            absent = format_cards(cards_of_mask(missing))
            raise IllegalAction(
                f"cannot play {text}: you do not hold {absent}",
                code="bigtwo.not_your_cards",
                cards=text,
                missing=absent,
            )
        combo = classify_mask(mask)
        if combo is None:
            raise IllegalAction(
                f"cannot play {text}: {_why_not_a_combo(len(cards))}",
                code="bigtwo.not_a_combination",
                cards=text,
                count=len(cards),
            )
        if self.opening and not mask & 1:
            raise IllegalAction(
                f"cannot play {text}: the first play of the deal must contain 3D",
                code="bigtwo.missing_three",
                cards=text,
            )
        table = self.table
        assert table is not None
        if combo.size != table.size:
            raise IllegalAction(
                f"cannot play {text}: the table holds {table.size} card(s) ({table}) and"
                f" you must answer with {table.size}, not {combo.size}",
                code="bigtwo.wrong_size",
                cards=text,
                need=table.size,
                got=combo.size,
                table=str(table),
            )
        raise IllegalAction(
            f"cannot play {text}: {_describe(combo)} does not beat {_describe(table)} ({table})",
            code="bigtwo.too_low",
            cards=text,
            table=str(table),
        )

    def _pass(self, seat: int) -> list[Event]:
        self.passes += 1
        self.trick += (_PASS_ENTRIES[seat],)
        events: list[Event] = [_PASSED[seat]]
        if self.passes == SEATS - 1:
            leader = self.table_seat
            assert leader is not None
            self.table = None
            self.table_seat = None
            self.passes = 0
            self.trick = ()
            self.leader = self.turn = leader
            events.append(_CLEARED[leader])
        else:
            self.turn = (seat + 1) % SEATS
        return events

    def _play(self, seat: int, combo: Combo, cards: tuple[Card, ...]) -> list[Event]:
        mask = combo.mask
        hands = self.hands
        hand = hands[seat] = hands[seat] & ~mask
        counts = self.counts
        left = counts[seat] = counts[seat] - combo.size
        self.played |= mask
        self.opening = False
        if self.table is None:
            self.leader = seat
        self.table = combo
        self.table_seat = seat
        self.passes = 0
        self.played_cards += cards
        made = _PLAYED.get(mask << 6 | seat << 4 | left)
        if made is None:
            made = _played(seat, combo, cards, left)
        self.trick += (made[1],)
        if hand:
            self.turn = (seat + 1) % SEATS
            return [made[0]]
        return [made[0], *self._settle(seat)]

    def _settle(self, winner: int) -> list[Event]:
        penalties = tuple(penalty(n) for n in self.counts)
        self.penalties.append(penalties)
        for s in range(SEATS):
            self.totals[s] += penalties[s]
        events: list[Event] = [
            DealWon(seat=winner, cards_left=tuple(self.counts), penalties=penalties),
            DealSettled(
                deal=self.deal, penalties=penalties, commitment=self.source.commitment(self.deal)
            ),
        ]
        if self.deal < self.config.deals:
            return events + self._start_deal(winner)
        best = min(self.totals)
        self.winners = tuple(s for s in range(SEATS) if self.totals[s] == best)
        self.finished = True
        self.turn = self.leader = None
        self.table = None
        self.table_seat = None
        self.trick = ()
        seeds = self.source.revealed(self.deal)
        events.append(MatchEnded(winners=self.winners, totals=tuple(self.totals), seeds=seeds))
        return events

    def _start_deal(self, dealer: int) -> list[Event]:
        """Deal the source's deck for this deal one card at a time from the dealer's next seat."""
        self.deal += 1
        self.dealer = dealer
        deck = [BIT_OF_CARD[card] for card in self.source.deck(self.deal)]
        commitment = self.source.commitment(self.deal)
        events: list[Event] = [DealStarted(deal=self.deal, dealer=dealer, commitment=commitment)]
        for i in range(SEATS):
            seat = (dealer + 1 + i) % SEATS
            hand = sum(deck[i::SEATS])
            self.hands[seat] = hand
            self.counts[seat] = HAND_SIZE
            if hand & 1:
                self.turn = self.leader = seat
            events.append(CardsDealt(to=seat, seat=seat, cards=cards_of_mask(hand)))
        self.table = None
        self.table_seat = None
        self.passes = 0
        self.opening = True
        self.played = 0
        self.played_cards = ()
        self.trick = ()
        return events


_DECK_BITS: Final = [BIT_OF_CARD[card] for card in FULL_DECK]


def _why_not_a_combo(count: int) -> str:
    if count == 4:
        return "no 4-card combination is legal (four of a kind needs a kicker; no two pair)"
    if count > 5:
        return f"no combination has {count} cards (1, 2, 3 or 5)"
    if count in (2, 3):
        return f"{count} cards must all have the same rank"
    return (
        "five cards must form a straight, flush, full house, four of a kind + kicker"
        " or straight flush"
    )


_KIND_NAMES = {
    "single": "a single",
    "pair": "a pair",
    "triple": "a triple",
    "straight": "a straight",
    "flush": "a flush",
    "full_house": "a full house",
    "four_of_a_kind": "four of a kind",
    "straight_flush": "a straight flush",
}


def _describe(combo: Combo) -> str:
    return _KIND_NAMES[combo.kind]


# Registry --------------------------------------------------------------------------------------


def new_state(
    config: BigTwoConfig, rng: random.Random, source: DealSource | None = None
) -> BigTwoState:
    """A new match from `config`: the first dealer from `rng`, the cards from `source`."""
    return BigTwoState(config, rng, source)


def timeout_action(view: BigTwoView) -> Action:
    """The safe default for an absent player: pass, or lead the lowest single (3D when opening)."""
    if view.table is not None:
        return PASS
    return play_of_mask(BIT_OF_CARD[min(view.hand, key=_order)])


def _figures(event: Event, state: Any) -> Mapping[str, Sequence[float]]:
    if not isinstance(event, DealSettled) or event.penalties is None:
        return {}
    pens = event.penalties
    total = sum(pens)
    n = len(pens)
    return {
        "win_rate": [1.0 if p == 0 else 0.0 for p in pens],
        "penalty_per_deal": [float(p) for p in pens],
        "edge": [(total - p) / (n - 1) - p for p in pens],
    }


SPEC = GameSpec(
    name="bigtwo",
    title="Big Two",
    min_seats=SEATS,
    max_seats=SEATS,
    default_seats=SEATS,
    config_type=BigTwoConfig,
    new_state=new_state,
    restore=BigTwoState.restore,
    parse_action=parse_action,
    timeout_action=timeout_action,
    policies=LazyPolicies("engines.ai.bigtwo"),
    default_policy="strong",
    levels={"easy": "easy", "normal": "strong", "hard": "hard"},
    sim=SimHooks(
        unit="deal",
        unit_event=DealSettled,
        figures=_figures,
        config=lambda seats: BigTwoConfig(deals=1),
    ),
    scoring="penalty",
    options=(TableOption("deals", "deals"),),
)
"""The Big Two game spec for the registry."""
