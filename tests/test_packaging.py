"""`pip install .` ships the product and nothing else: the wheel built from this checkout
holds the product packages pyproject.toml lists, with their data, and no development tool
(the Discord stand-in, the benchmarks, the throwaway PostgreSQL server live in
`deucebot_dev`, a package of their own)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from importlib.metadata import version
from pathlib import Path

from tests.packages import DEV_PACKAGE, ROOT, product_packages

DEV_TOOLS = (
    f"{DEV_PACKAGE}/",
    "bot/devtools/",
    "bot/bench/",
    "storage/pg_server.py",
)
"""Where development tools live now, and where they lived before they left the product."""


def _build_wheel(tmp_path: Path) -> Path:
    """Build the wheel of a copy of the checkout (setuptools writes build/ and *.egg-info
    beside the sources) offline, with the environment's setuptools."""
    installed = version("setuptools")
    assert int(installed.split(".")[0]) >= 77, (
        f"setuptools {installed} cannot build this project: the dev extra asks for 77 or "
        "later (python3 tasks.py test reinstalls it)"
    )
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    for folder in ROOT.iterdir():
        if (folder / "__init__.py").is_file():  # every package of the checkout, dev tools too
            shutil.copytree(
                folder,
                source / folder.name,
                ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc"),
            )
    out = tmp_path / "wheels"
    offline = ("--no-deps", "--no-build-isolation", "--no-index")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", *offline, "-w", str(out), str(source)],
        check=True,
        cwd=tmp_path,
    )
    (wheel,) = out.glob("deucebot-*.whl")
    return wheel


def test_the_wheel_ships_the_product_and_no_development_tool(tmp_path: Path) -> None:
    assert (ROOT / DEV_PACKAGE / "__init__.py").is_file()  # the copy had it to leave out
    with zipfile.ZipFile(_build_wheel(tmp_path)) as wheel:
        names = wheel.namelist()
        (entry_points,) = [name for name in names if name.endswith(".dist-info/entry_points.txt")]
        scripts = wheel.read(entry_points).decode()
    tops = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert tops == set(product_packages()) == {"bot", "engines", "storage"}
    shipped_tools = [name for name in names if name.startswith(DEV_TOOLS)]
    assert shipped_tools == []
    # The product itself is whole: its modules, catalogs, fonts, migrations, the command.
    for needed in (
        "bot/cli.py",
        "bot/discord/one_write.py",
        "engines/bigtwo.py",
        "storage/sqlite.py",
        "bot/locales/en/console.json",
        "storage/migrations/010_guild_settings.sql",
    ):
        assert needed in names
    assert any(name.startswith("bot/pictures/fonts/") for name in names)
    # The AI levels' shipped tables and weights, and the web table's page and files.
    shipped = [p.relative_to(ROOT).as_posix() for p in (ROOT / "engines" / "ai").glob("*.npz")]
    shipped += [
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "bot" / "web" / "static").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    ]
    assert shipped and [name for name in shipped if name not in names] == []
    assert "deucebot = bot.cli:main" in scripts
