"""`python3 tasks.py play ARGS`: the `deucebot` command line it runs (README's set-up)."""

from __future__ import annotations

import importlib.util
from types import ModuleType

from tests.packages import ROOT


def tasks() -> ModuleType:
    """tasks.py, loaded from the repository's root (it is a script, not a package)."""
    spec = importlib.util.spec_from_file_location("tasks", ROOT / "tasks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_options_alone_play_big_two_and_a_command_runs_as_given() -> None:
    args = tasks().deucebot_args
    assert args([]) == ["play", "bigtwo"]
    # README's browser command: `python3 tasks.py play --web`.
    assert args(["--web"]) == ["play", "bigtwo", "--web"]
    assert args(["--web", "--seed", "3"]) == ["play", "bigtwo", "--web", "--seed", "3"]
    assert args(["play", "holdem", "--web"]) == ["play", "holdem", "--web"]
    assert args(["simulate", "bigtwo", "-n", "10"]) == ["simulate", "bigtwo", "-n", "10"]
