"""The PostgreSQL backend of `storage.base.Storage` (asyncpg), for a `postgresql://` URL.

Same guarantees as `storage.sqlite`, enforced by the database: one transaction per commit
batch (group commit through `storage.group_commit`, the same class SQLite uses), the
`(match_id, seq)` primary key that refuses a second write of one turn (`StaleWrite`), one
live table per place as a partial unique index (`PlaceTaken`), and triggers that refuse
UPDATE, DELETE and TRUNCATE on the action log and both ledgers.

Durability: a commit is acknowledged once PostgreSQL reports the transaction committed,
which with the server's default `synchronous_commit = on` means its WAL record is flushed
to disk: a kill of the bot, of the server or a power cut of the database host loses
nothing acknowledged.

Statements, reads and leaderboards are the shared ones (`storage.statements`,
`storage.queries`); `?` placeholders become `$1, $2, ...` here. Migrations are
`storage/migrations_pg/NNN_*.sql`, twins of the SQLite ones, applied by `migrate_pg`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from storage.base import CannotOpenDatabase, PlaceTaken, StaleWrite
from storage.board import Dialect
from storage.chain import GENESIS
from storage.migrate import (
    MIGRATIONS_PG,
    READABLE_FROM,
    latest_version,
    newer_than_this_program,
    pending,
)
from storage.sql_storage import SqlStorage
from storage.statements import SET_HEAD, Chained, NewRow, Statement, Write
from storage.targets import is_postgres_url

VERSION_TABLE = "schema_version"
"""The one-row table holding the schema version (SQLite keeps it in `user_version`)."""

_MIGRATION_LOCK = 0x6465_7563  # pg_advisory_xact_lock key: one migrator at a time

Conn = asyncpg.Connection | PoolConnectionProxy
"""A connection, pooled or not."""

_TARGET = re.compile(r"^\s*(?:INSERT\s+INTO|UPDATE)\s+(\w+)", re.IGNORECASE)


@lru_cache(maxsize=256)
def pg_sql(sql: str) -> str:
    """`sql` with its `?` placeholders numbered `$1, $2, ...` (the statements hold no `?`
    anywhere else)."""
    count = 0

    def number(_: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return re.sub(r"\?", number, sql)


def redact(url: str) -> str:
    """The URL without its password, for messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port is not None:
        host += f":{parts.port}"
    user = f"{parts.username}:***@" if parts.username else ""
    return urlunsplit(parts._replace(netloc=user + host))


def one_line(error: BaseException) -> str:
    """The error's text on one line (the driver's may span several)."""
    return " ".join(str(error).split()) or type(error).__name__


async def schema_version(conn: Conn) -> int:
    """The database's schema version (0: empty)."""
    exists = await conn.fetchval("SELECT to_regclass($1) IS NOT NULL", VERSION_TABLE)
    if not exists:
        return 0
    version = await conn.fetchval(f"SELECT max(version) FROM {VERSION_TABLE}")
    return int(version or 0)


async def other_tables(conn: Conn) -> list[str]:
    """The tables of the connection's schema other than the version table, by name."""
    rows = await conn.fetch(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        " AND tablename <> $1 ORDER BY tablename",
        VERSION_TABLE,
    )
    return [str(r[0]) for r in rows]


async def recognise_pg(conn: Conn, where: str, *, read_only: bool = False) -> int:
    """The schema version of a usable database (0: empty, to be created), or
    `CannotOpenDatabase` saying why the database at `where` must not be touched: another
    program's tables without our version table, a newer schema, or (`read_only`) nothing
    readable yet."""
    version = await schema_version(conn)
    if version == 0:
        tables = await other_tables(conn)
        if tables:
            raise CannotOpenDatabase(
                f"{where} is another program's PostgreSQL database (tables: "
                f"{', '.join(tables)}), not Deucebot's: choose another database"
            )
    if version > latest_version(MIGRATIONS_PG):
        raise newer_than_this_program(where, version)
    if read_only and version == 0:
        raise CannotOpenDatabase(f"{where} holds no Deucebot data yet: play a match first")
    if read_only and version < READABLE_FROM:
        raise CannotOpenDatabase(
            f"{where} has an old schema (version {version}): run `deucebot play` or the bot "
            "on it once to upgrade it"
        )
    return version


