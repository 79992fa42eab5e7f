"""`engines.play.play_out`: plays any game to its end from the seats' own views."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import Event, IllegalAction, MatchEnded, Policy
from engines.bigtwo import SPEC as BIGTWO
from engines.bigtwo import BigTwoConfig, Pass, Passed, Played
from engines.play import play_out
from engines.registry import get_game

SMALL_CONFIGS: dict[str, dict[str, Any]] = {
    "bigtwo": {"deals": 2},
    "holdem": {"seats": 3, "max_hands": 6},
    "draw": {"seats": 3, "deals": 4},
    "duel": {},
}
"""Short matches of every game (what `SPEC.make_config` takes)."""


class Spy:
    """A policy that records the seat of every view it is shown, then asks `inner`."""

    name = "spy"

    def __init__(self, inner: Policy[Any, Any], seen: list[int | None]) -> None:
        self.inner = inner
        self.seen = seen

    def decide(self, view: Any) -> Any:
        self.seen.append(view.seat)
        return self.inner.decide(view)


def greedy_players(seed: int) -> list[Policy[Any, Any]]:
    return [BIGTWO.make_policy("greedy", random.Random(seed + s)) for s in range(4)]


def by_hand(state: Any, policies: Sequence[Policy[Any, Any]]) -> list[Event]:
    """The loop `play_out` replaces, written out: the reference it must agree with."""
    events: list[Event] = []
    while not state.finished:
        seat = state.to_act
        events += state.apply(seat, policies[seat].decide(state.view(seat)))
    return events


def test_a_big_two_match_is_played_to_its_end_with_every_action_counted() -> None:
    state = BIGTWO.new_state(BigTwoConfig(deals=2), random.Random(3))
    played = play_out(state, greedy_players(0))
    assert state.finished and state.to_act is None
    assert isinstance(played.events[-1], MatchEnded)
    turns = [e for e in played.events if isinstance(e, Played | Passed)]
    assert played.actions == len(turns) > 0


def test_it_plays_exactly_what_the_written_out_loop_plays() -> None:
    ours = BIGTWO.new_state(BigTwoConfig(deals=3), random.Random(9))
    theirs = BIGTWO.new_state(BigTwoConfig(deals=3), random.Random(9))
    events = play_out(ours, greedy_players(1)).events
    assert events == by_hand(theirs, greedy_players(1))
    assert ours.snapshot() == theirs.snapshot()


def test_each_policy_decides_only_for_its_own_seat_from_that_seats_view() -> None:
    seen: list[list[int | None]] = [[] for _ in range(4)]
    spies = [Spy(p, seen[s]) for s, p in enumerate(greedy_players(2))]
    acted: list[int] = []
    state = BIGTWO.new_state(BigTwoConfig(deals=1), random.Random(5))
    play_out(state, spies, on_action=lambda seat, action, events: acted.append(seat))
    for seat in range(4):
        assert seen[seat] == [seat] * acted.count(seat)
    assert sum(map(len, seen)) == len(acted) > 0


def test_on_action_sees_each_action_with_its_own_events_and_can_stop_the_play() -> None:
    state = BIGTWO.new_state(BigTwoConfig(deals=1), random.Random(6))
    calls: list[tuple[int, Any, list[Event]]] = []

    def third(seat: int, action: Any, events: list[Event]) -> bool:
        calls.append((seat, action, events))
        return len(calls) == 3

    played = play_out(state, greedy_players(3), on_action=third)
    assert played.actions == 3 and len(calls) == 3
    assert not state.finished
    assert played.events == [e for _, _, events in calls for e in events]
    for seat, action, events in calls:
        kind = Passed if isinstance(action, Pass) else Played
        assert isinstance(events[0], kind) and events[0].seat == seat  # type: ignore[attr-defined]


def test_a_policy_that_plays_an_illegal_action_is_refused_and_nothing_changes() -> None:
    class Stubborn:
        name = "stubborn"

        def decide(self, view: Any) -> Any:
            return Pass()  # the opening seat may not pass

    state = BIGTWO.new_state(BigTwoConfig(deals=1), random.Random(7))
    before = state.snapshot()
    with pytest.raises(IllegalAction) as refused:
        play_out(state, [Stubborn()] * 4)
    assert refused.value.code == "bigtwo.must_open"
    assert state.snapshot() == before


def test_a_match_not_over_with_nobody_to_act_is_an_engine_bug_not_a_hang() -> None:
    class Stuck:
        finished = False
        to_act = None

    with pytest.raises(RuntimeError, match="Stuck: nobody to act"):
        play_out(Stuck(), [])  # type: ignore[arg-type]


def test_a_finished_match_plays_nothing() -> None:
    state = BIGTWO.new_state(BigTwoConfig(deals=1), random.Random(8))
    play_out(state, greedy_players(4))
    again = play_out(state, greedy_players(4))
    assert again.actions == 0 and again.events == []


@settings(max_examples=12, deadline=None)
@given(game=st.sampled_from(sorted(SMALL_CONFIGS)), seed=st.integers(0, 2**32))
def test_every_game_ends_with_random_players_and_one_match_ended_event(
    game: str, seed: int
) -> None:
    spec = get_game(game)
    config = spec.make_config(**SMALL_CONFIGS[game])
    seats = getattr(config, "seats", spec.default_seats)
    state = spec.new_state(config, random.Random(seed))
    players = [spec.make_policy("random", random.Random(seed + s)) for s in range(seats)]
    played = play_out(state, players)
    assert state.finished and state.to_act is None
    ended = [e for e in played.events if isinstance(e, MatchEnded)]
    assert len(ended) == 1 and played.events[-1] is ended[0]
