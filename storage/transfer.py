"""`deucebot migrate-db`: copy a SQLite database, whole history included, into PostgreSQL.

Every table is copied row for row in one PostgreSQL transaction (COPY), keeping ids, so
nothing is half-copied: either the whole database arrives or the target is as before.
Then both sides are checked: row counts of every table, and the chip and penalty ledger
sums per guild and game. A non-empty target is refused unless `append=True`; then the
copied ids are moved past the target's own (tables, matches, ledger rows) so both
histories stay whole side by side.

The source must be at the schema version this program writes (open it once with
`deucebot` to upgrade it), and so must the target (it is migrated on open).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

from storage.base import StorageError
from storage.board import rebuild_statements
from storage.chain import ROW_QUERIES, TABLES, Kind, rechain, verify_chains
from storage.migrate import latest_version
from storage.postgres import Conn, PostgresStorage, pg_sql, redact
from storage.queries import verify_chains_with

CHAIN_KEYS: Mapping[str, tuple[Kind, str]] = {
    TABLES[kind]: (kind, {"action": "seq", "deal": "deal"}.get(kind, "id")) for kind in TABLES
}
"""Per chained table: its kind of row and the column that names a row in its chain."""

Hashes = dict[int, tuple[dict[tuple[Kind, int], str], str | None]]
"""Per source match id: its chain's new hashes and head once renumbered (`rechain`)."""

COPY_ORDER = (
    "tables",
    "seats",
    "matches",
    "match_secrets",
    "match_players",
    "actions",
    "deals",
    "chip_ledger",
    "penalty_ledger",
    "rating_updates",
    "seasons",
    "deliveries",
    "notices_said",
    "guild_settings",
    "guild_settings_log",
    "member_prefs",
    "web_links",
)
"""Every table of the schema with history, parents before the rows that refer to them."""

NOT_COPIED = frozenset({"shard_leases", "board_days", "board_days_rebuild"})
"""Tables of running processes, not history (the target's own processes fill them), and
the leaderboards' running sums (derived: recomputed in the target, `storage.board`)."""

ID_COLUMNS: Mapping[str, Mapping[str, str]] = {
    "tables": {"id": "tables"},
    "seats": {"table_id": "tables"},
    "matches": {"id": "matches", "table_id": "tables"},
    "match_secrets": {"match_id": "matches"},
    "match_players": {"match_id": "matches"},
    "actions": {"match_id": "matches"},
    "deals": {"match_id": "matches"},
    "chip_ledger": {"id": "chip_ledger", "match_id": "matches"},
    "penalty_ledger": {"id": "penalty_ledger", "match_id": "matches"},
    "rating_updates": {"id": "rating_updates", "match_id": "matches"},
    "seasons": {"id": "seasons"},
    "deliveries": {"match_id": "matches"},
    "notices_said": {},
    "guild_settings": {},
    "guild_settings_log": {},
    "member_prefs": {},
    "web_links": {},
}
"""For each table, its columns holding an id of an identity table (what `append` shifts)."""

IDENTITIES = ("tables", "matches", "chip_ledger", "penalty_ledger", "rating_updates", "seasons")

LEDGER_SUMS = {
    "chip_ledger": "SELECT guild, game, count(*), sum(delta) FROM chip_ledger GROUP BY guild, game",
    "penalty_ledger": (
        "SELECT guild, game, count(*), sum(penalty) FROM penalty_ledger GROUP BY guild, game"
    ),
}
"""Per ledger: rows and sum per (guild, game), the same SQL on both sides."""


class CopyRefused(StorageError):
    """The copy was not started (bad source, non-empty target) or its check failed."""


Sums = dict[str, dict[tuple[str, str], tuple[int, int]]]


@dataclass
class CopyReport:
    """What was copied and what the checks compared."""

    rows: dict[str, int] = field(default_factory=dict)
    """Rows copied per table."""
    sums: Sums = field(default_factory=dict)
    """Per ledger, (rows, sum) per (guild, game) in the source."""
    shifted: dict[str, int] = field(default_factory=dict)
    """With `append`: how much each identity's ids were moved."""


