"""The draw poker board and table picture built from the spectator's view, whose history
no longer holds another seat's discard positions (issue 40, item 6), still render at every
step of random matches."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.pictures.draw import board as board_picture
from bot.pictures.model import Facts
from bot.render import get_renderer
from tests.engines.test_draw_view_privacy import played


@settings(max_examples=5)
@given(seed=st.integers(0, 10_000), seats=st.integers(2, 6))
def test_the_spectator_s_board_and_picture_render(seed: int, seats: int) -> None:
    renderer = get_renderer("draw")
    names = [f"P{i}" for i in range(seats)]
    facts = Facts(tuple(names), (False,) * seats, None)
    for state in played(seed, seats):
        spectator = state.view(None)
        assert not any(re.match(r"draw \d", text) for _, text in spectator.history)
        assert renderer.board(spectator, names, "en")
        assert board_picture(spectator, facts, "en") is not None
