"""Big Two's levels against the sparring pool: duplicate deals (every deal once with the
candidate in each seat), the levels-by-opponents table, `deucebot simulate --levels`."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.commands.pool import BIGTWO_POOL, duplicate_lineup, levels_markdown
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
