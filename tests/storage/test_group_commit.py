"""`storage.group_commit.ThreadGroupCommit` on its own: batches, failures, the thread gone,
and no writer task between a submitter and the thread (SQLite's commit path)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from storage.group_commit import ThreadGroupCommit


class Bad(Exception):
    """A job the fake backend refuses."""


class Crash(BaseException):
    """Not an `Exception`: what no `except Exception` catches."""


class Translated(Exception):
    """What `translate` turns a refusal into."""


def _translate(error: Exception) -> BaseException:
    return Translated(str(error)) if isinstance(error, Bad) else error


class Backend:
    """Runs batches on one thread; records each transaction's jobs (committed or not)."""

    def __init__(self, gate: threading.Event | None = None) -> None:
        self.thread = ThreadPoolExecutor(max_workers=1)
        self.transactions: list[list[str]] = []
        self.committed: list[list[str]] = []
        self.threads: set[str] = set()
        self.gate = gate

    def run(self, jobs: Sequence[str]) -> list[Any]:
        self.threads.add(threading.current_thread().name)
        if self.gate is not None:
            self.gate.wait(5)
        self.transactions.append(list(jobs))
        if any(job.startswith("bad") for job in jobs):
            raise Bad(f"refused {[j for j in jobs if j.startswith('bad')]}")
        if any(job == "die" for job in jobs):
            raise Crash("thread crashed")  # not an Exception: must still answer every job
        self.committed.append(list(jobs))
        return [job.upper() for job in jobs]

    def start(self, fn: Callable[[], None]) -> None:
        self.thread.submit(fn)


def group(backend: Backend, notes: list[str] | None = None) -> ThreadGroupCommit[str]:
    noted = notes if notes is not None else []
    return ThreadGroupCommit(
        backend.run,
        _translate,
        backend.start,
        lambda: noted.append(threading.current_thread().name),
        rounds=3,
    )


async def test_jobs_get_their_results_and_run_off_the_event_loop() -> None:
    backend = Backend()
    commits = group(backend)
    assert await commits.submit("a") == "A"
    assert backend.threads and threading.current_thread().name not in backend.threads


async def test_jobs_arriving_during_a_transaction_share_the_next_one() -> None:
    gate = threading.Event()
    backend = Backend(gate)
    notes: list[str] = []
    commits = group(backend, notes)
    first = asyncio.ensure_future(commits.submit("a"))
    await asyncio.sleep(0.05)  # "a" is being written, held at the gate
    rest = [asyncio.ensure_future(commits.submit(j)) for j in "bcd"]
    await asyncio.sleep(0)
    gate.set()
    assert await asyncio.gather(first, *rest) == ["A", "B", "C", "D"]
    assert backend.transactions == [["a"], ["b", "c", "d"]]
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
    # the batch of three failed, then each was tried in a transaction of its own
    assert backend.transactions[1:] == [["b", "bad1", "c"], ["b"], ["bad1"], ["c"]]
    assert backend.committed == [["a"], ["b"], ["c"]]
    assert commits.batches == 3


async def test_a_job_that_kills_its_transaction_fails_without_hanging() -> None:
    backend = Backend()
    commits = group(backend)
    with pytest.raises(RuntimeError, match="thread crashed"):
        await asyncio.wait_for(commits.submit("die"), 5)
    assert await commits.submit("after") == "AFTER"  # the queue goes on


async def test_once_the_thread_is_gone_jobs_are_refused_and_nothing_waits() -> None:
    backend = Backend()
    commits = group(backend)
    backend.thread.shutdown()
    with pytest.raises(RuntimeError):
        await asyncio.wait_for(commits.submit("a"), 5)
    await asyncio.wait_for(commits.drain(), 5)
    assert backend.transactions == []


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


async def test_no_writer_task_stands_between_a_submitter_and_the_thread() -> None:
    backend = Backend()
    commits = group(backend)
    tasks_before = len(asyncio.all_tasks())
    seen: list[int] = []

    def run(jobs: Sequence[str]) -> list[Any]:
        seen.append(len(asyncio.all_tasks(loop)))
        return backend.run(jobs)

    loop = asyncio.get_running_loop()
    commits._run_here = run
    await commits.submit("a")
    assert seen == [tasks_before]  # only this test's own task: no writer was created


async def test_the_thread_takes_the_next_batch_without_waiting_for_the_loop() -> None:
    gate = threading.Event()
    backend = Backend(gate)
    commits = group(backend)
    first = asyncio.ensure_future(commits.submit("a"))
    await asyncio.sleep(0.05)  # "a" is held at the gate, on the thread
    second = asyncio.ensure_future(commits.submit("b"))
    await asyncio.sleep(0)
    assert len(backend.transactions) == 0
    # The loop is blocked (no await) while the thread finishes "a": it takes "b" at once.
    gate.set()
    for _ in range(500):
        if len(backend.committed) == 2:
            break
        threading.Event().wait(0.01)
    assert backend.committed == [["a"], ["b"]]
    assert not first.done()  # answered on the loop only, once it runs again
    assert [await first, await second] == ["A", "B"]


@pytest.mark.parametrize(
    ("rounds", "expected"), [(1, ["a", "read", "b+c"]), (3, ["a", "b+c", "read"])]
)
async def test_other_work_on_the_thread_gets_a_turn_after_rounds_batches(
    rounds: int, expected: list[str]
) -> None:
    backend = Backend()
    commits = ThreadGroupCommit(backend.run, _translate, backend.start, rounds=rounds)
    order: list[str] = []
    loop = asyncio.get_running_loop()
    queued = threading.Event()
    later: list[asyncio.Future[Any]] = []

    def submit_more() -> None:
        later.extend(asyncio.ensure_future(commits.submit(job)) for job in "bc")
        loop.call_soon(queued.set)  # after both submits have queued their jobs

    def run(jobs: Sequence[str]) -> list[Any]:
        order.append("+".join(jobs))
        if len(order) == 1:  # during the first batch: a read, then two more writes
            backend.thread.submit(order.append, "read")
            loop.call_soon_threadsafe(submit_more)
            assert queued.wait(5)
        return backend.run(jobs)

    commits._run_here = run
    assert await commits.submit("a") == "A"
    await asyncio.gather(*later)
    await asyncio.wrap_future(backend.thread.submit(lambda: None))
    assert order == expected
