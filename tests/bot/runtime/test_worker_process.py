"""`WorkerProcess`: calls run in a child joined by a pipe the event loop reads itself;
answers by id and in order, the child's exceptions as themselves, a killed child's calls
failed and the child replaced, answers that are not for the live child ignored, big
answers and big calls moving without stalling the loop, nothing left behind."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import select
import signal
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.runtime.worker_process import RemoteTraceback, WorkerClosed, WorkerLost, WorkerProcess
from tests import worker_calls


def _gone(pid: int) -> bool:
    """The process has exited (a zombie counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    with contextlib.suppress(OSError):
        return "\nState:\tZ" in Path(f"/proc/{pid}/status").read_text()
    return False


def _hung_up(worker: WorkerProcess) -> bool:
    """The child's end of the pipe is closed (seen without reading the pipe). A child that
    exits is a zombie as soon as its main thread is; its other threads may hold the pipe
    a moment longer."""
    poller = select.poll()
    poller.register(worker._child.fd, select.POLLRDHUP | select.POLLHUP)
    return any(events & (select.POLLRDHUP | select.POLLHUP) for _, events in poller.poll(0))


@pytest.fixture
async def worker() -> AsyncIterator[WorkerProcess]:
    made = WorkerProcess("test worker")
    yield made
    await made.aclose()


@contextlib.contextmanager
def _stopped(pid: int) -> Iterator[None]:
    """Process `pid` stopped (SIGSTOP) inside the block, running again after it."""
    os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(pid, signal.SIGCONT)


class _Ticker:
    """Counts turns of the event loop while it runs (a stalled loop counts none)."""

    def __init__(self) -> None:
        self.ticks = 0
        self._task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(0.001)
            self.ticks += 1

    def stop(self) -> None:
        self._task.cancel()


async def test_answers_come_back_by_id_in_the_order_of_the_calls(worker: WorkerProcess) -> None:
    order: list[int] = []
    futures = []
    for index in range(30):
        future = worker.call(worker_calls.echo_after, index, 0.02 if index % 3 == 0 else 0.0)
        future.add_done_callback(lambda f: order.append(f.result()))
        futures.append(future)
    assert worker.waiting == 30
    assert await asyncio.gather(*futures) == list(range(30))
    assert order == list(range(30))
    assert worker.waiting == 0


async def test_an_urgent_call_runs_before_the_calls_sent_earlier_and_not_started(
    worker: WorkerProcess,
) -> None:
    assert await worker.call(worker_calls.kept) == []  # the child is up
    busy = worker.call(worker_calls.echo_after, "busy", 0.3)
    await asyncio.sleep(0.05)  # the child has started the slow call
    later = [worker.call(worker_calls.keep, f"later {i}") for i in range(3)]
    worker.post(worker_calls.keep, "posted")
    urgent = [worker.call(worker_calls.keep, f"urgent {i}", urgent=True) for i in range(2)]
    await asyncio.gather(busy, *later, *urgent)
    # The running call is not cut; then the urgent ones in their order, then the rest in
    # theirs (a post among them).
    assert await worker.call(worker_calls.kept) == [
        "urgent 0",
        "urgent 1",
        "later 0",
        "later 1",
        "later 2",
        "posted",
    ]


async def test_an_urgent_call_to_an_idle_child_runs_at_once(worker: WorkerProcess) -> None:
    assert await worker.call(worker_calls.echo_after, "up", 0.0) == "up"
    assert await worker.call(worker_calls.echo_after, "now", 0.0, urgent=True) == "now"
    assert await worker.call(worker_calls.kept) == []


@pytest.mark.skipif(not hasattr(os, "SCHED_BATCH"), reason="Linux scheduling policy")
async def test_the_child_runs_under_batch_scheduling_and_the_bot_does_not(
    worker: WorkerProcess,
) -> None:
    # A child woken by a call must not preempt the event loop that wrote it (SCHED_BATCH);
    # the bot's own process keeps the normal policy.
    assert await worker.call(os.sched_getscheduler, 0) == os.SCHED_BATCH
    assert os.sched_getscheduler(0) == os.SCHED_OTHER


async def test_posted_calls_run_in_order_with_the_calls(worker: WorkerProcess) -> None:
    worker.post(worker_calls.keep, "a")
    first = worker.call(worker_calls.kept)
    worker.post(worker_calls.keep, "b")
    assert await first == ["a"]
    assert await worker.call(worker_calls.kept) == ["a", "b"]


async def test_an_exception_in_the_child_comes_back_as_that_exception(
    worker: WorkerProcess,
) -> None:
    with pytest.raises(ValueError, match=r"^boom$") as raised:
        await worker.call(worker_calls.fail, "boom")
    assert isinstance(raised.value.__cause__, RemoteTraceback)
    assert "in fail" in str(raised.value.__cause__)
    # One that pickle cannot rebuild comes back as its text; the worker goes on.
    with pytest.raises(RuntimeError, match="Unpicklable: no way"):
        await worker.call(worker_calls.fail_unpicklably)
    # So does one raised while the child rebuilds the call's arguments.
    with pytest.raises(ValueError, match="cannot be rebuilt"):
        await worker.call(worker_calls.length, worker_calls.Unloadable())
    assert await worker.call(worker_calls.echo_after, "still here", 0.0) == "still here"
    assert worker.restarts == 0


async def test_a_killed_child_fails_its_calls_and_the_next_call_gets_a_fresh_one(
    caplog: pytest.LogCaptureFixture,
) -> None:
    restarted: list[int] = []
    worker = WorkerProcess("test worker", on_restart=lambda: restarted.append(1))
    try:
        pid = await worker.call(os.getpid)
        assert pid == worker.pid
        pending = [worker.call(worker_calls.echo_after, n, 0.5) for n in range(3)]
        await asyncio.sleep(0.1)
        os.kill(pid, signal.SIGKILL)
        for future in pending:
            with pytest.raises(WorkerLost, match="test worker died"):
                await future
        assert worker.restarts == 1 and restarted == [1]
        assert await worker.call(worker_calls.echo_after, "fresh", 0.0) == "fresh"
        new_pid = await worker.call(os.getpid)
        assert new_pid == worker.pid and new_pid != pid
        assert _gone(pid)
    finally:
        await worker.aclose()


async def test_what_a_child_answered_before_dying_is_kept(worker: WorkerProcess) -> None:
    pid = await worker.call(os.getpid)
    answered = worker.call(worker_calls.echo_after, "answered", 0.0)
    worker.post(os._exit, 0)
    # The loop is held until the child's end of the pipe is closed: its death is first
    # seen on the next write.
    deadline = time.monotonic() + 30
    while not (_gone(pid) and _hung_up(worker)) and time.monotonic() < deadline:
        time.sleep(0.01)
    after = worker.call(worker_calls.echo_after, "after", 0.0)
    assert worker.restarts == 1
    assert await answered == "answered"
    with pytest.raises(WorkerLost):
        await after
    assert await worker.call(worker_calls.echo_after, "fresh", 0.0) == "fresh"


async def test_an_answer_meant_for_a_dead_child_resolves_nothing(
    worker: WorkerProcess, caplog: pytest.LogCaptureFixture
) -> None:
    pid = await worker.call(os.getpid)
    dead = [worker.call(worker_calls.echo_after, n, 5.0) for n in range(3)]
    dead_ids = list(range(worker._ids - 2, worker._ids + 1))
    await asyncio.sleep(0.1)
    os.kill(pid, signal.SIGKILL)
    for future in dead:
        with pytest.raises(WorkerLost):
            await future
    # The new child answers the dead child's calls (as a stale answer would look), and
    # its own calls made meanwhile still get their own answers.
    with caplog.at_level(logging.WARNING):
        forged = worker.call(worker_calls.forge, dead_ids, "stale")
        after = [worker.call(worker_calls.echo_after, n, 0.0) for n in range(3)]
        assert await forged == "forged"
        assert await asyncio.gather(*after) == [0, 1, 2]
    assert caplog.text.count("which it was not asked") == 3
    assert worker.restarts == 1


async def test_a_big_answer_arrives_whole_while_the_loop_runs(
    worker: WorkerProcess, tmp_path: Path
) -> None:
    pid = await worker.call(os.getpid)
    assert pid is not None
    marker = tmp_path / "returning"
    size = 3 * 1024 * 1024
    answer = worker.call(worker_calls.blob, size, str(marker))
    # The loop is held (blocking) until the child is writing its answer into the pipe,
    # then the child is stopped halfway: the loop reads what there is and runs on.
    deadline = time.monotonic() + 30
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.2)
    with _stopped(pid):
        ticker = _Ticker()
        await asyncio.sleep(0.3)
        ticker.stop()
        assert not answer.done()
        assert 0 < len(worker._child.inbox) < size
        assert ticker.ticks >= 10
    data = await answer
    assert len(data) == size and data == worker_calls.blob(size, str(marker))


