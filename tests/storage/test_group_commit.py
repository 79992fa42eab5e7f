"""`storage.group_commit.SplitGroupCommit` on its own (SQLite's commit path): statements on
the event loop, the commit on the thread, batches, failures, the thread gone, and reads
that never run inside a transaction of the loop's."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from storage.group_commit import SplitGroupCommit


class Bad(Exception):
    """A job the fake backend refuses."""


class Crash(BaseException):
    """Not an `Exception`: what no `except Exception` catches."""


class Translated(Exception):
    """What `translate` turns a refusal into."""


def _translate(error: Exception) -> BaseException:
    return Translated(str(error)) if isinstance(error, Bad) else error


def _check(jobs: Sequence[str]) -> None:
    if any(job.startswith("bad") for job in jobs):
        raise Bad(f"refused {[j for j in jobs if j.startswith('bad')]}")


class Backend:
    """A connection with at most one open transaction, and its thread; records each
    transaction's jobs (committed or not) and which thread ran what."""

    def __init__(self, gate: threading.Event | None = None) -> None:
        self.thread = ThreadPoolExecutor(max_workers=1)
        self.open: list[str] | None = None
        self.transactions: list[list[str]] = []
        self.committed: list[list[str]] = []
        self.ran: list[tuple[str, str]] = []
        """(what, thread name)."""
        self.gate = gate

    def _note(self, what: str) -> None:
        self.ran.append((what, threading.current_thread().name))

    def begin(self, jobs: Sequence[str]) -> list[Any]:
        self._note("begin")
        assert self.open is None, "a transaction inside another"
        self.transactions.append(list(jobs))
        try:
            _check(jobs)
        except Bad:
            self.open = None  # rolled back
            raise
        self.open = list(jobs)
        return [job.upper() for job in jobs]

    def commit(self) -> None:
        self._note("commit")
        if self.gate is not None:
            self.gate.wait(5)
        assert self.open is not None
        jobs, self.open = self.open, None
        if "die" in jobs:
            raise Crash("thread crashed")  # not an Exception: must still answer every job
        self.committed.append(jobs)

    def rollback(self) -> None:
        self._note("rollback")
        self.open = None

    def run(self, jobs: Sequence[str]) -> list[Any]:
        self._note("run")
        assert self.open is None
        self.transactions.append(list(jobs))
        _check(jobs)
        if "die" in jobs:
            raise Crash("thread crashed")
        self.committed.append(list(jobs))
        return [job.upper() for job in jobs]

    def start(self, fn: Callable[[], None]) -> None:
        self.thread.submit(fn)


def group(backend: Backend, notes: list[str] | None = None) -> SplitGroupCommit[str]:
    noted = notes if notes is not None else []
    return SplitGroupCommit(
        backend, _translate, lambda: noted.append(threading.current_thread().name)
    )


async def test_statements_run_on_the_loop_at_once_and_the_commit_on_the_thread() -> None:
    backend = Backend()
    commits = group(backend)
    tasks_before = len(asyncio.all_tasks())
    answer = commits.enqueue("a")
    # No writer task, no turn of the loop: its statements ran (the thread commits them).
    assert backend.transactions == [["a"]]
    assert len(asyncio.all_tasks()) == tasks_before
    assert await answer == "A"
    here = threading.current_thread().name
    assert [what for what, _ in backend.ran] == ["begin", "commit"]
    assert backend.ran[0][1] == here and backend.ran[1][1] != here


async def test_jobs_arriving_during_a_commit_share_the_next_transaction() -> None:
    gate = threading.Event()
    backend = Backend(gate)
    notes: list[str] = []
    commits = group(backend, notes)
    first = asyncio.ensure_future(commits.submit("a"))
    await asyncio.sleep(0.05)  # "a" is being committed, held at the gate
    rest = [asyncio.ensure_future(commits.submit(j)) for j in "bcd"]
    await asyncio.sleep(0)
    assert backend.transactions == [["a"]]  # nothing opened beside the commit in flight
    gate.set()
    assert await asyncio.gather(first, *rest) == ["A", "B", "C", "D"]
    assert backend.committed == [["a"], ["b", "c", "d"]]
    assert commits.batches == 2
    # `committed` once per batch, on the loop's thread
    assert notes == [threading.current_thread().name] * 2


