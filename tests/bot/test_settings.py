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

from bot.process.settings import (
    AiDelay,
    Settings,
    TurnSeconds,
    cli_type,
    describe_error,
    load_settings,
)

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
        (  # infinite
            {"DEUCEBOT_SHARD_LEASE_SECONDS": "inf"},
            "DEUCEBOT_SHARD_LEASE_SECONDS=inf is not allowed: "
            "use a number of seconds from 2 to 3600",
        ),
        (  # a fraction where a whole number is due
            {"DEUCEBOT_REST_PER_SECOND": "1.5"},
            "DEUCEBOT_REST_PER_SECOND=1.5 is not allowed: use a whole number from 1 to 50",
        ),
        (  # not a number, for a whole number
            {"DEUCEBOT_MAX_TABLES_PER_SERVER": "many"},
            "DEUCEBOT_MAX_TABLES_PER_SERVER=many is not allowed: "
            "use a whole number from 0 (no cap) to 10000",
        ),
        (  # just above the top
            {"DEUCEBOT_HINT_COOLDOWN": 3600.5},
            "DEUCEBOT_HINT_COOLDOWN=3600.5 is not allowed: use a number of seconds from 0 to 3600",
        ),
        (  # just below the bottom
            {"DEUCEBOT_SHARD_LEASE_SECONDS": 1.99},
            "DEUCEBOT_SHARD_LEASE_SECONDS=1.99 is not allowed: "
            "use a number of seconds from 2 to 3600",
        ),
        (
            {"DEUCEBOT_SHARD_COUNT": 4097},
            "DEUCEBOT_SHARD_COUNT=4097 is not allowed: "
            "use a whole number of shards from 1 to 4096 (the same in every process)",
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


def test_bounded_settings_take_their_ends_and_turn_seconds_flags_take_whole_numbers() -> None:
    ends = load_settings(
        DEUCEBOT_SHARD_LEASE_SECONDS=2,
        DEUCEBOT_REST_PER_SECOND=50,
        DEUCEBOT_STATS_COOLDOWN=0,
        DEUCEBOT_CREATE_COOLDOWN="3600",
    )
    assert (ends.shard_lease_seconds, ends.rest_per_second) == (2.0, 50)
    assert (ends.stats_cooldown, ends.create_cooldown) == (0.0, 3600.0)
    with pytest.raises(argparse.ArgumentTypeError, match=r"1\.5 is not allowed: use a whole"):
        cli_type(TurnSeconds)("1.5")


def test_shard_settings_give_the_shards_of_this_process() -> None:
    assert load_settings().shards is None  # not sharded by default
    assert load_settings(DEUCEBOT_SHARD_COUNT=4).shards == (0, 1, 2, 3)
    both = load_settings(DEUCEBOT_SHARD_COUNT=8, DEUCEBOT_SHARD_IDS="5, 0-2")
    assert both.shards == (0, 1, 2, 5)


@pytest.mark.parametrize(
    ("values", "words"),
    [
        ({"DEUCEBOT_SHARD_IDS": "0"}, "DEUCEBOT_SHARD_IDS needs DEUCEBOT_SHARD_COUNT"),
        (
            {"DEUCEBOT_SHARD_COUNT": 2, "DEUCEBOT_SHARD_IDS": "1,2"},
            "names shard 2, but DEUCEBOT_SHARD_COUNT=2 allows 0 to 1",
        ),
        ({"DEUCEBOT_SHARD_COUNT": 2, "DEUCEBOT_SHARD_IDS": "one"}, "shard ids like 0,1 or 2-3"),
        ({"DEUCEBOT_SHARD_COUNT": 4, "DEUCEBOT_SHARD_IDS": "3-1"}, "shard ids like 0,1 or 2-3"),
        ({"DEUCEBOT_SHARD_COUNT": 0}, "DEUCEBOT_SHARD_COUNT=0 is not allowed: use a whole number"),
    ],
)
def test_bad_shard_settings_are_one_line_saying_what_is_wrong(
    values: dict[str, object], words: str
) -> None:
    line = refusal(**values)
    assert words in line and "\n" not in line, line