def _source(path: str) -> sqlite3.Connection:
    if not Path(path).is_file():
        raise CopyRefused(f"no SQLite database at {path}")
    db = sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True, isolation_level=None)
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        names = {
            r[0]
            for r in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        }
    except sqlite3.DatabaseError as error:
        db.close()
        raise CopyRefused(f"{path} is not a SQLite database: {error}") from error
    if version != latest_version():
        db.close()
        raise CopyRefused(
            f"{path} is at schema version {version}, this program writes {latest_version()}: "
            "open it once with this deucebot (e.g. `deucebot leaderboard bigtwo --db PATH`) "
            "to upgrade it, then copy"
        )
    if names - NOT_COPIED != set(COPY_ORDER):
        db.close()
        raise CopyRefused(
            f"{path} has tables {sorted(names)}, the copy knows {sorted(COPY_ORDER)}: "
            "this program cannot copy it"
        )
    return db


def _sqlite_sums(db: sqlite3.Connection) -> Sums:
    return {
        ledger: {(g, m): (int(n), int(total or 0)) for g, m, n, total in db.execute(sql)}
        for ledger, sql in LEDGER_SUMS.items()
    }


async def _pg_sums(conn: Conn) -> Sums:
    out: Sums = {}
    for ledger, sql in LEDGER_SUMS.items():
        out[ledger] = {(r[0], r[1]): (int(r[2]), int(r[3] or 0)) for r in await conn.fetch(sql)}
    return out


def _added(before: Sums, copied: Sums) -> Sums:
    """What the target's sums must be after the copy: before + copied, per key."""
    out: Sums = {}
    for ledger in LEDGER_SUMS:
        merged = dict(before.get(ledger, {}))
        for key, (n, total) in copied.get(ledger, {}).items():
            old_n, old_total = merged.get(key, (0, 0))
            merged[key] = (old_n + n, old_total + total)
        out[ledger] = merged
    return out


async def copy_sqlite_to_postgres(source: str, target: str, *, append: bool = False) -> CopyReport:
    """Copy the SQLite file `source` into the PostgreSQL database at URL `target` (migrated
    first), in one transaction, then check counts and ledger sums on both sides; return
    what was copied. `CopyRefused` when the target already holds tables and `append` is
    not set, or when a check fails (then nothing is left copied)."""
    db = _source(source)
    try:
        return await _copy(db, target, append)
    finally:
        db.close()


def _rows(
    db: sqlite3.Connection,
    name: str,
    columns: list[str],
    shifted: dict[str, int],
    hashes: Hashes,
) -> Iterator[tuple[Any, ...]]:
    """A table's rows, read as they are copied, with their ids moved by `shifted` and,
    when matches are renumbered, their chain hashes (and heads) from `hashes`."""
    shifts = {
        columns.index(col): shifted[identity]
        for col, identity in ID_COLUMNS[name].items()
        if shifted[identity]
    }
    for row in db.execute(f"SELECT * FROM {name}"):
        out = tuple(v + shifts[i] if i in shifts else v for i, v in enumerate(row))
        if hashes and name in CHAIN_KEYS and row[columns.index("hash")] is not None:
            kind, key = CHAIN_KEYS[name]
            new, _ = hashes[row[columns.index("match_id")]]
            at = columns.index("hash")
            out = (*out[:at], new[(kind, row[columns.index(key)])], *out[at + 1 :])
        elif hashes and name == "matches" and row[columns.index("head_hash")] is not None:
            at = columns.index("head_hash")
            out = (*out[:at], hashes[row[columns.index("id")]][1], *out[at + 1 :])
        yield out


def _rechained(db: sqlite3.Connection, shift: int) -> Hashes:
    """Every source match's chain rehashed under its id moved by `shift` (`--append`)."""
    out: Hashes = {}
    for (match_id,) in db.execute("SELECT id FROM matches").fetchall():
        found: list[tuple[Kind, Any]] = []
        for kind, sql in ROW_QUERIES.items():
            found += [(kind, tuple(r)) for r in db.execute(sql, (match_id,))]
        out[match_id] = rechain(match_id + shift, found)
    return out


