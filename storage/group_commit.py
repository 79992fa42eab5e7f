"""Group commit, shared by every backend: writes that arrive while a transaction is being
written are written together in the next single transaction.

Nobody is answered before the transaction holding their job has committed, so batching
never acknowledges anything a kill could lose. If a batch fails, its jobs are retried one
transaction each, so one faulty write cannot fail the others; the failure is passed
through `translate` (the backend's mapping of driver errors to `storage.base` errors).

Two ways to run the transactions, one interface (`submit`, `drain`, `batches`):
- `GroupCommit`: the backend supplies `run(jobs)`, a coroutine writing a list of jobs in
  ONE transaction (all or nothing) and returning one result per job; a writer task drains
  the queue (PostgreSQL, whose driver is asynchronous).
- `ThreadGroupCommit`: the backend supplies `run(jobs)` as a plain function and the thread
  it runs on (SQLite). A batch is handed to that thread as soon as the previous one ends,
  with no writer task, and the thread hands the outcomes back to the event loop in one
  call: a commit costs two turns of a busy event loop instead of four (the writer task's
  start, the executor future's result, the writer resuming, the submitter resuming).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Generic, TypeVar

J = TypeVar("J")

BatchRunner = Callable[[Sequence[J]], Awaitable[list[Any]]]
Outcome = tuple[Any, Exception | None]
"""A job's result, or the (untranslated) error that failed it."""


class GroupCommit(Generic[J]):
    """A queue of write jobs drained by one writer task, one transaction per batch."""

    def __init__(
        self, run: BatchRunner[J], translate: Callable[[Exception], BaseException]
    ) -> None:
        """`run` writes jobs in one transaction; `translate` maps its errors."""
        self._run = run
        self._translate = translate
        self._pending: list[tuple[J, asyncio.Future[Any]]] = []
        self._writer: asyncio.Task[None] | None = None
        self.batches = 0
        """How many write transactions ran (group commit makes it fewer than the writes)."""

    async def submit(self, job: J) -> Any:
        """Queue `job` for the next transaction; return its result once committed."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._pending.append((job, future))
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_loop())
        return await future

    async def drain(self) -> None:
        """Wait until every queued job has been written (or has failed)."""
        if self._writer is not None:
            await asyncio.gather(self._writer, return_exceptions=True)

    async def _write_loop(self) -> None:
        """Write everything queued in one transaction, again and again until the queue is
        empty; a failed batch is retried one job per transaction."""
        while self._pending:
            batch, self._pending = self._pending, []
            jobs = [job for job, _ in batch]
            outcomes: list[Outcome] = []
            try:
                results = await self._run(jobs)
                outcomes = [(r, None) for r in results]
                self.batches += 1
            except Exception:
                for job in jobs:
                    try:
                        one = await self._run([job])
                        outcomes.append((one[0], None))
                        self.batches += 1
                    except Exception as failure:
                        outcomes.append((None, failure))
            self._settle(batch, outcomes)

    def _settle(self, batch: list[tuple[J, asyncio.Future[Any]]], outcomes: list[Outcome]) -> None:
        """Answer each job's submitter: its result, or its failure as `translate` says."""
        for (_, future), (result, problem) in zip(batch, outcomes, strict=True):
            if future.done():  # its submitter gave up waiting; the write stands
                continue
            if problem is None:
                future.set_result(result)
            else:
                future.set_exception(self._translate(problem))


def write_each(
    run: Callable[[Sequence[J]], list[Any]], jobs: Sequence[J]
) -> tuple[list[Outcome], int]:
    """On the backend's thread: `jobs` in one transaction, else one transaction each (one
    faulty job fails alone); the outcomes and how many transactions committed."""
    try:
        return [(r, None) for r in run(jobs)], 1
    except Exception:
        outcomes: list[Outcome] = []
        committed = 0
        for job in jobs:
            try:
                outcomes.append((run([job])[0], None))
                committed += 1
            except Exception as failure:
                outcomes.append((None, failure))
        return outcomes, committed


class ThreadGroupCommit(GroupCommit[J]):
    """Group commit whose transactions run on one thread of the backend's: no writer task
    (see the module docstring)."""

    def __init__(
        self,
        run: Callable[[Sequence[J]], list[Any]],
        translate: Callable[[Exception], BaseException],
        start: Callable[[Callable[[], None]], object],
        committed: Callable[[], None] = lambda: None,
    ) -> None:
        """`run(jobs)` writes jobs in one transaction on the thread `start(fn)` runs `fn`
        on (it raises once that thread is gone); `committed()` is called on the event loop
        after each batch that committed something."""

        async def unused(jobs: Sequence[J]) -> list[Any]:  # the writer task is not used
            raise NotImplementedError

        super().__init__(unused, translate)
        self._run_here = run
        self._start = start
        self._committed = committed
        self._writing = False
        self._idle: asyncio.Event | None = None

    async def submit(self, job: J) -> Any:
        """Queue `job` for the next transaction (started at once if none is being
        written); return its result once committed."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._pending.append((job, future))
        if not self._writing:
            self._next(loop)
        return await future

    async def drain(self) -> None:
        """Wait until every queued job has been written (or has failed)."""
        while self._writing:
            if self._idle is None:
                self._idle = asyncio.Event()
            self._idle.clear()
            await self._idle.wait()

    def _next(self, loop: asyncio.AbstractEventLoop) -> None:
        """Hand everything queued to the thread as one batch (nothing queued: go idle)."""
        if not self._pending:
            self._writing = False
            if self._idle is not None:
                self._idle.set()
            return
        batch, self._pending = self._pending, []
        jobs = [job for job, _ in batch]

        def write() -> None:  # on the backend's thread
            try:
                outcomes, committed = write_each(self._run_here, jobs)
            except BaseException as failure:  # not an Exception (never sent through a
                # future as it is: a KeyboardInterrupt there stops the loop): every job fails
                refused = RuntimeError(f"the write thread failed: {failure!r}")
                refused.__cause__ = failure
                outcomes, committed = [(None, refused)] * len(jobs), 0
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(self._done, loop, batch, outcomes, committed)

        self._writing = True
        try:
            self._start(write)
        except RuntimeError as gone:  # the thread is shut down
            self._settle(batch, [(None, gone)] * len(batch))
            self._next(loop)

    def _done(
        self,
        loop: asyncio.AbstractEventLoop,
        batch: list[tuple[J, asyncio.Future[Any]]],
        outcomes: list[Outcome],
        committed: int,
    ) -> None:
        """On the event loop: a batch ended; answer its jobs, start the next."""
        self.batches += committed
        if committed:
            self._committed()
        self._settle(batch, outcomes)
        self._next(loop)
