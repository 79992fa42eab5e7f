"""French draw poker (docs/draw.md), one rule at a time on stacked decks.

Hands are given by their position after the dealer (1 = the first player after
the dealer: the blind in a blind deal), so the tests do not depend on which
seat the random first dealer is.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest
from pydantic import ValidationError

from engines.base import ChipsBought, DealSettled, DealStarted, Event, IllegalAction, MatchEnded
from engines.cards import FULL_DECK, Card, parse_cards
from engines.draw import SPEC, DrawConfig, DrawState, parse_action
from engines.draw.actions import STAND, Call, Draw, Fold, Open, Raise
from engines.draw.events import (
    CardsDealt,
    Carried,
    DealKind,
    Drew,
    NewCards,
    OpenerProof,
    Posted,
    PotReturned,
    PotWon,
    Shown,
    StockRenewed,
)
from engines.draw.hands import opening_proof, requirement, sort_hand
from engines.draw.state import split_openers, timeout_action
from engines.fair import DealSource
from engines.poker.events import UncalledReturned
from tests.refusals import assert_refused

# Six hands with no pair, straight or flush, all cards distinct.
JUNK = [
    "2C 4D 7H 9S QC",
    "3C 5H 8S TD KC",
    "2D 6C 9H JD AS",
    "3H 7C TS QD 4S",
    "5C 8D JH KS 2H",
    "6H 9C QS AD 3S",
]


def stacked(hands: dict[int, str], seats: int, dealer: int, stock: str = "") -> list[Card]:
    """Deck order dealing `hands` (by position after the dealer) one card at a time."""
    per = {(dealer + k) % seats: parse_cards(text) for k, text in hands.items()}
    order = [(dealer + 1 + i) % seats for i in range(seats)]
    cards = [per[s][r] for r in range(5) for s in order]
    top = parse_cards(stock)
    used = set(cards) | set(top)
    assert len(used) == len(cards) + len(top), "a card is used twice"
    return cards + top + [c for c in FULL_DECK if c not in used]


class Table:
    """A match whose deals come from stacked decks (then shuffled ones)."""

    def __init__(
        self,
        stacked_deals: Sequence[dict[int, str]],
        stocks: Sequence[str] = (),
        seats: int = 4,
        seed: int = 7,
        **settings: int,
    ) -> None:
        first_dealer = random.Random(seed).randrange(seats)
        self.decks = [
            stacked(hands, seats, (first_dealer + k) % seats, stocks[k] if k < len(stocks) else "")
            for k, hands in enumerate(stacked_deals)
        ]
        source = DealSource(bytes(32))
        for deal, cards in enumerate(self.decks, start=1):
            source = source.stacked(deal, cards)
        self.state = DrawState(DrawConfig(seats=seats, **settings), random.Random(seed), source)
        self.events: list[Event] = list(self.state.opening_events)
        self.dealer = self.state.dealer

    def sync(self) -> None:
        """Count positions from the dealer of the deal being played now."""
        self.dealer = self.state.dealer

    def seat(self, k: int) -> int:
        """The seat `k` places after the dealer of the deal last acted in (see `sync`)."""
        return (self.dealer + k) % self.state.seats

    def act(self, k: int, text: str) -> list[Event]:
        """Seat at position `k` of the current deal plays `text` (it must be its turn)."""
        self.sync()
        seat = self.seat(k)
        assert self.state.to_act == seat, f"seat {self.state.to_act} is to act, not {seat}"
        events = self.state.apply(seat, parse_action(text))
        self.events += events
        return events

    def refuse(self, k: int, text: str, code: str) -> IllegalAction:
        """Seat at position `k` tries `text`; it is refused with `code` and nothing changes."""
        self.sync()
        return assert_refused(self.state, self.seat(k), parse_action(text), code)


def of(events: Sequence[Event], kind: type[Event]) -> list[Event]:
    return [e for e in events if isinstance(e, kind)]


def new_deal(t: Table, stacks: Sequence[int]) -> list[Event]:
    """Test seam: set the stacks (counted as bought) and go to a new blind deal, dealt by
    the seat after the current dealer."""
    state = t.state
    for s, chips in enumerate(stacks):
        state.bought[s] += chips - state.stacks[s]
        state.stacks[s] = chips
    state.carried, state.carried_by = 0, [0] * state.seats
    state.deal_kind, state.unopened = "blind", 0
    events = state._between_deals(first=False)
    t.sync()
    return events


def after_next_dealer(t: Table, k: int) -> int:
    """The seat `k` places after the next deal's dealer (every seat has chips)."""
    return (t.state.dealer + 1 + k) % t.state.seats


def four(*deals: dict[int, str], **kw: int) -> Table:
    """Four seats (blind 2, pot unit 2, cave 200) with these deals stacked."""
    stocks = kw.pop("stocks", ())  # type: ignore[call-overload]
    return Table(list(deals), stocks=stocks, **kw)


BLIND_DEAL = {1: JUNK[0], 2: JUNK[1], 3: JUNK[2], 4: JUNK[3]}


