"""Shared by the benchmarks: the machine line, timing helpers and docs/benchmarks.md."""

from __future__ import annotations

import datetime as dt
import os
import platform
import time
from collections.abc import Callable
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "benchmarks.md"


def machine() -> str:
    """One line naming the machine: CPU model, cores, Python, OS."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()} {platform.release()}"


def today() -> str:
    """The date in ISO form (UTC)."""
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def rate(work: Callable[[], int], seconds: float) -> tuple[float, int, float]:
    """Call `work` (which returns how many items it did) until `seconds` pass; (items/s, items, elapsed)."""
    done = 0
    start = time.perf_counter()
    while True:
        done += work()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed, done, elapsed


def publish(title: str, body: str, write: bool) -> None:
    """Print a section and, with `write`, replace (or append) it in docs/benchmarks.md."""
    section = f"## {title}\n\n_{today()} on {machine()}_\n\n{body.strip()}\n"
    print(section)
    if not write:
        return
    text = (
        DOC.read_text(encoding="utf-8")
        if DOC.exists()
        else "# Benchmarks\n\nWritten by `deucebot bench TARGET --write`.\n"
    )
    marker = f"## {title}\n"
    if marker in text:
        head, _, rest = text.partition(marker)
        nxt = rest.find("\n## ")
        text = head + section + ("\n" + rest[nxt + 1 :] if nxt >= 0 else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    DOC.parent.mkdir(exist_ok=True)
    DOC.write_text(text, encoding="utf-8")