async def migrate_pg(conn: Conn, target: int | None = None, *, where: str = "the database") -> int:
    """Apply every PostgreSQL migration above the database's version (up to `target`) in
    one transaction, together with the version bump; return the new version. Concurrent
    migrators wait for each other (advisory lock), and a failed upgrade changes nothing.
    Another program's database or a newer one is refused (`CannotOpenDatabase`), unchanged."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
        await recognise_pg(conn, where)
        await conn.execute(f"CREATE TABLE IF NOT EXISTS {VERSION_TABLE} (version INTEGER NOT NULL)")
        current = await schema_version(conn)
        todo = pending(current, target, MIGRATIONS_PG)
        if not todo:
            return current
        for migration in todo:
            await conn.execute(migration.sql)
        await conn.execute(f"DELETE FROM {VERSION_TABLE}")
        await conn.execute(f"INSERT INTO {VERSION_TABLE} (version) VALUES ($1)", todo[-1].version)
    return todo[-1].version


def _by_table(statements: Sequence[Statement]) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """Batch statements for `executemany`: statements on different database tables commute
    within one transaction (each batch's rows already exist), so they are grouped per table
    in order; within a table, consecutive runs of the same statement become one call, so the
    order of writes to any one table is kept."""
    per_table: dict[str, list[Statement]] = {}
    for sql, params in statements:
        match = _TARGET.match(sql)
        per_table.setdefault(match.group(1).lower() if match else sql, []).append((sql, params))
    runs: list[tuple[str, list[tuple[Any, ...]]]] = []
    for group in per_table.values():
        for sql, params in group:
            if runs and runs[-1][0] == sql:
                runs[-1][1].append(params)
            else:
                runs.append((sql, [params]))
    return runs


async def _run_statements(conn: Conn, statements: Sequence[Statement]) -> None:
    for sql, rows in _by_table(statements):
        if len(rows) == 1:
            await conn.execute(pg_sql(sql), *rows[0])
        else:
            await conn.executemany(pg_sql(sql), rows)


async def _chain_heads(conn: Conn, jobs: Sequence[Write]) -> dict[int, str]:
    """The stored chain heads of the matches the batch's `Chained` jobs (and the `first`
    of its `NewRow` jobs) write, in one round trip (read in the batch's transaction,
    before any of its writes)."""
    chained = [job.first if isinstance(job, NewRow) else job for job in jobs]
    ids = sorted({job.match_id for job in chained if isinstance(job, Chained)})
    if not ids:
        return {}
    rows = await conn.fetch("SELECT id, head_hash FROM matches WHERE id = ANY($1::bigint[])", ids)
    return {int(r[0]): r[1] or GENESIS for r in rows}


def _new_head(statements: Sequence[Statement], head: str) -> str:
    """A match's chain head after `statements` (their last SET_HEAD, else `head`)."""
    return next((p[0] for sql, p in reversed(statements) if sql == SET_HEAD), head)


