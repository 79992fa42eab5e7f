"""The one seam games register through (`engines.registry.register`)."""

from __future__ import annotations

import pytest

from engines.registry import (
    BUILT_IN,
    UnknownName,
    available_games,
    built_in_games,
    get_game,
    register,
    unregister,
)


def test_the_product_games_are_registered_under_their_module_names() -> None:
    assert built_in_games() == tuple(module.rsplit(".", 1)[1] for module in BUILT_IN)
    assert set(built_in_games()) <= set(available_games())
    for name in built_in_games():
        assert get_game(name).name == name


def test_a_name_taken_by_another_module_is_refused_and_a_game_can_be_forgotten() -> None:
    name = built_in_games()[0]
    with pytest.raises(ValueError, match="already registered"):
        register(name, "somewhere.else")
    assert get_game(name).name == name  # unchanged
    register("phantom", "tests.no_such_module")
    try:
        with pytest.raises(UnknownName, match="not available"):
            get_game("phantom")
        assert "phantom" not in available_games()  # a module that does not load is left out
    finally:
        unregister("phantom")
    with pytest.raises(UnknownName, match="there is no game 'phantom'"):
        get_game("phantom")
