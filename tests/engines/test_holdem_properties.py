"""Property tests over random hold'em matches with random legal actions: chips conserved, no
negative stack, pots add up, every hand ends, refusals change nothing, replay and restore exact."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import DealSettled, IllegalAction, MatchEnded
from engines.holdem import SPEC, HoldemConfig, HoldemState, PotAwarded
from engines.poker.actions import AllIn, Bet, BettingAction, Call, Check, Fold, Raise

WRONG: list[BettingAction] = [Check(), Fold(), Call(), Bet(1), Raise(1), Raise(10**9), AllIn()]


def random_action(state: HoldemState, seat: int, rng: random.Random) -> BettingAction:
    legal = state.legal_actions(seat)
    choice = rng.choice(legal)
    if isinstance(choice, (Bet, Raise)) and rng.random() < 0.5:
        view = state.view(seat)
        return type(choice)(rng.randint(view.min_to, view.max_to))
    return choice


@settings(max_examples=60, deadline=None)
@given(
    seats=st.integers(2, 10),
    chips=st.sampled_from([60, 200, 1000]),
    seed=st.integers(0, 2**32),
)
def test_random_matches_keep_every_invariant(seats: int, chips: int, seed: int) -> None:
    rng = random.Random(seed)
    config = HoldemConfig(seats=seats, starting_chips=chips)
    state = HoldemState(config, random.Random(seed))
    total = seats * chips
    actions: list[tuple[int, str]] = []
    hands = 0
    actions_this_hand = 0
    for _ in range(400):
        if state.finished:
            break
        seat = state.to_act
        assert seat is not None, "a seat is always to act until the match is over"
        view = state.view(None)
        assert min(s.stack for s in view.seats) >= 0
        assert sum(s.stack + s.invested for s in view.seats) == total
        assert sum(p.amount for p in view.pots) + sum(s.bet for s in view.seats) == sum(
            s.invested for s in view.seats
        )
        # A wrong action is refused and changes nothing.
        wrong = rng.choice(WRONG)
        before = state.snapshot()
        try:
            state.check(seat, wrong)
        except IllegalAction:
            assert state.snapshot() == before
        other = (seat + 1) % seats
        try:
            state.apply(other, Check())
        except IllegalAction:
            assert state.snapshot() == before
        action = random_action(state, seat, rng)
        actions.append((seat, str(action)))
        events = state.apply(seat, action)
        actions_this_hand += 1
        for event in events:
            if isinstance(event, PotAwarded):
                assert sum(event.shares) == event.amount
                assert max(event.shares) - min(event.shares) <= 1
            if isinstance(event, DealSettled):
                assert event.chips is not None and sum(event.chips) == 0
                hands += 1
                actions_this_hand = 0
            if isinstance(event, MatchEnded):
                assert sum(event.totals) == total and len(event.winners) == 1
        assert actions_this_hand < 4 * seats * 10, "a hand must end"
    # Replay: same config, same seed, same action texts -> same snapshot.
    again = HoldemState(config, random.Random(seed))
    for seat, text in actions:
        again.apply(seat, SPEC.parse_action(text))
    assert again.snapshot() == state.snapshot()
    # Restore round trip.
    assert SPEC.restore(state.snapshot()).snapshot() == state.snapshot()


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_matches_end_with_one_player_holding_everything(seed: int) -> None:
    rng = random.Random(seed)
    state = HoldemState(HoldemConfig(seats=3, starting_chips=100), random.Random(seed))
    for _ in range(5000):
        if state.finished:
            break
        seat = state.to_act
        assert seat is not None
        legal = state.legal_actions(seat)
        # Aggressive random play so matches finish quickly.
        action = AllIn() if AllIn() in legal and rng.random() < 0.3 else rng.choice(legal)
        state.apply(seat, action)
    assert state.finished
    stacks = [s.stack for s in state.view(None).seats]
    assert sorted(stacks) == [0, 0, 300] and state.to_act is None


def test_views_hide_other_players_cards() -> None:
    state = HoldemState(HoldemConfig(seats=4), random.Random(9))
    mine = state.view(2)
    assert mine.hole is not None and len(mine.hole) == 2
    for seat in (0, 1, 3):
        other = state.view(seat)
        assert other.hole != mine.hole
        assert not set(mine.hole) & set(other.hole or ())