async def _copy(db: sqlite3.Connection, target: str, append: bool) -> CopyReport:
    """The copy and its checks, from an open source (see `copy_sqlite_to_postgres`)."""
    db.execute("BEGIN")  # one read snapshot of the source, even if something still writes it
    report = CopyReport()
    columns: dict[str, list[str]] = {}
    for name in COPY_ORDER:
        cursor = db.execute(f"SELECT * FROM {name} LIMIT 0")
        columns[name] = [d[0] for d in cursor.description]
        report.rows[name] = int(db.execute(f"SELECT count(*) FROM {name}").fetchone()[0])
    report.sums = _sqlite_sums(db)
    damaged = {p.match_id for p in verify_chains(db)}
    source_ids = [r[0] for r in db.execute("SELECT id FROM matches ORDER BY id")]

    storage = PostgresStorage(target)
    await storage.open()  # migrates the target to the latest schema
    try:
        async with storage.pool.acquire() as conn, conn.transaction():
            await conn.execute(f"LOCK TABLE {', '.join(COPY_ORDER)} IN EXCLUSIVE MODE")
            before = {
                name: int(await conn.fetchval(f"SELECT count(*) FROM {name}"))
                for name in COPY_ORDER
            }
            if any(before.values()) and not append:
                raise CopyRefused(
                    f"{redact(target)} is not empty ({before['tables']} tables, "
                    f"{before['actions']} actions): copy into an empty database, or pass "
                    "--append to add this history next to what is there"
                )
            sums_before = await _pg_sums(conn)
            for identity in IDENTITIES:
                top = await conn.fetchval(f"SELECT coalesce(max(id), 0) FROM {identity}")
                report.shifted[identity] = int(top) if append else 0
            shift = report.shifted["matches"]
            if shift and damaged:
                raise CopyRefused(
                    f"the hash chains of matches {sorted(damaged)} are damaged (see "
                    "`deucebot verify --db`): appending renumbers matches and rehashes their "
                    "chains, which would hide the damage; copy into an empty database instead"
                )
            hashes = _rechained(db, shift) if shift else {}
            for name in COPY_ORDER:
                rows = _rows(db, name, columns[name], report.shifted, hashes)
                await conn.copy_records_to_table(name, records=rows, columns=columns[name])
            for identity in IDENTITIES:
                await conn.execute(
                    "SELECT setval(pg_get_serial_sequence($1, 'id'),"
                    f" coalesce((SELECT max(id) FROM {identity}), 0) + 1, false)",
                    identity,
                )
            for sql, params in rebuild_statements("postgres"):
                await conn.execute(pg_sql(sql), *params)
            problems: list[str] = []
            for name in COPY_ORDER:
                after = int(await conn.fetchval(f"SELECT count(*) FROM {name}"))
                if after != before[name] + report.rows[name]:
                    problems.append(
                        f"{name}: {after} rows, expected {before[name]} + {report.rows[name]}"
                    )
            expected = _added(sums_before, report.sums)
            actual = await _pg_sums(conn)
            for ledger in LEDGER_SUMS:
                if actual[ledger] != expected[ledger]:
                    problems.append(
                        f"{ledger} sums differ: {actual[ledger]} instead of {expected[ledger]}"
                    )
            copied = [i + shift for i in source_ids]

            async def fetch(sql: str, params: tuple[Any, ...]) -> list[Any]:
                return list(await conn.fetch(pg_sql(sql), *params))

            broken = {p.match_id for p in await verify_chains_with(fetch, copied)}
            if broken != {i + shift for i in damaged}:
                problems.append(
                    f"hash chains damaged after the copy: matches {sorted(broken)}, "
                    f"in the source {sorted(damaged)}"
                )
            if problems:
                raise CopyRefused(
                    "the copy did not check out, nothing kept: " + "; ".join(problems)
                )
    except asyncpg.PostgresError as error:
        raise CopyRefused(f"the copy failed, nothing kept: {error}") from error
    finally:
        await storage.close()
    return report
