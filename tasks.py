#!/usr/bin/env python3
"""Set-up commands that work on a fresh machine with nothing but Python.

    python3 tasks.py play [ARGS...]   install (once) and play Big Two in the terminal
                                      (with no ARGS; with options only, such as --web,
                                      `deucebot play bigtwo OPTIONS`), or run
                                      `deucebot ARGS...`
    python3 tasks.py test             install (once) and run lint, type checks and tests

The virtual environment lives in .venv and is (re)installed whenever
pyproject.toml changes.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")


TEST_LIMIT = 1500
"""Seconds the test run may take in all (it takes 1-2 minutes): past that something hangs
outside any one test (each test has its own limit in pyproject.toml), and the run stops
red instead of holding CI."""


def _run(*cmd: str | Path, limit: float | None = None) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    # A session of its own, so that on timeout its whole process group (pytest's
    # workers, anything a test started) can be stopped.
    child = subprocess.Popen([str(c) for c in cmd], cwd=ROOT, start_new_session=True)
    try:
        returncode = child.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        print(f"tasks.py: stopped after {limit:.0f} s: {cmd[0]} did not finish", flush=True)
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        sys.exit(124)
    except KeyboardInterrupt:
        os.killpg(child.pid, signal.SIGINT)
        sys.exit(child.wait())
    if returncode != 0:
        sys.exit(returncode)


DEV_PACKAGE = ROOT / "deucebot_dev"
"""The development tools (Discord stand-in, benchmarks, throwaway PostgreSQL): a package of
their own, never in the bot's wheel, installed beside it with the `dev` extra."""


def ensure_venv(extras: str) -> None:
    """Create .venv if missing and install the project with `extras` when out of date (with
    the `dev` extra, the development package too)."""
    if not PY.exists():
        venv.EnvBuilder(with_pip=True).create(VENV)
    projects = [ROOT / "pyproject.toml"]
    if extras == "dev":
        projects.append(DEV_PACKAGE / "pyproject.toml")
    read = b"".join(path.read_bytes() for path in projects)
    digest = hashlib.sha256(read + extras.encode()).hexdigest()
    stamp = VENV / f".installed-{extras or 'base'}"
    if stamp.exists() and stamp.read_text() == digest:
        return
    _run(PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    target = f".[{extras}]" if extras else "."
    dev = ["-e", str(DEV_PACKAGE)] if extras == "dev" else []
    _run(PY, "-m", "pip", "install", "--quiet", "-e", target, *dev)
    stamp.write_text(digest)


def deucebot_args(args: list[str]) -> list[str]:
    """The `deucebot` command line of `tasks.py play ARGS`: Big Two against the AI with no
    ARGS or options only (`play --web`, `play --seed 3`), else ARGS as they are."""
    if not args or args[0].startswith("-"):
        return ["play", "bigtwo", *args]
    return args


def main(argv: list[str]) -> None:
    """Dispatch `play` or `test`."""
    if not argv or argv[0] not in {"play", "test"}:
        print(__doc__)
        sys.exit(2)
    if argv[0] == "play":
        ensure_venv("")
        args = deucebot_args(argv[1:])
        os.execv(str(BIN / "deucebot"), [str(BIN / "deucebot"), *args])
    ensure_venv("dev")
    sources = ("engines", "bot", "storage", "deucebot_dev", "tests", "tasks.py")
    _run(BIN / "ruff", "check", *sources)
    _run(BIN / "ruff", "format", "--check", *sources)
    _run(BIN / "mypy", "engines", "storage", "bot", "deucebot_dev")
    # worksteal: an idle worker takes queued tests from the busy one, so the slowest tests
    # (whole matches in a browser) do not leave one core idle at the end of the run.
    pytest = ("-m", "pytest", "-q", "-n", "2", "--dist", "worksteal", "-p", "no:cacheprovider")
    _run(PY, *pytest, *argv[1:], limit=TEST_LIMIT)


if __name__ == "__main__":
    main(sys.argv[1:])
