"""Public effects split from committed events: live (one run at a time) and at start-up
(replaying the log) they agree; `pending` delivers what follows the last delivered one."""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.discord.effects import MATCH_RESULT, Effect, derive, pending, post_nonce, split
from bot.runtime.replay import match_state, opening_events
from engines.base import DealSettled, DealStarted, Event, MatchEnded
from engines.holdem import Eliminated
from engines.registry import get_game
from storage.base import MatchRecord


def _played(game: str, seed: int, limit: int = 400) -> tuple[MatchRecord, list[str], list[Effect]]:
    """A match played with random legal moves: its record, action texts, and the effects
    split live, action by action (as the front sees them)."""
    spec = get_game(game)
    config = spec.make_config(deals=3) if game in ("bigtwo", "draw") else spec.make_config()
    match = MatchRecord(1, 1, 1, seed, config.model_dump(), 7, 0.0)
    state = match_state(spec, match)  # dealt as the runtime deals a stored match
    moves = random.Random(seed + 1)
    live, _ = split([e for e in opening_events(state) if e.to is None], match.first_seq, 0)
    actions: list[str] = []
    while not state.finished and len(actions) < limit:
        seat = state.to_act
        assert seat is not None
        action = moves.choice(list(state.legal_actions(seat)))
        actions.append(str(action))
        events = state.apply(seat, spec.parse_action(str(action)))
        found, _ = split([e for e in events if e.to is None], match.first_seq + len(actions), 0)
        live.extend(found)
    return match, actions, live


@pytest.mark.parametrize("game", ["bigtwo", "holdem", "draw", "duel"])
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32))
@example(seed=74627)  # hold'em: hands that begin and end within one action
def test_replaying_the_log_derives_the_live_effects_in_the_same_order(game: str, seed: int) -> None:
    match, actions, live = _played(game, seed)
    derived = derive(get_game(game), match, actions)
    assert [(e.key, e.upto) for e in derived] == [(e.key, e.upto) for e in live]
    keys = [e.key for e in derived]
    assert len(keys) == len(set(keys))  # each effect once
    boards = [e.deal for e in derived if e.kind == "board"]
    assert boards == list(range(1, len(boards) + 1))
    for effect in derived:
        if effect.kind == "result":  # right after its own board, before the next one
            index = keys.index(effect.key)
            assert f"board:{effect.deal}" in keys[:index]
            assert f"board:{effect.deal + 1}" not in keys[:index]
        if effect.kind == "board":
            # A deal that began and ended within one action (a hand that runs itself out)
            # may have no view of its own (its board is drawn bare, from its result); every
            # other board shows its deal's last state.
            ended = next((e for e in derived if e.key == f"result:{effect.deal}"), None)
            in_one_action = ended is not None and ended.upto == effect.upto
            assert effect.view is not None or in_one_action
            if effect.view is not None:  # the view is of the board's own deal
                number = effect.view.hand if game == "holdem" else effect.view.deal
                assert number == effect.deal


def test_a_deal_result_holds_what_ended_it_and_comes_before_the_next_board() -> None:
    play = Event()
    settled = DealSettled(deal=1, chips=(5, -5))
    out = Eliminated(seat=1)
    events = [play, settled, out, DealStarted(deal=2, dealer=1, commitment="c" * 64), Event()]
    effects, loose = split(events, 9, 1)
    assert [e.key for e in effects] == ["result:1", "board:2"]
    assert effects[0].events == (play, settled, out)
    assert all(e.upto == 9 for e in effects)
    assert loose == [events[-1]]


def test_a_second_settlement_of_a_deal_joins_its_result_and_the_match_result_follows() -> None:
    first, second = DealSettled(deal=4, chips=(-2, -2)), DealSettled(deal=4, chips=(3, 1))
    ended = MatchEnded(winners=(0,), totals=(10, 6))
    effects, _ = split([first, second, ended], 30, 4)
    assert [e.key for e in effects] == ["result:4", MATCH_RESULT]
    assert effects[0].events == (first, second)
    assert effects[1].events == (ended,)


def test_private_events_are_never_part_of_an_effect() -> None:
    secret = Event(to=2)
    effects, loose = split([secret, DealSettled(deal=1, chips=(0,))], 3, 1)
    assert effects[0].events == (DealSettled(deal=1, chips=(0,)),) and loose == []


def _effects(*keys: str) -> list[Effect]:
    return [
        Effect(key, i, int(key.split(":")[1]) if ":" in key else 0) for i, key in enumerate(keys)
    ]


def test_pending_is_everything_after_the_last_delivered_effect() -> None:
    effects = _effects("board:1", "result:1", "board:2", "result:2", "board:3")
    assert [e.key for e in pending(effects, {"board:1", "result:1"})] == [
        "board:2",
        "result:2",
        "board:3",
    ]
    everything = {e.key for e in effects}
    assert pending(effects, everything) == []
    # Delivered out of order never happens, but a later record wins: nothing before it again.
    assert [e.key for e in pending(effects, {"board:2"})] == ["result:2", "board:3"]


def test_with_no_record_at_all_only_the_current_deal_is_delivered() -> None:
    effects = _effects("board:1", "result:1", "board:2", "result:2", "board:3")
    assert [e.key for e in pending(effects, set())] == ["board:3"]
    assert pending([], set()) == []


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["1", "2", "1577411588615307268"]),
            st.integers(1, 3),
            st.integers(1, 3),
            st.sampled_from(["board:1", "board:2", "result:1", "result:12", MATCH_RESULT]),
        ),
        min_size=2,
        max_size=6,
        unique=True,
    )
)
def test_post_nonces_are_the_same_for_an_effect_and_differ_between_effects(
    posts: list[tuple[str, int, int, str]],
) -> None:
    nonces = [post_nonce(*post) for post in posts]
    assert nonces == [post_nonce(*post) for post in posts]  # in any process
    assert len(set(nonces)) == len(posts)
    assert all(len(n) <= 25 and isinstance(n, str) for n in nonces)  # Discord's limit


@pytest.mark.parametrize("game", ["bigtwo", "holdem", "draw"])
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_a_replayed_deal_result_carries_the_last_view_of_its_deal(game: str, seed: int) -> None:
    """At start-up a result's picture is drawn on the view its deal last showed (what the
    live front kept of it), not on nothing: the view of the last action committed while
    that deal ran."""
    match, actions, _ = _played(game, seed)
    spec = get_game(game)
    state = match_state(spec, match)
    number = (lambda v: v.hand) if game == "holdem" else (lambda v: v.deal)
    last: dict[int, object] = {number(state.view(None)): state.view(None)}
    for text in actions:
        seat = state.to_act
        assert seat is not None
        state.apply(seat, spec.parse_action(text))
        view = state.view(None)
        last[number(view)] = view  # what the front's snapshot of that deal holds
    results = [e for e in derive(spec, match, actions) if e.kind == "result"]
    assert results
    for effect in results:
        assert effect.view is not None or effect.deal not in last
        if effect.view is not None:
            assert number(effect.view) == effect.deal
            assert repr(effect.view) == repr(last[effect.deal])  # views compare by identity
