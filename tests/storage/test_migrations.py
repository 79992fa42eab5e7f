"""Numbered migrations: an empty database and a database at every earlier version all reach
the latest schema (same tables, columns, indexes, triggers), keeping their data."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from storage import CannotOpenDatabase
from storage.migrate import (
    APPLICATION_ID,
    Identity,
    known_tables,
    latest_version,
    migrate,
    migrations,
    recognise,
    schema_version,
)
from storage.sqlite import SqliteStorage


def schema(path: Path) -> dict[str, object]:
    """Tables with their columns (name, type, not-null, default, pk), plus index and
    trigger names: what must match whatever path a database took to the latest version."""
    with sqlite3.connect(path) as db:
        names = db.execute(
            "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name"
        ).fetchall()
        out: dict[str, object] = {"objects": names}
        for kind, name in names:
            if kind == "table":
                out[name] = db.execute(f"PRAGMA table_info({name})").fetchall()
        out["version"] = db.execute("PRAGMA user_version").fetchone()[0]
    return out


async def at_version(path: Path, version: int) -> None:
    async with aiosqlite.connect(path, isolation_level=None) as db:
        assert await migrate(db, target=version) == version


def test_versions_are_contiguous() -> None:
    found = migrations()
    assert [m.version for m in found] == list(range(1, len(found) + 1))
    assert latest_version() == len(found) >= 4
    for m in found:
        assert m.statements(), m.name


async def test_empty_database_reaches_the_latest_version(tmp_path: Path) -> None:
    storage = SqliteStorage(str(tmp_path / "new.sqlite3"))
    await storage.open()
    assert await schema_version(storage.db) == latest_version()
    async with storage.db.execute("PRAGMA journal_mode") as cursor:
        assert (await cursor.fetchone())[0] == "wal"
    async with storage.db.execute("PRAGMA foreign_keys") as cursor:
        assert (await cursor.fetchone())[0] == 1
    async with storage.db.execute("PRAGMA application_id") as cursor:
        assert (await cursor.fetchone())[0] == APPLICATION_ID
    async with storage.db.execute("PRAGMA synchronous") as cursor:
        assert (await cursor.fetchone())[0] == 2, "FULL by default: nothing acknowledged is lost"
    await storage.close()


@pytest.mark.parametrize("start", range(1, 4))
async def test_every_older_version_upgrades_in_place(tmp_path: Path, start: int) -> None:
    fresh = tmp_path / "fresh.sqlite3"
    storage = SqliteStorage(str(fresh))
    await storage.open()
    await storage.close()

    old = tmp_path / f"v{start}.sqlite3"
    await at_version(old, start)
    with sqlite3.connect(old) as db:
        db.execute(
            "INSERT INTO tables (guild, place, game, status, created_at)"
            " VALUES ('g', 'p', 'bigtwo', 'playing', 1.0)"
        )
    with sqlite3.connect(old) as db:
        assert db.execute("PRAGMA application_id").fetchone()[0] == 0  # written before 004
    upgraded = SqliteStorage(str(old))
    await upgraded.open()
    assert await schema_version(upgraded.db) == latest_version()
    async with upgraded.db.execute("PRAGMA application_id") as cursor:
        assert (await cursor.fetchone())[0] == APPLICATION_ID
    assert [t.place for t in await upgraded.live_tables()] == ["p"]
    await upgraded.close()
    assert schema(old) == schema(fresh)


async def test_a_failing_migration_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "half.sqlite3"
    await at_version(path, 1)
    import storage.migrate as module

    real = module.migrations()
    broken = [
        *real[:2],
        module.Migration(3, "003_broken.sql", "CREATE TABLE x (a);\nSELEC nonsense;\n"),
    ]
    monkeypatch.setattr(module, "migrations", lambda folder=None: broken)
    async with aiosqlite.connect(path, isolation_level=None) as db:
        with pytest.raises(sqlite3.OperationalError):
            await migrate(db)
        assert await schema_version(db) == 1
    with sqlite3.connect(path) as db:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
    assert "deals" not in names and "x" not in names


async def test_a_newer_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {latest_version() + 1}")
    async with aiosqlite.connect(path, isolation_level=None) as db:
        with pytest.raises(CannotOpenDatabase, match="newer than this program"):
            await migrate(db)


def test_each_version_has_its_own_tables() -> None:
    assert known_tables(1) == {"tables", "seats", "matches", "match_players", "actions"}
    assert known_tables(2) == known_tables(1) | {"deals", "chip_ledger", "penalty_ledger"}
    assert known_tables(latest_version()) >= known_tables(2)


@pytest.mark.parametrize(
    ("found", "version"),
    [
        (Identity(0, 0, frozenset()), 0),  # a new, empty file
        (Identity(0, 1, known_tables(1)), 1),  # written before 004: known by its tables
        (Identity(0, 3, known_tables(3)), 3),
        (Identity(APPLICATION_ID, 4, frozenset({"anything"})), 4),  # ours by its id
    ],
)
def test_deucebot_databases_are_recognised(found: Identity, version: int) -> None:
    assert recognise(found, "f.db") == version


@pytest.mark.parametrize(
    ("found", "message"),
    [
        (Identity(0x1234, 0, frozenset()), "another program (SQLite application id 0x1234)"),
        (Identity(0, 0, frozenset({"tables"})), "another program's SQLite database"),
        (Identity(0, 1, frozenset({"tables"})), "another program's SQLite database"),
        (Identity(0, 2, known_tables(1)), "another program's SQLite database"),  # wrong set
        (Identity(0, 7, frozenset()), "another program's SQLite database"),
        (Identity(APPLICATION_ID, latest_version() + 1, frozenset()), "newer Deucebot"),
    ],
)
def test_other_files_are_refused(found: Identity, message: str) -> None:
    with pytest.raises(CannotOpenDatabase, match=re.escape(message)):
        recognise(found, "f.db")


def test_read_only_needs_data_it_can_read() -> None:
    with pytest.raises(CannotOpenDatabase, match="holds no Deucebot data yet"):
        recognise(Identity(0, 0, frozenset()), "f.db", read_only=True)
    with pytest.raises(CannotOpenDatabase, match=r"old schema \(version 1\): run `deucebot play`"):
        recognise(Identity(0, 1, known_tables(1)), "f.db", read_only=True)
    assert recognise(Identity(0, 2, known_tables(2)), "f.db", read_only=True) == 2