async def test_a_faulty_job_fails_alone_translated() -> None:
    gate = threading.Event()
    backend = Backend(gate)
    commits = group(backend)
    first = asyncio.ensure_future(commits.submit("a"))
    await asyncio.sleep(0.05)
    rest = [asyncio.ensure_future(commits.submit(j)) for j in ("b", "bad1", "c")]
    await asyncio.sleep(0)
    gate.set()
    results = await asyncio.gather(first, *rest, return_exceptions=True)
    assert results[:2] == ["A", "B"] and results[3] == "C"
    assert isinstance(results[2], Translated) and "bad1" in str(results[2])
    # the batch of three failed (rolled back), then each was tried alone on the thread
    assert backend.transactions[1:] == [["b", "bad1", "c"], ["b"], ["bad1"], ["c"]]
    assert backend.committed == [["a"], ["b"], ["c"]]
    assert [what for what, _ in backend.ran][-3:] == ["run"] * 3
    assert commits.batches == 3
    assert await commits.submit("d") == "D"  # and the loop writes the next batch again


async def test_a_commit_that_kills_its_thread_call_fails_without_hanging() -> None:
    backend = Backend()
    commits = group(backend)
    with pytest.raises(RuntimeError, match="thread crashed"):
        await asyncio.wait_for(commits.submit("die"), 5)
    assert await commits.submit("after") == "AFTER"  # the queue goes on
    assert backend.committed == [["after"]]


async def test_once_the_thread_is_gone_jobs_are_refused_rolled_back_and_nothing_waits() -> None:
    backend = Backend()
    commits = group(backend)
    backend.thread.shutdown()
    with pytest.raises(RuntimeError):
        await asyncio.wait_for(commits.submit("a"), 5)
    await asyncio.wait_for(commits.drain(), 5)
    assert backend.open is None and backend.committed == []
    assert [what for what, _ in backend.ran] == ["begin", "rollback"]
    with pytest.raises(RuntimeError):
        await commits.call(lambda: None)


async def test_drain_waits_for_every_queued_job() -> None:
    gate = threading.Event()
    backend = Backend(gate)
    commits = group(backend)
    jobs = [asyncio.ensure_future(commits.submit(j)) for j in "ab"]
    await asyncio.sleep(0.01)
    drained = asyncio.ensure_future(commits.drain())
    await asyncio.sleep(0.05)
    assert not drained.done()
    gate.set()
    await asyncio.wait_for(drained, 5)
    assert all(job.done() for job in jobs)
    assert sum(len(t) for t in backend.committed) == 2


async def test_a_read_never_runs_inside_an_open_transaction_and_writes_wait_for_it() -> None:
    backend = Backend()
    commits = group(backend)
    held = threading.Event()
    seen: list[list[str] | None] = []

    def read() -> str:
        seen.append(backend.open)
        held.wait(5)
        return "rows"

    reading = asyncio.ensure_future(commits.call(read))
    await asyncio.sleep(0.05)  # the read is on the thread
    writing = asyncio.ensure_future(commits.submit("a"))
    await asyncio.sleep(0.05)
    assert backend.transactions == []  # not opened while the thread reads
    held.set()
    assert await reading == "rows" and await writing == "A"
    # A read asked while a commit is in flight runs after it, outside any transaction.
    gate = threading.Event()
    backend.gate = gate
    writing = asyncio.ensure_future(commits.submit("b"))
    await asyncio.sleep(0.05)
    reading = asyncio.ensure_future(commits.call(read))
    gate.set()
    assert await writing == "B" and await reading == "rows"
    assert seen == [None, None]


async def test_a_failed_read_raises_its_error_and_writes_go_on() -> None:
    backend = Backend()
    commits = group(backend)

    def broken() -> None:
        raise Bad("no such table")

    with pytest.raises(Bad, match="no such table"):
        await commits.call(broken)
    assert await commits.submit("a") == "A"
