"""Fixtures for the runtime tests: a real SQLite file, a recording front, a fake clock."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.runtime import FakeClock, RecordingFront, RuntimeConfig, TableManager
from storage import SqliteStorage


class Env:
    """A runtime wired to a database file; `reopen()` simulates a process restart."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.clock = FakeClock()
        self.front = RecordingFront()
        self.storage: SqliteStorage | None = None
        self.manager: TableManager | None = None

    async def open(self, **config: Any) -> TableManager:
        self.storage = SqliteStorage(str(self.path))
        await self.storage.open()
        self.front = RecordingFront()
        options = {"ai_delay": 0.0, "ai_in_thread": False, "timers": True, **config}
        self.manager = TableManager(
            self.storage, self.front, clock=self.clock, config=RuntimeConfig(**options)
        )
        return self.manager

    async def close(self) -> None:
        if self.manager is not None:
            await self.manager.close()
        if self.storage is not None:
            await self.storage.close()

    async def reopen(self, **config: Any) -> TableManager:
        await self.close()
        manager = await self.open(**config)
        await manager.restore()
        return manager

    def rows(self, sql: str) -> list[tuple[Any, ...]]:
        """Read the database file directly (what is really committed)."""
        with sqlite3.connect(self.path) as db:
            return db.execute(sql).fetchall()

    def counts(self) -> dict[str, int]:
        names = ["tables", "seats", "matches", "match_players", "actions", "deals"]
        names += ["chip_ledger", "penalty_ledger"]
        return {n: self.rows(f"SELECT count(*) FROM {n}")[0][0] for n in names}


async def open_runtime(
    path: Path, clock: FakeClock, config: RuntimeConfig
) -> tuple[SqliteStorage, TableManager]:
    """A process start for property tests: storage on `path`, a manager, tables restored."""
    storage = SqliteStorage(str(path))
    await storage.open()
    manager = TableManager(storage, RecordingFront(), clock=clock, config=config)
    await manager.restore()
    return storage, manager


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    environment = Env(tmp_path / "runtime.sqlite3")
    await environment.open()
    yield environment
    await environment.close()
