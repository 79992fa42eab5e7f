"""High Card's rules: whole matches keep every chip, a view shows only its own card, a
snapshot rebuilds the state, and the game is registered like the four others."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import DealSettled, IllegalAction
from engines.registry import EXTRA_GAMES_VARIABLE, available_games, get_game
from tests.fifth_game.engine import SPEC, CardDealt, Fold, Showdown, Stay


@settings(max_examples=60, deadline=None)
@given(
    seats=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    choices=st.lists(st.booleans(), min_size=1, max_size=60),
)
def test_a_whole_match_keeps_every_chip_and_hides_every_card(
    seats: int, seed: int, choices: list[bool]
) -> None:
    spec = SPEC
    state = spec.new_state(spec.make_config(seats=seats, deals=5), random.Random(seed))
    total = sum(state.view(None).chips) + state.view(None).pot
    dealt: dict[int, object] = {}
    step = 0
    while not state.finished:
        seat = state.to_act
        assert seat is not None
        for other in range(seats):
            seen = state.view(other)
            assert len(seen.hand) <= 1 and (other == seat) == bool(seen.legal)
        assert state.view(None).hand == ()
        events = state.apply(seat, Stay() if choices[step % len(choices)] else Fold())
        step += 1
        for event in events:
            if isinstance(event, CardDealt):
                assert event.to == event.seat  # a card goes to its seat only
                dealt[event.seat] = event.card
            if isinstance(event, Showdown):
                shown = [c for c in event.cards if c is not None]
                assert len(shown) != 1  # an uncontested pot shows no card
                if shown:
                    assert event.cards[event.winner] == max(shown, key=lambda c: c.code)
            if isinstance(event, DealSettled):
                assert sum(event.chips or ()) == 0
        view = state.view(None)
        assert sum(view.chips) + view.pot == total
    snapshot = state.snapshot()
    assert spec.restore(snapshot).snapshot() == snapshot


def test_moves_out_of_turn_or_unknown_are_refused_and_change_nothing() -> None:
    spec = SPEC
    state = spec.new_state(spec.make_config(), random.Random(4))
    before = state.snapshot()
    seat = state.to_act
    assert seat is not None
    other = (seat + 1) % 3
    try:
        state.apply(other, Stay())
    except IllegalAction as error:
        assert error.code == "not_your_turn"
    else:
        raise AssertionError("a move out of turn was accepted")
    try:
        spec.parse_action("raise 10")
    except IllegalAction as error:
        assert error.code == "highcard_move" and error.params["text"] == "raise 10"
    else:
        raise AssertionError("an unknown move was read")
    assert state.snapshot() == before


def test_it_is_registered_for_its_tests_only_with_its_declarations(highcard: str) -> None:
    assert highcard in available_games()
    spec = get_game(highcard)
    assert spec is SPEC
    assert [o.name for o in spec.options] == ["stack", "ante", "deals"]
    assert spec.deck == "per-deal" and spec.history_formats == ("json",)
    for level in ("easy", "normal", "hard"):
        assert spec.level_policy(level) in spec.policies


def test_other_tests_never_see_it() -> None:
    if os.environ.get(EXTRA_GAMES_VARIABLE):
        pytest.skip("this run registers extra games on purpose")
    assert "highcard" not in available_games()
