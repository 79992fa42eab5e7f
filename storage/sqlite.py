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
transaction each, so one faulty commit cannot fail the others.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, Literal, TypeVar

import aiosqlite

from storage.base import (
    JSON,
    ActionCommit,
    ActionRecord,
    ChipEntry,
    ChipRow,
    DealRecord,
    Leaderboard,
    MatchPlayer,
    MatchRecord,
    PenaltyEntry,
    PenaltyRow,
    Period,
    PlaceTaken,
    SeatRecord,
    StaleWrite,
    TableRecord,
    TableStatus,
    period_start,
)
from storage.chain import FIELDS, GENESIS, TABLES, ChainProblem, Kind, chain_rows, verify_chains
from storage.migrate import identity, migrate, recognise
from storage.opening import ProcessLock, cannot_open, check_path, is_memory

Statement = tuple[str, tuple[Any, ...]]
T = TypeVar("T")
Synchronous = Literal["NORMAL", "FULL"]

_INSERT: dict[Kind, str] = {
    kind: f"INSERT INTO {TABLES[kind]} ({', '.join(FIELDS[kind])}, hash)"
    f" VALUES ({', '.join('?' * (len(FIELDS[kind]) + 1))})"
    for kind in TABLES
}
"""One INSERT per chained table, its columns in hash order (`storage.chain.FIELDS`) + hash."""
_SET_HEAD = "UPDATE matches SET head_hash = ? WHERE id = ?"
_MATCHES = "SELECT m.*, s.seed FROM matches m LEFT JOIN match_secrets s ON s.match_id = m.id"
"""Match rows with their secret seed (kept apart in `match_secrets`; see `MatchRecord`)."""
_FINISH_MATCH = "UPDATE matches SET finished_at = ?, winners = ?, totals = ? WHERE id = ?"
_SET_TIMER = "UPDATE tables SET deadline = ?, deadline_turn = ? WHERE id = ?"
_SET_TIMER_STATUS = "UPDATE tables SET deadline = ?, deadline_turn = ?, status = ? WHERE id = ?"
_UPSERT_SEAT = (
    "INSERT INTO seats (table_id, seat, player_id, name, policy, away, timeouts)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (table_id, seat) DO UPDATE SET player_id = excluded.player_id,"
    " name = excluded.name, policy = excluded.policy, away = excluded.away,"
    " timeouts = excluded.timeouts"
)
_UPSERT_PLAYER = (
    "INSERT INTO match_players (match_id, seat, player_id, name, is_ai) VALUES (?, ?, ?, ?, ?)"
    " ON CONFLICT (match_id, seat) DO UPDATE SET player_id = excluded.player_id,"
    " name = excluded.name, is_ai = excluded.is_ai"
)


def _seat_row(table_id: int, seat: SeatRecord) -> tuple[Any, ...]:
    return (
        table_id,
        seat.seat,
        seat.player_id,
        seat.name,
        seat.policy,
        int(seat.away),
        seat.timeouts,
    )


def _chip_values(entry: ChipEntry, match_id: int, seq: int | None) -> tuple[Any, ...]:
    return (
        match_id,
        seq,
        entry.guild,
        entry.game,
        entry.hand,
        entry.seat,
        entry.player_id,
        int(entry.is_ai),
        entry.delta,
        entry.reason,
        entry.at,
    )


def _penalty_values(entry: PenaltyEntry, match_id: int, seq: int | None) -> tuple[Any, ...]:
    return (
        match_id,
        seq,
        entry.guild,
        entry.game,
        entry.deal,
        entry.seat,
        entry.player_id,
        int(entry.is_ai),
        entry.penalty,
        entry.at,
    )


def _deal_values(deal: DealRecord, match_id: int, seq: int | None) -> tuple[Any, ...]:
    return (match_id, deal.deal, deal.dealer, deal.commitment, deal.first_seq, seq)


def chained_statements(
    previous: str, rows: Sequence[tuple[Kind, tuple[Any, ...]]], match_id: int
) -> list[Statement]:
    """INSERTs of `rows` (kind, values in hash order) chained after `previous`, then the
    match's new chain head."""
    out: list[Statement] = []
    head = previous
    for (kind, values), digest in zip(rows, chain_rows(previous, rows), strict=True):
        out.append((_INSERT[kind], (*values, digest)))
        head = digest
    out.append((_SET_HEAD, (head, match_id)))
    return out


