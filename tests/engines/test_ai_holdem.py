"""Hold'em AI players: legal choices from the view only, and each baseline's defining behaviour."""

from __future__ import annotations

import random

import pytest

from engines.ai.holdem import (
    CallingPolicy,
    StrongPolicy,
    TightPolicy,
    hand_percentile,
    made_strength,
)
from engines.ai.holdem_policies import POLICIES
from engines.base import DealSettled
from engines.cards import FULL_DECK, Card, parse_cards
from engines.holdem import SPEC, HoldemConfig, HoldemState, HoldemView
from engines.poker.actions import AllIn, Call, Check, Fold, Raise


def deck_with(holes: dict[int, str], n: int, button: int = 0) -> list[Card]:
    wanted = {s: parse_cards(h) for s, h in holes.items()}
    used = {c for cs in wanted.values() for c in cs}
    spare = [c for c in FULL_DECK if c not in used]
    order = [(button + i) % n for i in range(1, n + 1)]
    for seat in order:
        wanted.setdefault(seat, [spare.pop(), spare.pop()])
    return [wanted[s][0] for s in order] + [wanted[s][1] for s in order] + spare


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_every_policy_only_chooses_legal_actions(name: str) -> None:
    hands = 25 if name in ("strong", "hard", "frozen") else 150  # Monte Carlo players are slow
    state = HoldemState(HoldemConfig(seats=4, reset_stacks=True), random.Random(11))
    mixed = [name, "random", name, "calling"]
    agents = [SPEC.make_policy(p, random.Random(i)) for i, p in enumerate(mixed)]
    played = 0
    while played < hands:
        seat = state.to_act
        assert seat is not None
        action = agents[seat].decide(state.view(seat))
        state.check(seat, action)  # raises if illegal
        played += sum(isinstance(e, DealSettled) for e in state.apply(seat, action))


def test_policies_are_built_with_their_own_rng() -> None:
    for name in POLICIES:
        policy = SPEC.make_policy(name, random.Random(1))
        assert policy.name == name


def test_calling_checks_when_free_and_calls_otherwise() -> None:
    state = HoldemState(HoldemConfig(seats=3), random.Random(2))
    policy = CallingPolicy(random.Random(0))
    assert policy.decide(state.view(0)) == Call()
    state.apply(0, Raise(200))
    assert policy.decide(state.view(1)) == Call()
    state.apply(1, Call())
    state.apply(2, Call())
    assert policy.decide(state.view(1)) == Check()


def test_tight_plays_strong_starting_hands_and_folds_the_rest() -> None:
    strong = HoldemState(
        HoldemConfig(seats=4), random.Random(0), first_deck=deck_with({3: "AH AD"}, 4)
    )
    weak = HoldemState(
        HoldemConfig(seats=4), random.Random(0), first_deck=deck_with({3: "7C 2D"}, 4)
    )
    policy = TightPolicy(random.Random(0))
    assert isinstance(policy.decide(strong.view(3)), (Raise, AllIn))
    assert policy.decide(weak.view(3)) == Fold()
    assert hand_percentile(parse_cards("AH AD")) < 0.01
    assert hand_percentile(parse_cards("7C 2D")) > 0.9


def test_made_strength_levels() -> None:
    board = parse_cards("KH 8D 3C")
    assert made_strength(parse_cards("KS QD"), board) == 2  # top pair
    assert made_strength(parse_cards("8S QD"), board) == 1  # middle pair
    assert made_strength(parse_cards("KS 8C"), board) == 3  # two pair
    assert made_strength(parse_cards("AS QD"), board) == 0


def _facing_all_in(hole: str) -> tuple[HoldemState, HoldemView]:
    # Heads-up: the button (seat 0) shoves; seat 1 (big blind) decides.
    state = HoldemState(HoldemConfig(seats=2), random.Random(0), first_deck=deck_with({1: hole}, 2))
    state.apply(0, AllIn())
    return state, state.view(1)


def test_strong_calls_an_all_in_with_aces_and_folds_seven_deuce() -> None:
    policy = StrongPolicy(random.Random(3))
    _, aces = _facing_all_in("AH AD")
    assert policy.decide(aces) == Call()
    _, junk = _facing_all_in("7C 2D")
    assert policy.decide(junk) == Fold()


def test_strong_equity_estimates_are_sane() -> None:
    policy = StrongPolicy(random.Random(4))
    _, aces = _facing_all_in("AH AD")
    opponents = policy._opponents(aces)
    assert len(opponents) == 1
    eq = policy.equity(aces, opponents, 2000)
    assert 0.78 < eq < 0.92
    _, junk = _facing_all_in("7C 2D")
    assert policy.equity(junk, policy._opponents(junk), 2000) < 0.4


def test_strong_decides_from_the_view_alone_and_is_reproducible() -> None:
    state = HoldemState(HoldemConfig(seats=4), random.Random(5))
    view = state.view(3)
    first = StrongPolicy(random.Random(9)).decide(view)
    again = StrongPolicy(random.Random(9)).decide(view)
    assert first == again
    # The view carries no other seat's cards.
    assert view.hole is not None and all(not hasattr(s, "hole") for s in view.seats)