async def test_a_big_call_to_a_stopped_child_does_not_stall_the_loop(
    worker: WorkerProcess,
) -> None:
    pid = await worker.call(os.getpid)
    assert pid is not None
    data = b"x" * (3 * 1024 * 1024)
    with _stopped(pid):
        # Far more than the pipe holds: a blocking write would hang here for good.
        sent = [worker.call(worker_calls.length, data) for _ in range(2)]
        ticker = _Ticker()
        await asyncio.sleep(0.3)
        ticker.stop()
        assert ticker.ticks >= 10
        assert not any(future.done() for future in sent)
    assert await asyncio.gather(*sent) == [len(data)] * 2


async def test_shutdown_fails_waiting_calls_and_leaves_no_child() -> None:
    worker = WorkerProcess("test worker")
    pid = await worker.call(os.getpid)
    slow = worker.call(worker_calls.echo_after, "late", 0.3)
    await asyncio.sleep(0.05)
    started = time.monotonic()
    await worker.aclose()
    assert _gone(pid) and worker.closed
    assert time.monotonic() - started < 5.0
    with pytest.raises(WorkerClosed):
        await slow
    with pytest.raises(WorkerClosed):
        await worker.call(os.getpid)
    await worker.aclose()  # twice is fine


async def test_a_child_stuck_at_shutdown_is_killed_after_its_grace() -> None:
    worker = WorkerProcess("test worker")
    pid = await worker.call(os.getpid)
    worker.post(worker_calls.echo_after, None, 60.0)
    await asyncio.sleep(0.1)
    started = time.monotonic()
    await worker.aclose(grace=0.5)
    assert _gone(pid)
    assert time.monotonic() - started < 3.0


