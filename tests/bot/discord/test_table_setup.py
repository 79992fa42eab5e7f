"""The `/table create` option table follows the engines' configs."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.discord.replies import refusal_text
from bot.discord.table_setup import (
    OPTION_ORDER,
    field_limits,
    offered,
    option_limits,
    option_name,
    table_setup,
)
from bot.runtime.errors import TableError
from engines.registry import available_games, get_game


def test_every_option_names_a_field_of_its_games_config() -> None:
    for game in available_games():
        spec = get_game(game)
        assert "seats" in spec.config_type.model_fields, game
        for option in spec.options:
            assert option.name in OPTION_ORDER, (game, option)
            assert option.field in spec.config_type.model_fields, (game, option)


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


@pytest.mark.parametrize("game", ["bigtwo", "holdem", "draw", "duel"])
@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
def test_every_option_refuses_just_outside_its_limits_naming_it_and_the_range(
    game: str, lang: str
) -> None:
    spec = get_game(game)
    for option in offered(game):
        field, low, high = option_limits(spec, option)
        for value in (low - 1, high + 1) if high is not None else (low - 1,):
            with pytest.raises(TableError) as refused:
                table_setup(spec, {option: value}, lang)
            text = refusal_text(refused.value, lang)
            assert refused.value.code == ("option_range" if high is not None else "option_too_low")
            assert option_name(option, lang) in text and f"{low}" in text, text
            assert high is None or f"{high}" in text, text
            if option not in ("seats", "turn_seconds"):  # the engine refuses it as well
                with pytest.raises(ValidationError):
                    spec.make_config(**{field: value})


def test_the_limits_are_the_seat_range_the_config_fields_and_the_table_options() -> None:
    holdem, draw = get_game("holdem"), get_game("draw")
    assert option_limits(holdem, "seats") == ("seats", 2, 9)
    assert option_limits(draw, "stack") == (
        "cave_unit",
        *field_limits(draw.config_type, "cave_unit"),
    )
    assert option_limits(draw, "turn_seconds") == ("turn_seconds", 0, None)
    with pytest.raises(TableError) as refused:
        option_limits(get_game("bigtwo"), "ante")
    assert refused.value.code == "option_not_offered"
