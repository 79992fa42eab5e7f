"""`GameSpec.scoring`: a typed field saying how each game is ranked."""

from __future__ import annotations

import pytest

from engines.registry import available_games, get_game


@pytest.mark.parametrize(
    ("game", "scoring"),
    [("bigtwo", "penalty"), ("holdem", "chips"), ("draw", "chips"), ("duel", "chips")],
)
def test_each_game_says_how_it_is_ranked(game: str, scoring: str) -> None:
    assert get_game(game).scoring == scoring


def test_scoring_is_not_hidden_in_extra() -> None:
    for name in available_games():
        assert "scoring" not in get_game(name).extra
