"""The terminal front on the runtime: scripted play through a pipe, specific refusals that
change nothing, resume after a kill, and the leaderboard."""

from __future__ import annotations

import io
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from bot.cli import build_parser
from bot.terminal.console import Console, _leaderboard
from tests.processes import watchdog

ROOT = Path(__file__).resolve().parents[2]
# When leading, "1" plays the lowest card (3♦ when opening); otherwise "1" is usually
# refused and "pass" follows: every pair of lines makes progress.
SCRIPT = "1\npass\n" * 200


def args_for(db: Path, *extra: str) -> object:
    return build_parser().parse_args(
        [
            "play",
            "bigtwo",
            "--db",
            str(db),
            "--seed",
            "4",  # a deal where the first hint is a play of cards, not a pass
            "--ai-delay",
            "0",
            "--ai",
            "greedy",
            *extra,
        ]
    )


async def play(db: Path, text: str, *extra: str) -> str:
    out = io.StringIO()
    console = Console(args_for(db, *extra), io.StringIO(text), out)  # type: ignore[arg-type]
    assert await console.run() == 0
    return out.getvalue()


def actions(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM actions").fetchone()[0])


async def test_a_scripted_match_plays_to_the_end(tmp_path: Path) -> None:
    db = tmp_path / "play.sqlite3"
    output = await play(db, SCRIPT, "--deals", "2")
    assert "\x1b[" not in output, "colour codes on a pipe"
    assert "Your hand (13): #1 " in output
    assert "Play order: You → " in output
    assert output.count("wins the deal. Penalties:") == 2
    assert "Match over: " in output
    assert "Run the same command again to play another match." in output
    with sqlite3.connect(db) as conn:
        (status,) = conn.execute("SELECT status FROM tables").fetchone()
        humans = conn.execute("SELECT count(*) FROM actions WHERE seat = 0 AND actor = 'human'")
        assert humans.fetchone()[0] > 0
        penalties = conn.execute("SELECT count(*) FROM penalty_ledger").fetchone()[0]
    assert status == "finished" and penalties == 8


async def test_bad_input_is_refused_specifically_and_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "bad.sqlite3"
    await play(db, "")  # start the match, save, stop
    before = actions(db)
    output = await play(db, "zz\n14\n3d 3d\nplay\nhelp\nhint\nquit\n")
    assert actions(db) == before
    refusals = [line for line in output.splitlines() if line.startswith("Refused: ")]
    assert len(refusals) == 4
    assert "there is no card number 14" in output.lower() or "no card number 14" in output
    assert "Hint: " in output and "hint (suggests a play)" in output
    hint = next(line for line in output.splitlines() if line.startswith("Hint: "))
    assert re.search(r"[♦♣♥♠]", hint) and not re.search(r"\b[2-9TJQKA][DCHS]\b", hint), hint
    assert f"Resuming the saved match at turn {before}" in output


async def test_without_db_a_temporary_database_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    args = build_parser().parse_args(["play", "bigtwo", "--seed", "1", "--ai-delay", "0"])
    console = Console(args, io.StringIO("quit\n"), out)
    assert await console.run() == 0
    # The match was played (your cards dealt) and quit typed at once is answered at once.
    assert "You are dealt: " in out.getvalue()
    assert list(tmp_path.iterdir()) == []
    # Nothing was kept, so the goodbye must not promise a resume.
    assert "not saved: play with --db FILE" in out.getvalue()
    assert "Run the same command again to resume" not in out.getvalue()


async def test_with_db_quitting_says_the_match_is_saved(tmp_path: Path) -> None:
    output = await play(tmp_path / "kept.sqlite3", "quit\n")
    assert output.rstrip().endswith("Saved. Run the same command again to resume.")


async def test_leaderboard_lists_the_terminal_player(tmp_path: Path) -> None:
    db = tmp_path / "board.sqlite3"
    await play(db, SCRIPT, "--deals", "1")
    args = build_parser().parse_args(["leaderboard", "bigtwo", "--db", str(db)])
    text = await _leaderboard(args)
    assert "Leaderboard: bigtwo, all time" in text
    assert "Not ranked yet (fewer than 10 deals)" in text
    assert "You" in text and "AI seats" in text
    missing = build_parser().parse_args(["leaderboard", "bigtwo", "--db", str(tmp_path / "no.db")])
    assert "No database at" in await _leaderboard(missing)


def test_killed_process_resumes_where_it_stopped(tmp_path: Path) -> None:
    db = tmp_path / "kill.sqlite3"
    command = [
        sys.executable,
        "-m",
        "bot.cli",
        "play",
        "bigtwo",
        "--db",
        str(db),
        "--seed",
        "9",
        "--ai-delay",
        "0",
        "--ai",
        "greedy",
        "--deals",
        "3",
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
        env=env,
    )
    assert child.stdin is not None and child.stdout is not None
    prompts = 0
    with watchdog(child, 60):
        for line in child.stdout:
            if line.startswith(">"):
                prompts += 1
                if prompts == 8:
                    break
                child.stdin.write("1\n" if prompts % 2 else "pass\n")
                child.stdin.flush()
    assert prompts == 8, "the game stopped asking before the 8th prompt"
    time.sleep(0.05)
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)
    done = actions(db)
    assert done > 0
    resumed = subprocess.run(
        command, input="quit\n", capture_output=True, text=True, cwd=ROOT, env=env, timeout=60
    )
    assert f"Resuming the saved match at turn {done}" in resumed.stdout
    assert actions(db) == done


