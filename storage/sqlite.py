"""The SQLite backend of `storage.base.Storage` (aiosqlite, WAL, foreign keys on).

Durability: the connection runs in WAL mode with `synchronous=FULL` by default: SQLite
syncs the WAL at every commit, so when `commit_action` returns the action survives a
power cut or a kernel crash too. Group commit (below) shares one sync among every action
that arrived meanwhile, which keeps thousands of durable actions per second (see
docs/benchmarks.md). `synchronous="NORMAL"` (`DEUCEBOT_DB_SYNCHRONOUS=normal`) syncs only
at checkpoints: a killed process still loses nothing acknowledged, but a power cut may
lose the last acknowledged actions (the file stays consistent).

Opening (`open`): a writer takes an exclusive lock beside the file for as long as it has
it open (`storage.opening.ProcessLock`), so a second process is refused at start with
the holder's pid and command; a reader (`read_only=True`, the leaderboard) needs no lock,
opens the file with `mode=ro` and never migrates it. A file that is not a Deucebot
database, or is newer than this program, is refused unchanged
(`storage.migrate.recognise`). Every refusal is a `CannotOpenDatabase` with one line to
show, and nothing (connection thread, lock) is left open behind it.

Group commit: `commit_action` calls from many tables that arrive while a transaction is
being written are written together in the next single transaction. Nobody is answered
before the transaction holding their action has committed, so batching never
acknowledges anything a kill could lose. If a batch fails, its commits are retried one
transaction each, so one faulty commit cannot fail the others. The writes, reads and group
commit are shared with `storage.postgres` (`storage.sql_storage.SqlStorage`); this module
is the SQLite connection and its thread: once open, the plain sqlite3 connection is used
by one side at a time (`storage.group_commit.SplitGroupCommit`): a batch's statements run
on the event loop, its commit (the sync), the reads and the one-by-one retries on the
storage's own thread, and no transaction is opened while the thread has work, so nothing
else needs a lock. aiosqlite opens, recognises and migrates the file.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, Literal, TypeVar

import aiosqlite

from storage.base import PlaceTaken, StaleWrite
from storage.chain import GENESIS
from storage.checkpoint import Checkpointer
from storage.group_commit import SplitGroupCommit
from storage.migrate import identity, migrate, recognise
from storage.opening import ProcessLock, cannot_open, check_path, is_memory
from storage.sql_storage import SqlStorage
from storage.statements import CHAIN_HEAD, Chained, NewRow, Statement, Write

T = TypeVar("T")
Synchronous = Literal["NORMAL", "FULL"]


def _run_statements(conn: sqlite3.Connection, statements: Sequence[Statement]) -> None:
    for sql, params in statements:
        conn.execute(sql, params)


def _run_write(conn: sqlite3.Connection, write: Write) -> int | None:
    """Run one job; a `NewRow` inserts its row, then the rows that refer to its id, and
    returns the id; a `Chained` write chains after the head it reads in this transaction."""
    if isinstance(write, Chained):
        row = conn.execute(CHAIN_HEAD, (write.match_id,)).fetchone()
        _run_statements(conn, write.build(row[0] if row and row[0] else GENESIS))
        return None
    if not isinstance(write, NewRow):
        _run_statements(conn, write)
        return None
    if write.first is not None:
        _run_write(conn, write.first)
    row = conn.execute(*write.insert).fetchone()
    new_id = int(row[0])
    _run_statements(conn, write.then(new_id))
    return new_id


def _fetch_all(conn: sqlite3.Connection, sql: str, params: tuple[Any, ...]) -> list[Any]:
    return conn.execute(sql, params).fetchall()


def _begin_jobs(conn: sqlite3.Connection, jobs: Sequence[Write]) -> list[Any]:
    """Open a transaction and run `jobs` in it, one result each; rolled back if one fails."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        return [_run_write(conn, job) for job in jobs]
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _commit(conn: sqlite3.Connection) -> None:
    """Commit the open transaction (it is rolled back if the commit fails)."""
    try:
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _run_jobs(conn: sqlite3.Connection, jobs: Sequence[Write]) -> list[Any]:
    """Run jobs in one transaction on the plain sqlite3 connection; all or nothing."""
    results = _begin_jobs(conn, jobs)
    _commit(conn)
    return results


class _Connection:
    """The open connection and its thread as `SplitGroupCommit` uses them."""

    def __init__(self, storage: SqliteStorage) -> None:
        self._storage = storage

    @property
    def _conn(self) -> sqlite3.Connection:
        return self._storage._thread()[1]

    def begin(self, jobs: Sequence[Write]) -> list[Any]:
        """On the event loop: open the batch's transaction and run its statements."""
        return _begin_jobs(self._conn, jobs)

    def commit(self) -> None:
        """On the commit thread: commit (the sync)."""
        _commit(self._conn)

    def rollback(self) -> None:
        """On the event loop: roll back (the commit thread is gone)."""
        with contextlib.suppress(sqlite3.Error, RuntimeError):
            self._conn.execute("ROLLBACK")

    def run(self, jobs: Sequence[Write]) -> list[Any]:
        """On the commit thread: the jobs in one whole transaction."""
        return _run_jobs(self._conn, jobs)

    def start(self, fn: Callable[[], None]) -> None:
        """Queue `fn` on the commit thread (RuntimeError once the storage is closed)."""
        self._storage._thread()[0].submit(fn)


