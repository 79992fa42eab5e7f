"""Time for the runtime, injectable: wall-clock in production, a hand-driven clock in tests.

Deadlines are wall-clock epoch seconds because they are stored and must survive a restart.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    """Where the runtime reads the time and waits for deadlines."""

    def now(self) -> float:
        """Seconds since the epoch."""
        ...

    async def sleep_until(self, deadline: float) -> None:
        """Return once `now() >= deadline`."""
        ...


class SystemClock:
    """The real clock."""

    def now(self) -> float:
        """`time.time()`."""
        return time.time()

    async def sleep_until(self, deadline: float) -> None:
        """Sleep until the deadline (at once if it passed)."""
        while (left := deadline - time.time()) > 0:
            await asyncio.sleep(left)


class FakeClock:
    """A clock that only moves when a test calls `advance`; sleepers wake when it passes them."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        """Start at `start` epoch seconds."""
        self._now = start
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def now(self) -> float:
        """The current fake time."""
        return self._now

    async def sleep_until(self, deadline: float) -> None:
        """Wait until `advance` moves the clock past `deadline`."""
        if self._now >= deadline:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((deadline, future))
        await future

    async def advance(self, seconds: float) -> None:
        """Move the clock on and wake every sleeper whose deadline passed."""
        self._now += seconds
        due = [(d, f) for d, f in self._sleepers if d <= self._now]
        self._sleepers = [(d, f) for d, f in self._sleepers if d > self._now]
        for _, future in due:
            if not future.done():
                future.set_result(None)
        for _ in range(3):
            await asyncio.sleep(0)
