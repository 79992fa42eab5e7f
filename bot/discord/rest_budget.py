"""Discord's global request budget, kept by the bot itself, with priorities.

Discord lets one bot token make about 50 REST requests per second in all; interaction
callbacks and their follow-up webhooks do not count. Past that it answers 429 with
`"global": true`. discord.py 2.x only reacts to that 429: every request in flight retries
at the same moment, draws another wave of 429s and, after five tries, raises. So the bot
meters its own traffic: every counted request waits for a slot in a sliding one-second
window below the limit, and when requests queue, the most urgent goes first:

1. `ANSWER`: calls made to answer a person (rare: interaction responses are exempt);
2. `POST`: new boards and results in a channel;
3. `WAITED`: board edits people wait for (a person to act next, a new trick or street:
   `front.waited_for`);
4. `EDIT`: the other board edits (the front coalesces these twice as hard while the queue
   is long);
5. `DM`: private hands.

A request holds its place in the window from the moment it is sent until one `window`
after its answer came back: Discord counts arrivals, which lie somewhere in between, so
counting send times alone lets a slow burst followed by a fast one overrun the limit.

`budget_trace(budget)` is an `aiohttp.TraceConfig` for discord.py's `http_trace` option:
its hooks run right before each HTTP request leaves (after discord.py's own per-route
waits, so a request held back by a channel's bucket holds no global slot) and when its
answer arrives; retries after a 429 or 5xx are counted like any request. Callers mark
their traffic with `with priority(Priority.DM): ...` (a context variable, so it follows
the awaits of that one task); unmarked calls are classed by their route.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from enum import IntEnum
from types import SimpleNamespace

import aiohttp


class Priority(IntEnum):
    """How urgent a request is: lower goes first when requests queue."""

    ANSWER = 0
    POST = 1
    WAITED = 2
    EDIT = 3
    DM = 4


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
    """The priority of a request by its route (the path after the API base and version,
    such as `/channels/123/messages`), or None for a route the global limit exempts.
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
    """At most `limit` requests in flight or answered within the last `window` seconds.

    A request that finds room and nobody queued goes at once; otherwise it joins a queue
    ordered by priority, then arrival, and goes when the oldest answer in the window ages
    out. A cancelled waiter gives its place up. Every `acquire()` that returned must be
    followed by exactly one `release()` when the answer (or the failure) came.
    """

    def __init__(
        self,
        limit: int = 45,
        window: float = 1.0,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """A budget of `limit` requests per `window` seconds (Discord's global limit is 50
        per second; the default keeps a margin)."""
        if limit < 1 or window <= 0:
            raise ValueError("a request budget needs limit >= 1 and window > 0")
        self.limit = limit
        self.window = window
        self._clock = clock
        self._in_flight = 0
        self._answered: deque[float] = deque()
        self._queue: list[tuple[int, int, float, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._timer: asyncio.TimerHandle | None = None
        self.stats = BudgetStats()

    @property
    def waiting(self) -> int:
        """Requests queued for a slot now (the front's measure of load)."""
        return sum(1 for *_, future in self._queue if not future.done())

    async def acquire(self, level: Priority) -> None:
        """Wait until a request of `level` may be sent, and count it as in flight."""
        now = self._clock()
        self._expire(now)
        if not self._queue and self._has_room():
            self._take()
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._queue, (int(level), next(self._order), now, future))
        self.stats.longest_queue = max(self.stats.longest_queue, len(self._queue))
        self._schedule()
        await future  # a cancelled waiter's future is cancelled and skipped on release

    def release(self) -> None:
        """The answer to an acquired request came (or it failed): it now ages out of the
        window `window` seconds from now."""
        self._in_flight -= 1
        self._answered.append(self._clock())
        self._schedule()

    def _has_room(self) -> bool:
        return self._in_flight + len(self._answered) < self.limit

    def _take(self) -> None:
        self._in_flight += 1
        self.stats.sent += 1

    def _expire(self, now: float) -> None:
        while self._answered and self._answered[0] <= now - self.window:
            self._answered.popleft()

    def _schedule(self) -> None:
        if self._timer is not None or not self._queue:
            return
        if self._has_room():
            delay = 0.0
        elif self._answered:
            delay = max(0.0, self._answered[0] + self.window - self._clock())
        else:
            return  # every slot is in flight: the next release() schedules
        self._timer = asyncio.get_running_loop().call_later(delay, self._release_waiters)

    def _release_waiters(self) -> None:
        self._timer = None
        now = self._clock()
        self._expire(now)
        while self._queue and self._has_room():
            _, _, since, future = heapq.heappop(self._queue)
            if future.done():
                continue
            self._take()
            self.stats.queued += 1
            self.stats.longest_wait = max(self.stats.longest_wait, now - since)
            future.set_result(None)
        while self._queue and self._queue[0][3].done():
            heapq.heappop(self._queue)
        self._schedule()


def _api_path(path: str) -> str:
    """`/api/v10/channels/1/messages` -> `/channels/1/messages`."""
    parts = path.split("/", 3)
    if len(parts) == 4 and parts[1] == "api" and parts[2].startswith("v"):
        return "/" + parts[3]
    return path


def budget_trace(budget: RequestBudget) -> aiohttp.TraceConfig:
    """Hooks for discord.py's `http_trace` option that hold every counted request until
    `budget` has room, and free its place when the answer comes."""

    async def start(
        session: aiohttp.ClientSession,
        ctx: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        level = classify(params.method, _api_path(params.url.path))
        if level is None:
            return
        marked = _current.get()
        await budget.acquire(level if marked is None else marked)
        ctx.counted = True

    async def end(session: aiohttp.ClientSession, ctx: SimpleNamespace, params: object) -> None:
        if getattr(ctx, "counted", False):
            ctx.counted = False
            budget.release()

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(start)
    trace.on_request_end.append(end)
    trace.on_request_exception.append(end)
    return trace
