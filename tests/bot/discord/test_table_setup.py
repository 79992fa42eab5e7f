"""The `/table create` option table follows the engines' configs."""

from __future__ import annotations

from bot.discord.table_setup import FIELDS, field_limits, table_setup
from bot.runtime.errors import TableError
from engines.registry import get_game


def test_every_option_names_a_field_of_its_games_config() -> None:
    for option, fields in FIELDS.items():
        for game, field in fields.items():
            assert field in get_game(game).config_type.model_fields, (option, game, field)


def test_limits_come_from_the_config_and_accepted_values_build_it() -> None:
    spec = get_game("duel")
    assert field_limits(spec.config_type, "starting_chips") == (2, 1_000_000)
    setup = table_setup(spec, {"stack": 1_000_000, "ante": 5, "deals": None})
    config = spec.make_config(**setup.settings)
    assert config.model_dump()["starting_chips"] == 1_000_000
    assert config.model_dump()["ante"] == 5
    try:
        table_setup(spec, {"stack": 1_000_001})
    except TableError as error:
        assert error.code == "option_range" and error.params["high"] == 1_000_000
    else:
        raise AssertionError("a stack above the duel's limit was accepted")
