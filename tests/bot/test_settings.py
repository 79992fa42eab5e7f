"""Settings: every one is listed in .env.example, bad values are one line naming the
setting and what it allows, and a flag accepts exactly what its setting accepts."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from bot.settings import AiDelay, Settings, TurnSeconds, cli_type, describe_error, load_settings

ROOT = Path(__file__).resolve().parents[2]


def refusal(**values: object) -> str:
    with pytest.raises(ValidationError) as error:
        load_settings(**values)
    return describe_error(error.value)


def test_env_example_lists_every_setting_with_a_valid_value() -> None:
    example = ROOT / ".env.example"
    names = {
        line.lstrip("# ").split("=")[0]
        for line in example.read_text().splitlines()
        if "=" in line and line.lstrip("# ").split("=")[0].isupper()
    }
    aliases = {str(field.validation_alias) for field in Settings.model_fields.values()}
    assert aliases <= names
    settings = Settings(_env_file=example)
    assert settings.db_synchronous == "FULL" and settings.log_level == "INFO"


@pytest.mark.parametrize(
    ("values", "line"),
    [
        (
            {"DEUCEBOT_AI_DELAY": "abc"},
            "DEUCEBOT_AI_DELAY=abc is not allowed: use a number of seconds from 0 to 60",
        ),
        (
            {"DEUCEBOT_TURN_SECONDS": -3},
            "DEUCEBOT_TURN_SECONDS=-3 is not allowed: "
            "use a whole number of seconds from 0 (off) to 3600",
        ),
        (
            {"DEUCEBOT_LOG_LEVEL": "LOUD"},
            "DEUCEBOT_LOG_LEVEL=LOUD is not allowed: "
            "use one of DEBUG, INFO, WARNING, ERROR, CRITICAL",
        ),
        (
            {"DEUCEBOT_AI_PROCESSES": 500},
            "DEUCEBOT_AI_PROCESSES=500 is not allowed: use a whole number from 0 (threads) to 64",
        ),
        (
            {"DEUCEBOT_BOARD_EDIT_SECONDS": "nan"},
            "DEUCEBOT_BOARD_EDIT_SECONDS=nan is not allowed: use a number of seconds from 0 to 60",
        ),
    ],
)
def test_a_bad_value_is_one_line_naming_the_setting(values: dict[str, object], line: str) -> None:
    assert refusal(**values) == line


def test_names_are_read_case_insensitively_where_they_are_words() -> None:
    settings = load_settings(DEUCEBOT_LOG_LEVEL="debug", DEUCEBOT_DB_SYNCHRONOUS=" Normal ")
    assert (settings.log_level, settings.db_synchronous) == ("DEBUG", "NORMAL")


@given(st.floats(allow_nan=True, allow_infinity=True))
def test_the_ai_delay_flag_and_setting_accept_the_same(value: float) -> None:
    allowed = math.isfinite(value) and 0 <= value <= 60
    parse = cli_type(AiDelay)
    try:
        parsed = parse(repr(value))
    except argparse.ArgumentTypeError as error:
        assert not allowed
        assert "is not allowed: use a number of seconds from 0 to 60" in str(error)
    else:
        assert allowed and parsed == value
    try:
        setting = load_settings(DEUCEBOT_AI_DELAY=repr(value)).ai_delay
    except ValidationError:
        assert not allowed
    else:
        assert allowed and setting == value


@given(st.integers(min_value=-(10**6), max_value=10**6))
def test_turn_seconds_are_bounded(value: int) -> None:
    allowed = 0 <= value <= 3600
    try:
        assert cli_type(TurnSeconds)(str(value)) == value and allowed
    except argparse.ArgumentTypeError:
        assert not allowed
