"""`deucebot verify` refuses what it cannot read with one clear line and exit status 2."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import aiosqlite
import pytest

from bot.cli import main
from storage.migrate import latest_version, migrate


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(["verify", *argv])
    return status, capsys.readouterr().out


def test_needs_exactly_one_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert run(capsys) == (2, "deucebot verify: give either a JSON export or --db PATH\n")
    both = run(capsys, str(tmp_path / "x.json"), "--db", str(tmp_path / "x.sqlite3"))
    assert both[0] == 2


def test_a_missing_database_or_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "none.sqlite3"
    assert run(capsys, "--db", str(db)) == (2, f"deucebot verify: there is no database at {db}\n")
    assert not db.exists()  # read-only: nothing created
    status, out = run(capsys, str(tmp_path / "none.json"))
    assert status == 2 and out.startswith("deucebot verify: cannot read")


def test_a_file_that_is_not_an_export(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"format": "something else"}))
    assert run(capsys, str(path)) == (
        2,
        "deucebot verify: not a match export: the format field must be 'deucebot-match/1'\n",
    )
    path.write_text(json.dumps({"format": "deucebot-match/1", "game": "bigtwo"}))
    status, out = run(capsys, str(path))
    assert status == 2 and "a field is missing or malformed: KeyError('config')" in out


def test_export_needs_a_database_and_a_match(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out = run(capsys, "--db", str(tmp_path / "x.sqlite3"), "--export", "out.json")
    assert (status, out) == (2, "deucebot verify: --export needs --db PATH and --match N\n")


async def _old_database(path: Path) -> None:
    async with aiosqlite.connect(path, isolation_level=None) as db:
        await migrate(db, target=3)


def test_a_database_not_yet_upgraded(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    asyncio.run(_old_database(db))
    status, out = run(capsys, "--db", str(db))
    assert (status, out) == (
        2,
        f"deucebot verify: the database is at schema version 3, not {latest_version()}: "
        "start the bot once on it to upgrade it\n",
    )
