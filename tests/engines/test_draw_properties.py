"""Properties of French draw poker over random matches played by random players."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import ChipsBought, DealSettled, DealStarted, IllegalAction, MatchEnded
from engines.draw import SPEC, DrawConfig, DrawState, parse_action
from engines.draw.actions import DrawAction, Fold

# Texts thrown at the engine whatever the phase: most are illegal most of the time.
PROBES = [
    "surblind", "no", "open 2", "open 4", "open 9999", "check", "call", "fold", "bet 1",
    "bet 2", "bet 50", "raise 3", "raise 4", "raise 8", "raise 100000", "allin", "stand",
    "draw 1", "draw 1 2 3 4 5", "rebuy 1", "rebuy 0", "rebuy 99", "sitout",
]  # fmt: skip


def play(
    seed: int, seats: int, deals: int, probe: bool
) -> tuple[DrawState, list[tuple[int, str]], list[object]]:
    """A whole match of random players; checks the invariants after every action."""
    rng = random.Random(seed)
    config = DrawConfig(seats=seats, deals=deals, cave_unit=40, blind_unit=2, pot_unit=1)
    state = DrawState(config, random.Random(seed))
    events: list[object] = list(state.opening_events)
    log: list[tuple[int, str]] = []
    steps_in_deal = 0
    while not state.finished:
        seat = state.to_act
        assert seat is not None
        if probe:
            text = rng.choice(PROBES)
            who = rng.choice([seat, rng.randrange(seats)])
            before = state.snapshot()
            try:
                state.check(who, parse_action(text))
            except IllegalAction:
                assert state.snapshot() == before
            else:
                assert state.snapshot() == before
                assert who == seat
        legal = state.legal_actions(seat)
        # A player to act holds chips, so is never left only 'fold' (docs/draw.md, Betting).
        assert legal and legal != [Fold()], (state.phase, legal)
        action: DrawAction = rng.choice(legal)
        if str(action).startswith("rebuy"):
            action = parse_action("rebuy 1") if rng.random() < 0.9 else parse_action("sitout")
        new = state.apply(seat, action)
        log.append((seat, str(action)))
        events += new
        steps_in_deal += 1
        if any(isinstance(e, (DealStarted, MatchEnded)) for e in new):
            steps_in_deal = 0
        assert steps_in_deal < 200, "a deal did not end"
        assert sum(state.stacks) + state.pot_total() == sum(state.bought)
        assert all(chips >= 0 for chips in state.stacks)
        if state.phase in ("bet1", "draw", "bet2", "surblind"):
            cards = [c for s, h in enumerate(state.hands) if state.in_deal[s] for c in h]
            cards += state.stock + state.discards + state.set_aside
            assert len(cards) == 52 and len(set(cards)) == 52
    return state, log, events


@settings(max_examples=25)
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 6))
def test_cards_and_chips_are_conserved_and_every_deal_and_match_ends(seed: int, seats: int) -> None:
    state, _, events = play(seed, seats, deals=12, probe=False)
    assert state.finished and state.to_act is None
    assert isinstance(events[-1], MatchEnded)
    # The ledger's view: buy-ins plus every deal's net change is what each seat holds now.
    bought = [0] * seats
    net = [0] * seats
    for event in events:
        if isinstance(event, ChipsBought):
            bought[event.seat] += event.amount
        elif isinstance(event, DealSettled):
            assert event.chips is not None
            net = [a + b for a, b in zip(net, event.chips, strict=True)]
    assert bought == state.bought
    assert [b + n for b, n in zip(bought, net, strict=True)] == state.stacks


@settings(max_examples=12)
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 6))
def test_refused_actions_change_nothing_and_checks_never_mutate(seed: int, seats: int) -> None:
    play(seed, seats, deals=5, probe=True)


@settings(max_examples=12)
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 6), cut=st.floats(0, 1))
def test_replay_and_snapshots_rebuild_the_state_exactly(seed: int, seats: int, cut: float) -> None:
    state, log, _ = play(seed, seats, deals=6, probe=False)
    config = DrawConfig(seats=seats, deals=6, cave_unit=40, blind_unit=2, pot_unit=1)
    replay = SPEC.new_state(config, random.Random(seed))
    middle = int(len(log) * cut)
    for seat, text in log[:middle]:
        replay.apply(seat, SPEC.parse_action(text))
    restored = SPEC.restore(replay.snapshot())
    assert restored.snapshot() == replay.snapshot()
    assert restored.view(0) == replay.view(0)
    for seat, text in log[middle:]:
        replay.apply(seat, SPEC.parse_action(text))
        restored.apply(seat, SPEC.parse_action(text))
    assert replay.snapshot() == state.snapshot() == restored.snapshot()


@settings(max_examples=10)
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 6))
def test_views_hold_only_the_seats_own_cards(seed: int, seats: int) -> None:
    rng = random.Random(seed)
    state = DrawState(DrawConfig(seats=seats, deals=4), random.Random(seed))
    while not state.finished:
        seat = state.to_act
        assert seat is not None
        assert state.view(None).hand == ()
        for other in range(seats):
            hand = state.view(other).hand
            assert not hand or list(hand) == state.hands[other]
            if state.phase == "surblind":
                assert hand == ()
        state.apply(seat, rng.choice(state.legal_actions(seat)))
