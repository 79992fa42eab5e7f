"""Ratings from the terminal: matches played through the runtime (the terminal front)
update the terminal player's rating; `deucebot leaderboard --by rating`, `deucebot ratings
rebuild` and `deucebot stats --chart` read it back."""

from __future__ import annotations

import asyncio
import io
import sqlite3
from pathlib import Path

import pytest
from PIL import Image

from bot.cli import main
from bot.terminal.console import Console
from tests.bot.test_console_play import SCRIPT, args_for


def finish_matches(db: Path, count: int) -> None:
    asyncio.run(_finish(db, count))


async def _finish(db: Path, count: int) -> None:
    for _ in range(count):
        console = Console(args_for(db, "--deals", "1"), io.StringIO(SCRIPT), io.StringIO())  # type: ignore[arg-type]
        assert await console.run() == 0


def test_a_finished_match_rates_the_player_and_the_cli_reads_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "r.sqlite3"
    finish_matches(db, 2)
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT season, player_id, rank, mu_before, mu, hash FROM rating_updates ORDER BY id"
        ).fetchall()
    # Two matches, each on the all-time track and the month's; AI seats get no row.
    assert len(rows) == 4 and {r[1] for r in rows} == {"terminal"}
    assert all(r[5] for r in rows) and rows[2][3] == rows[0][4]  # chained; second from first

    assert (
        main(["leaderboard", "bigtwo", "--db", str(db), "--by", "rating", "--min-matches", "2"])
        == 0
    )
    out = capsys.readouterr().out
    assert "Big Two ratings (all time)" in out and "1. You: " in out and "2 matches" in out

    assert main(["ratings", "rebuild", "--db", str(db)]) == 0
    assert "2 ratings rebuilt from the stored results; 0 differ" in capsys.readouterr().out

    chart = tmp_path / "c.png"
    assert main(["stats", "terminal", "--db", str(db), "--chart", str(chart), "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert "2 parties classées" in out and "Graphique des résultats de You à Big Two." in out
    with Image.open(chart) as image:
        assert image.size == (800, 520)


def test_a_rebuild_names_a_rating_that_differs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "r.sqlite3"
    finish_matches(db, 1)
    with sqlite3.connect(db) as conn:  # a rating row changed outside the program
        conn.execute("DROP TRIGGER rating_updates_no_update")
        conn.execute("UPDATE rating_updates SET mu = mu + 1 WHERE season = ''")
    assert main(["ratings", "rebuild", "--db", str(db)]) == 1
    out = capsys.readouterr().out
    assert "differs: terminal bigtwo all time terminal" in out and "1 differ" in out