async def test_in_memory_is_not_called_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    output = await play(Path(":memory:"), "quit\n")
    assert "This match was not saved" in output and "Saved." not in output
    assert list(tmp_path.iterdir()) == []


async def test_a_resumed_match_names_the_flags_it_does_not_follow(tmp_path: Path) -> None:
    db = tmp_path / "kept.sqlite3"
    await play(db, "quit\n", "--deals", "3")
    output = await play(db, "quit\n", "--deals", "1", "--seats", "2", "--turn-seconds", "0")
    notice = [line for line in output.splitlines() if "keeps its own settings" in line]
    assert notice == [
        "This saved match keeps its own settings: --seats 4 (you asked for 2); --deals 3 "
        "(you asked for 1). Finish it, or use another --db, to play with yours."
    ]
    assert "Resuming the saved match" in output
    # Flags that agree with the saved match (or are not given) are not named.
    again = await play(db, "quit\n", "--deals", "3", "--ai", "greedy")
    assert "keeps its own settings" not in again


async def test_the_ai_level_is_chosen_with_dash_dash_ai_and_shown_with_the_board(
    tmp_path: Path,
) -> None:
    db = tmp_path / "level.sqlite3"
    output = await play(db, "quit\n", "--ai", "easy")
    assert "AI: easy" in output
    with sqlite3.connect(db) as conn:
        (options,) = conn.execute("SELECT options FROM tables").fetchone()
        policies = {row[0] for row in conn.execute("SELECT policy FROM seats WHERE seat > 0")}
    assert '"ai_level": "easy"' in options or '"ai_level":"easy"' in options
    assert policies == {"easy"}
    default = await play(tmp_path / "normal.sqlite3", "quit\n", "--ai", "normal")
    assert "AI: normal" in default


def seat_names(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [row[0] for row in conn.execute("SELECT name FROM seats ORDER BY seat")]


async def test_the_default_name_is_you_in_the_tables_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEUCEBOT_LANGUAGE", "uk")
    db = tmp_path / "play.sqlite3"
    await play(db, "quit\n")
    assert seat_names(db)[0] == "Ви"
    # Resumed in another language, the seat keeps the name it was stored with.
    monkeypatch.setenv("DEUCEBOT_LANGUAGE", "fr")
    await play(db, "quit\n")
    assert seat_names(db)[0] == "Ви"
    named = tmp_path / "named.sqlite3"
    await play(named, "quit\n", "--name", "You")
    assert seat_names(named)[0] == "You"
    await play(tmp_path / "fr.sqlite3", "quit\n")
    assert seat_names(tmp_path / "fr.sqlite3")[0] == "Vous"


class Peek(io.StringIO):
    """A script that notes what the temporary directory holds whenever a line is read."""

    def __init__(self, text: str, temp: Path) -> None:
        super().__init__(text)
        self.temp = temp
        self.seen: list[list[str]] = []

    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]  # as typeshed
        self.seen.append(sorted(os.listdir(self.temp)))
        return super().readline(size)


async def test_a_named_database_makes_no_temporary_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--db` names where the table lives: nothing is made in the temporary directory while
    `play` runs (a process killed there used to leave an empty ``deucebot-*`` behind);
    without it the table lives in a temporary directory that is gone once `play` returns."""
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    db = tmp_path / "named.sqlite3"
    named = Peek("quit\n", temp)
    console = Console(args_for(db), named, io.StringIO())  # type: ignore[arg-type]
    assert await console.run() == 0
    assert named.seen and all(listing == [] for listing in named.seen) and db.exists()
    unnamed = Peek("quit\n", temp)
    args = build_parser().parse_args(["play", "bigtwo", "--ai-delay", "0", "--ai", "greedy"])
    assert await Console(args, unnamed, io.StringIO()).run() == 0
    assert unnamed.seen and all(
        len(listing) == 1 and listing[0].startswith("deucebot-") for listing in unnamed.seen
    )
    assert list(temp.iterdir()) == []
