"""A `Mailbox`: the one queue of requests a `TableChannel`'s task consumes (each request is
applied by that task alone, so the channel's state has one writer), and `Waiters`: the
futures other tasks wait on for an answer from it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")
K = TypeVar("K")
Request = Callable[[], Awaitable[None] | None]
"""A request: applied by the consuming task (awaited when it returns an awaitable)."""


class Mailbox:
    """Requests in the order they came, for one consuming task."""

    def __init__(self) -> None:
        """An empty mailbox."""
        self._queue: asyncio.Queue[Request] = asyncio.Queue()

    def put(self, request: Request) -> None:
        """Add `request` (from any task or callback)."""
        self._queue.put_nowait(request)

    def empty(self) -> bool:
        """Whether no request waits."""
        return self._queue.empty()

    async def apply_waiting(self) -> None:
        """Apply every request waiting now (the consuming task)."""
        while not self._queue.empty():
            await _apply(self._queue.get_nowait())

    async def apply_next(self) -> None:
        """Wait for the next request and apply it (the consuming task)."""
        await _apply(await self._queue.get())

    async def serving(self, waited: Awaitable[T]) -> T:
        """Await `waited`, applying the requests that come meanwhile (the consuming task:
        a wait of its own does not hold back what is asked of it)."""
        task = asyncio.ensure_future(waited)
        try:
            while not task.done():
                getter = asyncio.ensure_future(self._queue.get())
                await asyncio.wait({task, getter}, return_when=asyncio.FIRST_COMPLETED)
                if getter.done():
                    await _apply(getter.result())
                else:
                    getter.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await getter
            return task.result()
        finally:
            task.cancel()


async def _apply(request: Request) -> None:
    result = request()
    if result is not None:
        await result


class Waiters(Generic[K]):
    """Futures other tasks wait on, each for a condition on its key (kept by the consuming
    task, which wakes those whose condition holds)."""

    def __init__(self) -> None:
        """None yet."""
        self._waiting: list[tuple[K, asyncio.Future[None]]] = []

    def add(self, key: K, waiter: asyncio.Future[None]) -> None:
        """Wait on `waiter` for `key`."""
        self._waiting.append((key, waiter))

    def wake(self, ready: Callable[[K], bool]) -> None:
        """Wake the waiters whose key is `ready` (all of them: `lambda _: True`)."""
        keep = []
        for key, waiter in self._waiting:
            if waiter.done():
                continue
            if ready(key):
                waiter.set_result(None)
            else:
                keep.append((key, waiter))
        self._waiting = keep


async def settle(answer: asyncio.Future[T], work: Callable[[], Awaitable[T]]) -> None:
    """Set `answer` to what `work()` returns (or raises), unless nobody waits for it now."""
    try:
        result = await work()
    except Exception as error:
        if not answer.done():
            answer.set_exception(error)
        return
    if not answer.done():
        answer.set_result(result)


async def answer_of(
    answer: asyncio.Future[T], consumer: asyncio.Task[None] | None, within: float | None
) -> T | None:
    """`answer`'s result once it has one; None if the `consumer` task ends first (the
    request will never be applied) or after `within` seconds (None: no limit)."""
    if consumer is None or consumer.done():
        return None
    either: set[asyncio.Future[Any]] = {answer, consumer}
    done, _ = await asyncio.wait(either, timeout=within, return_when=asyncio.FIRST_COMPLETED)
    if answer in done:
        return answer.result()
    answer.cancel()
    return None
