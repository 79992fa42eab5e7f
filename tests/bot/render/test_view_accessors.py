"""The renderers' view accessors: what fronts read instead of view field names."""

from __future__ import annotations

import random

import pytest

from bot.render import get_renderer
from engines.bigtwo import Passed, Played
from engines.registry import get_game

GAMES = ["bigtwo", "holdem", "draw", "duel"]


def _dealt(game: str, seed: int = 3):  # type: ignore[no-untyped-def]
    spec = get_game(game)
    return spec, spec.new_state(spec.make_config(), random.Random(seed))


@pytest.mark.parametrize("game", GAMES)
def test_legal_moves_are_the_canonical_texts_of_the_legal_actions(game: str) -> None:
    spec, state = _dealt(game)
    seat = state.to_act
    assert seat is not None
    renderer = get_renderer(game)
    moves = renderer.legal_moves(state.view(seat))
    assert moves and all(spec.parse_action(m) in state.view(seat).legal for m in moves)
    assert renderer.legal_moves(state.view(None)) == []  # a spectator has no moves


@pytest.mark.parametrize("game", GAMES)
def test_a_hand_is_the_seats_cards_and_a_spectator_has_none(game: str) -> None:
    spec, state = _dealt(game)
    renderer = get_renderer(game)
    for _ in range(20):  # past any posting before the cards are dealt
        seat = state.to_act
        assert seat is not None
        hand = renderer.hand_cards(state.view(seat))
        if hand:
            break
        state.apply(seat, spec.parse_action(renderer.legal_moves(state.view(seat))[0]))
    assert hand and len(set(hand)) == len(hand)
    assert not set(hand) & set(renderer.table_cards(state.view(None)))
    assert renderer.hand_cards(state.view(None)) == []


def test_big_two_shows_the_last_play_and_a_play_changes_the_players_hand() -> None:
    spec, state = _dealt("bigtwo")
    renderer = get_renderer("bigtwo")
    assert renderer.table_cards(state.view(None)) == []
    seat = state.to_act
    assert seat is not None
    play = spec.parse_action(renderer.legal_moves(state.view(seat))[0])
    events = state.apply(seat, play)
    played = next(e for e in events if isinstance(e, Played))
    assert renderer.table_cards(state.view(None)) == list(played.cards)
    assert renderer.hand_changed(played) == seat
    assert renderer.hand_changed(Passed(seat=seat)) is None


def test_holdem_shows_the_community_cards() -> None:
    spec, state = _dealt("holdem")
    renderer = get_renderer("holdem")
    assert renderer.table_cards(state.view(None)) == list(state.view(None).board)
    while not state.view(None).board and state.to_act is not None:
        seat = state.to_act
        moves = renderer.legal_moves(state.view(seat))
        state.apply(seat, spec.parse_action("call" if "call" in moves else moves[0]))
    assert len(renderer.table_cards(state.view(None))) >= 3
