"""Fixtures of the hand-history tests: a real SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import SqliteStorage


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStorage]:
    storage = SqliteStorage(str(tmp_path / "h.sqlite3"))
    await storage.open()
    yield storage
    await storage.close()