def commit_statements(commit: ActionCommit, previous: str = GENESIS) -> list[Statement]:
    """The SQL statements of one `ActionCommit`, in order; its rows are chained after
    `previous`, the match's chain head before the commit."""
    a = commit.action
    m, seq = a.match_id, a.seq
    rows: list[tuple[Kind, tuple[Any, ...]]] = [
        ("action", (m, seq, a.deal, a.seat, a.action, a.actor, a.at))
    ]
    rows += [("deal", _deal_values(d, m, seq)) for d in commit.deals]
    rows += [("chip", _chip_values(c, m, seq)) for c in commit.chips]
    rows += [("penalty", _penalty_values(p, m, seq)) for p in commit.penalties]
    out = chained_statements(previous, rows, m)
    if commit.result is not None:
        r = commit.result
        out.append(
            (
                _FINISH_MATCH,
                (r.finished_at, json.dumps(r.winners), json.dumps(r.totals), r.match_id),
            )
        )
    if commit.status is None:
        out.append((_SET_TIMER, (commit.deadline, commit.deadline_turn, commit.table_id)))
    else:
        out.append(
            (
                _SET_TIMER_STATUS,
                (commit.deadline, commit.deadline_turn, commit.status, commit.table_id),
            )
        )
    out += [(_UPSERT_SEAT, _seat_row(commit.table_id, s)) for s in commit.seats]
    return out


def chain_head(conn: sqlite3.Connection, match_id: int) -> str:
    """The match's chain head (the hash its next row chains to)."""
    row = conn.execute("SELECT head_hash FROM matches WHERE id = ?", (match_id,)).fetchone()
    return row[0] if row and row[0] else GENESIS


def _table(row: aiosqlite.Row) -> TableRecord:
    return TableRecord(
        id=row["id"],
        guild=row["guild"],
        place=row["place"],
        game=row["game"],
        settings=json.loads(row["settings"]),
        options=json.loads(row["options"]),
        status=row["status"],
        created_at=row["created_at"],
        deadline=row["deadline"],
        deadline_turn=row["deadline_turn"],
    )


def _match(row: aiosqlite.Row) -> MatchRecord:
    return MatchRecord(
        id=row["id"],
        table_id=row["table_id"],
        number=row["number"],
        seed=int(row["seed"]),
        config=json.loads(row["config"]),
        first_seq=row["first_seq"],
        started_at=row["started_at"],
        finished_at=row["finished_at"],
        winners=tuple(json.loads(row["winners"])) if row["winners"] else None,
        totals=tuple(json.loads(row["totals"])) if row["totals"] else None,
    )


Job = Callable[[sqlite3.Connection], Any]


def _run_statements(conn: sqlite3.Connection, statements: Sequence[Statement]) -> None:
    for sql, params in statements:
        conn.execute(sql, params)


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


def _display_name(key: tuple[str, bool], name: str) -> str:
    """AI seats of one policy are one leaderboard line: name it after the policy."""
    player_id, is_ai = key
    if is_ai and player_id.startswith("ai:"):
        return f"AI ({player_id[3:]})"
    return name