# ----------------------------------------------------------------------- config


def test_config_defaults_follow_the_issue() -> None:
    config = DrawConfig()
    assert (config.seats, config.cave_unit, config.blind_unit, config.pot_unit) == (4, 200, 2, 2)


@pytest.mark.parametrize("seats", [1, 7])
def test_config_refuses_a_table_outside_two_to_six(seats: int) -> None:
    with pytest.raises(ValidationError, match="seats"):
        DrawConfig(seats=seats)


def test_config_refuses_a_cave_smaller_than_four_blinds() -> None:
    with pytest.raises(ValidationError, match="cave_unit"):
        DrawConfig(cave_unit=7, blind_unit=2)


# ------------------------------------------------------------------- blind deal


def test_every_player_starts_with_one_cave_unit_recorded_as_a_buy_in() -> None:
    t = four(BLIND_DEAL, cave_unit=300)
    bought = of(t.events, ChipsBought)
    assert [(e.seat, e.amount, e.reason) for e in bought] == [(s, 300, "buy-in") for s in range(4)]  # type: ignore[attr-defined]


def test_the_blind_is_posted_automatically_by_the_player_after_the_dealer() -> None:
    t = four(BLIND_DEAL)
    posted = of(t.events, Posted)
    assert [(e.seat, e.what, e.amount) for e in posted] == [(t.seat(1), "blind", 2)]  # type: ignore[attr-defined]
    assert t.state.stacks[t.seat(1)] == 198
    assert t.state.view(None).deal_kind == "blind"


def test_the_surblind_is_offered_to_the_next_player_before_anyone_sees_their_cards() -> None:
    t = four(BLIND_DEAL)
    assert t.state.to_act == t.seat(2)
    assert t.state.phase == "surblind"
    assert t.state.view(t.seat(2)).hand == ()
    assert not of(t.events, CardsDealt)
    t.refuse(2, "raise 8", "surblind_first")
    events = t.act(2, "surblind")
    assert t.state.stacks[t.seat(2)] == 196
    dealt = of(events, CardsDealt)
    assert {e.to for e in dealt} == set(range(4))
    assert t.state.view(t.seat(2)).hand == tuple(sort_hand(parse_cards(JUNK[1])))


def test_the_surblind_is_not_offered_to_a_player_short_of_twice_the_blind() -> None:
    t = four(BLIND_DEAL, BLIND_DEAL)
    t.act(2, "no")
    for k in (2, 3, 4):
        t.act(k, "fold")
    # The blind took its stake back; in the next deal the surblind seat holds 3 chips.
    stacks = [200] * 4
    stacks[after_next_dealer(t, 2)] = 3
    new_deal(t, stacks)
    assert t.state.phase == "bet1" and t.state.surblind_seat is None
    assert t.state.to_act == t.seat(2)  # the short player speaks first, after the blind


def test_coming_in_costs_twice_the_blind_and_just_matching_it_is_refused() -> None:
    t = four(BLIND_DEAL)
    t.act(2, "no")
    assert t.state.to_act == t.seat(2)  # the player after the blind speaks first
    t.refuse(2, "call", "no_limp")
    t.refuse(2, "raise 3", "raise_below_min")
    events = t.act(2, "raise 4")
    assert events[0].stake == 4  # type: ignore[attr-defined]
    assert t.state.view(None).entry == 0  # coming in opened the calling


def test_coming_in_over_a_surblind_costs_twice_the_surblind() -> None:
    t = four(BLIND_DEAL)
    t.act(2, "surblind")
    assert t.state.to_act == t.seat(3)  # the player after the surblind speaks first
    assert t.state.view(t.seat(3)).entry == 8
    t.refuse(3, "raise 7", "raise_below_min")
    t.refuse(3, "call", "no_limp")
    t.act(3, "raise 8")
    t.act(4, "call")
    assert t.state.view(None).stakes[t.seat(4)] == 8


def test_a_raise_adds_at_least_the_previous_increase() -> None:
    t = four(BLIND_DEAL)
    t.act(2, "no")
    t.act(2, "raise 10")  # an increase of 8 over the blind
    t.refuse(3, "raise 17", "raise_below_min")
    t.act(3, "raise 18")
    assert t.state.view(None).highest == 18


def test_the_blind_completes_to_the_highest_stake() -> None:
    t = four(BLIND_DEAL)
    t.act(2, "no")
    t.act(2, "raise 4")
    t.act(3, "fold")
    t.act(4, "fold")
    assert t.state.to_act == t.seat(1)
    t.refuse(1, "check", "check_when_owed")
    t.act(1, "call")
    assert t.state.phase == "draw"
    assert t.state.put_in[t.seat(1)] == 4 and t.state.put_in[t.seat(2)] == 4


