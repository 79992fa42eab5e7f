"""Numbered SQL migrations: `storage/migrations/NNN_name.sql`, applied in order.

`storage/migrations_pg/` holds PostgreSQL's twins, one per SQLite migration with the same
number; `pending` (which migrations a database needs) serves both backends, and
`storage.postgres` applies them there the same way.

The schema version is SQLite's `PRAGMA user_version`. Every pending migration runs in
one transaction together with the version bump, so a database is always at a whole
version: an older database upgrades in place, and a failed upgrade changes nothing.

A Deucebot database says so with `PRAGMA application_id` (`APPLICATION_ID`, set by
migration 004). `recognise` decides, before anything is written, whether a file may be
used: an empty file is new; a file with our id (or, for files written before 004, with
exactly the tables of one of our versions) is ours; anything else, or a newer version,
is refused with `CannotOpenDatabase` and left as it is.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import aiosqlite

from storage.base import CannotOpenDatabase

MIGRATIONS = Path(__file__).with_name("migrations")
MIGRATIONS_PG = Path(__file__).with_name("migrations_pg")
_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")

APPLICATION_ID = 0x44756365
"""`PRAGMA application_id` of a Deucebot database ("Duce"; set by migration 004)."""

READABLE_FROM = 2
"""The oldest schema version read-only commands (the leaderboard) can read unmigrated."""


@dataclass(frozen=True)
class Migration:
    """One numbered migration file."""

    version: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        """The file's statements, split where SQLite says a statement is complete
        (so trigger bodies with inner semicolons stay whole)."""
        out: list[str] = []
        buffer = ""
        for line in self.sql.splitlines(keepends=True):
            if not buffer and (not line.strip() or line.lstrip().startswith("--")):
                continue
            buffer += line
            if sqlite3.complete_statement(buffer):
                out.append(buffer.strip())
                buffer = ""
        if buffer.strip():
            raise ValueError(f"migration {self.name}: incomplete statement at the end")
        return out


def migrations(folder: Path = MIGRATIONS) -> list[Migration]:
    """Every migration file in version order; versions must be 1, 2, 3, ... without gaps."""
    found = []
    for path in sorted(folder.glob("*.sql")):
        match = _NAME.match(path.name)
        if not match:
            raise ValueError(f"badly named migration {path.name}: expected NNN_name.sql")
        found.append(Migration(int(match.group(1)), path.name, path.read_text(encoding="utf-8")))
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise ValueError(f"migration {migration.name}: expected version {expected}")
    return found


def latest_version(folder: Path = MIGRATIONS) -> int:
    """The version a fully migrated database has."""
    return len(migrations(folder))


def pending(current: int, target: int | None = None, folder: Path = MIGRATIONS) -> list[Migration]:
    """The migrations a database at version `current` needs (up to `target`), in order.
    A database newer than this program is refused (`CannotOpenDatabase`), unchanged."""
    found = migrations(folder)
    if current > len(found):
        raise newer_than_this_program("the database", current)
    return [m for m in found if current < m.version <= (target or len(found))]


async def schema_version(db: aiosqlite.Connection) -> int:
    """The database's current schema version (0: empty)."""
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


@dataclass(frozen=True)
class Identity:
    """What a database file says it is, read before anything is written to it."""

    application_id: int
    version: int
    tables: frozenset[str]


@cache
def known_tables(version: int) -> frozenset[str]:
    """The tables a Deucebot database at `version` has (migrations 1..version replayed on
    an in-memory database, so this never drifts from the migration files)."""
    with sqlite3.connect(":memory:") as db:
        for migration in migrations()[:version]:
            for statement in migration.statements():
                db.execute(statement)
        rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    db.close()
    return frozenset(name for (name,) in rows if not name.startswith("sqlite_"))


async def identity(db: aiosqlite.Connection) -> Identity:
    """The file's application id, schema version and table names."""
    async with db.execute("PRAGMA application_id") as cursor:
        app = await cursor.fetchone()
    async with db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    ) as cursor:
        names = frozenset(str(row[0]) for row in await cursor.fetchall())
    return Identity(int(app[0]) if app else 0, await schema_version(db), names)


def newer_than_this_program(where: str, version: int) -> CannotOpenDatabase:
    """The refusal of a database written by a newer Deucebot."""
    return CannotOpenDatabase(
        f"{where} was written by a newer Deucebot (schema version {version}, newer than this "
        f"program's {latest_version()}): upgrade deucebot to use it"
    )


def recognise(found: Identity, where: str, *, read_only: bool = False) -> int:
    """The schema version of a usable database (0: empty, to be created), or
    `CannotOpenDatabase` saying why the file at `where` must not be touched."""
    latest = latest_version()
    if found.application_id not in (0, APPLICATION_ID):
        raise CannotOpenDatabase(
            f"{where} belongs to another program (SQLite application id "
            f"{found.application_id:#x}), not Deucebot: choose another database file"
        )
    empty = found.version == 0 and not found.tables and found.application_id == 0
    ours = found.application_id == APPLICATION_ID or (
        1 <= found.version <= latest and found.tables == known_tables(found.version)
    )
    if not empty and not ours:
        tables = ", ".join(sorted(found.tables)) or "none"
        raise CannotOpenDatabase(
            f"{where} is another program's SQLite database (version {found.version}, tables: "
            f"{tables}), not Deucebot's: choose another database file"
        )
    if found.version > latest:
        raise newer_than_this_program(where, found.version)
    if read_only and empty:
        raise CannotOpenDatabase(f"{where} holds no Deucebot data yet: play a match first")
    if read_only and found.version < READABLE_FROM:
        raise CannotOpenDatabase(
            f"{where} has an old schema (version {found.version}): run `deucebot play` or "
            "the bot on it once to upgrade it"
        )
    return found.version


async def migrate(db: aiosqlite.Connection, target: int | None = None) -> int:
    """Apply every migration above the database's version (up to `target`) in one
    transaction; return the new version. The connection must be in autocommit mode.
    A database newer than this program is refused (`CannotOpenDatabase`), unchanged."""
    current = await schema_version(db)
    todo = pending(current, target)
    if not todo:
        return current
    await db.execute("BEGIN IMMEDIATE")
    try:
        for migration in todo:
            for statement in migration.statements():
                await db.execute(statement)
        await db.execute(f"PRAGMA user_version = {todo[-1].version}")
        await db.execute("COMMIT")
    except BaseException:
        await db.execute("ROLLBACK")
        raise
    return todo[-1].version
