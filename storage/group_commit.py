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
  it runs on (SQLite). The thread takes the next batch from the queue itself as soon as
  one has committed, and hands each batch's outcomes back to the event loop in one call:
  no writer task, and the thread never waits for a busy event loop between two batches.
  A commit costs the event loop one turn (its answer) instead of four (the writer task's
  start, the executor future's result, the writer resuming, the submitter resuming).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Any, Generic, TypeVar

J = TypeVar("J")

BatchRunner = Callable[[Sequence[J]], Awaitable[list[Any]]]
Outcome = tuple[Any, Exception | None]
"""A job's result, or the (untranslated) error that failed it."""
ROUNDS = 8
"""Batches a `ThreadGroupCommit` writes in a row before other work queued on its thread."""


class Batches(ABC, Generic[J]):
    """What both group commits share: the queue, the count of transactions, and answering
    a batch's submitters."""

    def __init__(self, translate: Callable[[Exception], BaseException]) -> None:
        """`translate` maps the backend's errors."""
        self._translate = translate
        self._pending: list[tuple[J, asyncio.Future[Any]]] = []
        self.batches = 0
        """How many write transactions ran (group commit makes it fewer than the writes)."""

    async def submit(self, job: J) -> Any:
        """Queue `job` for the next transaction; return its result once committed."""
        return await self.enqueue(job)

    @abstractmethod
    def enqueue(self, job: J) -> asyncio.Future[Any]:
        """Queue `job` for the next transaction; the future of its result (set once it is
        committed). A caller that awaits it directly spares the task `submit` would be."""

    @abstractmethod
    async def drain(self) -> None:
        """Wait until every queued job has been written (or has failed)."""

    def _settle(self, batch: list[tuple[J, asyncio.Future[Any]]], outcomes: list[Outcome]) -> None:
        """Answer each job's submitter: its result, or its failure as `translate` says."""
        for (_, future), (result, problem) in zip(batch, outcomes, strict=True):
            if future.done():  # its submitter gave up waiting; the write stands
                continue
            if problem is None:
                future.set_result(result)
            else:
                future.set_exception(self._translate(problem))


class GroupCommit(Batches[J]):
    """A queue of write jobs drained by one writer task, one transaction per batch."""

    def __init__(
        self, run: BatchRunner[J], translate: Callable[[Exception], BaseException]
    ) -> None:
        """`run` writes jobs in one transaction; `translate` maps its errors."""
        super().__init__(translate)
        self._run = run
        self._writer: asyncio.Task[None] | None = None

    def enqueue(self, job: J) -> asyncio.Future[Any]:
        """Queue `job` for the next transaction; the future of its result."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._pending.append((job, future))
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_loop())
        return future

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


class ThreadGroupCommit(Batches[J]):
    """Group commit whose transactions run on one thread of the backend's, which takes the
    next batch itself as soon as one ends (see the module docstring)."""

    def __init__(
        self,
        run: Callable[[Sequence[J]], list[Any]],
        translate: Callable[[Exception], BaseException],
        start: Callable[[Callable[[], None]], object],
        committed: Callable[[], None] = lambda: None,
        rounds: int = ROUNDS,
    ) -> None:
        """`run(jobs)` writes jobs in one transaction on the thread `start(fn)` runs `fn`
        on (it raises once that thread is gone; other work queued there, reads, runs
        between two turns of at most `rounds` batches); `committed()` is called on the
        event loop after each batch that committed something."""
        super().__init__(translate)
        self._run_here = run
        self._start = start
        self._committed = committed
        self._rounds = rounds
        self._shared = threading.Lock()
        """Guards `_pending` and `_writing`, which the thread reads too."""
        self._writing = False
        """A turn of batches is queued or running on the thread."""
        self._waiting: set[asyncio.Future[Any]] = set()

    def enqueue(self, job: J) -> asyncio.Future[Any]:
        """Queue `job` for the next transaction (the thread is woken if it is not writing);
        the future of its result."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._waiting.add(future)
        future.add_done_callback(self._waiting.discard)
        with self._shared:
            self._pending.append((job, future))
            wake = not self._writing
            self._writing = True
        if wake:
            self._begin(loop)
        return future

    async def drain(self) -> None:
        """Wait until every queued job has been written (or has failed)."""
        while self._waiting:
            await asyncio.wait(set(self._waiting))

    def _begin(self, loop: asyncio.AbstractEventLoop) -> None:
        """Queue a turn of batches on the thread; if it is gone, fail what is pending."""
        try:
            self._start(partial(self._turn, loop))
        except RuntimeError as gone:
            with self._shared:
                batch, self._pending = self._pending, []
                self._writing = False
            self._settle(batch, [(None, gone)] * len(batch))

    def _turn(self, loop: asyncio.AbstractEventLoop) -> None:
        """On the thread: write what is queued, batch after batch (each answered on the
        loop at once), until nothing is queued or `rounds` batches ran (then queue another
        turn after whatever else waits for the thread)."""
        for _ in range(self._rounds):
            with self._shared:
                batch, self._pending = self._pending, []
                if not batch:
                    self._writing = False
                    return
            jobs = [job for job, _ in batch]
            try:
                outcomes, committed = write_each(self._run_here, jobs)
            except BaseException as failure:  # not an Exception (never sent through a
                # future as it is: a KeyboardInterrupt there stops the loop): every job fails
                refused = RuntimeError(f"the write thread failed: {failure!r}")
                refused.__cause__ = failure
                outcomes, committed = [(None, refused)] * len(jobs), 0
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(self._done, batch, outcomes, committed)
        with self._shared:
            more = bool(self._pending)
            self._writing = more
        if more:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._begin, loop)

    def _done(
        self,
        batch: list[tuple[J, asyncio.Future[Any]]],
        outcomes: list[Outcome],
        committed: int,
    ) -> None:
        """On the event loop: a batch ended; answer its jobs."""
        self.batches += committed
        if committed:
            self._committed()
        self._settle(batch, outcomes)