class PostgresStorage(SqlStorage):
    """`Storage` on a PostgreSQL database: one connection kept for the writes (group commit:
    one transaction at a time), a small pool for the reads."""

    dialect: Dialect = "postgres"

    def __init__(
        self,
        url: str,
        *,
        pool_size: int = 8,
        read_only: bool = False,
        connect_seconds: float = 10.0,
    ) -> None:
        """Remember the server's URL; `open()` connects and migrates (`read_only`: only
        checks the schema, and every transaction is read-only)."""
        if not is_postgres_url(url):
            raise ValueError(f"not a PostgreSQL URL: {redact(url)!r} (postgresql://...)")
        self.url = url
        self.pool_size = pool_size
        self.read_only = read_only
        self.connect_seconds = connect_seconds
        self._pool: asyncpg.Pool | None = None
        self._writer: PoolConnectionProxy | None = None
        super().__init__()

    @property
    def pool(self) -> asyncpg.Pool:
        """The open connection pool."""
        if self._pool is None:
            raise RuntimeError("storage is not open: call `await storage.open()` first")
        return self._pool

    async def open(self) -> None:
        """Connect (a pool) and migrate to the latest schema (`read_only`: check it is
        readable). `CannotOpenDatabase`, one line naming the server (password hidden), if it
        cannot be reached or used; nothing is left open behind it."""
        where = redact(self.url)
        settings = {"default_transaction_read_only": "on"} if self.read_only else None
        try:
            pool = await asyncpg.create_pool(
                self.url,
                min_size=1,
                max_size=self.pool_size,
                timeout=self.connect_seconds,
                server_settings=settings,
            )
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise CannotOpenDatabase(
                f"cannot connect to PostgreSQL at {where}: {one_line(error)}"
            ) from error
        try:
            # Kept, not returned to the pool after each batch: no reset round trip.
            writer = await pool.acquire()
            if self.read_only:
                self.schema = await recognise_pg(writer, where, read_only=True)
            else:
                self.schema = await migrate_pg(writer, where=where)
        except (asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            pool.terminate()  # close() would wait for the writer, which is still out
            raise CannotOpenDatabase(
                f"cannot use the PostgreSQL database at {where}: {one_line(error)}"
            ) from error
        except BaseException:
            pool.terminate()
            raise
        self._pool, self._writer = pool, writer
        if not self.read_only:
            await self._rebuild_board_if_pending()

    async def close(self) -> None:
        """Wait for pending commits, then close the writer and the pool."""
        await self._group.drain()
        if self._pool is not None and self._writer is not None:
            await self._pool.release(self._writer)
            self._writer = None
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    # ----------------------------------------------------------------- writes

    async def _run_batch(self, jobs: Sequence[Write]) -> list[Any]:
        """Group commit's executor: every job in one transaction. Runs of plain statements
        go out as few `executemany` calls as possible (see `_by_table`)."""
        results: list[Any] = []
        conn = self._writer
        if conn is None:
            raise RuntimeError("storage is not open: call `await storage.open()` first")
        if conn.is_closed():  # the server dropped it: take a fresh one from the pool
            await self.pool.release(conn)
            conn = self._writer = await self.pool.acquire()
        async with conn.transaction():
            waiting: list[Statement] = []
            heads = await _chain_heads(conn, jobs)
            for job in jobs:
                if isinstance(job, Chained):
                    head = heads.get(job.match_id, GENESIS)
                    statements = job.build(head)
                    heads[job.match_id] = _new_head(statements, head)
                    waiting.extend(statements)
                    results.append(None)
                elif isinstance(job, NewRow):
                    if job.first is not None:
                        head = heads.get(job.first.match_id, GENESIS)
                        statements = job.first.build(head)
                        heads[job.first.match_id] = _new_head(statements, head)
                        waiting.extend(statements)
                    await _run_statements(conn, waiting)
                    waiting = []
                    sql, params = job.insert
                    new_id = int(await conn.fetchval(pg_sql(sql), *params))
                    then = job.then(new_id)
                    await _run_statements(conn, then)
                    heads[new_id] = _new_head(then, GENESIS)
                    results.append(new_id)
                else:
                    waiting.extend(job)
                    results.append(None)
            await _run_statements(conn, waiting)
        return results

    @staticmethod
    def _translate(error: Exception) -> BaseException:
        """A driver error as the `storage.base` error it means (else unchanged)."""
        if isinstance(error, asyncpg.UniqueViolationError):
            if error.constraint_name == "actions_pkey":
                return StaleWrite(f"that turn is already in the log: {error}")
            if error.constraint_name == "tables_live_place":
                return PlaceTaken(f"a live table already exists there: {error}")
        return error

    # ------------------------------------------------------------------ reads

    async def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        """Every row of one query, on a pooled connection."""
        return list(await self.pool.fetch(pg_sql(sql), *params))
