"""Opening a database: files that are not Deucebot's are refused unchanged with one line,
nothing (connection thread, lock) outlives a refusal, one writer per file, and readers open
read-only without migrating anything."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from storage import CannotOpenDatabase, SqliteStorage
from storage.migrate import APPLICATION_ID, latest_version, migrate, schema_version
from storage.opening import cannot_open, lock_path

NOW = 1_780_000_000.0


def random_bytes(path: Path) -> None:
    path.write_bytes(bytes(range(256)) * 64)


def text_file(path: Path) -> None:
    path.write_text("name,score\nann,3\n" * 200)


def other_sqlite(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE tables (legs INTEGER)")
        db.execute("INSERT INTO tables VALUES (4)")
    db.close()


def other_application(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA application_id = 1234")
    db.close()


def newer_deucebot(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {latest_version() + 1}")
        db.execute("CREATE TABLE from_the_future (x)")
    db.close()


BAD_FILES: dict[str, tuple[Callable[[Path], None], str]] = {
    "random bytes": (random_bytes, "is not a SQLite database"),
    "a text file": (text_file, "is not a SQLite database"),
    "another program's tables": (other_sqlite, "another program's SQLite database"),
    "another application id": (other_application, "belongs to another program"),
    "a newer Deucebot": (newer_deucebot, "written by a newer Deucebot"),
}


async def threads_back_to(count: int, seconds: float = 5.0) -> bool:
    """Whether the thread count falls back to `count` (a stopped thread ends a moment later)."""
    for _ in range(int(seconds / 0.01)):
        if threading.active_count() <= count:
            return True
        await asyncio.sleep(0.01)
    return False


def beside(path: Path) -> set[str]:
    return {p.name for p in path.parent.iterdir()}


@pytest.mark.parametrize("read_only", [False, True], ids=["writer", "reader"])
@pytest.mark.parametrize("kind", list(BAD_FILES))
async def test_a_file_that_is_not_ours_is_refused_unchanged(
    tmp_path: Path, kind: str, read_only: bool
) -> None:
    make, message = BAD_FILES[kind]
    path = tmp_path / "x.db"
    make(path)
    before, files = path.read_bytes(), beside(path)
    threads = threading.active_count()
    storage = SqliteStorage(str(path), read_only=read_only)
    with pytest.raises(CannotOpenDatabase, match=message) as refused:
        await storage.open()
    assert "\n" not in str(refused.value) and str(path) in str(refused.value)
    assert path.read_bytes() == before
    assert beside(path) == files, "no -wal, -shm or -lock file left beside it"
    assert await threads_back_to(threads), "the connection's thread was not stopped"


@pytest.mark.parametrize(
    ("where", "message"),
    [
        (lambda tmp: tmp, "is a folder, not a database file"),
        (lambda tmp: tmp / "missing" / "x.db", "the folder .* does not exist: create it"),
        (lambda tmp: Path(os.devnull), "is not a regular file"),
    ],
    ids=["a folder", "a missing folder", "/dev/null"],
)
@pytest.mark.parametrize("read_only", [False, True], ids=["writer", "reader"])
async def test_a_path_that_cannot_be_a_database_is_refused(
    tmp_path: Path, where: Callable[[Path], Path], message: str, read_only: bool
) -> None:
    path = where(tmp_path)
    if read_only and "missing" in str(path):
        message = "no database at"
    with pytest.raises(CannotOpenDatabase, match=message):
        await SqliteStorage(str(path), read_only=read_only).open()
    assert not (tmp_path / "missing").exists()


async def test_an_empty_file_becomes_a_deucebot_database(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    async with SqliteStorage(str(path)) as storage:
        assert await schema_version(storage.db) == latest_version()
        assert lock_path(str(path)).exists()
    assert not lock_path(str(path)).exists(), "the lock file is removed on close"


async def test_one_writer_at_a_time_and_readers_alongside(tmp_path: Path) -> None:
    path = str(tmp_path / "shared.db")
    first = SqliteStorage(path)
    await first.open()
    try:
        await first.create_table(
            guild="g", place="p", game="bigtwo", settings={}, options={}, seats=[], now=NOW
        )
        second = SqliteStorage(path)
        with pytest.raises(
            CannotOpenDatabase, match=rf"in use by another Deucebot \(pid {os.getpid()}: "
        ):
            await second.open()
        reader = SqliteStorage(path, read_only=True)
        await reader.open()
        assert [t.place for t in await reader.live_tables()] == ["p"]
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            await reader.db.execute("DELETE FROM seats")
        await reader.close()
    finally:
        await first.close()
    async with SqliteStorage(path) as again:
        assert [t.place for t in await again.live_tables()] == ["p"]


async def test_a_reader_never_migrates(tmp_path: Path) -> None:
    import aiosqlite

    path = tmp_path / "v2.db"
    async with aiosqlite.connect(path, isolation_level=None) as db:
        await migrate(db, target=2)
    before = path.read_bytes()
    async with SqliteStorage(str(path), read_only=True) as reader:
        board = await reader.leaderboard(
            guild="g", game="bigtwo", scoring="penalty", period="all", now=NOW
        )
        assert board.humans == [] and board.ai == []
    assert path.read_bytes() == before
    with sqlite3.connect(path) as check:
        assert check.execute("PRAGMA user_version").fetchone()[0] == 2
        assert check.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    check.close()


async def test_a_database_locked_by_another_program_is_refused_after_the_wait(
    tmp_path: Path,
) -> None:
    path = tmp_path / "busy.db"
    async with SqliteStorage(str(path)):
        pass
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        storage = SqliteStorage(str(path), busy_seconds=0.2)
        with pytest.raises(CannotOpenDatabase, match=r"locked by another program \(waited 0.2 s\)"):
            await storage.open()
        assert not lock_path(str(path)).exists()
    finally:
        other.execute("ROLLBACK")
        other.close()
    async with SqliteStorage(str(path), busy_seconds=0.2) as storage:
        assert await storage.live_tables() == []


def test_sqlite_errors_at_opening_say_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "ro.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE t (x)")
    db.close()
    reader = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    with pytest.raises(sqlite3.OperationalError) as read_only:
        reader.execute("INSERT INTO t VALUES (1)")
    reader.close()
    assert "is read-only: make it writable" in str(cannot_open(read_only.value, "f.db", 5))
    with pytest.raises(sqlite3.OperationalError) as cannot:
        sqlite3.connect(f"file:{tmp_path / 'none.db'}?mode=ro", uri=True)
    assert "cannot open f.db: check that it and its folder exist" in str(
        cannot_open(cannot.value, "f.db", 5)
    )


async def test_in_memory_needs_no_file_and_no_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    async with SqliteStorage(":memory:") as storage:
        assert not storage.persistent
        assert await schema_version(storage.db) == latest_version()
    assert list(tmp_path.iterdir()) == []
