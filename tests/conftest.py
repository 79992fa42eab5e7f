"""Suite-wide test settings.

Hypothesis: no per-example deadline (the machine is shared and slow timing
is not a failure; speed is measured by `deucebot bench`), and on CI the
examples are derandomised so a red run can be reproduced exactly.
"""

from __future__ import annotations

import itertools
import os
import signal
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from deucebot_dev.pg_server import NoPostgres, TempPostgres

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("ci" if os.environ.get("CI") else "default")


def _dump_asyncio_tasks(signum: int, frame: object) -> None:
    """`kill -USR1 <pid>` on a stuck test process prints every asyncio task's stack (a
    thread dump shows only the event loop waiting)."""
    import asyncio
    import sys

    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        print("no running event loop", file=sys.stderr)
        return
    for task in asyncio.all_tasks(loop):
        task.print_stack(file=sys.stderr)


if hasattr(signal, "SIGUSR1"):
    signal.signal(signal.SIGUSR1, _dump_asyncio_tasks)


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


def pytest_terminal_summary(terminalreporter: object) -> None:
    """Say why the PostgreSQL storage tests skipped, when they did (no server binaries)."""
    from deucebot_dev.pg_server import NoPostgres, TempPostgres

    try:
        TempPostgres(fsync=False)
    except NoPostgres as missing:
        write_line = getattr(terminalreporter, "write_line", print)
        write_line(f"PostgreSQL storage tests skipped: {missing}")
