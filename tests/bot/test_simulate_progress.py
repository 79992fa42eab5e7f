"""`deucebot simulate` shows its progress on a terminal: a bar on stderr when stderr is a
terminal (a pseudo-terminal here, the child process's own), never with --json, never on a
pipe, and stdout stays the result alone."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from bot.commands.progress import ProgressBar, terminal_bar

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["simulate", "duel", "-n", "40", "--players", "random,random"]


def run_on_a_terminal(*extra: str) -> tuple[str, str]:
    """`deucebot simulate` with stderr on a pseudo-terminal: (stdout, what the terminal got)."""
    main, child = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", *ARGS, *extra],
        stdout=subprocess.PIPE,
        stderr=child,
        cwd=ROOT,
        env=env,
    )
    os.close(child)
    out, _ = process.communicate(timeout=120)
    seen = b""
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:  # the child closed its end
            break
        if not chunk:
            break
        seen += chunk
    os.close(main)
    assert process.returncode == 0, seen
    return out.decode(), seen.decode()


def test_a_terminal_sees_the_bar_and_stdout_only_the_result() -> None:
    out, shown = run_on_a_terminal()
    assert "match 40/40" in shown and "100%" in shown, shown
    assert "[" + "#" * 30 + "]" in shown, shown
    assert out.startswith("duel: 40 matches") and "#" not in out, out


def test_json_output_never_has_a_bar() -> None:
    out, shown = run_on_a_terminal("--json")
    assert shown == "", shown
    assert out.lstrip().startswith("{")


def test_a_pipe_gets_no_bar() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", *ARGS],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
        check=True,
    )
    assert done.stderr == ""


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("total", [1, 3, 7, 250, 10_000])
def test_the_bar_redraws_at_most_once_per_percent_and_ends_full(total: int) -> None:
    stream = _Terminal()
    bar = terminal_bar(stream, total, "deal")
    assert isinstance(bar, ProgressBar)
    for done in range(1, total + 1):
        bar.update(done)
    bar.finish()
    draws = stream.getvalue().split("\r")[1:]
    assert 1 <= len(draws) <= 101
    assert draws[-1] == f"[{'#' * 30}] 100%  deal {total}/{total}\n"
    assert terminal_bar(stream, total, "deal", wanted=False) is None
    assert terminal_bar(io.StringIO(), total, "deal") is None
