"""SQLite's WAL checkpoints run beside the commits (`storage.checkpoint`), never inside one."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import threading
from pathlib import Path

from storage.checkpoint import Checkpointer
from storage.sqlite import SqliteStorage
from tests.storage.test_storage import commit, new_match


def _checkpoint_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name.startswith("sqlite-checkpoint")}


async def test_commits_never_checkpoint_and_the_background_copies_them_into_the_file(
    tmp_path: Path,
) -> None:
    path = tmp_path / "c.sqlite3"
    storage = SqliteStorage(str(path))
    await storage.open()
    try:
        assert storage._checkpointer is not None
        storage._checkpointer.every = 0.05
        # The writer connection itself never checkpoints (SQLite's default is every 1,000 pages).
        rows = await storage.db.execute_fetchall("PRAGMA wal_autocheckpoint")
        assert [tuple(row) for row in rows] == [(0,)]
        table_id, match_id = await new_match(storage, "p", [("a", False), ("b", True)])
        await asyncio.gather(
            *(storage.commit_action(commit(table_id, match_id, s)) for s in range(40))
        )
        checkpointer = storage._checkpointer
        for _ in range(250):  # the checkpointer runs within a moment of the last commit
            if checkpointer.copied == checkpointer.commits:
                break
            await asyncio.sleep(0.02)
        # The database file alone, without its WAL, already holds every committed action.
        alone = tmp_path / "alone.sqlite3"
        shutil.copyfile(path, alone)
        with sqlite3.connect(alone) as copy:
            assert copy.execute("SELECT count(*) FROM actions").fetchone() == (40,)
    finally:
        await storage.close()


async def test_close_ends_the_checkpoint_thread_and_a_reopened_file_has_everything(
    tmp_path: Path,
) -> None:
    before = _checkpoint_threads()
    path = str(tmp_path / "c.sqlite3")
    storage = SqliteStorage(path)
    await storage.open()
    table_id, match_id = await new_match(storage, "p", [("a", False)])
    for seq in range(5):
        await storage.commit_action(commit(table_id, match_id, seq))
    await asyncio.sleep(0.05)
    assert _checkpoint_threads() - before
    await storage.close()
    assert not _checkpoint_threads() - before
    again = SqliteStorage(path)
    await again.open()
    assert [a.seq for a in await again.actions(match_id)] == list(range(5))
    await again.close()


async def test_a_failed_checkpoint_is_logged_and_the_next_commit_asks_again(
    tmp_path: Path, caplog: object
) -> None:
    checkpointer = Checkpointer(str(tmp_path / "missing" / "x.sqlite3"), "FULL", every=0.01)
    checkpointer.start()
    checkpointer.committed()
    await asyncio.sleep(0.1)
    assert checkpointer.checkpoints == 0  # the folder does not exist: sqlite3 refuses
    assert "WAL checkpoint" in caplog.text  # type: ignore[attr-defined]
    (tmp_path / "missing").mkdir()
    checkpointer.committed()
    await asyncio.sleep(0.1)
    assert checkpointer.checkpoints == 1 and checkpointer.copied == checkpointer.commits == 2
    await checkpointer.close()


async def test_memory_and_read_only_storage_start_no_checkpointer(tmp_path: Path) -> None:
    memory = SqliteStorage(":memory:")
    await memory.open()
    assert memory._checkpointer is None
    await memory.close()
    path = str(tmp_path / "r.sqlite3")
    writer = SqliteStorage(path)
    await writer.open()
    await writer.close()
    reader = SqliteStorage(path, read_only=True)
    await reader.open()
    assert reader._checkpointer is None
    await reader.close()
