"""The SQLite backend of `storage.base.Storage` (aiosqlite, WAL, foreign keys on).

Durability: the connection runs in WAL mode with `synchronous=NORMAL` by default. When
`commit_action` returns, the transaction is in the WAL file (at least in the OS's page
cache), so killing the process never loses an acknowledged action. A power cut or kernel
crash may lose what the OS had not written back yet (SQLite syncs the WAL only at
checkpoints); the file stays consistent. `synchronous="FULL"` syncs at every commit
batch, so nothing acknowledged is lost even then.

Group commit: `commit_action` calls from many tables that arrive while a transaction is
being written are written together in the next single transaction. Nobody is answered
before the transaction holding their action has committed, so batching never
acknowledges anything a kill could lose. If a batch fails, its commits are retried one
transaction each, so one faulty commit cannot fail the others. The writes, reads and group
commit are shared with `storage.postgres` (`storage.sql_storage.SqlStorage`); this module
is the SQLite connection and its executor.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Literal, TypeVar

import aiosqlite

from storage.base import PlaceTaken, StaleWrite
from storage.migrate import migrate
from storage.sql_storage import SqlStorage
from storage.statements import NewRow, Statement, Write

T = TypeVar("T")


def _run_statements(conn: sqlite3.Connection, statements: Sequence[Statement]) -> None:
    for sql, params in statements:
        conn.execute(sql, params)


def _run_write(conn: sqlite3.Connection, write: Write) -> int | None:
    """Run one job; a `NewRow` inserts its row, then the rows that refer to its id, and
    returns the id."""
    if not isinstance(write, NewRow):
        _run_statements(conn, write)
        return None
    row = conn.execute(*write.insert).fetchone()
    new_id = int(row[0])
    _run_statements(conn, write.then(new_id))
    return new_id


def _run_jobs(conn: sqlite3.Connection, jobs: Sequence[Write]) -> list[Any]:
    """Run jobs in one transaction on the plain sqlite3 connection; all or nothing."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        results = [_run_write(conn, job) for job in jobs]
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return results


class SqliteStorage(SqlStorage):
    """`Storage` on one SQLite file (":memory:" works too, without WAL)."""

    def __init__(self, path: str, *, synchronous: Literal["NORMAL", "FULL"] = "NORMAL") -> None:
        """Remember where the database is; `open()` connects and migrates."""
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError(f"synchronous must be NORMAL or FULL, not {synchronous!r}")
        self.path = path
        self.synchronous = synchronous
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        super().__init__()

    @property
    def db(self) -> aiosqlite.Connection:
        """The open connection."""
        if self._db is None:
            raise RuntimeError("storage is not open: call `await storage.open()` first")
        return self._db

    async def open(self) -> None:
        """Connect, set WAL / foreign keys / synchronous, and migrate to the latest schema."""
        db = await aiosqlite.connect(self.path, isolation_level=None)
        db.row_factory = aiosqlite.Row
        await db.execute("PRAGMA journal_mode = WAL")
        await db.execute("PRAGMA foreign_keys = ON")
        await db.execute(f"PRAGMA synchronous = {self.synchronous}")
        await db.execute("PRAGMA busy_timeout = 5000")
        await migrate(db)
        self._db = db

    async def close(self) -> None:
        """Wait for pending commits, then disconnect."""
        await self._group.drain()
        if self._db is not None:
            await self._db.close()
            self._db = None

    # ----------------------------------------------------------------- writes

    async def _in_thread(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn(connection)` on the connection's own thread in one hop (aiosqlite's
        `_execute`, stable since 0.17). The caller holds the lock."""
        db = self.db
        result: T = await db._execute(fn, db._conn)  # type: ignore[no-untyped-call]
        return result

    async def _run_batch(self, jobs: Sequence[Write]) -> list[Any]:
        """Group commit's executor: the jobs in one transaction on the connection's thread."""
        async with self._lock:
            return await self._in_thread(partial(_run_jobs, jobs=jobs))

    @staticmethod
    def _translate(error: Exception) -> BaseException:
        """A driver error as the `storage.base` error it means (else unchanged)."""
        text = str(error)
        if isinstance(error, sqlite3.IntegrityError) and "actions." in text:
            return StaleWrite(f"that turn is already in the log: {error}")
        if isinstance(error, sqlite3.IntegrityError) and "tables.place" in text:
            return PlaceTaken(f"a live table already exists there: {error}")
        return error

    # ------------------------------------------------------------------ reads

    async def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        """Every row of one query, under the connection's lock."""
        async with self._lock, self.db.execute(sql, params) as cursor:
            return list(await cursor.fetchall())
