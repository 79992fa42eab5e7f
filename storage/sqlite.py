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
transaction each, so one faulty commit cannot fail the others.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Literal, TypeVar

import aiosqlite

from storage.base import (
    JSON,
    ActionCommit,
    ChipEntry,
    DealRecord,
    MatchPlayer,
    MatchRecord,
    PlaceTaken,
    SeatRecord,
    StaleWrite,
    TableRecord,
    TableStatus,
)
from storage.group_commit import GroupCommit
from storage.migrate import migrate
from storage.queries import SqlReads
from storage.statements import (
    NewRow,
    Statement,
    commit_statements,
    create_table_write,
    seats_statements,
    start_match_write,
    status_statement,
    timer_statement,
)

T = TypeVar("T")

Job = Callable[[sqlite3.Connection], Any]


def _run_statements(conn: sqlite3.Connection, statements: Sequence[Statement]) -> None:
    for sql, params in statements:
        conn.execute(sql, params)


def _run_new_row(conn: sqlite3.Connection, write: NewRow) -> int:
    """Insert the row, then the rows that refer to its id; return the id."""
    row = conn.execute(*write.insert).fetchone()
    new_id = int(row[0])
    _run_statements(conn, write.then(new_id))
    return new_id


def _run_jobs(conn: sqlite3.Connection, jobs: Sequence[Job]) -> list[Any]:
    """Run jobs in one transaction on the plain sqlite3 connection; all or nothing."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        results = [job(conn) for job in jobs]
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return results


class SqliteStorage(SqlReads):
    """`Storage` on one SQLite file (":memory:" works too, without WAL)."""

    def __init__(self, path: str, *, synchronous: Literal["NORMAL", "FULL"] = "NORMAL") -> None:
        """Remember where the database is; `open()` connects and migrates."""
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError(f"synchronous must be NORMAL or FULL, not {synchronous!r}")
        self.path = path
        self.synchronous = synchronous
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self._group: GroupCommit[Job] = GroupCommit(self._run_batch, self._translate)

    @property
    def batches(self) -> int:
        """How many write transactions ran (group commit makes it fewer than the writes)."""
        return self._group.batches

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

    async def __aenter__(self) -> SqliteStorage:
        """`async with SqliteStorage(path) as storage:` opens and closes it."""
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        """Close on leaving the block."""
        await self.close()

    # ----------------------------------------------------------------- writes

    async def _in_thread(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn(connection)` on the connection's own thread in one hop (aiosqlite's
        `_execute`, stable since 0.17). The caller holds the lock."""
        db = self.db
        result: T = await db._execute(fn, db._conn)  # type: ignore[no-untyped-call]
        return result

    async def _run_batch(self, jobs: Sequence[Job]) -> list[Any]:
        """Group commit's executor: the jobs in one transaction on the connection's thread."""
        async with self._lock:
            return await self._in_thread(partial(_run_jobs, jobs=jobs))

    async def _write(self, job: Callable[[sqlite3.Connection], T]) -> T:
        """Queue a write for the next group transaction; return its result once committed."""
        result: T = await self._group.submit(job)
        return result

    @staticmethod
    def _translate(error: Exception) -> BaseException:
        """A driver error as the `storage.base` error it means (else unchanged)."""
        text = str(error)
        if isinstance(error, sqlite3.IntegrityError) and "actions." in text:
            return StaleWrite(f"that turn is already in the log: {error}")
        if isinstance(error, sqlite3.IntegrityError) and "tables.place" in text:
            return PlaceTaken(f"a live table already exists there: {error}")
        return error

    async def create_table(
        self,
        *,
        guild: str,
        place: str,
        game: str,
        settings: JSON,
        options: JSON,
        seats: Sequence[SeatRecord],
        now: float,
    ) -> TableRecord:
        """Insert a lobby table and its seats; `PlaceTaken` if the place has a live table."""
        write = create_table_write(
            guild=guild,
            place=place,
            game=game,
            settings=settings,
            options=options,
            seats=seats,
            now=now,
        )
        table_id = await self._write(partial(_run_new_row, write=write))
        return TableRecord(
            table_id, guild, place, game, dict(settings), dict(options), "lobby", now
        )

    async def save_seats(
        self,
        table_id: int,
        seats: Sequence[SeatRecord],
        *,
        match_id: int | None = None,
        players: Sequence[MatchPlayer] = (),
    ) -> None:
        """Replace seat rows (and, with `match_id`, those seats' credit rows) in one transaction."""
        statements = seats_statements(table_id, seats, match_id, players)
        await self._write(partial(_run_statements, statements=statements))

    async def start_match(
        self,
        *,
        table_id: int,
        number: int,
        seed: int,
        config: JSON,
        first_seq: int,
        players: Sequence[MatchPlayer],
        seats: Sequence[SeatRecord],
        deals: Sequence[DealRecord],
        chips: Sequence[ChipEntry],
        deadline: float | None,
        deadline_turn: int | None,
        now: float,
    ) -> MatchRecord:
        """Insert the match with its players, seats, first deal and buy-ins; table -> playing."""
        write = start_match_write(
            table_id=table_id,
            number=number,
            seed=seed,
            config=config,
            first_seq=first_seq,
            players=players,
            seats=seats,
            deals=deals,
            chips=chips,
            deadline=deadline,
            deadline_turn=deadline_turn,
            now=now,
        )
        match_id = await self._write(partial(_run_new_row, write=write))
        return MatchRecord(match_id, table_id, number, seed, dict(config), first_seq, now)

    async def commit_action(self, commit: ActionCommit) -> None:
        """Write the commit in the next group transaction; return once it is committed."""
        statements = commit_statements(commit)
        await self._write(partial(_run_statements, statements=statements))

    async def set_status(self, table_id: int, status: TableStatus) -> None:
        """Change a table's status (and clear its timer when it stops)."""
        await self._write(partial(_run_statements, statements=[status_statement(table_id, status)]))

    async def set_timer(self, table_id: int, deadline: float | None, turn: int | None) -> None:
        """Store the table's turn deadline (or clear it)."""
        statement = timer_statement(table_id, deadline, turn)
        await self._write(partial(_run_statements, statements=[statement]))

    # ------------------------------------------------------------------ reads

    async def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        """Every row of one query, under the connection's lock."""
        async with self._lock, self.db.execute(sql, params) as cursor:
            return list(await cursor.fetchall())
