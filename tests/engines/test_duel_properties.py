"""Deuce Duel properties over random matches: cards and chips conserved, every match ends,
refused actions change nothing, snapshots and replays reproduce the state."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import DealSettled, IllegalAction, MatchEnded
from engines.cards import FULL_DECK, new_deck
from engines.duel import SPEC, DuelConfig, DuelState, new_state, parse_action, restore

CONFIGS = [
    DuelConfig(),
    DuelConfig(first_player=1),
    DuelConfig(starting_chips=7, ante=2, min_bet=2),
    DuelConfig(decks=1),
]
MAX_ACTIONS = 5000


def candidate(rng: random.Random, state: DuelState) -> str:
    """A random action text, legal or not."""
    kind = rng.randrange(8)
    if kind == 0:
        return f"lock {rng.choice(FULL_DECK)}"
    if kind == 1:
        seat = state.to_act
        assert seat is not None
        return f"lock {rng.choice(state.hands[seat])}"
    if kind in (2, 3):
        return f"{rng.choice(['bet', 'raise'])} {rng.randint(0, 45)}"
    return rng.choice(["check", "call", "fold", "allin"])


def check_invariants(state: DuelState) -> None:
    cards = Counter(state.stock + state.discards + state.hands[0] + state.hands[1])
    assert cards == Counter(new_deck(state.config.decks))
    if state.config.decks == 2:
        assert sum(cards.values()) == 104
    in_play = sum(state.antes) + sum(state.bets)
    assert sum(state.chips) + in_play == 2 * state.config.starting_chips
    assert min(state.chips) >= 0
    if not state.finished:
        assert state.to_act in (0, 1)
        assert all(len(hand) == 2 for hand in state.hands)
        assert state.legal_actions(state.to_act)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.sampled_from(
        [("random", "random"), ("strong", "random"), ("honest", "strong"), ("strong", "strong")]
    ),
    config=st.sampled_from(CONFIGS),
)
def test_random_matches_conserve_everything_and_end(
    seed: int, players: tuple[str, str], config: DuelConfig
) -> None:
    rng = random.Random(seed)
    state = new_state(config, random.Random(seed))
    agents = [SPEC.make_policy(name, random.Random(rng.getrandbits(32))) for name in players]
    log: list[str] = []
    settled_net = [0, 0]
    ended = []
    for _ in range(MAX_ACTIONS):
        check_invariants(state)
        if state.finished:
            break
        seat = state.to_act
        assert seat is not None
        # a random action: if refused, the state must not have moved
        text = candidate(rng, state)
        before = state.snapshot()
        try:
            action = parse_action(text)
            state.check(seat, action)
        except IllegalAction:
            assert state.snapshot() == before
            action = agents[seat].decide(state.view(seat))
        with_wrong_seat = state.snapshot()
        try:
            state.apply(1 - seat, action)
            raise AssertionError("the other seat acted out of turn")
        except IllegalAction:
            assert state.snapshot() == with_wrong_seat
        log.append(str(action))
        events = state.apply(seat, action)
        for event in events:
            if isinstance(event, DealSettled):
                assert event.chips is not None and sum(event.chips) == 0
                settled_net = [a + b for a, b in zip(settled_net, event.chips, strict=True)]
            if isinstance(event, MatchEnded):
                ended.append(event)
        if rng.random() < 0.05:
            copy = restore(state.snapshot())
            assert copy.snapshot() == state.snapshot()
            assert copy.view(None) == state.view(None)
    assert state.finished, "the match did not end"
    chips = config.starting_chips
    assert len(ended) == 1 and 0 in ended[0].totals and sum(ended[0].totals) == 2 * chips
    assert [chips + n for n in settled_net] == list(ended[0].totals)
    replay = new_state(config, random.Random(seed))
    for text in log:
        seat = replay.to_act
        assert seat is not None
        replay.apply(seat, parse_action(text))
    assert replay.snapshot() == state.snapshot()


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_views_never_show_hidden_cards(seed: int) -> None:
    """A seat's view holds its own cards only; a spectator's holds none; no view shows the stock
    order or a locked card before the showdown."""
    state = new_state(DuelConfig(), random.Random(seed))
    agent = SPEC.make_policy("random", random.Random(seed))
    for _ in range(200):
        if state.finished:
            break
        for seat in (0, 1, None):
            view = state.view(seat)
            assert view.hand == (tuple(state.hands[seat]) if seat is not None else ())
            # everything but the seat's own cards: only cards already shown may appear
            public = repr(dataclasses.replace(view, hand=(), legal=(), my_lock=None))
            shown = Counter(view.discards)
            if view.last is not None:
                shown += Counter(view.last.locked)
            hidden = state.hands[0] + state.hands[1] + state.stock[-6:]
            for card in hidden:
                assert public.count(f"Card({card})") <= shown[card]
            assert view.stock_size == len(state.stock)
        seat = state.to_act
        assert seat is not None
        state.apply(seat, agent.decide(state.view(seat)))
