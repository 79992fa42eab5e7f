"""Storage fixtures: every storage test runs on SQLite and on a real PostgreSQL server.

The server is started by the tests themselves (`storage.pg_server.TempPostgres`: initdb +
pg_ctl in a temporary folder, a free loopback port), one per pytest process (each xdist
worker has its own), and every test gets a fresh database on it. Without PostgreSQL
binaries the PostgreSQL cases skip, and the run's summary says why; on CI (CI set in the
environment) they fail instead, since CI installs PostgreSQL (.ci/run).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from storage.backend import AnyStorage, make_storage
from storage.pg_server import NoPostgres, TempPostgres

BACKENDS = ("sqlite", "postgres")
_names = itertools.count(1)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[TempPostgres]:
    """One throwaway PostgreSQL server for this test process (fsync off: nothing in it is
    kept, and durability is PostgreSQL's own business)."""
    try:
        server = TempPostgres(fsync=False)
    except NoPostgres as missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the PostgreSQL tests: {missing}")
        pytest.skip(f"PostgreSQL tests skipped: {missing}")
    server.start()
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server: TempPostgres) -> str:
    """The URL of a fresh, empty database on the test server."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return pg_server.create_database(f"t_{worker}_{next(_names)}")


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