class SqliteStorage(SqlStorage):
    """`Storage` on one SQLite file (":memory:" works too, without WAL or lock)."""

    _group: SplitGroupCommit[Write]

    def __init__(
        self,
        path: str,
        *,
        synchronous: Synchronous = "FULL",
        read_only: bool = False,
        busy_seconds: float = 5.0,
    ) -> None:
        """Remember where the database is; `open()` connects (and migrates, unless
        `read_only`). `busy_seconds`: how long to wait for another program's lock."""
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError(f"synchronous must be NORMAL or FULL, not {synchronous!r}")
        self.path = path
        self.synchronous = synchronous
        self.read_only = read_only
        self.busy_seconds = busy_seconds
        self._db: aiosqlite.Connection | None = None
        self._process_lock: ProcessLock | None = None
        self._conn: sqlite3.Connection | None = None
        """The sqlite3 connection under `_db`, used on `_committer` once open."""
        self._committer: ThreadPoolExecutor | None = None
        self._checkpointer: Checkpointer | None = None
        super().__init__()

    @property
    def persistent(self) -> bool:
        """False for an in-memory database: nothing is kept once it is closed."""
        return not is_memory(self.path)

    @property
    def db(self) -> aiosqlite.Connection:
        """The open connection."""
        if self._db is None:
            raise RuntimeError("storage is not open: call `await storage.open()` first")
        return self._db

    async def open(self) -> None:
        """Check the path, connect, recognise the file, take the writer's lock, set WAL /
        foreign keys / synchronous and migrate to the latest schema (read-only: no lock, no
        change at all). `CannotOpenDatabase` if any step fails, with nothing left open."""
        if self.persistent:
            check_path(self.path, read_only=self.read_only)
        try:
            db = await self._connect()
            try:
                await self._prepare(db)
            except BaseException:
                await db.close()
                raise
        except BaseException as error:
            self._conn = None
            if self._process_lock is not None:
                self._process_lock.release()
                self._process_lock = None
            if isinstance(error, sqlite3.Error):
                raise cannot_open(error, self.path, self.busy_seconds) from error
            raise
        self._committer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-commit")
        self._db = db
        if self.persistent and not self.read_only:
            self._checkpointer = Checkpointer(self.path, self.synchronous)
            self._checkpointer.start()
        if not self.read_only:
            await self._rebuild_board_if_pending()

    async def _connect(self) -> aiosqlite.Connection:
        read_only = self.read_only and self.persistent
        target = Path(self.path).resolve().as_uri() + "?mode=ro" if read_only else self.path

        def connect() -> sqlite3.Connection:
            # aiosqlite's thread uses it until `open` returns; after, the event loop and
            # the commit thread take turns (`SplitGroupCommit`): never two at once.
            self._conn = sqlite3.connect(
                target, isolation_level=None, check_same_thread=False, uri=read_only
            )
            return self._conn

        db = await aiosqlite.Connection(connect, iter_chunk_size=64)
        db.row_factory = aiosqlite.Row
        return db

    async def _prepare(self, db: aiosqlite.Connection) -> None:
        """Everything between connecting and the first query of the runtime. Nothing is
        written before the file is recognised as Deucebot's and the lock is held."""
        await db.execute(f"PRAGMA busy_timeout = {int(self.busy_seconds * 1000)}")
        self.schema = recognise(await identity(db), self.path, read_only=self.read_only)
        if self.read_only:
            await db.execute("PRAGMA query_only = ON")
            return
        if self.persistent:
            self._process_lock = ProcessLock.acquire(self.path)
            await db.execute("PRAGMA journal_mode = WAL")
        await db.execute("PRAGMA foreign_keys = ON")
        await db.execute(f"PRAGMA synchronous = {self.synchronous}")
        if self.persistent:
            # Checkpoints run beside the commits (`storage.checkpoint`), not inside one.
            await db.execute("PRAGMA wal_autocheckpoint = 0")
        # Take the write lock once now: another program holding it shows up at start.
        await db.execute("BEGIN IMMEDIATE")
        await db.execute("ROLLBACK")
        self.schema = await migrate(db)

    async def close(self) -> None:
        """Wait for pending commits, then disconnect, end the commit thread and drop the
        process lock."""
        await self._group.drain()
        if self._checkpointer is not None:
            await self._checkpointer.close()
            self._checkpointer = None
        if self._db is not None:
            await self._db.close()
            self._db = None
            self._conn = None
        if self._committer is not None:
            self._committer.shutdown()
            self._committer = None
        if self._process_lock is not None:
            self._process_lock.release()
            self._process_lock = None

    # ----------------------------------------------------------------- writes

    def _new_group(self) -> SplitGroupCommit[Write]:
        """Group commit: statements on the event loop, the commit on the commit thread."""
        return SplitGroupCommit(_Connection(self), self._translate, self._note_commit)

    def _thread(self) -> tuple[ThreadPoolExecutor, sqlite3.Connection]:
        """The commit thread and the connection (RuntimeError if the storage is not open)."""
        if self._conn is None or self._committer is None:
            raise RuntimeError("storage is not open: call `await storage.open()` first")
        return self._committer, self._conn

    def _note_commit(self) -> None:
        """A batch committed: the WAL grew (the checkpointer copies it back later)."""
        if self._checkpointer is not None:
            self._checkpointer.committed()

    async def _in_thread(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn(connection)` on the commit thread, never inside a transaction of the
        group commit's."""
        conn = self._thread()[1]
        return await self._group.call(partial(fn, conn))

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
        """Every row of one query (`sqlite3.Row`s), on the commit thread."""
        return await self._in_thread(partial(_fetch_all, sql=sql, params=params))
