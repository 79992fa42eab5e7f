"""The repository's packages as pyproject.toml declares them, for the tests that check the
layout (the wheel, the import graph, docs/architecture.md)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

DEV_PACKAGE = "deucebot_dev"
"""The development tools' package: in the repository, never in the bot's wheel."""


def product_packages() -> tuple[str, ...]:
    """The top-level product packages: what `pip install .` ships, read from pyproject.toml's
    package list (`[tool.setuptools.packages.find] include`, e.g. "bot*" -> "bot")."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    return tuple(sorted({pattern.rstrip("*").rstrip(".") for pattern in include}))
