"""`TurnTimer`: the one pending turn deadline of a table.

`arm(deadline, turn)` schedules `on_expiry()` for when the clock reaches `deadline` (arming
the same deadline again keeps the running timer; None disarms). The expiry runs in a task of
its own, so cancelling the timer never cancels an expiry already under way; `pending()`
lists those tasks and `cancel()` stops everything.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from bot.runtime.clock import Clock


class TurnTimer:
    """A table's turn timer (see the module docstring)."""

    def __init__(self, clock: Clock, on_expiry: Callable[[], Awaitable[Any]]) -> None:
        """Wait on `clock`; call `on_expiry` when a deadline passes."""
        self._clock = clock
        self._on_expiry = on_expiry
        self._task: asyncio.Task[None] | None = None
        self._armed: tuple[float, int | None] | None = None
        self._expiries: set[asyncio.Task[Any]] = set()

    def arm(self, deadline: float | None, turn: int | None) -> None:
        """Wait for `deadline` (made for `turn`); None: no timer. Re-arming the deadline that
        is already waited for changes nothing."""
        running = self._task is not None and not self._task.done()
        if running and deadline is not None and self._armed == (deadline, turn):
            return
        if self._task is not None and running:
            self._task.cancel()
        self._task, self._armed = None, None
        if deadline is None:
            return
        self._task = asyncio.get_running_loop().create_task(self._wait(deadline))
        self._armed = (deadline, turn)

    async def _wait(self, deadline: float) -> None:
        await self._clock.sleep_until(deadline)
        task = asyncio.get_running_loop().create_task(self._expire())
        self._expiries.add(task)
        task.add_done_callback(self._expiries.discard)

    async def _expire(self) -> None:
        await self._on_expiry()

    def pending(self) -> list[asyncio.Task[Any]]:
        """Expiries under way (what `Table.idle` waits for)."""
        return [task for task in self._expiries if not task.done()]

    def cancel(self) -> None:
        """Stop waiting and cancel expiries under way (except the calling task itself)."""
        current = asyncio.current_task()
        for task in (self._task, *self._expiries):
            if task is not None and task is not current:
                task.cancel()
        self._task, self._armed = None, None
