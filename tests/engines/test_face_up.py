"""Each game's events say which cards they turn face up for everybody (`Event.face_up`),
so a checker of public messages needs no line per game: the board cards and showdowns
of hold'em, the duel's locked cards, draw's shown hands and opener proofs; nothing else."""

from __future__ import annotations

import random

import pytest

from engines import duel, holdem
from engines.base import Event
from engines.cards import Card
from engines.draw import events as draw_events
from engines.registry import built_in_games, get_game


def expected(event: Event) -> set[Card]:
    """What each event shows, by the rules of its game."""
    if isinstance(event, holdem.BoardDealt):
        return set(event.cards)
    if isinstance(event, holdem.Showdown):
        return {c for hand in event.hands for c in hand.cards}
    if isinstance(event, duel.Showdown):
        return set(event.locked)
    if isinstance(event, draw_events.Shown):
        return set(event.cards)
    if isinstance(event, draw_events.OpenerProof):
        return set(event.proof) | set(event.set_aside)
    return set()


@pytest.mark.parametrize("game", built_in_games())
def test_every_event_of_a_match_says_what_it_shows(game: str) -> None:
    spec = get_game(game)
    seats = min(3, spec.max_seats) if spec.min_seats <= 3 else spec.min_seats
    config = spec.make_config(seats=seats)
    shown = 0
    for seed in range(3):
        state = spec.new_state(config, random.Random(seed))
        policies = [spec.make_policy("random", random.Random(seed + s)) for s in range(seats)]
        for _ in range(400):
            if state.finished or state.to_act is None:
                break
            seat = state.to_act
            for event in state.apply(seat, policies[seat].decide(state.view(seat))):
                assert set(event.face_up()) == expected(event), event
                shown += bool(event.face_up())
    assert shown > 0 or game == "bigtwo"  # Big Two shows plays, not face-up reveals
