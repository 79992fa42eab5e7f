"""`deucebot simulate ... --json` prints strict JSON: an interval with no bound (a single
sample) is null, never Python's ``Infinity`` or ``NaN``, which strict parsers (``jq``,
JavaScript's ``JSON.parse``) refuse."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.cli import main
from bot.commands.simulate import finite


def strict(text: str) -> Any:
    """`text` parsed as JSON proper: ``Infinity``, ``-Infinity`` and ``NaN`` refused."""

    def refuse(word: str) -> None:
        raise ValueError(f"not JSON: {word}")

    return json.loads(text, parse_constant=refuse)


ONE_SAMPLE = [
    ["simulate", "bigtwo", "-n", "1", "--players", "greedy,greedy,random,random"],
    ["simulate", "holdem", "-n", "1", "--players", "rock,calling"],
    ["simulate", "draw", "-n", "1", "--players", "rock,calling"],
]
"""A plain run of one unit (deal or hand): every interval of an average has one sample (a
duel's match is many deals, each a sample)."""

EVERY_MODE = [
    *ONE_SAMPLE,
    ["simulate", "duel", "-n", "1", "--players", "honest,random"],
    ["simulate", "bigtwo", "-n", "1", "--players", "greedy", "--against", "random"],
    ["simulate", "holdem", "-n", "2", "--players", "rock", "--against", "calling", "--seats", "2"],
    ["simulate", "draw", "-n", "1", "--players", "rock", "--against", "calling"],
    ["simulate", "bigtwo", "--levels", "easy", "-n", "1", "--against", "greedy"],
]


def mode(argv: list[str]) -> str:
    """A test id: the game and the options that pick the mode."""
    return "-".join([argv[1], *(a for a in argv[2:] if a in ("--against", "--levels"))])


@pytest.mark.parametrize("argv", EVERY_MODE, ids=mode)
def test_every_json_output_is_strict_json(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, "--json"]) == 0
    strict(capsys.readouterr().out)


@pytest.mark.parametrize("argv", ONE_SAMPLE, ids=lambda argv: argv[1])
def test_a_single_samples_interval_is_null(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, "--json"]) == 0
    seats = strict(capsys.readouterr().out)["seats"]
    averages = [
        figure
        for seat in seats
        for name, figure in seat.items()
        if isinstance(figure, dict) and "mean" in figure and not name.endswith("_rate")
    ]
    assert averages  # every game has an average besides its rates
    for figure in averages:
        assert figure["low"] is None and figure["high"] is None
        assert isinstance(figure["mean"], int | float)  # the mean itself is known


def test_a_levels_ratio_over_one_deal_is_null(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "bigtwo", "--levels", "easy", "-n", "1", "--against", "greedy", "--json"]
    assert main(argv) == 0
    (lineup,) = strict(capsys.readouterr().out)["levels"]["easy"]
    # One duplicate deal: no spread to take an interval over.
    assert lineup["penalty_ratio"] == {"mean": None, "low": None, "high": None}


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=12,
)


@given(JSONISH)
def test_finite_keeps_every_finite_value_and_nulls_the_rest(data: Any) -> None:
    def same(a: Any, b: Any) -> bool:
        if isinstance(a, float) and not math.isfinite(a):
            return b is None
        if isinstance(a, dict):
            return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
        if isinstance(a, list):
            return isinstance(b, list) and len(a) == len(b) and all(map(same, a, b))
        return type(a) is type(b) and a == b

    cleaned = finite(data)
    assert same(data, cleaned)
    json.dumps(cleaned, allow_nan=False)  # strict JSON now
