"""Discord's global request budget, kept by the bot itself, with priorities.

Discord lets one bot token make about 50 REST requests per second in all; interaction
callbacks and their follow-up webhooks do not count. Past that it answers 429 with
`"global": true`. discord.py 2.x only reacts to that 429: every request in flight retries
at the same moment, draws another wave of 429s and, after five tries, raises. So the bot
meters its own traffic: every counted request waits for a slot in a sliding one-second
window below the limit, and when requests queue, the most urgent goes first:

1. `ANSWER`: calls made to answer a person (rare: interaction responses are exempt);
2. `POST`: new boards and results in a channel;
3. `EDIT`: board edits (the front coalesces these harder while the queue is long);
4. `DM`: private hands.

`install(http, budget)` puts the budget in front of discord.py's `HTTPClient.request`;
callers mark their traffic with `with priority(Priority.DM): ...` (a context variable, so
it follows the awaits of that one task), and unmarked calls are classed by their route.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Protocol


class Priority(IntEnum):
    """How urgent a request is: lower goes first when requests queue."""

    ANSWER = 0
    POST = 1
    EDIT = 2
    DM = 3


_current: ContextVar[Priority | None] = ContextVar("deucebot_rest_priority", default=None)

EXEMPT_PREFIXES = ("/interactions/", "/webhooks/")
"""Routes outside the global limit: interaction callbacks and their follow-ups (the bot
only ever calls its own application's webhooks)."""


@contextlib.contextmanager
def priority(level: Priority) -> Iterator[None]:
    """Mark every REST call made inside the block (in this task) as `level`."""
    token = _current.set(level)
    try:
        yield
    finally:
        _current.reset(token)


def classify(method: str, path: str) -> Priority | None:
    """The priority of a request by its route (`path` as discord.py writes it, such as
    `/channels/{channel_id}/messages`), or None for a route the global limit exempts.
    A priority set with `priority(...)` wins over this."""
    if path.startswith(EXEMPT_PREFIXES):
        return None
    if path.startswith("/users/@me/channels"):
        return Priority.DM
    if method == "PATCH" and "/messages/" in path:
        return Priority.EDIT
    return Priority.POST


@dataclass
class BudgetStats:
    """What the budget did, for logs and benchmarks."""

    sent: int = 0
    """Counted requests let through."""
    queued: int = 0
    """Of those, the ones that had to wait for a slot."""
    longest_queue: int = 0
    longest_wait: float = 0.0
    """Seconds the longest-waiting request waited."""


class RequestBudget:
    """At most `limit` counted requests in any `window` seconds, most urgent first.

    A request that finds a free slot and nobody queued goes at once; otherwise it joins a
    queue ordered by priority, then arrival, and is released when the oldest request in
    the window ages out. Cancelled waiters give their place up.
    """

    def __init__(
        self,
        limit: int = 45,
        window: float = 1.0,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """A budget of `limit` requests per `window` seconds (Discord's global limit is 50
        per second; the default keeps a margin for clock skew between us and Discord)."""
        if limit < 1 or window <= 0:
            raise ValueError("a request budget needs limit >= 1 and window > 0")
        self.limit = limit
        self.window = window
        self._clock = clock
        self._sent: deque[float] = deque()
        self._queue: list[tuple[int, int, float, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._timer: asyncio.TimerHandle | None = None
        self.stats = BudgetStats()

    @property
    def waiting(self) -> int:
        """Requests queued for a slot now (the front's measure of load)."""
        return sum(1 for *_, future in self._queue if not future.done())

    async def acquire(self, level: Priority) -> None:
        """Wait until a request of `level` may be sent, and count it as sent."""
        now = self._clock()
        self._expire(now)
        if not self._queue and len(self._sent) < self.limit:
            self._take(now)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._queue, (int(level), next(self._order), now, future))
        self.stats.longest_queue = max(self.stats.longest_queue, len(self._queue))
        self._schedule()
        await future  # a cancelled waiter's future is cancelled and skipped on release

    def _take(self, now: float) -> None:
        self._sent.append(now)
        self.stats.sent += 1

    def _expire(self, now: float) -> None:
        while self._sent and self._sent[0] <= now - self.window:
            self._sent.popleft()

    def _schedule(self) -> None:
        if self._timer is not None or not self._queue:
            return
        delay = 0.0
        if len(self._sent) >= self.limit:
            delay = max(0.0, self._sent[0] + self.window - self._clock())
        self._timer = asyncio.get_running_loop().call_later(delay, self._release)

    def _release(self) -> None:
        self._timer = None
        now = self._clock()
        self._expire(now)
        while self._queue and len(self._sent) < self.limit:
            _, _, since, future = heapq.heappop(self._queue)
            if future.done():
                continue
            self._take(now)
            self.stats.queued += 1
            self.stats.longest_wait = max(self.stats.longest_wait, now - since)
            future.set_result(None)
        while self._queue and self._queue[0][3].done():
            heapq.heappop(self._queue)
        self._schedule()


class _Route(Protocol):
    method: str
    path: str


def install(http: Any, budget: RequestBudget) -> None:
    """Put `budget` in front of a discord.py `HTTPClient` (or anything with the same
    `request(route, **kwargs)`): every counted request waits for its slot first (exempt
    routes go straight through)."""
    send: Callable[..., Awaitable[Any]] = http.request

    async def request(route: _Route, **kwargs: Any) -> Any:
        level = classify(route.method, route.path)
        if level is not None:
            marked = _current.get()
            await budget.acquire(level if marked is None else marked)
        return await send(route, **kwargs)

    # discord.py offers no hook around its requests; wrapping the bound method on this
    # one client instance changes nothing else.
    http.request = request
