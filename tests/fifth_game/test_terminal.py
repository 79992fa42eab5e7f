"""High Card played whole in the terminal (`deucebot play highcard` as a child process),
then read back by the commands that read a database: history, leaderboard, stats; and its
pictures drawn by `deucebot gallery`. The child loads the game from this package only
(`DEUCEBOT_EXTRA_GAMES`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bot.terminal import ROOT, Terminal, is_prompt

EXTRA = {"DEUCEBOT_EXTRA_GAMES": "tests.fifth_game.plugin"}


def deucebot(*args: str) -> subprocess.CompletedProcess[str]:
    """`deucebot ARGS` in a child with the fifth game registered."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), **EXTRA}
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )


def test_a_whole_match_in_the_terminal_then_its_history_board_and_stats(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    db = tmp_path / "hc.sqlite3"
    with monkeypatch.context() as patched:  # the child's environment only
        patched.setenv(*next(iter(EXTRA.items())))
        term = Terminal(
            "highcard", "--seed", "3", "--seats", "3", "--deals", "3", "--db", str(db),
            "--ai-delay", "0",
        )  # fmt: skip
    try:
        moves = 0
        while True:
            seen = term.read_until(lambda s: is_prompt(s) or s.startswith("Run the same"), 60)
            if seen[-1].startswith("Run the same"):
                break
            term.type("stay" if moves % 2 == 0 else "coucher")  # French words read too
            moves += 1
        term.rest(20)
    finally:
        term.close()
    text = "\n".join(term.lines)
    assert moves >= 1
    assert "Your card: #1 " in text and "Stay (one more ante of 5) or fold?" in text
    assert "You stay." in text
    assert "The match is over" in text
    assert text.count("High Card · deal 3 of 3") >= 1

    history = deucebot("history", "--db", str(db), "--format", "json")
    assert history.returncode == 0, history.stderr
    data = json.loads(history.stdout)
    (match,) = data["matches"]
    assert match["game"] == "highcard" and len(match["deals"]) == 3
    assert all(deal["deck"] for deal in match["deals"])  # seeded per deal: decks shown
    phh = deucebot("history", "--db", str(db), "--format", "phh")
    assert phh.returncode != 0 and "hold'em" in (phh.stderr + phh.stdout)

    board = deucebot("leaderboard", "highcard", "--db", str(db))
    assert board.returncode == 0, board.stderr
    assert "You" in board.stdout
    stats = deucebot("stats", "terminal", "--db", str(db), "--game", "highcard")
    assert stats.returncode == 0, stats.stderr
    assert "High Card" in stats.stdout


def test_the_gallery_draws_the_fifth_game_with_alt_text(tmp_path: Path) -> None:
    done = deucebot("gallery", str(tmp_path), "--game", "highcard", "--lang", "fr")
    assert done.returncode == 0, done.stderr
    names = sorted(p.name for p in tmp_path.glob("*.png"))
    for seats in (2, 4):
        for moment in ("opening", "mid-deal", "showdown", "match-end", "hand"):
            assert f"highcard-{seats}-{moment}.png" in names, names
    alt = (tmp_path / "highcard-4-showdown.txt").read_text(encoding="utf-8")
    assert "Donne" in alt and "Pot" in alt, alt
