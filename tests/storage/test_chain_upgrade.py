"""Upgrading a database written before fair deals (SQLite, and PostgreSQL last): the
match seed moves to
`match_secrets`, old deals keep their seed as `legacy_seed`, old rows stay unchained and
the chain of a match carries on from its first new row."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from storage.base import ActionCommit, ActionRecord
from storage.migrate import migrate
from storage.postgres import PostgresStorage, migrate_pg
from storage.sqlite import SqliteStorage


async def old_database(path: Path) -> None:
    """A database at version 3 with a Big Two match in play and two logged actions."""
    async with aiosqlite.connect(path, isolation_level=None) as db:
        assert await migrate(db, target=3) == 3
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO tables (id, guild, place, game, status, created_at)"
            " VALUES (1, 'g', 'p', 'bigtwo', 'playing', 1.0)"
        )
        db.execute(
            "INSERT INTO matches (id, table_id, number, seed, config, first_seq, started_at)"
            " VALUES (1, 1, 1, '123456789012345678901234567890', '{}', 0, 1.0)"
        )
        db.execute("INSERT INTO deals VALUES (1, 1, 2, '987', 0)")
        for seq in (0, 1):
            db.execute("INSERT INTO actions VALUES (1, ?, 1, ?, 'pass', 'ai', 2.0)", (seq, seq % 4))


def action(seq: int) -> ActionCommit:
    return ActionCommit(table_id=1, action=ActionRecord(1, seq, 1, seq % 4, "pass", "ai", 3.0))


async def test_an_old_match_keeps_its_secret_and_chains_from_its_first_new_row(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite3"
    await old_database(path)
    async with SqliteStorage(str(path)) as storage:
        match = await storage.current_match(1)
        assert match is not None and match.seed == 123456789012345678901234567890
        assert await storage.verify_chain() == []  # unchained rows are not a problem
        await storage.commit_action(action(2))
        await storage.commit_action(action(3))
        assert await storage.verify_chain() == []
        deals = await storage.deals(1)
        assert [d.commitment for d in deals] == [None]
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT legacy_seed FROM deals").fetchall() == [("987",)]
        assert db.execute("SELECT chained FROM matches").fetchall() == [(0,)]
        hashes = db.execute("SELECT hash IS NULL FROM actions ORDER BY seq").fetchall()
        assert hashes == [(1,), (1,), (0,), (0,)]
        db.execute("DROP TRIGGER actions_no_update")
        db.execute("UPDATE actions SET seat = 3 WHERE seq = 2")
    async with SqliteStorage(str(path)) as storage:
        (problem,) = await storage.verify_chain()
        assert (problem.match_id, problem.where) == (1, "action seq 2")


async def test_a_row_without_hash_after_the_chain_began_is_named(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    await old_database(path)
    async with SqliteStorage(str(path)) as storage:
        await storage.commit_action(action(2))
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO actions VALUES (1, 3, 1, 3, 'pass', 'ai', 4.0, NULL)")
    async with SqliteStorage(str(path)) as storage:
        (problem,) = await storage.verify_chain()
        assert str(problem) == (
            "match 1 (table 1): action seq 3: has no hash: inserted outside the program"
        )


async def test_postgresql_upgrades_an_old_match_the_same_way(pg_url: str) -> None:
    """The PostgreSQL twin of migration 007 (fair deals) on a database at version 4
    holding a match."""
    conn = await asyncpg.connect(pg_url)
    try:
        assert await migrate_pg(conn, target=4) == 4
        await conn.execute(
            "INSERT INTO tables (id, guild, place, game, status, created_at)"
            " VALUES (1, 'g', 'p', 'bigtwo', 'playing', 1.0)"
        )
        await conn.execute(
            "INSERT INTO matches (id, table_id, number, seed, config, first_seq, started_at)"
            " VALUES (1, 1, 1, '123456789012345678901234567890', '{}', 0, 1.0)"
        )
        await conn.execute("INSERT INTO deals VALUES (1, 1, 2, '987', 0)")
        for seq in (0, 1):
            await conn.execute(
                "INSERT INTO actions VALUES (1, $1, 1, $2, 'pass', 'ai', 2.0)", seq, seq % 4
            )
    finally:
        await conn.close()
    async with PostgresStorage(pg_url) as storage:
        match = await storage.current_match(1)
        assert match is not None and match.seed == 123456789012345678901234567890
        await storage.commit_action(action(2))
        await storage.commit_action(action(3))
        assert await storage.verify_chain() == []
        assert [d.commitment for d in await storage.deals(1)] == [None]
    conn = await asyncpg.connect(pg_url)
    try:
        assert await conn.fetchval("SELECT legacy_seed FROM deals") == "987"
        assert await conn.fetchval("SELECT chained FROM matches") == 0
        rows = await conn.fetch("SELECT hash IS NULL FROM actions ORDER BY seq")
        assert [r[0] for r in rows] == [True, True, False, False]
        with pytest.raises(asyncpg.PostgresError, match="the deals are append-only"):
            await conn.execute("UPDATE deals SET commitment = 'x'")  # 004's triggers kept
    finally:
        await conn.close()
