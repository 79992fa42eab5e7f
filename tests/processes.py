"""Helpers for tests that drive a child process."""

from __future__ import annotations

import contextlib
import subprocess
import threading
from collections.abc import Iterator


@contextlib.contextmanager
def watchdog(
    child: subprocess.Popen[str] | subprocess.Popen[bytes], seconds: float
) -> Iterator[None]:
    """Kill `child` if it is still running after `seconds`, so a test that reads its output
    line by line fails (on EOF) instead of waiting forever on a child that hangs."""
    timer = threading.Timer(seconds, lambda: child.poll() is None and child.kill())
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