def test_the_blind_and_surblind_may_raise_when_the_turn_comes_back() -> None:
    t = four(BLIND_DEAL)
    t.act(2, "surblind")
    t.act(3, "raise 8")
    t.act(4, "fold")
    t.act(1, "raise 14")
    t.act(2, "raise 20")
    t.act(3, "call")
    t.act(1, "call")
    assert t.state.phase == "draw"
    assert [t.state.put_in[t.seat(k)] for k in (1, 2, 3, 4)] == [20, 20, 20, 0]


def test_nobody_coming_in_gives_the_blind_its_stake_back_and_ends_the_deal() -> None:
    t = four(BLIND_DEAL)
    blind = t.seat(1)
    t.act(2, "no")
    t.act(2, "fold")
    t.act(3, "fold")
    events = t.act(4, "fold")
    assert [(e.seat, e.amount) for e in of(events, UncalledReturned)] == [(blind, 2)]  # type: ignore[attr-defined]
    settled = of(events, DealSettled)
    assert settled[0].chips == (0, 0, 0, 0)  # type: ignore[attr-defined]
    assert not of(events, Drew) and not of(events, Shown)
    assert t.state.stacks[blind] == 200
    assert t.state.deal_kind == "blind" and t.state.deal_no == 2


def test_with_a_surblind_and_nobody_in_the_blind_may_fold_to_the_surblind() -> None:
    t = four(BLIND_DEAL)
    blind, surblind = t.seat(1), t.seat(2)
    t.act(2, "surblind")
    t.act(3, "fold")
    t.act(4, "fold")
    assert t.state.to_act == blind
    t.refuse(1, "call", "no_limp")
    events = t.act(1, "fold")
    chips = of(events, DealSettled)[0].chips  # type: ignore[attr-defined]
    assert chips[surblind] == 2 and chips[blind] == -2


def test_the_draw_starts_after_the_dealer_and_replaces_the_cards_named() -> None:
    t = four(BLIND_DEAL, stocks=["AH AC KH"])
    t.act(2, "no")
    t.act(2, "raise 4")
    t.act(3, "fold")
    t.act(4, "call")
    t.act(1, "call")
    assert t.state.phase == "draw" and t.state.to_act == t.seat(1)
    hand = t.state.view(t.seat(1)).hand
    events = t.act(1, "draw 1 3")
    private = of(events, NewCards)[0]
    assert private.to == t.seat(1)
    assert private.discarded == (hand[0], hand[2])  # type: ignore[attr-defined]
    assert private.received == tuple(parse_cards("AH AC"))  # type: ignore[attr-defined]
    public = of(events, Drew)[0]
    assert public.to is None and public.count == 2  # type: ignore[attr-defined]
    assert t.state.view(None).drawn[t.seat(1)] == 2
    t.act(2, "stand")
    t.act(4, "draw 1 2 3 4 5")
    assert t.state.phase == "bet2"


def _to_final_betting(t: Table) -> None:
    t.act(2, "no")
    t.act(2, "raise 4")
    t.act(3, "fold")
    t.act(4, "call")
    t.act(1, "call")
    t.act(1, "stand")
    t.act(2, "stand")
    t.act(4, "stand")


def test_final_betting_starts_after_the_blind_and_everyone_may_check_until_a_bet() -> None:
    t = four(BLIND_DEAL)
    _to_final_betting(t)
    assert t.state.phase == "bet2" and t.state.to_act == t.seat(2)
    t.refuse(2, "fold", "fold_when_check_free")
    t.refuse(2, "bet 1", "bet_below_min")  # the minimum bet is one blind unit
    t.act(2, "check")
    t.act(4, "bet 6")
    t.refuse(1, "check", "check_when_owed")
    t.act(1, "fold")
    t.act(2, "raise 12")
    assert t.state.to_act == t.seat(4)


def test_showdown_the_best_hand_takes_everything() -> None:
    deal = {1: "KH KD 4C 7S 9D", 2: JUNK[1], 3: JUNK[2], 4: "AH AC 5S 8C TH"}
    t = four(deal)
    _to_final_betting(t)
    t.act(2, "check")
    t.act(4, "bet 6")
    t.act(1, "call")
    events = t.act(2, "call")
    shown = {e.seat: e.hand_name for e in of(events, Shown)}  # type: ignore[attr-defined]
    assert set(shown) == {t.seat(1), t.seat(2), t.seat(4)}
    assert shown[t.seat(4)] == "pair of aces"
    won = of(events, PotWon)
    assert [(e.seat, e.amount) for e in won] == [(t.seat(4), 30)]  # type: ignore[attr-defined]
    chips = of(events, DealSettled)[0].chips  # type: ignore[attr-defined]
    assert chips[t.seat(4)] == 20 and chips[t.seat(1)] == -10 and sum(chips) == 0


def test_a_player_left_alone_takes_the_stakes_without_showing() -> None:
    t = four(BLIND_DEAL)
    _to_final_betting(t)
    t.act(2, "bet 10")
    t.act(4, "fold")
    events = t.act(1, "fold")
    assert not of(events, Shown)
    assert [(e.seat, e.amount, e.shown) for e in of(events, PotWon)] == [(t.seat(2), 12, False)]  # type: ignore[attr-defined]
    assert [(e.seat, e.amount) for e in of(events, UncalledReturned)] == [(t.seat(2), 10)]  # type: ignore[attr-defined]


