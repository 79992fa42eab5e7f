"""Big Two's levels against the sparring pool: duplicate deals (every deal once with the
candidate in each seat), the levels-by-opponents table, `deucebot simulate --levels`."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.cli import main
from bot.commands import pool as pool_module
from bot.commands.pool import (
    BIGTWO_POOL,
    LineUp,
    duplicate_lineup,
    levels_markdown,
    ratio_of_means,
    seed_list,
)
from engines.bigtwo import SPEC


def test_a_duplicate_deal_is_the_same_cards_in_every_seat() -> None:
    # Greedy against greedy is deterministic: if the four plays of each deal are the same
    # cards, the candidate's four seats together pay exactly what an average other seat
    # pays, deal by deal, and the ratio is exactly 1 with no spread at all.
    lineup = duplicate_lineup(SPEC, "greedy", "greedy", 6, seed=2)
    assert lineup.result.n == 24 and lineup.group == 4
    ratio = lineup.penalty_ratio()
    assert ratio.mean == pytest.approx(1.0)
    assert ratio.high - ratio.low == pytest.approx(0.0, abs=1e-12)
    # ... while the deals themselves differ (a deal-by-deal ratio would not be 1).
    pens = lineup.result.samples[0]["penalty_per_deal"]
    assert len(set(pens)) > 1


def test_a_duplicate_line_up_separates_players_of_different_strength() -> None:
    lineup = duplicate_lineup(SPEC, "greedy", "random", 8, seed=3)
    ratio = lineup.penalty_ratio()
    assert ratio.high < 1  # greedy pays less than random on the same cards
    assert len(lineup.result.decision_ms[0]) > 0


def test_the_levels_table_marks_line_ups_not_run() -> None:
    easy = [duplicate_lineup(SPEC, "easy", o, 1, seed=1) for o in ("greedy", "random")]
    normal = [duplicate_lineup(SPEC, "strong", "greedy", 1, seed=1)]
    table = levels_markdown(SPEC, {"normal": normal, "easy": easy}).splitlines()
    assert table[0] == "| level (policy) | vs 3x `greedy` | vs 3x `random` | p50 / p99 ms |"
    assert table[2].startswith("| easy (`easy`) | ")  # levels in their order
    assert table[3].startswith("| normal (`strong`) | ") and "| not run |" in table[3]


def test_cli_simulates_every_level_against_the_pool(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "bigtwo", "--levels", "-n", "1", "--against", "greedy", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data["levels"]) == ["easy", "normal", "hard"]
    assert all([u["opponent"] for u in data["levels"][lv]] == ["greedy"] for lv in data["levels"])
    assert BIGTWO_POOL == ("greedy", "net", "pg", "strong2", "hard3")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "bigtwo", "-n", "1"], "--players is needed"),
        (["simulate", "duel", "--levels", "-n", "1"], "--levels measures penalties per deal"),
        (["simulate", "bigtwo", "--levels", "--players", "hard"], "leave out --players"),
        (["simulate", "bigtwo", "--levels", "--against", "wizard"], "no AI policy 'wizard'"),
        (["simulate", "bigtwo", "--levels", "-n", "0", "--against", "greedy"], "-n must be"),
        (["simulate", "bigtwo", "--levels", "hard,expert", "-n", "1"], "no level 'expert'"),
    ],
)
def test_cli_refuses_bad_level_runs(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_cli_measures_the_levels_named_and_times_decisions_by_the_clock_asked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["simulate", "bigtwo", "--levels", "easy", "-n", "1", "--against", "greedy"]
    assert main([*argv, "--json"]) == 0
    assert list(json.loads(capsys.readouterr().out)["levels"]) == ["easy"]
    assert main([*argv, "--cpu-time"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert [row.split(" | ")[0] for row in table[2:]] == ["| easy (`easy`)"]


def test_duplicate_deals_time_decisions_by_the_clock_given() -> None:
    ticks = iter(range(10**6))
    # Every reading of this clock is one second after the last: each decision takes 1,000 ms.
    lineup = duplicate_lineup(SPEC, "greedy", "random", 2, seed=3, clock=lambda: next(ticks))
    times = [ms for slot in lineup.result.decision_ms for ms in slot]
    assert times and set(times) == {1000.0}


def by_hand(lineups: list[LineUp]) -> dict[str, float]:
    """The pooled line-up's ratio and penalty per deal from the single-seed runs' per-deal
    figures: each duplicate deal's four plays summed, the deals of every run in one sample."""
    mine: list[float] = []
    theirs: list[float] = []
    plays: list[float] = []
    for lineup in lineups:
        samples = lineup.result.samples
        own = samples[0]["penalty_per_deal"]
        others = [
            sum(samples[s]["penalty_per_deal"][i] for s in (1, 2, 3)) / 3 for i in range(len(own))
        ]
        mine += [sum(own[i : i + 4]) for i in range(0, len(own), 4)]
        theirs += [sum(others[i : i + 4]) for i in range(0, len(others), 4)]
        plays += own
    ratio = ratio_of_means(mine, theirs)
    return {
        "ratio": round(ratio.mean, 4),
        "low": round(ratio.low, 4),
        "high": round(ratio.high, 4),
        "penalty": round(sum(plays) / len(plays), 4),
        "plays": len(plays),
    }


