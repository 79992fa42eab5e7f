"""The `deucebot` processes refuse what they cannot use with one line and exit at once:
bad database files and paths (play, leaderboard and the bot), an unreachable PostgreSQL
server or another URL scheme, a database held by another
Deucebot, bad settings and flags. Ctrl-C at the prompt ends the game at once."""

from __future__ import annotations

import contextlib
import os
import pty
import select
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from deucebot_dev.pg_server import free_port
from storage import SqliteStorage
from tests.processes import watchdog

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 30.0
"""Seconds a refusing process may take (it takes well under one; a hang is the bug)."""

PLAY = ["play", "bigtwo", "--ai-delay", "0", "--ai", "greedy", "--seed", "3"]


WITHOUT_OVERRIDES = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner"]
"""Run as root, but as bound by file modes as any user: without the capabilities that let
root write a read-only file or folder. The process keeps root's uid, so it still reaches
the checkout and its .venv wherever the clone lives (a private folder included), which
another uid could not."""


def environment(**extra: str) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEUCEBOT_", "DEV_"))
    }
    return {**env, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1", **extra}


def deucebot(
    args: list[str], cwd: Path, env: dict[str, str] | None = None, user: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run `deucebot ARGS` (or `python -m bot` for ["bot"]) with stdin closed; bound by
    file permissions when `user` (see `WITHOUT_OVERRIDES`)."""
    command = (
        [sys.executable, "-m", "bot"]
        if args == ["bot"]
        else [sys.executable, "-m", "bot.cli", *args]
    )
    if user and os.geteuid() == 0:
        command = [*WITHOUT_OVERRIDES, *command]
    return subprocess.run(
        command,
        cwd=cwd,
        env=env or environment(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=LIMIT,
    )


def one_line(result: subprocess.CompletedProcess[str], *, code: int = 2) -> str:
    """The single stderr line of a refusal (no traceback, nothing else)."""
    lines = result.stderr.strip().splitlines()
    assert result.returncode == code, (result.returncode, result.stderr)
    assert len(lines) == 1 and lines[0].startswith("deucebot"), result.stderr
    return lines[0]


def random_bytes(folder: Path) -> Path:
    path = folder / "x.db"
    path.write_bytes(os.urandom(8192))
    return path


def text_file(folder: Path) -> Path:
    path = folder / "x.db"
    path.write_text("hello\n" * 300)
    return path


def other_program(folder: Path) -> Path:
    path = folder / "x.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE tables (legs INTEGER)")
    db.close()
    return path


def newer(folder: Path) -> Path:
    path = folder / "x.db"
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA application_id = 1148543845")
        db.execute("PRAGMA user_version = 999")
    db.close()
    return path


BAD: dict[str, tuple[Callable[[Path], Path], str]] = {
    "random bytes": (random_bytes, "is not a SQLite database"),
    "a text file": (text_file, "is not a SQLite database"),
    "/dev/null": (lambda folder: Path(os.devnull), "is not a regular file"),
    "another program's": (other_program, "another program's SQLite database"),
    "a newer Deucebot": (newer, "written by a newer Deucebot"),
    "a folder": (lambda folder: folder, "is a folder"),
}


@pytest.mark.parametrize("command", ["play", "leaderboard", "bot"])
@pytest.mark.parametrize("kind", list(BAD))
def test_a_bad_database_is_one_line_and_a_prompt_exit(
    tmp_path: Path, kind: str, command: str
) -> None:
    make, message = BAD[kind]
    path = make(tmp_path)
    before = path.read_bytes() if path.is_file() and kind != "/dev/null" else None
    if command == "bot":
        env = environment(DISCORD_TOKEN="x", DEUCEBOT_DB=str(path))
        result = deucebot(["bot"], tmp_path, env)
    else:
        args = PLAY if command == "play" else ["leaderboard", "bigtwo"]
        result = deucebot([*args, "--db", str(path)], tmp_path)
    assert message in one_line(result)
    if before is not None:
        assert path.read_bytes() == before


@pytest.mark.parametrize("command", ["play", "leaderboard", "history", "bot"])
def test_an_unreachable_postgresql_url_is_one_line_without_the_password(
    tmp_path: Path, command: str
) -> None:
    url = f"postgresql://bot:s3cret@127.0.0.1:{free_port()}/deucebot"
    if command == "bot":
        result = deucebot(["bot"], tmp_path, environment(DISCORD_TOKEN="x", DEUCEBOT_DB=url))
    else:
        args = {"play": PLAY, "leaderboard": ["leaderboard", "bigtwo"], "history": ["history"]}
        result = deucebot([*args[command], "--db", url], tmp_path)
    line = one_line(result)
    assert "cannot connect to PostgreSQL at postgresql://bot:***@127.0.0.1:" in line
    assert "s3cret" not in result.stderr + result.stdout


@pytest.mark.parametrize("command", ["play", "bot"])
def test_another_url_scheme_is_one_line(tmp_path: Path, command: str) -> None:
    url = "mysql://bot@127.0.0.1/deucebot"
    if command == "bot":
        result = deucebot(["bot"], tmp_path, environment(DISCORD_TOKEN="x", DEUCEBOT_DB=url))
    else:
        result = deucebot([*PLAY, "--db", url], tmp_path)
    assert "unsupported database URL scheme 'mysql'" in one_line(result)
    assert list(tmp_path.iterdir()) == []


def test_a_missing_folder_is_named(tmp_path: Path) -> None:
    line = one_line(deucebot([*PLAY, "--db", str(tmp_path / "no" / "x.db")], tmp_path))
    assert f"the folder {tmp_path / 'no'} does not exist: create it" in line
    assert not (tmp_path / "no").exists()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_read_only_files_and_folders_are_named(tmp_path: Path) -> None:
    read_only = tmp_path / "ro.db"
    read_only.touch()
    read_only.chmod(0o444)
    folder = tmp_path / "locked"
    folder.mkdir()
    (folder / "x.db").touch()
    (folder / "x.db").chmod(0o666)
    folder.chmod(0o555)
    line = one_line(deucebot([*PLAY, "--db", str(read_only)], tmp_path, user=True))
    assert f"{read_only} is read-only: make it writable" in line
    for path in (folder / "x.db", folder / "new.db"):
        line = one_line(deucebot([*PLAY, "--db", str(path)], tmp_path, user=True))
        assert f"the folder {folder} is read-only" in line
    assert read_only.read_bytes() == b"" and sorted(p.name for p in folder.iterdir()) == ["x.db"]


async def test_a_second_deucebot_on_one_database_is_refused_naming_the_first(
    tmp_path: Path,
) -> None:
    path = tmp_path / "shared.db"
    async with SqliteStorage(str(path)):
        line = one_line(deucebot([*PLAY, "--db", str(path)], tmp_path))
        assert f"in use by another Deucebot (pid {os.getpid()}: " in line
        env = environment(DISCORD_TOKEN="x", DEUCEBOT_DB=str(path))
        assert f"(pid {os.getpid()}: " in one_line(deucebot(["bot"], tmp_path, env))
        # A read-only command works while the database is held.
        board = deucebot(["leaderboard", "bigtwo", "--db", str(path)], tmp_path)
        assert board.returncode == 0 and "No results yet." in board.stdout, board.stderr


def test_leaderboard_reads_a_database_a_game_holds_without_changing_it(tmp_path: Path) -> None:
    path = tmp_path / "live.db"
    game = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", *PLAY, "--db", str(path)],
        cwd=tmp_path,
        env=environment(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert game.stdin is not None and game.stdout is not None
    with watchdog(game, LIMIT):
        for line in game.stdout:
            if line.startswith(">"):
                break
        second = deucebot([*PLAY, "--db", str(path)], tmp_path)
        assert f"(pid {game.pid}: " in one_line(second)
        board = deucebot(["leaderboard", "bigtwo", "--db", str(path)], tmp_path)
        assert board.returncode == 0 and "Leaderboard: bigtwo" in board.stdout, board.stderr
        game.stdin.write("quit\n")
        game.stdin.flush()
        assert game.wait(LIMIT) == 0
    assert "Saved. Run the same command again to resume." in game.stdout.read()


@pytest.mark.parametrize(
    ("setting", "value", "allowed"),
    [
        ("DEUCEBOT_AI_DELAY", "abc", "a number of seconds from 0 to 60"),
        ("DEUCEBOT_AI_DELAY", "inf", "a number of seconds from 0 to 60"),
        ("DEUCEBOT_TURN_SECONDS", "-3", "a whole number of seconds from 0 (off) to 3600"),
        ("DEUCEBOT_LOG_LEVEL", "LOUD", "one of DEBUG, INFO, WARNING, ERROR, CRITICAL"),
        ("DEUCEBOT_DB_SYNCHRONOUS", "sometimes", "full"),
    ],
)
@pytest.mark.parametrize("command", ["play", "bot"])
def test_a_bad_setting_names_itself_and_what_it_allows(
    tmp_path: Path, command: str, setting: str, value: str, allowed: str
) -> None:
    env = environment(**{setting: value, "DISCORD_TOKEN": "x"})
    result = deucebot(PLAY if command == "play" else ["bot"], tmp_path, env)
    line = one_line(result)
    assert line.startswith(f"deucebot: {setting}=") and allowed in line
    assert list(tmp_path.iterdir()) == [], "nothing was created"


@pytest.mark.parametrize("value", ["inf", "1e308", "-1", "nan", "abc"])
def test_a_bad_ai_delay_flag_is_refused(tmp_path: Path, value: str) -> None:
    args = ["play", "bigtwo", "--db", str(tmp_path / "x.db"), "--ai-delay", value]
    line = one_line(deucebot(args, tmp_path))
    assert line == (
        f"deucebot play: argument --ai-delay: {value} is not allowed: use a number of seconds "
        "from 0 to 60 (see deucebot play --help)"
    )
    assert not (tmp_path / "x.db").exists()


def test_a_bad_turn_seconds_flag_is_refused(tmp_path: Path) -> None:
    line = one_line(deucebot([*PLAY, "--turn-seconds", "-3"], tmp_path))
    assert "--turn-seconds: -3 is not allowed: use a whole number of seconds from 0" in line


def interrupt_at_the_prompt(args: list[str], cwd: Path) -> tuple[int, str, float]:
    """Run `deucebot ARGS` on a terminal, press Ctrl-C at its first prompt; its exit code,
    what it printed after Ctrl-C, and how long it took to exit."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: become deucebot
        os.chdir(cwd)
        os.execve(sys.executable, [sys.executable, "-m", "bot.cli", *args], environment())
    status: int | None = None
    try:
        seen, deadline = b"", time.monotonic() + LIMIT
        while b"> " not in seen and time.monotonic() < deadline:
            if select.select([fd], [], [], 0.5)[0]:
                seen += os.read(fd, 4096)
        assert b"> " in seen, seen.decode(errors="replace")
        pressed = time.monotonic()
        os.write(fd, b"\x03")
        after = b""
        while status is None and time.monotonic() < pressed + LIMIT:
            if select.select([fd], [], [], 0.05)[0]:
                with contextlib.suppress(OSError):  # the child closed the terminal
                    after += os.read(fd, 4096)
            done, code = os.waitpid(pid, os.WNOHANG)
            status = code if done else None
        assert status is not None, "still running after Ctrl-C"
        exited = time.monotonic() - pressed
        while select.select([fd], [], [], 0.05)[0]:  # what is left in the terminal
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            after += chunk
        return os.waitstatus_to_exitcode(status), after.decode(errors="replace"), exited
    finally:
        if status is None:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        os.close(fd)


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX terminal")
def test_ctrl_c_at_the_prompt_ends_at_once_and_says_it_is_saved(tmp_path: Path) -> None:
    path = tmp_path / "cc.db"
    code, after, seconds = interrupt_at_the_prompt([*PLAY, "--db", str(path)], tmp_path)
    assert code == 130 and seconds < 10
    assert "Saved. Run the same command again to resume." in after
    assert "Traceback" not in after
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM matches").fetchone()[0] == 1
    db.close()


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX terminal")
@pytest.mark.parametrize("db", [[], ["--db", ":memory:"]], ids=["no --db", ":memory:"])
def test_ctrl_c_without_a_file_says_it_is_not_saved(tmp_path: Path, db: list[str]) -> None:
    code, after, seconds = interrupt_at_the_prompt([*PLAY, *db], tmp_path)
    assert code == 130 and seconds < 10
    assert "This match was not saved" in after and "Saved." not in after
