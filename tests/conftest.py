"""Suite-wide test settings.

Hypothesis: no per-example deadline (the machine is shared and slow timing
is not a failure; speed is measured by `deucebot bench`), and on CI the
examples are derandomised so a red run can be reproduced exactly.
"""

from __future__ import annotations

import os
import signal

from hypothesis import HealthCheck, settings

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


def pytest_terminal_summary(terminalreporter: object) -> None:
    """Say why the PostgreSQL storage tests skipped, when they did (no server binaries)."""
    from storage.pg_server import NoPostgres, TempPostgres

    try:
        TempPostgres(fsync=False)
    except NoPostgres as missing:
        write_line = getattr(terminalreporter, "write_line", print)
        write_line(f"PostgreSQL storage tests skipped: {missing}")
