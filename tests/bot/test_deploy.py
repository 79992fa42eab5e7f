"""deploy/deucebot.service: what it promises (restart on failure but not on a refused
setting, SIGTERM within the bot's shutdown limit, the working directory that holds .env),
and `systemd-analyze verify` on it where the machine has systemd."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.discord.app import SHUTDOWN_LIMIT

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "deploy" / "deucebot.service"


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(UNIT.read_text())
    return parser


def test_the_unit_restarts_on_failure_and_stops_with_sigterm() -> None:
    service = unit()["Service"]
    assert service["Restart"] == "on-failure"
    assert service["RestartPreventExitStatus"] == "2"  # bot.discord.app: a refused setting
    assert service["KillSignal"] == "SIGTERM"
    assert float(service["TimeoutStopSec"]) > SHUTDOWN_LIMIT
    assert service["ExecStart"].endswith("/.venv/bin/python -m bot")
    folder = service["WorkingDirectory"]
    assert service["ExecStart"].startswith(folder) and service["ReadWritePaths"] == folder


def test_systemd_analyze_verifies_the_unit(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed on this machine (no systemd): not verified")
    # The unit as installed for a checkout in tmp_path, with this environment's Python.
    text = UNIT.read_text().replace("/srv/deucebot/.venv/bin/python", sys.executable)
    installed = tmp_path / "deucebot.service"
    installed.write_text(text.replace("/srv/deucebot", str(tmp_path)))
    done = subprocess.run(
        [analyze, "verify", str(installed)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr
