"""Group commit, shared by every backend: writes that arrive while a transaction is being
written are written together in the next single transaction.

A backend supplies the executor: `run(jobs)` writes a list of jobs in ONE transaction
(all or nothing) and returns one result per job. Nobody is answered before the
transaction holding their job has committed, so batching never acknowledges anything a
kill could lose. If a batch fails, its jobs are retried one transaction each, so one
faulty write cannot fail the others; the failure is passed through `translate` (the
backend's mapping of driver errors to `storage.base` errors).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Generic, TypeVar

J = TypeVar("J")

BatchRunner = Callable[[Sequence[J]], Awaitable[list[Any]]]


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
            outcomes: list[tuple[Any, BaseException | None]] = []
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
                        outcomes.append((None, self._translate(failure)))
            for (_, future), (result, problem) in zip(batch, outcomes, strict=True):
                if future.done():
                    continue
                if problem is None:
                    future.set_result(result)
                else:
                    future.set_exception(problem)