def test_side_pots_with_a_short_all_in() -> None:
    # Seat 1 (the blind) has 10 chips only; it holds aces and wins the main pot,
    # the side pot between kings and queens goes to the kings.
    deal = {1: "AH AC 5S 8C TH", 2: "KH KD 4C 7S 9D", 3: "QH QD 3D 6D 8H", 4: JUNK[0]}
    t = four(BLIND_DEAL, BLIND_DEAL, deal)
    t.act(2, "no")
    for k in (2, 3, 4):
        t.act(k, "fold")
    stacks = [200] * 4
    stacks[after_next_dealer(t, 1)] = 10  # the next deal's blind
    new_deal(t, stacks)
    t.act(2, "no")
    t.act(2, "raise 40")
    t.act(3, "call")
    t.act(4, "fold")
    t.act(1, "call")  # all-in for 10
    for k in (1, 2, 3):
        t.act(k, "stand")
    t.act(2, "check")
    events = t.act(3, "check")
    won = {(e.seat, e.amount, e.pot) for e in of(events, PotWon)}  # type: ignore[attr-defined]
    assert won == {(t.seat(1), 30, 0), (t.seat(2), 60, 1)}
    chips = of(events, DealSettled)[0].chips  # type: ignore[attr-defined]
    assert chips[t.seat(1)] == 20 and chips[t.seat(2)] == 20 and chips[t.seat(3)] == -40


def test_check_around_after_the_draw_carries_every_chip_to_a_jackpot_deal() -> None:
    t = four(BLIND_DEAL)
    _to_final_betting(t)
    t.act(2, "check")
    t.act(4, "check")
    events = t.act(1, "check")
    carried = of(events, Carried)[0]
    assert (carried.amount, carried.reason, carried.requirement) == (12, "check_around", "jacks")  # type: ignore[attr-defined]
    assert not of(events, Shown) and not of(events, PotWon)
    settled = of(events, DealSettled)[0]
    assert settled.chips == tuple(  # type: ignore[attr-defined]
        -4 if s != t.seat(3) else 0 for s in range(4)
    )
    kind = of(events, DealKind)[-1]
    assert (kind.deal_kind, kind.requirement, kind.carried) == ("jackpot", "jacks", 12)  # type: ignore[attr-defined]
    antes = [e for e in of(events, Posted) if e.what == "ante"]  # type: ignore[attr-defined]
    assert len(antes) == 4 and all(e.amount == 2 for e in antes)  # type: ignore[attr-defined]
    view = t.state.view(None)
    assert view.pot == 12 + 8 and view.carried == 12
    assert sum(t.state.stacks) + view.pot == sum(t.state.bought)


def test_no_check_around_when_a_player_is_all_in() -> None:
    t = four(BLIND_DEAL, BLIND_DEAL, BLIND_DEAL)
    t.act(2, "no")
    for k in (2, 3, 4):
        t.act(k, "fold")
    stacks = [200] * 4
    stacks[after_next_dealer(t, 2)] = 4  # next deal's first speaker can only just come in
    new_deal(t, stacks)
    t.act(2, "no")
    t.act(2, "raise 4")  # all-in
    t.act(3, "fold")
    t.act(4, "fold")
    t.act(1, "call")
    t.act(1, "stand")
    t.act(2, "stand")
    events = t.act(1, "check") if t.state.phase == "bet2" else t.events
    assert not of(events, Carried)
    assert of(events, Shown)


# ----------------------------------------------------------------- jackpot deal


def _check_around_to_jackpot(t: Table) -> None:
    _to_final_betting(t)
    t.act(2, "check")
    t.act(4, "check")
    t.act(1, "check")
    t.sync()


def test_in_a_jackpot_the_player_after_the_dealer_speaks_first_and_may_check() -> None:
    t = four(BLIND_DEAL, BLIND_DEAL)
    _check_around_to_jackpot(t)
    assert t.state.deal_kind == "jackpot" and t.state.to_act == t.seat(1)
    assert t.state.view(None).blind_seat is None
    t.refuse(1, "fold", "fold_when_check_free")
    t.act(1, "check")
    assert t.state.to_act == t.seat(2)


def test_opening_without_the_required_pair_is_refused() -> None:
    jackpot = {1: "TH TD 4C 7S 9D", 2: "JH JC 2S 5D 8C", 3: JUNK[2], 4: JUNK[3]}
    t = four(BLIND_DEAL, jackpot)
    _check_around_to_jackpot(t)
    error = t.refuse(1, "open 4", "open_requirement")
    assert str(error) == "open 4: you need a pair of jacks or better to open this pot"
    assert Open(2) not in t.state.legal_actions(t.seat(1))
    t.refuse(1, "bet 4", "use_open")
    t.act(1, "check")
    assert t.state.view(t.seat(2)).can_open
    t.act(2, "open 4")
    assert t.state.opener == t.seat(2)


