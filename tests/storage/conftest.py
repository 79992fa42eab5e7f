"""Storage fixtures: every storage test runs on SQLite and on a real PostgreSQL server.

The server is started by the tests themselves (`deucebot_dev.pg_server.TempPostgres`: initdb +
pg_ctl in a temporary folder, a free loopback port), one per pytest process (each xdist
worker has its own), and every test gets a fresh database on it. Without PostgreSQL
binaries the PostgreSQL cases skip, and the run's summary says why; on CI (CI set in the
environment) they fail instead, since CI installs PostgreSQL (.ci/run).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage.backend import AnyStorage, make_storage

# pg_server and pg_url live in tests/conftest.py (the end-to-end tests use them too).

BACKENDS = ("sqlite", "postgres")


@pytest.fixture(params=BACKENDS)
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """What `open_storage` is given: a fresh SQLite path, or a fresh PostgreSQL URL."""
    if request.param == "postgres":
        url: str = request.getfixturevalue("pg_url")
        return url
    return str(tmp_path / "s.sqlite3")


@pytest.fixture
async def store(target: str) -> AsyncIterator[AnyStorage]:
    """An open storage on each backend."""
    storage = make_storage(target)
    await storage.open()
    yield storage
    await storage.close()
