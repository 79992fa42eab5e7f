"""`deucebot bench ratings`: Kendall tau-b, the simulated season (seeded, small), and the
reads at scale on a small database."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from deucebot_dev.bench.ratings import (
    DUEL,
    build_database,
    kendall_tau_b,
    simulated_season,
    time_reads,
)


def test_kendall_tau_b_on_known_rankings() -> None:
    assert kendall_tau_b([1, 2, 3, 4], [10, 20, 30, 40]) == 1.0
    assert kendall_tau_b([1, 2, 3, 4], [40, 30, 20, 10]) == -1.0
    assert kendall_tau_b([1, 2, 3], [1, 3, 2]) == pytest.approx(1 / 3)
    # Ties in the true order (two members of one policy) do not count against a ranking.
    assert kendall_tau_b([1, 2, 3, 4], [0, 0, 1, 1]) == pytest.approx(4 / (6 * 4) ** 0.5)


def test_a_short_duel_season_ranks_strong_over_honest_over_random() -> None:
    season = simulated_season("duel", DUEL, 2, 40, seed=24)
    assert len(season.taus) == 40 and season.taus[-1] == 1.0
    order = sorted(season.final, key=lambda m: -season.final[m].conservative)
    assert order == ["strong", "honest", "rand"]
    assert season.best == 1.0 and season.settled_after(1.0) is not None
    assert all(r.matches > 0 for r in season.final.values())


def test_the_best_tau_with_members_of_one_policy_is_below_one() -> None:
    from deucebot_dev.bench.ratings import BIG_TWO, Season

    season = Season("bigtwo", 24, BIG_TWO, 0, [], {})
    assert season.best == pytest.approx(12 / (15 * 12) ** 0.5)  # 3 tied pairs of 15


def test_reads_at_scale_run_on_a_small_database(tmp_path: Path) -> None:
    path = build_database(tmp_path / "s.sqlite3", 300, members=8)
    timings = asyncio.run(time_reads(path, 1))
    assert set(timings) == {
        "leaderboard totals",
        "leaderboard totals, week",
        "leaderboard rating",
        "stats",
        "chart render",
    }
    assert all(len(v) == 1 and v[0] > 0 for v in timings.values())


def test_the_match_summary_is_timed_for_two_games() -> None:
    from deucebot_dev.bench.ratings import time_summaries

    timings = time_summaries(1)
    assert len(timings) == 2 and all(len(v) == 1 and v[0] > 0 for v in timings.values())


def test_the_scale_database_holds_the_running_sums_of_its_rows(tmp_path: Path) -> None:
    """The benchmark reads boards from `board_days`: they are the boards its raw rows give
    (summed from the rows as for a database at an older schema)."""
    from storage.backend import open_storage

    path = build_database(tmp_path / "s.sqlite3", 200, members=6)

    async def both() -> tuple[object, object]:
        store = await open_storage(path, read_only=True)
        try:
            args = dict(guild="g", game="bigtwo", scoring="penalty", period="all", now=2e9)
            kept = await store.leaderboard(**args)  # type: ignore[arg-type]
            store.schema = 10
            return kept, await store.leaderboard(**args)  # type: ignore[arg-type]
        finally:
            await store.close()

    kept, raw = asyncio.run(both())
    assert kept == raw and len(kept.humans) == 6  # type: ignore[attr-defined]