def test_a_jackpot_nobody_opens_is_a_jackpot_again_with_the_requirement_moving_on() -> None:
    junk_deal = {1: JUNK[0], 2: JUNK[1], 3: JUNK[2], 4: JUNK[3]}
    t = four(BLIND_DEAL, *([junk_deal] * 7))
    _check_around_to_jackpot(t)
    seen = []
    dealers = []
    for _ in range(7):
        kind = of(t.events, DealKind)[-1]
        seen.append(kind.requirement)  # type: ignore[attr-defined]
        dealers.append(t.state.dealer)
        carried_before = t.state.carried
        for k in (1, 2, 3, 4):
            t.act(k, "check")
        carried = of(t.events, Carried)[-1]
        assert carried.reason == "unopened"  # type: ignore[attr-defined]
        assert carried.amount == carried_before + 8  # type: ignore[attr-defined]
    assert seen == ["jacks", "queens", "kings", "aces", "queens", "kings", "aces"]
    assert [requirement(n).name for n in range(8)] == [
        "JACK", "QUEEN", "KING", "ACE", "QUEEN", "KING", "ACE", "QUEEN"
    ]  # fmt: skip
    # The deal passes on every deal, unopened jackpots included.
    assert all((b - a) % 4 == 1 for a, b in itertools.pairwise(dealers))


def test_a_hand_stronger_than_the_pair_named_may_open() -> None:
    kings = requirement(2)
    assert opening_proof(parse_cards("5S 5D 3C 3H 9S"), kings) is not None  # two pair
    assert opening_proof(parse_cards("4S 4D 4C JH 9S"), kings) is not None  # trips
    assert opening_proof(parse_cards("2S 3D 4C 5H 6S"), kings) is not None  # straight
    assert opening_proof(parse_cards("QS QD 3C 7H 9S"), kings) is None
    assert opening_proof(parse_cards("KS KD 3C 7H 9S"), kings) == tuple(parse_cards("KS KD"))


def test_nobody_calling_the_opener_gives_the_opener_the_pot() -> None:
    jackpot = {1: "JH JC 2S 5D 8C", 2: JUNK[1], 3: JUNK[2], 4: JUNK[3]}
    t = four(BLIND_DEAL, jackpot)
    _check_around_to_jackpot(t)
    opener = t.seat(1)
    t.act(1, "open 6")
    t.act(2, "fold")
    t.act(3, "fold")
    events = t.act(4, "fold")
    assert [(e.seat, e.amount, e.shown) for e in of(events, PotWon)] == [(opener, 20, False)]  # type: ignore[attr-defined]
    proof = of(events, OpenerProof)[0]
    assert proof.proof == tuple(parse_cards("JH JC"))  # type: ignore[attr-defined]
    # After a jackpot is won the next deal is a blind deal.
    assert of(events, DealKind)[-1].deal_kind == "blind"  # type: ignore[attr-defined]
    assert t.state.carried == 0 and t.state.deal_kind == "blind"


def _opened_jackpot_to_showdown(t: Table, opener_draw: str) -> list[Event]:
    _check_around_to_jackpot(t)
    t.act(1, "open 4")
    t.act(2, "call")
    t.act(3, "fold")
    t.act(4, "fold")
    t.act(1, opener_draw)
    t.act(2, "stand")
    t.act(1, "check")
    return t.act(2, "bet 2") + t.act(1, "call")


def test_the_openers_proof_is_shown_when_the_opener_loses() -> None:
    jackpot = {1: "QH QC 2S 5D 8C", 2: "7S 7D 7C 3D 4H", 3: JUNK[2], 4: JUNK[4]}
    t = four(BLIND_DEAL, jackpot)
    events = _opened_jackpot_to_showdown(t, "draw 3 4 5")
    won = of(events, PotWon)
    assert [e.seat for e in won] == [t.seat(2)]  # type: ignore[attr-defined]
    proof = of(events, OpenerProof)[0]
    assert proof.seat == t.seat(1) and proof.proof == tuple(parse_cards("QH QC"))  # type: ignore[attr-defined]
    assert proof.set_aside == () and proof.requirement == "jacks"  # type: ignore[attr-defined]


