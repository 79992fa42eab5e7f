"""`deucebot --help` and the other commands' parsing import no game's face and no trainer:
the trainers `deucebot train` offers are looked up only when `train` is parsed or its help
shown; they are still listed there and an unknown one is still refused in one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import contextlib, io, json, sys
from bot.cli import build_parser
argv = json.loads(sys.argv[1])
with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
    build_parser().parse_args(argv)
print(json.dumps(sorted(sys.modules)))
"""

TRAINING = (
    "bot.commands.train_bigtwo",
    "bot.commands.train_bigtwo_pg",
    "bot.commands.train_holdem",
    "bot.commands.train_duel",
    "engines.ai.bigtwo_train",
    "engines.ai.bigtwo_pg_train",
    "engines.ai.holdem_train",
    "engines.ai.duel_solve",
    "numpy",
)
FACES = ("bot.render.bigtwo", "bot.render.holdem", "bot.render.draw", "bot.render.duel")


def _imported_after_parsing(argv: list[str]) -> set[str]:
    """The modules a fresh interpreter holds after `deucebot ARGV` is parsed."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(argv)],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return set(json.loads(done.stdout))


@pytest.mark.parametrize(
    "argv",
    [["--help"], ["play", "--help"], ["play", "bigtwo", "--seed", "3"], ["simulate", "--help"]],
)
def test_parsing_imports_no_trainer_and_no_face(argv: list[str]) -> None:
    modules = _imported_after_parsing(argv)
    assert "bot.cli" in modules
    assert modules.isdisjoint(TRAINING + FACES), sorted(modules & {*TRAINING, *FACES})


def _deucebot(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_train_still_lists_and_checks_its_trainers() -> None:
    from bot.cli import build_parser

    assert build_parser().parse_args(["train", "bigtwo-pg"]).game == "bigtwo-pg"
    shown = _deucebot("train", "--help")
    assert shown.returncode == 0
    assert "Trainers the games declare: bigtwo, bigtwo-hands, bigtwo-pg, duel, holdem." in (
        shown.stdout
    )
    refused = _deucebot("train", "nope")
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.splitlines() == [
        "deucebot train: argument game: invalid choice: 'nope' (choose from 'bigtwo', "
        "'bigtwo-hands', 'bigtwo-pg', 'duel', 'holdem') (see deucebot train --help)"
    ]
