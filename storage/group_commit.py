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
- `SplitGroupCommit` (SQLite, whose driver is synchronous): a transaction's statements
  run on the event loop, in the call that queues its first job (a batch of a few actions
  takes a fraction of a millisecond of CPU), and only its COMMIT, which waits for the
  sync, runs on the backend's thread; jobs queued meanwhile share the next transaction,
  opened as soon as the commit's answer is back on the loop. Why not the whole batch on
  the thread: Python's sqlite3 lets go of the GIL around every statement, and a thread
  that lets go of it while the event loop is busy waits up to the switch interval (5 ms)
  to get it back, at every statement (measured at 1,000 busy tables: a one-job batch
  took 0.2 ms alone and 14 ms at the 99th percentile; see docs/benchmarks.md). A
  commit lets go of it once. The thread also runs the reads (`call`), never while the
  loop has a transaction open, and the one-by-one retries of a failed batch. The event
  loop never waits for a sync or a lock: the writer's lock is the process's own
  (`storage.opening.ProcessLock`), so BEGIN IMMEDIATE never waits for another program,
  and a transaction's pages stay in SQLite's cache until its commit (what it reads comes
  from SQLite's or the system's cache but for pages not read since the start).
"""

from __future__ import annotations

import asyncio
import contextlib
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Any, Generic, Protocol, TypeVar

J = TypeVar("J")
J_in = TypeVar("J_in", contravariant=True)
T = TypeVar("T")

BatchRunner = Callable[[Sequence[J]], Awaitable[list[Any]]]
Outcome = tuple[Any, Exception | None]
"""A job's result, or the (untranslated) error that failed it."""


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
            _answer(future, result, None if problem is None else self._translate(problem))


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


class SplitBackend(Protocol[J_in]):
    """What `SplitGroupCommit` needs of a backend."""

    def begin(self, jobs: Sequence[J_in]) -> list[Any]:
        """On the event loop: open a transaction and run `jobs` in it; one result per job.
        If one fails, the transaction is rolled back and the error raised."""

    def commit(self) -> None:
        """On the thread: commit the open transaction (rolled back if that fails)."""

    def rollback(self) -> None:
        """On the event loop: roll the open transaction back (the thread is gone)."""

    def run(self, jobs: Sequence[J_in]) -> list[Any]:
        """On the thread: `jobs` in one whole transaction (all or nothing)."""

    def start(self, fn: Callable[[], None]) -> None:
        """Queue `fn` on the thread (RuntimeError once it is gone)."""


def write_one_by_one(
    run: Callable[[Sequence[J]], list[Any]], jobs: Sequence[J]
) -> tuple[list[Outcome], int]:
    """On the backend's thread: each of `jobs` (a batch that failed whole) in a
    transaction of its own, so one faulty job fails alone; the outcomes and how many
    transactions committed."""
    outcomes: list[Outcome] = []
    committed = 0
    for job in jobs:
        try:
            outcomes.append((run([job])[0], None))
            committed += 1
        except Exception as failure:
            outcomes.append((None, failure))
    return outcomes, committed


