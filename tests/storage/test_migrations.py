"""Numbered migrations, on SQLite and on PostgreSQL (each SQLite migration has its
PostgreSQL twin): an empty database and a database at every earlier version all reach the
latest schema (same tables, columns, indexes, triggers), keeping their data."""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from deucebot_dev.pg_server import TempPostgres
from storage import CannotOpenDatabase
from storage.migrate import (
    APPLICATION_ID,
    MIGRATIONS_PG,
    Identity,
    known_tables,
    latest_version,
    migrate,
    migrations,
    recognise,
    schema_version,
)
from storage.postgres import PostgresStorage, migrate_pg
from storage.postgres import schema_version as pg_schema_version
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


# ------------------------------------------------------------------ PostgreSQL twins


async def pg_schema(url: str) -> dict[str, object]:
    """Columns (name, type, nullable, default), indexes and triggers of the public schema:
    what must match whatever path a PostgreSQL database took to the latest version."""
    conn = await asyncpg.connect(url)
    try:
        columns = await conn.fetch(
            "SELECT table_name, column_name, data_type, is_nullable, column_default"
            " FROM information_schema.columns WHERE table_schema = 'public'"
            " ORDER BY table_name, column_name"
        )
        indexes = await conn.fetch(
            "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1"
        )
        triggers = await conn.fetch(
            "SELECT tgname, tgrelid::regclass::text FROM pg_trigger WHERE NOT tgisinternal"
            " ORDER BY 1"
        )
        version = await pg_schema_version(conn)
    finally:
        await conn.close()
    return {
        "columns": [tuple(r) for r in columns],
        "indexes": [tuple(r) for r in indexes],
        "triggers": [tuple(r) for r in triggers],
        "version": version,
    }


async def pg_at_version(url: str, version: int) -> None:
    conn = await asyncpg.connect(url)
    try:
        assert await migrate_pg(conn, target=version) == version
    finally:
        await conn.close()


def test_every_sqlite_migration_has_its_postgresql_twin() -> None:
    lite = [m.name for m in migrations()]
    pg = [m.name for m in migrations(MIGRATIONS_PG)]
    assert pg == lite, "each storage/migrations/NNN_x.sql needs storage/migrations_pg/NNN_x.sql"


async def test_postgres_empty_database_reaches_the_latest_version(pg_url: str) -> None:
    async with PostgresStorage(pg_url) as storage, storage.pool.acquire() as conn:
        assert await pg_schema_version(conn) == latest_version(MIGRATIONS_PG) >= 3


@pytest.mark.parametrize("start", range(1, 4))
async def test_postgres_older_versions_upgrade_in_place(
    pg_server: TempPostgres, start: int
) -> None:
    fresh = pg_server.create_database(f"fresh_{start}_{os.getpid()}")
    async with PostgresStorage(fresh):
        pass
    old = pg_server.create_database(f"old_{start}_{os.getpid()}")
    await pg_at_version(old, start)
    conn = await asyncpg.connect(old)
    await conn.execute(
        "INSERT INTO tables (guild, place, game, status, created_at)"
        " VALUES ('g', 'p', 'bigtwo', 'playing', 1.0)"
    )
    await conn.close()
    async with PostgresStorage(old) as upgraded:
        assert [t.place for t in await upgraded.live_tables()] == ["p"]
    assert await pg_schema(old) == await pg_schema(fresh)


