"""`deucebot simulate`: the shared harness and its JSON contract (docs/simulate.md)."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.cli import main
from bot.commands.simulate import Interval, percentile, simulate, wilson
from engines.registry import get_game


def test_interval_is_mean_plus_minus_1_96_standard_errors() -> None:
    samples = [1.0, 2.0, 3.0, 4.0]
    iv = Interval.of(samples)
    sd = math.sqrt(sum((x - 2.5) ** 2 for x in samples) / 3)
    assert iv.mean == pytest.approx(2.5)
    assert iv.low == pytest.approx(2.5 - 1.96 * sd / 2)
    assert iv.high == pytest.approx(2.5 + 1.96 * sd / 2)
    assert math.isinf(Interval.of([1.0]).high)
    assert math.isnan(Interval.of([]).mean)


def test_a_rate_gets_the_wilson_score_interval() -> None:
    # Published values: 5 successes in 10 trials give [0.2366, 0.7634].
    iv = Interval.of([1.0] * 5 + [0.0] * 5, rate=True)
    assert (iv.mean, round(iv.low, 4), round(iv.high, 4)) == (0.5, 0.2366, 0.7634)
    # 0 of n has the closed form [0, z^2 / (n + z^2)]; n of n mirrors it.
    z2 = 1.96**2
    assert wilson(0.0, 3) == pytest.approx((0.0, z2 / (3 + z2)))
    assert wilson(1.0, 3) == pytest.approx((3 / (3 + z2), 1.0))
    # The normal interval of the same tiny sample leaves [0, 1]; the Wilson one never does.
    tiny = [1.0, 0.0, 0.0]
    assert Interval.of(tiny).low < 0 < Interval.of(tiny, rate=True).low


@given(st.integers(1, 10_000), st.data())
def test_wilson_stays_in_0_1_and_holds_the_observed_rate(n: int, data: st.DataObject) -> None:
    successes = data.draw(st.integers(0, n))
    rate = successes / n
    low, high = wilson(rate, n)
    assert 0.0 <= low <= rate <= high <= 1.0
    assert low < high


def test_simulate_reports_rates_inside_0_1_even_for_three_deals() -> None:
    data = simulate(get_game("bigtwo"), ["strong", "greedy", "greedy", "greedy"], n=3).to_json()
    for seat in data["seats"]:
        iv = seat["win_rate"]
        assert 0.0 <= iv["low"] <= iv["mean"] <= iv["high"] <= 1.0


def test_percentile_by_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50
    assert percentile(values, 99) == 99
    assert percentile(values, 100) == 100
    assert math.isnan(percentile([], 50))


def test_simulate_counts_units_and_follows_the_contract() -> None:
    result = simulate(get_game("duel"), ["strong", "random"], n=6, seed=3, rotate=True)
    data = result.to_json()
    assert data["game"] == "duel" and data["unit"] == "match" and data["n"] == 6
    assert [seat["policy"] for seat in data["seats"]] == ["strong", "random"]
    for seat in data["seats"]:
        for figure in ("match_win_rate", "chips_per_deal"):
            assert set(seat[figure]) == {"mean", "low", "high"}
            assert seat[figure]["low"] <= seat[figure]["mean"] <= seat[figure]["high"]
        assert seat["decision_ms"]["decisions"] > 0
    # One winner per match: the two win rates add up to one.
    rates = [seat["match_win_rate"]["mean"] for seat in data["seats"]]
    assert sum(rates) == pytest.approx(1.0)


def test_simulate_is_reproducible_from_the_seed() -> None:
    spec = get_game("bigtwo")
    first = simulate(spec, ["greedy", "random", "random", "random"], n=3, seed=11)
    again = simulate(spec, ["greedy", "random", "random", "random"], n=3, seed=11)
    assert first.samples == again.samples


def test_rotation_moves_every_policy_through_the_seats() -> None:
    spec = get_game("bigtwo")
    # With rotation and one deal per match, slot 0 sits at seat 0, 3, 2, 1 in turn;
    # without it, a fixed seating repeats. The samples differ between the two.
    fixed = simulate(spec, ["greedy"] * 4, n=8, seed=5, rotate=False)
    rotated = simulate(spec, ["greedy"] * 4, n=8, seed=5, rotate=True)
    totals_fixed = [sum(s["penalty_per_deal"]) for s in fixed.samples]
    totals_rotated = [sum(s["penalty_per_deal"]) for s in rotated.samples]
    assert sum(totals_fixed) == sum(totals_rotated)  # the same deals are played
    assert totals_fixed != totals_rotated


def test_cli_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "duel", "-n", "2", "--players", "honest,random", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["n"] == 2 and len(data["seats"]) == 2


def test_against_a_pool_plays_paired_line_ups(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "bigtwo", "-n", "6", "--seed", "3", "--players", "greedy"]
    assert main([*argv, "--against", "random,greedy,greedy", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [lineup["opponent"] for lineup in data["lineups"]] == ["random", "greedy", "greedy"]
    against_random, once, again = data["lineups"]
    assert against_random["penalty_ratio"]["mean"] < 1  # greedy beats random
    low, high = against_random["penalty_ratio"]["low"], against_random["penalty_ratio"]["high"]
    assert low < against_random["penalty_ratio"]["mean"] < high
    # Every line-up plays the same deals: the same line-up twice gives the same figures.
    for figure in ("penalty_ratio", "penalty_per_deal", "win_rate", "edge"):
        assert once[figure] == again[figure]
    assert against_random["decision_ms"]["decisions"] > 0


def test_draw_against_a_pool_plays_duplicate_deals(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "draw", "-n", "100", "--seed", "3", "--players", "strong"]
    assert main([*argv, "--against", "strong_v1,rock,rock", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["candidate"] == "strong" and data["unit"] == "deal"
    mirror, once, again = data["lineups"]
    assert [mirror["opponent"], once["opponent"]] == ["strong_v1", "rock"]
    # Each seat in turn on the same cards: a policy against copies of itself makes nothing.
    assert mirror["chips_per_deal"]["mean"] == 0 and mirror["deals"] == 100
    assert once["chips_per_deal"] == again["chips_per_deal"]
    assert once["decision_ms"]["p99"] >= once["decision_ms"]["p50"] > 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "chess", "-n", "2", "--players", "a,b"], "there is no game 'chess'"),
        (["simulate", "duel", "-n", "2", "--players", "strong,wizard"], "no AI policy 'wizard'"),
        (["simulate", "duel", "-n", "0", "--players", "strong,random"], "-n must be at least 1"),
        (
            ["simulate", "duel", "-n", "1", "--players", "strong,random,random"],
            "duel takes 2 players, not 3",
        ),
        (
            ["simulate", "holdem", "-n", "1", "--players", "strong"],
            "holdem takes 2-9 players, not 1",
        ),
        (
            ["simulate", "duel", "-n", "1", "--players", "strong", "--against", "honest"],
            "--against: duel has no sparring pool",
        ),
        (
            [
                "simulate",
                "holdem",
                "-n",
                "1",
                "--players",
                "hard",
                "--against",
                "rock",
                "--seats",
                "11",
            ],
            "holdem takes 2-9 players, not 11 (--seats)",
        ),
        (
            ["simulate", "bigtwo", "-n", "1", "--players", "strong,hard", "--against", "net"],
            "--against needs one candidate",
        ),
        (
            ["simulate", "bigtwo", "-n", "1", "--players", "hard", "--against", "net,wizard"],
            "no AI policy 'wizard'",
        ),
    ],
)
def test_cli_refuses_bad_input_with_a_specific_message(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err