def test_a_split_opener_sets_the_card_aside_and_shows_it() -> None:
    # Jacks opened with four hearts: the opener throws a jack to draw at the flush.
    jackpot = {1: "JH JC 2H 5H 8H", 2: "7S 7D 7C 3D 4H", 3: JUNK[2], 4: JUNK[0]}
    t = four(BLIND_DEAL, jackpot, stocks=["", "AH"])
    _check_around_to_jackpot(t)
    position = t.state.view(t.seat(1)).hand.index(parse_cards("JC")[0]) + 1
    t.act(1, "open 4")
    t.act(2, "call")
    t.act(3, "fold")
    t.act(4, "fold")
    # The proof is the opener's to see (the discard menu warns them with it), nobody else's.
    assert t.state.view(t.seat(1)).proof == tuple(parse_cards("JH JC"))
    assert t.state.view(t.seat(2)).proof == () and t.state.view(None).proof == ()
    assert split_openers(parse_cards("JH JC"), parse_cards("2H JC")) == parse_cards("JC")
    events = t.act(1, f"draw {position}")
    assert of(events, Drew)[0].split  # type: ignore[attr-defined]
    assert t.state.view(t.seat(1)).set_aside == tuple(parse_cards("JC"))
    assert t.state.view(t.seat(2)).set_aside == ()
    t.act(2, "stand")
    t.act(1, "bet 10")
    events = t.act(2, "call")
    proof = of(events, OpenerProof)[0]
    assert proof.set_aside == tuple(parse_cards("JC"))  # type: ignore[attr-defined]
    assert proof.proof == tuple(parse_cards("JH JC"))  # type: ignore[attr-defined]
    assert [e.seat for e in of(events, PotWon)] == [t.seat(1)]  # type: ignore[attr-defined]  # flush


def test_the_proof_is_shown_even_when_the_opener_folds() -> None:
    jackpot = {1: "QH QC 2S 5D 8C", 2: "7S 7D 7C 3D 4H", 3: JUNK[2], 4: JUNK[4]}
    t = four(BLIND_DEAL, jackpot)
    _check_around_to_jackpot(t)
    t.act(1, "open 4")
    t.act(2, "raise 20")
    t.act(3, "fold")
    t.act(4, "fold")
    events = t.act(1, "fold")
    assert of(events, OpenerProof)[0].seat == t.seat(1)  # type: ignore[attr-defined]


def test_a_check_around_after_an_opened_jackpot_starts_again_at_jacks() -> None:
    junk = {1: JUNK[0], 2: JUNK[1], 3: JUNK[2], 4: JUNK[3]}
    opened = {1: "QH QC 2S 5D 8C", 2: JUNK[1], 3: JUNK[2], 4: JUNK[3]}
    t = four(BLIND_DEAL, junk, opened)
    _check_around_to_jackpot(t)
    for k in (1, 2, 3, 4):
        t.act(k, "check")
    assert t.state.requirement == "queens"
    t.act(1, "open 2")
    t.act(2, "call")
    t.act(3, "fold")
    t.act(4, "fold")
    t.act(1, "stand")
    t.act(2, "stand")
    t.act(1, "check")
    events = t.act(2, "check")
    assert of(events, OpenerProof)
    assert of(events, Carried)[0].requirement == "jacks"  # type: ignore[attr-defined]
    assert t.state.requirement == "jacks"


# ------------------------------------------------------------- cave and rebuys


def _bust(t: Table, seat: int) -> list[Event]:
    stacks = list(t.state.stacks)
    stacks[seat] = 0
    return new_deal(t, stacks)


def test_rebuy_is_refused_during_a_deal() -> None:
    t = four(BLIND_DEAL)
    t.act(2, "no")
    error = t.refuse(2, "rebuy 1", "rebuy_during_deal")
    assert "between deals" in str(error)
    t.refuse(3, "rebuy 1", "rebuy_during_deal")


def test_a_broke_player_buys_back_in_between_deals() -> None:
    t = four(BLIND_DEAL)
    broke = (t.state.dealer + 2) % 4
    _bust(t, broke)
    assert t.state.phase == "rebuy" and t.state.to_act == broke
    t.refuse((broke - t.state.dealer) % 4, "rebuy 0", "rebuy_units")
    t.refuse((broke - t.state.dealer) % 4, "check", "rebuy_or_sitout")
    bought = t.state.bought[broke]
    events = t.state.apply(broke, parse_action("rebuy 2"))
    assert [(e.seat, e.amount, e.reason) for e in of(events, ChipsBought)] == [
        (broke, 400, "rebuy")
    ]  # type: ignore[attr-defined]
    assert t.state.bought[broke] == bought + 400
    assert of(events, DealStarted)
    assert t.state.in_deal[broke]


def test_only_a_broke_player_buys_back_in_and_says_so() -> None:
    t = four(BLIND_DEAL)
    broke = (t.state.dealer + 2) % 4
    _bust(t, broke)
    rich = (broke + 1) % 4
    for text in ("rebuy 1", "sitout"):
        error = assert_refused(t.state, rich, parse_action(text), "rebuy_has_chips")
        assert error.params["chips"] == t.state.stacks[rich] > 0
        assert "still have" in str(error)
    # A broke player waiting behind another is told it is not their turn yet.
    assert t.state.to_act == broke


def test_a_broke_player_who_sits_out_is_not_dealt_in() -> None:
    t = four(BLIND_DEAL)
    broke = (t.state.dealer + 2) % 4
    _bust(t, broke)
    events = t.state.apply(broke, parse_action("sitout"))
    assert not t.state.in_deal[broke]
    assert broke not in {e.to for e in of(events, CardsDealt)}
    assert t.state.dealer != broke


