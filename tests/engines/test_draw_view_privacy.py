"""Draw poker's views: which cards a seat changed at the draw (its positions) are its own.
A spectator's and every other seat's view say only that it drew (and how many, `drawn`);
its own view keeps its draw as played. Nothing else in the history changes (issue 40,
item 6)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import IllegalAction
from engines.draw import DrawConfig, DrawState
from engines.draw.actions import Draw, DrawAction, Fold, parse_action
from engines.draw.view import PUBLIC_DRAW

POSITIONS = re.compile(r"^draw \d")


def check_views(state: DrawState) -> int:
    """Every view's history against the state's; how many draws with positions it holds."""
    truth = list(state.history)
    for seat in [None, *range(state.seats)]:
        seen = list(state.view(seat).history)
        assert len(seen) == len(truth)
        for (who, text), (shown_who, shown) in zip(truth, seen, strict=True):
            assert who == shown_who
            if who == seat or not POSITIONS.match(text):
                assert shown == text
            else:
                assert shown == PUBLIC_DRAW, (seat, who, text, shown)
    return sum(1 for _, text in truth if POSITIONS.match(text))


def random_draw(state: DrawState, seat: int, rng: random.Random) -> DrawAction | None:
    """A draw of 1 to 3 random positions `seat` may make now, if any."""
    for _ in range(5):
        action = Draw(tuple(sorted(rng.sample(range(1, 6), rng.randint(1, 3)))))
        try:
            state.check(seat, action)
        except IllegalAction:
            continue
        return action
    return None


def played(seed: int, seats: int) -> Iterator[DrawState]:
    """A match of random players who draw random cards, yielded after every action."""
    rng = random.Random(seed)
    state = DrawState(DrawConfig(seats=seats, deals=3), random.Random(seed))
    for _ in range(600):
        if state.finished:
            return
        seat = state.to_act
        assert seat is not None
        action = random_draw(state, seat, rng) if state.phase == "draw" else None
        if action is None:
            legal = state.legal_actions(seat)
            action = rng.choice([a for a in legal if not isinstance(a, Fold)] or legal)
            if str(action).startswith("rebuy"):
                action = parse_action("rebuy 1")
        state.apply(seat, action)
        yield state


@settings(max_examples=25)
@given(seed=st.integers(0, 10_000), seats=st.integers(2, 6))
def test_other_seats_draw_positions_are_in_no_view_but_their_own(seed: int, seats: int) -> None:
    for state in played(seed, seats):
        check_views(state)


def test_the_matches_played_do_draw_cards() -> None:
    """The property above is not vacuous: its players draw cards with positions."""
    draws = [max(map(check_views, played(seed, 3)), default=0) for seed in range(5)]
    assert sum(draws) >= 3, draws