class SplitGroupCommit(Batches[J]):
    """Group commit whose statements run on the event loop and whose commit (the sync) runs
    on one thread of the backend's (see the module docstring)."""

    def __init__(
        self,
        backend: SplitBackend[J],
        translate: Callable[[Exception], BaseException],
        committed: Callable[[], None] = lambda: None,
    ) -> None:
        """`backend` opens, commits and rolls back transactions and runs work on its
        thread; `translate` maps its errors; `committed()` is called on the event loop
        after each batch that committed something."""
        super().__init__(translate)
        self._backend = backend
        self._committed = committed
        self._on_thread = 0
        """Calls sent to the thread and not yet answered on the loop: while there is one,
        no transaction is opened (the connection is the thread's)."""
        self._waiting: set[asyncio.Future[Any]] = set()

    def enqueue(self, job: J) -> asyncio.Future[Any]:
        """Queue `job`; if nothing is being written, open its transaction at once (its
        statements run now, on the loop); the future of its result."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._waiting.add(future)
        future.add_done_callback(self._waiting.discard)
        self._pending.append((job, future))
        self._write_next(loop)
        return future

    async def drain(self) -> None:
        """Wait until every queued job has been written (or has failed)."""
        while self._waiting:
            await asyncio.wait(set(self._waiting))

    async def call(self, fn: Callable[[], T]) -> T:
        """`fn()` on the backend's thread, never while a transaction of the loop's is
        open (reads); raises what it raised (RuntimeError once the thread is gone)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()

        def answer(result: Any, problem: BaseException | None) -> None:
            _answer(future, result, None if problem is None else _as_exception(problem))

        self._send(loop, fn, answer)
        return await future

    def _write_next(self, loop: asyncio.AbstractEventLoop) -> None:
        """If the thread is idle, open one transaction for everything queued and run its
        statements here, then send its commit to the thread."""
        if self._on_thread or not self._pending:
            return
        batch, self._pending = self._pending, []
        jobs = [job for job, _ in batch]
        try:
            results = self._backend.begin(jobs)
        except Exception:  # rolled back: each job tries again alone, on the thread
            self._one_by_one(loop, batch)
            return
        try:
            self._send(
                loop, self._backend.commit, partial(self._after_commit, loop, batch, results)
            )
        except RuntimeError as gone:
            self._backend.rollback()
            self._settle(batch, [(None, gone)] * len(batch))

    def _after_commit(
        self,
        loop: asyncio.AbstractEventLoop,
        batch: list[tuple[J, asyncio.Future[Any]]],
        results: list[Any],
        _: Any,
        problem: BaseException | None,
    ) -> None:
        """On the loop: a batch's commit ended; answer its jobs, or (the commit failed and
        was rolled back) try each alone."""
        if problem is not None:
            self._one_by_one(loop, batch)
            return
        self.batches += 1
        self._committed()
        self._settle(batch, [(result, None) for result in results])

    def _one_by_one(
        self, loop: asyncio.AbstractEventLoop, batch: list[tuple[J, asyncio.Future[Any]]]
    ) -> None:
        """Write each job of a failed batch in a transaction of its own, on the thread."""
        jobs = [job for job, _ in batch]

        def answer(written: Any, problem: BaseException | None) -> None:
            if problem is not None:
                self._settle(batch, [(None, _as_exception(problem))] * len(batch))
                return
            outcomes, committed = written
            self.batches += committed
            if committed:
                self._committed()
            self._settle(batch, outcomes)

        try:
            self._send(loop, partial(write_one_by_one, self._backend.run, jobs), answer)
        except RuntimeError as gone:
            self._settle(batch, [(None, gone)] * len(batch))

    def _send(
        self,
        loop: asyncio.AbstractEventLoop,
        fn: Callable[[], Any],
        answer: Callable[[Any, BaseException | None], None],
    ) -> None:
        """Run `fn` on the thread; `answer(result, problem)` on the loop afterwards, then
        write what queued meanwhile. RuntimeError (nothing sent) once the thread is gone."""

        def there() -> None:
            result: Any = None
            problem: BaseException | None = None
            try:
                result = fn()
            except BaseException as failure:  # handed to the loop, which decides
                problem = failure
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(self._back, loop, answer, result, problem)

        self._backend.start(there)
        self._on_thread += 1

    def _back(
        self,
        loop: asyncio.AbstractEventLoop,
        answer: Callable[[Any, BaseException | None], None],
        result: Any,
        problem: BaseException | None,
    ) -> None:
        """On the loop: a call sent to the thread ended."""
        self._on_thread -= 1
        answer(result, problem)
        self._write_next(loop)


def _answer(future: asyncio.Future[Any], result: Any, problem: BaseException | None) -> None:
    """Set `future` to `result`, or to `problem` when there is one; nothing if it is done
    already (its waiter gave up; a write stands all the same)."""
    if future.done():
        return
    if problem is None:
        future.set_result(result)
    else:
        future.set_exception(problem)


def _as_exception(problem: BaseException) -> Exception:
    """`problem` as an Exception a future may carry (a KeyboardInterrupt set on a future
    would stop the event loop)."""
    if isinstance(problem, Exception):
        return problem
    refused = RuntimeError(f"the write thread failed: {problem!r}")
    refused.__cause__ = problem
    return refused