def test_the_match_ends_when_fewer_than_two_players_have_chips() -> None:
    t = four(BLIND_DEAL, seats=2)
    a = t.state.to_act
    other = 1 - (a or 0)
    _bust(t, other)
    events = t.state.apply(other, parse_action("sitout"))
    ended = of(events, MatchEnded)
    assert ended and t.state.finished and t.state.to_act is None
    assert ended[0].winners == (1 - other,)  # type: ignore[attr-defined]


def test_a_match_of_n_deals_ends_after_the_nth() -> None:
    t = four(BLIND_DEAL, deals=1)
    t.act(2, "no")
    t.act(2, "fold")
    t.act(3, "fold")
    events = t.act(4, "fold")
    assert of(events, MatchEnded) and t.state.finished


# ----------------------------------------------------------------- the stock


def test_the_stock_running_out_in_a_six_player_draw_reshuffles_earlier_discards() -> None:
    hands = {k + 1: JUNK[k] for k in range(6)}
    t = Table([hands], seats=6)
    t.act(2, "no")
    t.act(2, "raise 4")
    for k in (3, 4, 5, 6, 1):
        t.act(k, "call")
    assert t.state.phase == "draw"
    thrown: dict[int, set[Card]] = {}
    renewed: list[Event] = []
    for k in (1, 2, 3, 4, 5, 6):
        seat = t.seat(k)
        before = set(t.state.hands[seat])
        stock_before = set(t.state.stock)
        events = t.act(k, "draw 1 2 3 4 5")
        thrown[k] = before
        got = set(of(events, NewCards)[0].received)  # type: ignore[attr-defined]
        assert not got & before, "a player never gets back their own discards"
        if of(events, StockRenewed):
            renewed.append(of(events, StockRenewed)[0])
            earlier = set().union(*(thrown[j] for j in range(1, k)))
            assert got <= earlier | stock_before
        cards = [c for h in t.state.hands for c in h] + t.state.stock + t.state.discards
        if t.state.phase == "draw":
            assert len(cards) == 52 and len(set(cards)) == 52
    assert len(renewed) == 1 and renewed[0].cards == 20  # type: ignore[attr-defined]


# --------------------------------------------------------------- views, texts


def test_views_show_each_seat_only_its_own_cards() -> None:
    t = four(BLIND_DEAL)
    t.act(2, "no")
    assert t.state.view(None).hand == ()
    for k in (1, 2, 3, 4):
        assert t.state.view(t.seat(k)).hand == tuple(sort_hand(parse_cards(BLIND_DEAL[k])))
    for event in t.events:
        if isinstance(event, (CardsDealt, NewCards)):
            assert event.to == event.seat


@pytest.mark.parametrize(
    "text",
    ["surblind", "no", "open 4", "check", "call", "raise 12", "bet 6", "allin", "fold",
     "draw 1 3 4", "stand", "rebuy 1", "sitout"],
)  # fmt: skip
def test_every_action_text_is_canonical(text: str) -> None:
    action = parse_action(text)
    assert str(action) == text
    assert SPEC.parse_action(str(action)) == action


def test_draw_positions_are_sorted_and_validated() -> None:
    assert parse_action("draw 4 1") == Draw((1, 4))
    assert parse_action("draw") == STAND
    for bad in ("draw 1 1", "draw 6", "open", "rebuy x", "jump"):
        with pytest.raises(IllegalAction):
            parse_action(bad)


def test_timeout_plays_no_surblind_check_or_fold_and_stand() -> None:
    t = four(BLIND_DEAL)
    assert str(timeout_action(t.state.view(t.seat(2)))) == "no"
    t.act(2, "no")
    assert str(timeout_action(t.state.view(t.seat(2)))) == "fold"
    t.act(2, "raise 4")
    t.act(3, "fold")
    t.act(4, "call")
    t.act(1, "call")
    assert timeout_action(t.state.view(t.seat(1))) == STAND
    for k in (1, 2, 4):
        t.act(k, "stand")
    assert str(timeout_action(t.state.view(t.seat(2)))) == "check"


def test_a_pot_still_carried_when_the_match_ends_goes_back_to_who_put_it_in() -> None:
    t = four(BLIND_DEAL, deals=1)
    _to_final_betting(t)
    t.act(2, "check")
    t.act(4, "check")
    events = t.act(1, "check")
    returned = of(events, PotReturned)
    assert returned and returned[0].amounts == tuple(  # type: ignore[attr-defined]
        0 if s == t.seat(3) else 4 for s in range(4)
    )
    assert of(events, DealSettled)[-1].chips == returned[0].amounts  # type: ignore[attr-defined]
    assert of(events, MatchEnded)[0].totals == (0, 0, 0, 0)  # type: ignore[attr-defined]
    assert t.state.stacks == [200] * 4


