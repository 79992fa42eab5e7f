"""`deucebot backup --db PATH OUT`: a consistent copy of a live SQLite database, checked.

The copy is made with SQLite's online backup API (`sqlite3.Connection.backup`), so it may
run while the bot plays: it reads a consistent snapshot (a commit during the copy makes
SQLite start the copy over, in steps of `PAGES` pages) and never blocks the bot's writes
for long. The copy is written beside `OUT` as `OUT.partial`, turned into a single file
(rollback journal, no -wal), checked (`PRAGMA integrity_check`, then everything `deucebot
verify` checks: hash chains, deals, actions, ledgers) and only then renamed to `OUT`.

PostgreSQL is backed up with its own tools (`pg_dump`; see docs/operations.md).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.errors import DeucebotError
from storage import is_postgres_url

PAGES = 256
"""Pages copied per step of the online backup (a step holds the source's read lock)."""


class BackupError(DeucebotError):
    """A backup that could not be made (the message says why, in one line)."""


@dataclass(frozen=True)
class Backup:
    """A finished backup: where it is, its size, and the problems `verify` found (none: good)."""

    path: Path
    size: int
    problems: list[str]


def copy_sqlite(db: str, out: Path) -> None:
    """Copy the SQLite database `db` to the new file `out` with the online backup API; the
    copy uses a rollback journal (one file)."""
    try:
        source = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise BackupError(f"cannot open {db}: {error}") from error
    try:
        target = sqlite3.connect(out)
        try:
            source.backup(target, pages=PAGES)
            target.execute("PRAGMA journal_mode = DELETE")
            checked = target.execute("PRAGMA integrity_check").fetchone()
        finally:
            target.close()
    except sqlite3.Error as error:
        raise BackupError(f"the copy of {db} failed: {error}") from error
    finally:
        source.close()
    if checked is None or checked[0] != "ok":
        raise BackupError(f"the copy of {db} is damaged: {checked}")


async def backup(db: str, out: str) -> Backup:
    """Back up the SQLite database `db` to `out` (which must not exist), then verify the
    copy; `BackupError` when no copy could be made."""
    from bot.commands.verify import ExportError, check_database

    if is_postgres_url(db):
        raise BackupError("a PostgreSQL database is backed up with pg_dump (docs/operations.md)")
    if not Path(db).is_file():
        raise BackupError(f"there is no database at {db}")
    target = Path(out)
    if target.exists():
        raise BackupError(f"{out} already exists: choose a new name (nothing is overwritten)")
    if not target.parent.is_dir():
        raise BackupError(f"the folder {target.parent} does not exist")
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        await asyncio.to_thread(copy_sqlite, db, partial)
        try:
            problems = await check_database(str(partial))
        except ExportError as error:
            raise BackupError(f"the copy cannot be checked: {error}") from error
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return Backup(target, target.stat().st_size, problems)


def add_parser(sub: Any) -> None:
    """The `backup` subcommand of `deucebot`."""
    command = sub.add_parser(
        "backup", help="copy a live SQLite database consistently, then verify the copy"
    )
    command.add_argument("--db", help="the SQLite file (default: the DEUCEBOT_DB setting)")
    command.add_argument("out", help="the new file to write (never overwritten)")


def main(args: argparse.Namespace) -> int:
    """Run `deucebot backup`: 0 when the copy was made and verified, 1 when it verified with
    problems (listed; the copy is kept), 2 when no copy could be made."""
    db = args.db
    if db is None:
        from bot.process.settings import load_settings

        db = load_settings().db
    try:
        done = asyncio.run(backup(db, args.out))
    except BackupError as error:
        print(f"deucebot backup: {error}")
        return 2
    for line in done.problems:
        print(line)
    verdict = "with problems (above)" if done.problems else "verify: every check passed"
    print(f"backup: {db} copied to {done.path} ({done.size} bytes); {verdict}")
    return 1 if done.problems else 0