class SqliteStorage:
    """`Storage` on one SQLite file (":memory:" works too, without WAL or lock)."""

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
        """The sqlite3 connection under `_db`, for group commits on `_committer`."""
        self._committer: ThreadPoolExecutor | None = None
        self._lock = asyncio.Lock()
        self._pending: list[tuple[Job, asyncio.Future[Any]]] = []
        self._writer: asyncio.Task[None] | None = None
        self.batches = 0
        """How many write transactions ran (group commit makes it fewer than the writes)."""

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

    async def _connect(self) -> aiosqlite.Connection:
        read_only = self.read_only and self.persistent
        target = Path(self.path).resolve().as_uri() + "?mode=ro" if read_only else self.path

        def connect() -> sqlite3.Connection:
            # Shared with the commit thread, which uses it only while holding `_lock`
            # (so does every read): never two threads on it at once.
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
        recognise(await identity(db), self.path, read_only=self.read_only)
        if self.read_only:
            await db.execute("PRAGMA query_only = ON")
            return
        if self.persistent:
            self._process_lock = ProcessLock.acquire(self.path)
            await db.execute("PRAGMA journal_mode = WAL")
        await db.execute("PRAGMA foreign_keys = ON")
        await db.execute(f"PRAGMA synchronous = {self.synchronous}")
        # Take the write lock once now: another program holding it shows up at start.
        await db.execute("BEGIN IMMEDIATE")
        await db.execute("ROLLBACK")
        await migrate(db)

    async def close(self) -> None:
        """Wait for pending commits, then disconnect."""
        if self._writer is not None:
            await asyncio.gather(self._writer, return_exceptions=True)
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

    async def __aenter__(self) -> SqliteStorage:
        """`async with SqliteStorage(path) as storage:` opens and closes it."""
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        """Close on leaving the block."""
        await self.close()

    # ----------------------------------------------------------------- writes

    async def _in_thread(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn(connection)` on the commit thread in one hop (a whole group commit on the
        plain sqlite3 connection, not one aiosqlite call per statement). The caller holds
        the lock."""
        if self._conn is None or self._committer is None:
            raise RuntimeError("storage is not open: call `await storage.open()` first")
        return await asyncio.get_running_loop().run_in_executor(self._committer, fn, self._conn)

    async def _write(self, job: Callable[[sqlite3.Connection], T]) -> T:
        """Queue a write for the next group transaction; return its result once committed."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending.append((job, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_loop())
        result: T = await future
        return result

    async def _write_loop(self) -> None:
        """Write everything queued in one transaction, again and again until the queue is
        empty. If a batch fails, its jobs are retried one transaction each, so one faulty
        write cannot fail the others."""
        while self._pending:
            batch, self._pending = self._pending, []
            jobs = [job for job, _ in batch]
            outcomes: list[tuple[Any, BaseException | None]] = []
            async with self._lock:
                try:
                    results = await self._in_thread(partial(_run_jobs, jobs=jobs))
                    outcomes = [(r, None) for r in results]
                    self.batches += 1
                except Exception:
                    for job in jobs:
                        try:
                            one = await self._in_thread(partial(_run_jobs, jobs=[job]))
                            outcomes.append((one[0], None))
                            self.batches += 1
                        except Exception as failure:
                            outcomes.append((None, self._translate(failure)))
            for (_, future), (result, problem) in zip(batch, outcomes, strict=True):
                if future.done():
                    continue
                if problem is None:
                    future.set_result(result)
                else:
                    future.set_exception(problem)

    @staticmethod
    def _translate(error: Exception) -> BaseException:
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
        row = (guild, place, game, json.dumps(settings), json.dumps(options), now)

        def write(conn: sqlite3.Connection) -> int:
            cursor = conn.execute(
                "INSERT INTO tables (guild, place, game, settings, options, status, created_at)"
                " VALUES (?, ?, ?, ?, ?, 'lobby', ?)",
                row,
            )
            table_id = cursor.lastrowid
            assert table_id is not None
            conn.executemany(_UPSERT_SEAT, [_seat_row(table_id, s) for s in seats])
            return table_id

        table_id = await self._write(write)
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
        statements: list[Statement] = [(_UPSERT_SEAT, _seat_row(table_id, s)) for s in seats]
        if match_id is not None:
            statements += [
                (_UPSERT_PLAYER, (match_id, p.seat, p.player_id, p.name, int(p.is_ai)))
                for p in players
            ]
        await self._write(lambda conn: _run_statements(conn, statements))

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
        match_row = (table_id, number, json.dumps(config), first_seq, now)
        player_rows = [(p.seat, p.player_id, p.name, int(p.is_ai)) for p in players]
        seat_rows = [_seat_row(table_id, s) for s in seats]
        timer = (deadline, deadline_turn, "playing", table_id)

        def write(conn: sqlite3.Connection) -> int:
            cursor = conn.execute(
                "INSERT INTO matches (table_id, number, config, first_seq, started_at, chained)"
                " VALUES (?, ?, ?, ?, ?, 1)",
                match_row,
            )
            match_id = cursor.lastrowid
            assert match_id is not None
            conn.execute(
                "INSERT INTO match_secrets (match_id, seed) VALUES (?, ?)", (match_id, str(seed))
            )
            conn.executemany(_UPSERT_PLAYER, [(match_id, *r) for r in player_rows])
            conn.executemany(_UPSERT_SEAT, seat_rows)
            rows: list[tuple[Kind, tuple[Any, ...]]] = [
                ("deal", _deal_values(d, match_id, None)) for d in deals
            ]
            rows += [("chip", _chip_values(c, match_id, None)) for c in chips]
            _run_statements(conn, chained_statements(GENESIS, rows, match_id))
            conn.execute(_SET_TIMER_STATUS, timer)
            return match_id

        match_id = await self._write(write)
        return MatchRecord(match_id, table_id, number, seed, dict(config), first_seq, now)

    async def commit_action(self, commit: ActionCommit) -> None:
        """Write the commit in the next group transaction; return once it is committed."""
        match_id = commit.action.match_id

        def write(conn: sqlite3.Connection) -> None:
            _run_statements(conn, commit_statements(commit, chain_head(conn, match_id)))

        await self._write(write)

    async def set_status(self, table_id: int, status: TableStatus) -> None:
        """Change a table's status (and clear its timer when it stops)."""
        if status == "stopped":
            statement: Statement = (_SET_TIMER_STATUS, (None, None, status, table_id))
        else:
            statement = ("UPDATE tables SET status = ? WHERE id = ?", (status, table_id))
        await self._write(lambda conn: _run_statements(conn, [statement]))

    async def set_timer(self, table_id: int, deadline: float | None, turn: int | None) -> None:
        """Store the table's turn deadline (or clear it)."""
        statement: Statement = (_SET_TIMER, (deadline, turn, table_id))
        await self._write(lambda conn: _run_statements(conn, [statement]))

    # ------------------------------------------------------------------ reads

    async def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[aiosqlite.Row]:
        async with self._lock, self.db.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def live_tables(self) -> list[TableRecord]:
        """Every table that is not stopped, oldest first."""
        rows = await self._all("SELECT * FROM tables WHERE status <> 'stopped' ORDER BY id")
        return [_table(r) for r in rows]

    async def table_at(self, place: str) -> TableRecord | None:
        """The live table in `place`, if any."""
        rows = await self._all(
            "SELECT * FROM tables WHERE place = ? AND status <> 'stopped'", (place,)
        )
        return _table(rows[0]) if rows else None

    async def seats(self, table_id: int) -> list[SeatRecord]:
        """A table's seats in seat order."""
        rows = await self._all("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))
        return [
            SeatRecord(
                r["seat"], r["player_id"], r["name"], r["policy"], bool(r["away"]), r["timeouts"]
            )
            for r in rows
        ]

    async def current_match(self, table_id: int) -> MatchRecord | None:
        """The table's latest match."""
        rows = await self._all(
            f"{_MATCHES} WHERE m.table_id = ? ORDER BY m.number DESC LIMIT 1",
            (table_id,),
        )
        return _match(rows[0]) if rows else None

    async def verify_chain(self, match_ids: Sequence[int] | None = None) -> list[ChainProblem]:
        """Walk the hash chain of every match (or of `match_ids`); each damaged match with
        its first bad row (see `storage.chain`)."""
        async with self._lock:
            return await self._in_thread(partial(verify_chains, match_ids=match_ids))

    async def table(self, table_id: int) -> TableRecord | None:
        """The table `table_id` (live or stopped), if it exists."""
        rows = await self._all("SELECT * FROM tables WHERE id = ?", (table_id,))
        return _table(rows[0]) if rows else None

    async def match(self, match_id: int) -> MatchRecord | None:
        """The match `match_id`, if it exists."""
        rows = await self._all(f"{_MATCHES} WHERE m.id = ?", (match_id,))
        return _match(rows[0]) if rows else None

    async def matches(
        self, *, player_id: str | None = None, guild: str | None = None, limit: int | None = None
    ) -> list[MatchRecord]:
        """Matches newest first: all, those `player_id` played, or those of `guild`'s tables."""
        sql = f"{_MATCHES} JOIN tables t ON t.id = m.table_id WHERE 1 = 1"
        params: list[Any] = []
        if player_id is not None:
            sql += " AND m.id IN (SELECT match_id FROM match_players WHERE player_id = ?)"
            params.append(player_id)
        if guild is not None:
            sql += " AND t.guild = ?"
            params.append(guild)
        sql += " ORDER BY m.id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return [_match(r) for r in await self._all(sql, tuple(params))]

    async def match_players(self, match_id: int) -> list[MatchPlayer]:
        """Credit rows of a match in seat order."""
        rows = await self._all(
            "SELECT * FROM match_players WHERE match_id = ? ORDER BY seat", (match_id,)
        )
        return [MatchPlayer(r["seat"], r["player_id"], r["name"], bool(r["is_ai"])) for r in rows]

    async def actions(self, match_id: int) -> list[ActionRecord]:
        """The match's action log in order."""
        rows = await self._all("SELECT * FROM actions WHERE match_id = ? ORDER BY seq", (match_id,))
        return [
            ActionRecord(
                r["match_id"], r["seq"], r["deal"], r["seat"], r["action"], r["actor"], r["at"]
            )
            for r in rows
        ]

    async def deals(self, match_id: int) -> list[DealRecord]:
        """The match's deals in order."""
        rows = await self._all("SELECT * FROM deals WHERE match_id = ? ORDER BY deal", (match_id,))
        return [
            DealRecord(r["match_id"], r["deal"], r["dealer"], r["commitment"], r["first_seq"])
            for r in rows
        ]

    async def chip_entries(self, match_id: int) -> list[ChipEntry]:
        """The match's chip-ledger rows in order."""
        rows = await self._all(
            "SELECT * FROM chip_ledger WHERE match_id = ? ORDER BY id", (match_id,)
        )
        return [
            ChipEntry(
                r["guild"],
                r["game"],
                r["match_id"],
                r["hand"],
                r["seat"],
                r["player_id"],
                bool(r["is_ai"]),
                r["delta"],
                r["reason"],
                r["at"],
            )
            for r in rows
        ]

    async def penalty_entries(self, match_id: int) -> list[PenaltyEntry]:
        """The match's penalty-ledger rows in order."""
        rows = await self._all(
            "SELECT * FROM penalty_ledger WHERE match_id = ? ORDER BY id", (match_id,)
        )
        return [
            PenaltyEntry(
                r["guild"],
                r["game"],
                r["match_id"],
                r["deal"],
                r["seat"],
                r["player_id"],
                bool(r["is_ai"]),
                r["penalty"],
                r["at"],
            )
            for r in rows
        ]

    # ----------------------------------------------------------- leaderboards

    async def _match_stats(
        self, guild: str, game: str, since: float
    ) -> dict[tuple[str, bool], dict[str, Any]]:
        """Per (player, is_ai): name, finished matches, wins, best (lowest) total.

        A match result is credited to a person only if they made every move of their seat
        in it: if the AI made any (before they took the seat mid-match, or while they were
        away), that seat's result counts for nobody. The per-deal ledgers are not affected."""
        rows = await self._all(
            """
            SELECT mp.player_id, mp.is_ai, mp.name, m.id AS match_id,
                   EXISTS (SELECT 1 FROM json_each(m.winners) w WHERE w.value = mp.seat) AS won,
                   json_extract(m.totals, '$[' || mp.seat || ']') AS total
            FROM match_players mp
            JOIN matches m ON m.id = mp.match_id
            JOIN tables t ON t.id = m.table_id
            WHERE t.guild = ? AND t.game = ? AND m.finished_at IS NOT NULL AND m.finished_at >= ?
              AND (mp.is_ai = 1 OR NOT EXISTS (
                  SELECT 1 FROM actions a
                  WHERE a.match_id = m.id AND a.seat = mp.seat AND a.actor = 'ai'))
            ORDER BY m.id
            """,
            (guild, game, since),
        )
        stats: dict[tuple[str, bool], dict[str, Any]] = {}
        for r in rows:
            entry = stats.setdefault(
                (r["player_id"], bool(r["is_ai"])),
                {"name": r["name"], "matches": 0, "wins": 0, "best": None},
            )
            entry["name"] = r["name"]
            entry["matches"] += 1
            entry["wins"] += int(r["won"])
            total = r["total"]
            if total is not None:
                entry["best"] = total if entry["best"] is None else min(entry["best"], total)
        return stats

    async def _names(self, guild: str, game: str) -> dict[tuple[str, bool], str]:
        rows = await self._all(
            """
            SELECT mp.player_id, mp.is_ai, mp.name FROM match_players mp
            JOIN matches m ON m.id = mp.match_id JOIN tables t ON t.id = m.table_id
            WHERE t.guild = ? AND t.game = ? ORDER BY m.id
            """,
            (guild, game),
        )
        return {(r["player_id"], bool(r["is_ai"])): r["name"] for r in rows}

    async def leaderboard(
        self,
        *,
        guild: str,
        game: str,
        scoring: Literal["penalty", "chips"],
        period: Period,
        now: float,
        min_deals: int = 10,
    ) -> Leaderboard:
        """Big Two (penalty): ranked by average penalty per deal among players with at least
        `min_deals` deals. Chip games: by matches won, then net chips. AI apart."""
        start = period_start(period, now)
        since = -1e18 if start is None else start
        stats = await self._match_stats(guild, game, since)
        names = await self._names(guild, game)
        board = Leaderboard(guild, game, period, scoring, min_deals=min_deals)
        if scoring == "penalty":
            rows = await self._all(
                "SELECT player_id, is_ai, count(*) AS deals, avg(penalty) AS average"
                " FROM penalty_ledger WHERE guild = ? AND game = ? AND at >= ?"
                " GROUP BY player_id, is_ai",
                (guild, game, since),
            )
            per = {(r["player_id"], bool(r["is_ai"])): r for r in rows}
            penalty_lines: list[PenaltyRow] = []
            for key in sorted(set(per) | set(stats)):
                s = stats.get(key, {})
                p = per.get(key)
                penalty_lines.append(
                    PenaltyRow(
                        player_id=key[0],
                        name=_display_name(key, s.get("name") or names.get(key, key[0])),
                        is_ai=key[1],
                        matches=s.get("matches", 0),
                        wins=s.get("wins", 0),
                        deals=p["deals"] if p else 0,
                        average_penalty=round(float(p["average"]), 3) if p else 0.0,
                        best_match=s.get("best"),
                    )
                )
            penalty_lines.sort(key=lambda r: (r.average_penalty, -r.wins, r.name))
            for line in penalty_lines:
                if line.is_ai:
                    board.ai.append(line)
                elif line.deals >= min_deals:
                    board.humans.append(line)
                else:
                    board.unranked.append(line)
            return board
        rows = await self._all(
            "SELECT player_id, is_ai, sum(delta) AS net, sum(reason = 'hand') AS hands"
            " FROM chip_ledger WHERE guild = ? AND game = ? AND at >= ?"
            " AND reason IN ('hand', 'returned') GROUP BY player_id, is_ai",
            (guild, game, since),
        )
        per = {(r["player_id"], bool(r["is_ai"])): r for r in rows}
        chip_lines: list[ChipRow] = []
        for key in sorted(set(per) | set(stats)):
            s = stats.get(key, {})
            p = per.get(key)
            chip_lines.append(
                ChipRow(
                    player_id=key[0],
                    name=_display_name(key, s.get("name") or names.get(key, key[0])),
                    is_ai=key[1],
                    matches=s.get("matches", 0),
                    wins=s.get("wins", 0),
                    net_chips=int(p["net"]) if p else 0,
                    hands=int(p["hands"]) if p else 0,
                )
            )
        chip_lines.sort(key=lambda r: (-r.wins, -r.net_chips, r.name))
        for chip_line in chip_lines:
            (board.ai if chip_line.is_ai else board.humans).append(chip_line)
        return board