def test_close_without_a_loop_leaves_no_child() -> None:
    worker = WorkerProcess("test worker")
    pid = worker.pid
    assert pid is not None
    worker.close()
    assert _gone(pid)
    worker.close()


def test_a_worker_follows_the_loop_it_is_used_from() -> None:
    worker = WorkerProcess("test worker")
    try:
        for value in ("first loop", "second loop"):
            got = asyncio.run(_one_call(worker, value))
            assert got == value
    finally:
        worker.close()


async def _one_call(worker: WorkerProcess, value: str) -> object:
    return await worker.call(worker_calls.echo_after, value, 0.0)


def test_a_pipe_reset_by_the_parent_reads_as_its_end() -> None:
    """The bot gone with answers of the child unread resets the socket: the child's read
    ends quietly (no traceback in the bot's log at every shutdown) instead of raising."""
    import socket

    from bot.runtime.worker_process import _read_exactly

    def reset() -> socket.socket:
        parent, child = socket.socketpair()
        child.sendall(b"an answer nobody read")
        parent.close()  # closed with that answer still in its queue: the child is reset
        return child

    with reset() as child, pytest.raises(ConnectionResetError):
        os.read(child.fileno(), 8)  # what the child's read meets
    with reset() as child:
        assert _read_exactly(child.fileno(), 8) is None
