"""Numbered SQL migrations: `storage/migrations/NNN_name.sql`, applied in order.

`storage/migrations_pg/` holds PostgreSQL's twins, one per SQLite migration with the same
number; `pending` (which migrations a database needs) serves both backends, and
`storage.postgres` applies them there the same way.

The schema version is SQLite's `PRAGMA user_version`. Every pending migration runs in
one transaction together with the version bump, so a database is always at a whole
version: an older database upgrades in place, and a failed upgrade changes nothing.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

MIGRATIONS = Path(__file__).with_name("migrations")
MIGRATIONS_PG = Path(__file__).with_name("migrations_pg")
_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")


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
    A database newer than this program is refused (`RuntimeError`)."""
    found = migrations(folder)
    if current > len(found):
        raise RuntimeError(
            f"the database is at schema version {current}, newer than this program "
            f"({len(found)}); upgrade deucebot"
        )
    return [m for m in found if current < m.version <= (target or len(found))]


async def schema_version(db: aiosqlite.Connection) -> int:
    """The database's current schema version (0: empty)."""
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def migrate(db: aiosqlite.Connection, target: int | None = None) -> int:
    """Apply every migration above the database's version (up to `target`) in one
    transaction; return the new version. The connection must be in autocommit mode."""
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