def test_a_blind_the_player_cannot_cover_is_posted_all_in() -> None:
    t = four(BLIND_DEAL, BLIND_DEAL, BLIND_DEAL)
    stacks = [200] * 4
    short = after_next_dealer(t, 1)
    stacks[short] = 1
    events = new_deal(t, stacks)
    posted = of(events, Posted)[0]
    assert (posted.seat, posted.amount, posted.all_in) == (short, 1, True)  # type: ignore[attr-defined]
    t.act(2, "no")
    # Coming in still costs twice the blind, not twice what the short blind could post.
    t.refuse(2, "raise 3", "raise_below_min")
    t.act(2, "raise 4")


# ------------------------------------------------- betting rulings (docs/draw.md)
# The three rulings of docs/draw.md, "Betting rulings", on the tables of issue 13: blind 2,
# the first dealer seat 0, actions given in turn order; no deal reaches a showdown, so the
# cards do not matter.


def _dealer_zero_seed(seats: int) -> int:
    return next(s for s in range(1000) if random.Random(s).randrange(seats) == 0)


def scripted(seats: int, cave: int, script: str) -> DrawState:
    """A match (blind 2, first dealer seat 0) after `script`: actions split by " / ", each
    played by the seat whose turn it is."""
    state = DrawState(
        DrawConfig(seats=seats, cave_unit=cave, blind_unit=2),
        random.Random(_dealer_zero_seed(seats)),
    )
    assert state.dealer == 0
    for text in script.split(" / "):
        seat = state.to_act
        assert seat is not None
        state.apply(seat, parse_action(text))
    return state


def refuse_at(state: DrawState, seat: int, text: str, code: str) -> None:
    """`text` by `seat` is refused with `code` and nothing changes."""
    assert_refused(state, seat, parse_action(text), code)


def test_facing_an_all_in_blind_nobody_can_answer_a_player_may_call_it() -> None:
    state = scripted(2, 8, "no / raise 6 / call / stand / stand / check / bet 2 / fold / no")
    # Deal 2: seat 0 posted its last 2 chips as the blind; seat 1 (14 chips) speaks.
    assert (state.deal_no, state.stacks, state.to_act) == (2, [0, 14], 1)
    legal = state.legal_actions(1)
    assert Call() in legal and Fold() in legal
    state.apply(1, Call())  # coming in: the blind could not answer a raise anyway
    assert state.phase == "draw" and state.put_in == [2, 2]


def test_facing_an_all_in_surblind_the_blind_may_come_in() -> None:
    state = scripted(2, 8, "no / raise 4 / call / stand / stand / bet 2 / fold / surblind")
    # Deal 2: seat 0 posted the blind, seat 1 its last 4 chips as the surblind.
    assert (state.deal_no, state.stacks, state.to_act) == (2, [10, 0], 0)
    assert Call() in state.legal_actions(0)
    state.apply(0, Call())
    assert state.phase == "draw" and state.put_in == [4, 4]


def test_a_surblind_facing_a_short_all_in_and_an_all_in_blind_may_call() -> None:
    script = "no / raise 6 / call / fold / stand / stand / check / bet 2 / fold / surblind / allin"
    state = scripted(3, 8, script)
    # Deal 2: blind seat 2 all-in for 2, surblind seat 0, seat 1 all-in for 6 (entry 8).
    assert (state.deal_no, state.stacks, state.to_act) == (2, [12, 0, 0], 0)
    assert state.view(0).entry == 8
    assert Call() in state.legal_actions(0)
    refuse_at(state, 0, "raise 8", "raise_nobody_can_call")
    state.apply(0, Call())
    assert state.phase == "draw" and state.put_in == [6, 6, 2]


def test_after_a_short_all_in_below_the_entry_price_coming_in_still_costs_the_entry() -> None:
    script = "no / raise 4 / raise 17 / fold / call / stand / stand / bet 3 / fold / allin"
    state = scripted(3, 20, script)
    # Deal 2: blind seat 2 (2), seat 0 all-in for 3, below the entry price of 4.
    assert (state.deal_no, state.to_act) == (2, 1)
    assert state.view(0).stakes == (3, 0, 2)
    view = state.view(1)
    assert view.entry == 4 and view.min_raise_to == 4
    refuse_at(state, 1, "call", "no_limp")
    refuse_at(state, 1, "raise 3", "raise_not_above")
    state.apply(1, Raise(4))
    assert state.view(None).entry == 0  # seat 1 came in: calling is open
    assert Call() in state.legal_actions(2)


def test_after_a_blind_posted_short_the_next_raise_counts_it_as_a_full_blind() -> None:
    script = "no / raise 19 / call / fold / stand / stand / check / bet 1 / fold / no / raise 4"
    state = scripted(3, 20, script)
    # Deal 2: blind seat 2 posted all-in for 1; seat 0 came in at 4, an increase of 2 over
    # one blind unit, so the next raise goes to at least 6.
    assert (state.deal_no, state.to_act) == (2, 1)
    assert state.view(None).stakes == (4, 0, 1)
    assert state.view(1).min_raise_to == 6
    refuse_at(state, 1, "raise 5", "raise_below_min")
    state.apply(1, Raise(6))
    assert state.view(None).highest == 6