def test_seeds_pool_each_seeds_deals_into_one_line_up(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "bigtwo", "--levels", "easy", "-n", "3", "--against", "greedy"]
    assert main([*argv, "--seeds", "5-6", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seeds"] == [5, 6] and data["n"] == 3 and "seed" not in data
    (got,) = data["levels"]["easy"]
    singles = [duplicate_lineup(SPEC, "easy", "greedy", 3, seed=s) for s in (5, 6)]
    want = by_hand(singles)
    assert got["penalty_ratio"] == {"mean": want["ratio"], "low": want["low"], "high": want["high"]}
    assert got["penalty_per_deal"]["mean"] == want["penalty"]
    assert got["decision_ms"]["decisions"] == sum(len(u.result.decision_ms[0]) for u in singles)
    # Pooled, not one seed's deals twice: each seed alone reads otherwise.
    assert all(by_hand([u])["ratio"] != want["ratio"] for u in singles)
    # The table says which seeds and counts the deals of all of them.
    assert main([*argv, "--seeds", "5,6"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Seeds 5-6 pooled: the first 3 duplicate deals of each, 6 per line-up."
    assert lines[3].startswith(f"| easy (`easy`) | {want['ratio']:.3f} [{want['low']:.3f}, ")
    assert "] (6) |" in lines[3]


def test_a_single_seed_run_prints_as_before(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "bigtwo", "--levels", "easy", "-n", "1", "--against", "greedy"]
    assert main([*argv, "--seed", "5", "--json"]) == 0
    assert list(json.loads(capsys.readouterr().out)) == ["seed", "n", "levels"]
    assert main([*argv, "--seed", "5"]) == 0
    assert capsys.readouterr().out.startswith("| level (policy) |")


@pytest.mark.parametrize(
    ("seeds", "message"),
    [
        ("8-4", "--seeds: the range '8-4' runs backwards"),
        ("4,x", "not 'x'"),
        ("4-", "not '4-'"),
        ("-3", "not '-3'"),
        ("4,٣", "not '٣'"),
        ("4-6,5", "names seed 5 twice"),
        ("7", "--seeds pools two seeds or more: for one, --seed 7"),
    ],
)
def test_cli_refuses_bad_seeds_naming_them(
    seeds: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["simulate", "bigtwo", "--levels", "easy", "-n", "1", "--against", "greedy"]
    assert main([*argv, "--seeds", seeds]) == 2
    err = capsys.readouterr()
    assert message in err.err and err.out == ""


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "greedy,greedy,greedy,greedy", "--seeds", "4-5"], "add --levels"),
        (["--levels", "easy", "--seed", "4", "--seeds", "4-5"], "leave out --seed"),
    ],
)
def test_cli_refuses_seeds_outside_a_levels_run(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "bigtwo", "-n", "1", *argv]) == 2
    assert message in capsys.readouterr().err


@given(st.lists(st.integers(0, 10**6), min_size=2, max_size=8, unique=True), st.data())
def test_a_seed_list_reads_back_as_written(seeds: list[int], data: st.DataObject) -> None:
    assert seed_list(",".join(map(str, seeds))) == seeds
    first = data.draw(st.integers(0, 10**6))
    more = data.draw(st.integers(1, 50))
    assert seed_list(f"{first}-{first + more}") == list(range(first, first + more + 1))
    assert seed_list(f" {first} - {first + more} ,{first + more + 1}")[-1] == first + more + 1


def _without_timings(data: dict[str, object]) -> dict[str, object]:
    """A `--levels --json` output with its decision times left out (they vary run to run)."""
    levels = data["levels"]
    assert isinstance(levels, dict)
    return {
        **data,
        "levels": {
            level: [{k: v for k, v in u.items() if k != "decision_ms"} for u in lineups]
            for level, lineups in levels.items()
        },
    }


def test_jobs_run_the_line_ups_side_by_side_with_the_same_figures(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["simulate", "bigtwo", "--levels", "easy,normal", "-n", "2", "--seeds", "5-6"]
    argv += ["--against", "greedy,random", "--cpu-time", "--json"]
    assert main(argv) == 0
    alone = json.loads(capsys.readouterr().out)

    def not_here(*args: object, **kwargs: object) -> None:
        raise AssertionError("with --jobs 2 no line-up runs in this process")

    monkeypatch.setattr(pool_module, "duplicate_lineup", not_here)
    assert main([*argv, "--jobs", "2"]) == 0
    side_by_side = json.loads(capsys.readouterr().out)
    assert _without_timings(side_by_side) == _without_timings(alone)
    # Every line-up was run (two levels, two opponents), its decisions all counted.
    assert [[u["opponent"] for u in side_by_side["levels"][lv]] for lv in ("easy", "normal")] == [
        ["greedy", "random"]
    ] * 2
    counts = [u["decision_ms"]["decisions"] for lv in alone["levels"].values() for u in lv]
    assert counts == [
        u["decision_ms"]["decisions"] for lv in side_by_side["levels"].values() for u in lv
    ]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--levels", "easy", "--jobs", "0"], "--jobs must be at least 1, not 0"),
        (["--players", "greedy,greedy,greedy,greedy", "--jobs", "2"], "add --levels"),
    ],
)
def test_cli_refuses_jobs_it_cannot_run(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "bigtwo", "-n", "1", "--against", "greedy", *argv]) == 2
    err = capsys.readouterr()
    assert message in err.err and err.out == ""
