"""Big Two property tests: random full deals played with random legal (and illegal) actions."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import DealSettled, DealStarted, IllegalAction, MatchEnded
from engines.bigtwo import (
    PASS,
    SPEC,
    BigTwoConfig,
    BigTwoState,
    Pass,
    Play,
    Played,
    TableCleared,
    penalty,
)
from engines.cards import FULL_DECK, parse_card

THREE_D = parse_card("3D")


def cards_accounted(state: BigTwoState) -> None:
    """Every one of the 52 cards is in exactly one hand or on the played pile."""
    piles = [state.view(seat).hand for seat in range(4)] + [state.view(None).played]
    everything = [c for pile in piles for c in pile]
    assert len(everything) == 52
    assert set(everything) == set(FULL_DECK)
    assert [len(state.view(s).hand) for s in range(4)] == list(state.view(None).cards_left)


def illegal_attempts(state: BigTwoState, rng: random.Random) -> list[Any]:
    """A few actions that must be refused now: wrong seat, cards not held, bad sets, too low."""
    seat = state.to_act
    assert seat is not None
    other = (seat + 1 + rng.randrange(3)) % 4
    view = state.view(seat)
    attempts: list[tuple[int, Any]] = [(other, PASS)]
    foreign = state.view(other).hand
    if foreign:
        attempts.append((seat, Play((rng.choice(foreign),))))
    legal = set(view.legal)
    hand = list(view.hand)
    for _ in range(6):
        size = rng.choice([1, 2, 3, 4, 5])
        if len(hand) >= size:
            action = Play(tuple(rng.sample(hand, size)))
            if action not in legal:
                attempts.append((seat, action))
    if Pass() not in legal:
        attempts.append((seat, PASS))
    return attempts


def play_match(rng: random.Random, deals: int, probe: bool) -> tuple[BigTwoState, list[str], int]:
    seed = rng.getrandbits(32)
    state = SPEC.new_state(BigTwoConfig(deals=deals), random.Random(seed))
    assert isinstance(state, BigTwoState)
    log: list[str] = []
    opening = True
    passes_in_a_row = 0
    settled = 0
    for _ in range(10_000):
        if state.finished:
            break
        cards_accounted(state)
        seat = state.to_act
        assert seat is not None
        if probe and rng.random() < 0.2:
            for who, action in illegal_attempts(state, rng):
                before = state.snapshot()
                try:
                    state.apply(who, action)
                except IllegalAction as error:
                    assert error.code and str(error)
                else:
                    raise AssertionError(f"{action} by seat {who} was accepted")
                assert state.snapshot() == before
        legal = state.legal_actions(seat)
        assert legal and legal == list(state.view(seat).legal)
        action = rng.choice(legal)
        before_counts = list(state.view(None).cards_left)
        events = state.apply(seat, action)
        log.append(str(action))
        for event in events:
            if isinstance(event, Played) and opening:
                assert THREE_D in event.cards
                opening = False
            if isinstance(event, Played):
                passes_in_a_row = 0
            elif event.kind == "bigtwo.passed":
                passes_in_a_row += 1
            if isinstance(event, TableCleared):
                assert passes_in_a_row == 3
                passes_in_a_row = 0
                assert state.view(None).table is None or settled
            if isinstance(event, DealSettled):
                settled += 1
                counts = list(before_counts)
                counts[seat] -= len(action.cards) if isinstance(action, Play) else 0
                assert counts[seat] == 0
                assert event.penalties == tuple(penalty(n) for n in counts)
                assert list(event.penalties).count(0) == 1
                assert event.penalties[seat] == 0
            if isinstance(event, DealStarted):
                opening = True
                passes_in_a_row = 0
                assert event.dealer == seat  # the winner deals
            if isinstance(event, MatchEnded):
                best = min(event.totals)
                assert event.winners == tuple(s for s in range(4) if event.totals[s] == best)
        if not state.finished and passes_in_a_row == 0 and state.view(None).table is None:
            assert state.view(None).passes == 0
    assert state.finished and state.to_act is None
    assert settled == deals
    return state, log, seed


@settings(max_examples=15, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 2))
def test_random_matches_keep_every_invariant(rng: random.Random, deals: int) -> None:
    play_match(rng, deals, probe=True)


@settings(max_examples=15, deadline=None)
@given(st.randoms(use_true_random=False))
def test_replay_from_seed_and_actions_reproduces_the_state(rng: random.Random) -> None:
    state, log, seed = play_match(rng, 2, probe=False)
    cut = rng.randrange(len(log) + 1)
    replayed = SPEC.new_state(BigTwoConfig(deals=2), random.Random(seed))
    for text in log[:cut]:
        seat = replayed.to_act
        assert seat is not None
        replayed.apply(seat, SPEC.parse_action(text))
    restored = SPEC.restore(replayed.snapshot())
    assert restored.snapshot() == replayed.snapshot()
    for text in log[cut:]:
        for copy in (replayed, restored):
            seat = copy.to_act
            assert seat is not None
            copy.apply(seat, SPEC.parse_action(text))
    assert replayed.snapshot() == state.snapshot() == restored.snapshot()


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_views_show_only_what_a_seat_may_know(rng: random.Random) -> None:
    state = SPEC.new_state(BigTwoConfig(deals=1), random.Random(rng.getrandbits(32)))
    for _ in range(rng.randrange(30)):
        seat = state.to_act
        assert seat is not None
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        if state.finished:
            return
    spectator = state.view(None)
    assert spectator.hand == () and spectator.legal == ()
    for seat in range(4):
        view = state.view(seat)
        assert len(view.hand) == view.cards_left[seat]
        assert (view.legal != ()) == (seat == state.to_act)
        others = {c for s in range(4) if s != seat for c in state.view(s).hand}
        assert not others & set(view.hand)