async def test_postgres_failing_migration_changes_nothing(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    await pg_at_version(pg_url, 1)
    import storage.migrate as module

    real = module.migrations(MIGRATIONS_PG)
    broken = [*real[:2], module.Migration(3, "003_broken.sql", "CREATE TABLE x (a int);\nSELEC 1;")]
    monkeypatch.setattr(module, "migrations", lambda folder=None: broken)
    conn = await asyncpg.connect(pg_url)
    try:
        with pytest.raises(asyncpg.PostgresSyntaxError):
            await migrate_pg(conn)
        assert await pg_schema_version(conn) == 1
        names = {r[0] for r in await conn.fetch("SELECT tablename FROM pg_tables")}
    finally:
        await conn.close()
    assert "deals" not in names and "x" not in names and "actions" in names


async def test_postgres_newer_database_is_refused(pg_url: str) -> None:
    await pg_at_version(pg_url, latest_version(MIGRATIONS_PG))
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("UPDATE schema_version SET version = version + 1")
        with pytest.raises(CannotOpenDatabase, match="newer than this program"):
            await migrate_pg(conn)
    finally:
        await conn.close()


async def test_postgres_concurrent_first_opens_migrate_once(pg_url: str) -> None:
    """Two processes starting on an empty database: one migrates, the other waits, and
    neither fails (the advisory lock)."""
    first, second = PostgresStorage(pg_url), PostgresStorage(pg_url)
    await asyncio.gather(first.open(), second.open())
    async with first.pool.acquire() as conn:
        assert await conn.fetchval("SELECT count(*) FROM schema_version") == 1
        assert await pg_schema_version(conn) == latest_version(MIGRATIONS_PG)
    await first.close()
    await second.close()


# ------------------------------------------------------------------ 013: the buy-in ledger

BUY_IN_ROWS = [
    # (match, seat, player, is_ai, delta, reason): match 1 at 200 a unit, match 2 at 50.
    (1, 0, "ana", 0, 200, "buy-in"),
    (1, 1, "ai:greedy", 1, 200, "buy-in"),
    (1, 0, "ana", 0, -200, "hand"),
    (1, 0, "ana", 0, 400, "rebuy"),
    (1, 1, "ai:greedy", 1, 200, "rebuy"),
    (1, 0, "ana", 0, 300, "hand"),
    (2, 0, "ana", 0, 50, "buy-in"),
    (2, 0, "ana", 0, -25, "hand"),
]
"""A draw player's rows written before 013, with the matches' own configs naming the
unit as draw did (`cave_unit`): what the buy-in ledger must carry over."""


async def _check_carried_over(storage: object) -> None:
    ana = await storage.buy_ins(guild="g", game="draw", player_id="ana")  # type: ignore[attr-defined]
    assert (ana.matches, ana.rebuys, ana.units, ana.chips) == (2, 1, 4, 650)
    assert (ana.net, ana.net_units) == (75, 0.0)
    nobody = await storage.buy_ins(guild="g", game="draw", player_id="ai:greedy")  # type: ignore[attr-defined]
    assert nobody.matches == 0


async def test_the_buy_in_ledger_carries_over_the_rows_written_before_it(tmp_path: Path) -> None:
    path = tmp_path / "v12.sqlite3"
    await at_version(path, 12)
    with sqlite3.connect(path) as db:
        for match, unit in ((1, 200), (2, 50)):
            db.execute(
                "INSERT INTO tables (id, guild, place, game, status, created_at)"
                " VALUES (?, 'g', ?, 'draw', 'stopped', 1.0)",
                (match, f"p{match}"),
            )
            db.execute(
                "INSERT INTO matches (id, table_id, number, config, first_seq, started_at)"
                " VALUES (?, ?, 1, ?, 0, 1.0)",
                (match, match, f'{{"cave_unit": {unit}}}'),
            )
        db.executemany(
            "INSERT INTO chip_ledger (guild, game, match_id, hand, seat, player_id, is_ai,"
            " delta, reason, at) VALUES ('g', 'draw', ?, 1, ?, ?, ?, ?, ?, 1.0)",
            BUY_IN_ROWS,
        )
    upgraded = SqliteStorage(str(path))
    await upgraded.open()
    try:
        assert await schema_version(upgraded.db) == latest_version() >= 13
        await _check_carried_over(upgraded)
    finally:
        await upgraded.close()


async def test_postgres_the_buy_in_ledger_carries_over_the_rows_written_before_it(
    pg_url: str,
) -> None:
    await pg_at_version(pg_url, 12)
    conn = await asyncpg.connect(pg_url)
    try:
        for match, unit in ((1, 200), (2, 50)):
            await conn.execute(
                "INSERT INTO tables (id, guild, place, game, status, created_at)"
                " VALUES ($1, 'g', $2, 'draw', 'stopped', 1.0)",
                match,
                f"p{match}",
            )
            await conn.execute(
                "INSERT INTO matches (id, table_id, number, config, first_seq, started_at)"
                " VALUES ($1, $1, 1, $2, 0, 1.0)",
                match,
                f'{{"cave_unit": {unit}}}',
            )
        await conn.executemany(
            "INSERT INTO chip_ledger (guild, game, match_id, hand, seat, player_id, is_ai,"
            " delta, reason, at) VALUES ('g', 'draw', $1, 1, $2, $3, $4, $5, $6, 1.0)",
            BUY_IN_ROWS,
        )
    finally:
        await conn.close()
    async with PostgresStorage(pg_url) as upgraded:
        await _check_carried_over(upgraded)
