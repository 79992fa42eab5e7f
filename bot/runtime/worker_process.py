"""`WorkerProcess`: one child process that runs calls for the event loop, with no thread in
the parent.

`concurrent.futures.ProcessPoolExecutor` moves every call through two threads of the
calling process (its queue feeder and its manager), and its result comes back through
`call_soon_threadsafe`: on every AI decision and every picture, two threads take the GIL
from the event loop and hand it back (5 ms switch interval, convoys). Here the child is
joined to the parent by one duplex `multiprocessing.Pipe`, and the parent's end is read
and written by the event loop itself (`loop.add_reader` / `add_writer`, non-blocking).

    worker = WorkerProcess("picture worker", initializer=warm, niceness=3,
                           on_restart=log_it)
    result = await worker.call(draw, model)   # raises what `draw` raised in the child
    worker.post(forget, table_id)             # fire and forget, in order with the calls
    await worker.aclose()                     # the child has exited when this returns

- Calls run in the child one at a time, in the order they were made; each carries an id
  (never reused, across restarts too) and its result, or the exception it raised (with
  the child's traceback as its `__cause__`), comes back with that id.
- An urgent call (`call(..., urgent=True)`: someone waits for it) runs before the others
  the child has been sent and not started: between two calls the child reads every frame
  the pipe holds, then runs the oldest urgent one, else the oldest other one. Calls of
  the same kind keep their order (and `post`s are never urgent). Without it, a hand
  someone clicked for waited behind every board picture already sent.
- Frames are a 17-byte header (id, length, urgent) and a pickle. The parent's sends are buffered
  and written as the pipe takes them, so a full pipe (a child busy or still starting)
  never stalls the loop; results are read as they come, a big one (a PNG) in pieces
  across several turns of the loop. The child reads and writes blocking: a child waiting
  for the parent to read its result is fine.
- A child that dies (end of file on the pipe, or a broken pipe) fails every call still
  waiting on it with `WorkerLost` (what it answered before it died is taken) and is
  replaced at once (`on_restart` is called: the owner logs and drops what lived in the
  dead child). The dead child's pipe is closed with it, so nothing it sent can resolve a
  call made to its successor.
- The child is started with "spawn" (never "fork": the bot process has threads) as a
  daemon, ignores Ctrl-C (the parent shuts it down), lowers its priority by `niceness`,
  runs under Linux's batch scheduling (`batch_scheduling`: its wake-ups never preempt the
  event loop on its core; each call sent to it wakes it), exits within 0.5 s if the
  parent dies without shutting it down (and at the end of its pipe), and runs
  `initializer(*initargs)` at start-up (warm-up: imports, caches) before its first call.
  As always with "spawn", the main module must be safe to import.
- The worker follows the event loop it is used from (tests run one loop per test): calls
  waiting on an earlier loop are dropped when a later loop uses it.
- `aclose` (or `close` without a loop): waiting calls raise `WorkerClosed`, the pipe is
  closed (the child exits once its running call is done, at the latest after `grace`
  seconds, when it is killed), and the child has exited when it returns.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import multiprocessing
import os
import pickle
import select
import signal
import struct
import threading
import time
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from bot.errors import DeucebotError

log = logging.getLogger(__name__)

T = TypeVar("T")

_HEADER = struct.Struct("!QQ?")
"""A frame's header: the call's id, the length of the pickle that follows, and (for a call)
whether it is urgent."""
READ_CHUNK = 256 * 1024
"""Bytes read from the pipe per turn of the loop (a bigger result takes several turns)."""


class WorkerError(DeucebotError, RuntimeError):
    """The worker process could not give a result."""


class WorkerLost(WorkerError):
    """The worker process died before answering (a new one has been started)."""


class WorkerClosed(WorkerError):
    """The worker is shut down."""


class RemoteTraceback(DeucebotError):
    """The traceback of an exception raised in the child (set as its `__cause__`)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


# ------------------------------------------------------------------ child side


def _exit_with_parent(parent: int, every: float = 0.5) -> None:
    """Exit as soon as the worker's owner `parent` is gone (killed without shutting us
    down): an orphaned worker would otherwise run on and keep the owner's stdout open.
    A worker the owner started itself watches its own parent id change; one started by a
    fork server, or one whose owner died before it got here, checks that the owner's
    process still exists."""
    if os.getppid() == parent:
        while os.getppid() == parent:
            time.sleep(every)
    else:
        while _exists(parent):
            time.sleep(every)
    os._exit(0)


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process now holds the number
        return False
    return True


def _read_exactly(fd: int, size: int) -> bytes | None:
    """`size` bytes from blocking `fd`, or None at end of file (or when the other end went
    away with answers of ours unread: a socket then reads as reset, not as ended)."""
    parts: list[bytes] = []
    while size:
        try:
            part = os.read(fd, min(size, 1 << 20))
        except ConnectionResetError:
            return None
        if not part:
            return None
        parts.append(part)
        size -= len(part)
    return b"".join(parts)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _outcome(call_id: int, body: bytes) -> bytes:
    """The frame answering one call (`body`: its function and arguments, pickled): its
    result, or the exception it raised (unpickling the call included)."""
    try:
        fn, args = pickle.loads(body)
        answer: tuple[bool, Any, str] = (True, fn(*args), "")
        return _frame(call_id, pickle.dumps(answer, pickle.HIGHEST_PROTOCOL))
    except Exception as error:
        failure = error
    text = "".join(traceback.format_exception(failure))
    try:  # an exception that does not survive the trip is sent as its text
        pickle.loads(pickle.dumps(failure, pickle.HIGHEST_PROTOCOL))
    except Exception:
        failure = WorkerError(f"{type(failure).__name__}: {failure}")
    return _frame(call_id, pickle.dumps((False, failure, text), pickle.HIGHEST_PROTOCOL))


def batch_scheduling() -> bool:
    """Put the calling process (its current thread and those it starts later) under Linux's
    SCHED_BATCH policy, at its niceness: the scheduler never lets it preempt a running task
    when it wakes up, only at the next tick. A worker woken by the bot's call otherwise
    takes the core from the event loop that just wrote it (profiled at 100 busy tables:
    the loop lost ~3 ms on such writes, 546 times a minute for the picture worker alone).
    Whether it could (False where the policy does not exist or is refused)."""
    policy = getattr(os, "SCHED_BATCH", None)
    if policy is None or not hasattr(os, "sched_setscheduler"):
        return False
    try:
        os.sched_setscheduler(0, policy, os.sched_param(0))
    except OSError:
        return False
    return True


def _serve(
    conn: Connection,
    parent: int,
    niceness: int,
    initializer: Callable[..., object] | None,
    initargs: tuple[Any, ...],
) -> None:
    """The child's life: start up, then answer calls in order until the pipe ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if niceness and hasattr(os, "nice"):
        with contextlib.suppress(OSError):  # a sandbox may refuse it; run at our priority
            os.nice(niceness)
    batch_scheduling()
    threading.Thread(
        target=_exit_with_parent, args=(parent,), name="exit-with-parent", daemon=True
    ).start()
    if initializer is not None:
        try:
            initializer(*initargs)
        except Exception:  # the calls may still work; each says so if not
            log.exception("worker process: its start-up failed")
    fd = conn.fileno()
    calls = _Calls(fd)
    while True:
        call = calls.next()
        if call is None:
            return  # the parent closed the pipe: shut down
        try:
            _write_all(fd, _outcome(*call))
        except OSError:  # the parent is gone or closed the pipe
            return


class _Calls:
    """The child's calls read from the pipe and not run yet, urgent ones first."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.urgent: collections.deque[tuple[int, bytes]] = collections.deque()
        self.others: collections.deque[tuple[int, bytes]] = collections.deque()
        self.ended = False
        self._poller = select.poll()
        self._poller.register(fd, select.POLLIN)

    def next(self) -> tuple[int, bytes] | None:
        """The next call to run (id, body): waits for one when none is read; None once the
        pipe has ended and every call read before has been run."""
        if not (self.urgent or self.others) and not self.ended:
            self._read_one()
        while not self.ended and self._poller.poll(0):  # read every frame already here
            self._read_one()
        queue = self.urgent or self.others
        return queue.popleft() if queue else None

    def _read_one(self) -> None:
        """Read one whole frame (blocking: a frame begun is written whole by the parent)."""
        header = _read_exactly(self.fd, _HEADER.size)
        body = None if header is None else _read_exactly(self.fd, _HEADER.unpack(header)[1])
        if header is None or body is None:
            self.ended = True
            return
        call_id, _, urgent = _HEADER.unpack(header)
        (self.urgent if urgent else self.others).append((call_id, body))


def _frame(call_id: int, body: bytes, urgent: bool = False) -> bytes:
    return _HEADER.pack(call_id, len(body), urgent) + body


# -------------------------------------------------------------------- parent side


class _Child:
    """One incarnation of the worker: its process, the parent's end of its pipe, the calls
    waiting on it."""

    def __init__(self, process: multiprocessing.process.BaseProcess, conn: Connection) -> None:
        self.process = process
        self.conn = conn
        self.fd = conn.fileno()
        os.set_blocking(self.fd, False)
        self.waiting: dict[int, asyncio.Future[Any] | None] = {}
        """Call id -> its future (None: posted, nobody waits)."""
        self.inbox = bytearray()
        self.outbox = bytearray()


class WorkerProcess:
    """One restartable child process that runs calls for the event loop (see the module
    docstring)."""

    def __init__(
        self,
        name: str,
        *,
        initializer: Callable[..., object] | None = None,
        initargs: tuple[Any, ...] = (),
        niceness: int = 0,
        start_method: str = "spawn",
        on_restart: Callable[[], None] | None = None,
    ) -> None:
        """Start the child now (it runs `initializer(*initargs)` first: both must pickle).
        `name` names it in logs; `on_restart` is called after a dead child was replaced."""
        if start_method not in ("spawn", "forkserver"):
            raise ValueError(f"start method {start_method!r}: use 'spawn' or 'forkserver'")
        self.name = name
        self._context = (
            multiprocessing.get_context("spawn")
            if start_method == "spawn"
            else multiprocessing.get_context("forkserver")
        )
        self._start_args = (niceness, initializer, initargs)
        self._on_restart = on_restart
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ids = 0
        self._closed = False
        self.restarts = 0
        """Children started again after one died."""
        self._child = self._start()
        self._bind()

    @property
    def pid(self) -> int | None:
        """The current child's process id (it may still be starting)."""
        return self._child.process.pid

    @property
    def waiting(self) -> int:
        """Calls sent to the current child and not answered yet."""
        return sum(1 for future in self._child.waiting.values() if future is not None)

    @property
    def closed(self) -> bool:
        """True after `close` / `aclose`."""
        return self._closed

    def call(self, fn: Callable[..., T], *args: Any, urgent: bool = False) -> asyncio.Future[T]:
        """Run `fn(*args)` in the child (`fn` by reference: a module-level function); the
        future gets its result or the exception it raised, `WorkerLost` if the child died
        first, `WorkerClosed` after shutdown. `urgent`: run before the calls sent earlier
        that the child has not started. Needs a running event loop."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        if self._closed:
            future.set_exception(WorkerClosed(f"the {self.name} is shut down"))
            return future
        self._send(fn, args, future, urgent)
        return future

    def post(self, fn: Callable[..., object], *args: Any) -> None:
        """Run `fn(*args)` in the child, in order with the calls, its outcome ignored."""
        if not self._closed:
            self._send(fn, args, None)

    async def aclose(self, grace: float = 5.0) -> None:
        """Shut down (see the module docstring) without blocking the loop; safe twice."""
        process = self._shut()
        if process is None:
            return
        deadline = time.monotonic() + grace
        while process.is_alive() and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        _reap(process, self.name, grace)

    def close(self, grace: float = 5.0) -> None:
        """`aclose` for code without an event loop (blocks until the child has exited)."""
        process = self._shut()
        if process is not None:
            process.join(grace)
            _reap(process, self.name, grace)

    # ---------------------------------------------------------------- internals

    def _start(self) -> _Child:
        theirs, ours = self._context.Pipe(duplex=True)
        process = self._context.Process(
            target=_serve,
            args=(theirs, os.getpid(), *self._start_args),
            name=self.name,
            daemon=True,
        )
        process.start()
        theirs.close()  # the child's copy alone keeps its end open: its death is our EOF
        child = _Child(process, ours)
        if self._loop is not None and not self._loop.is_closed():
            self._loop.add_reader(child.fd, self._readable, child)
        return child

    def _bind(self) -> None:
        """Follow the running loop (if any): the pipe is read and written by it."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        if loop is self._loop:
            return
        child = self._child
        if self._loop is not None:
            self._loop.remove_reader(child.fd)
            self._loop.remove_writer(child.fd)
            for call_id, future in child.waiting.items():
                if future is not None and future.get_loop() is self._loop:
                    child.waiting[call_id] = None  # its loop is gone: nobody can wait
        self._loop = loop
        loop.add_reader(child.fd, self._readable, child)
        if child.outbox:
            loop.add_writer(child.fd, self._writable, child)

    def _send(
        self,
        fn: Callable[..., object],
        args: tuple[Any, ...],
        future: asyncio.Future[Any] | None,
        urgent: bool = False,
    ) -> None:
        self._bind()
        self._ids += 1
        frame = _frame(self._ids, pickle.dumps((fn, args), pickle.HIGHEST_PROTOCOL), urgent)
        child = self._child
        child.waiting[self._ids] = future
        if child.outbox:  # behind what is already waiting to go
            child.outbox += frame
            return
        try:
            sent = os.write(child.fd, frame)
        except BlockingIOError:
            sent = 0
        except OSError as error:  # the child is gone
            self._lost(child, f"its pipe broke ({error})")
            return
        if sent < len(frame):
            child.outbox += memoryview(frame)[sent:]
            if self._loop is not None:
                self._loop.add_writer(child.fd, self._writable, child)

    def _writable(self, child: _Child) -> None:
        try:
            sent = os.write(child.fd, child.outbox)
        except BlockingIOError:
            return
        except OSError as error:
            self._lost(child, f"its pipe broke ({error})")
            return
        del child.outbox[:sent]
        if not child.outbox and self._loop is not None:
            self._loop.remove_writer(child.fd)

    def _readable(self, child: _Child) -> None:
        try:
            data = os.read(child.fd, READ_CHUNK)
        except BlockingIOError:
            return
        except OSError as error:
            self._lost(child, f"its pipe broke ({error})")
            return
        if not data:
            self._lost(child, "end of its pipe")
            return
        self._received(child, data)

    def _received(self, child: _Child, data: bytes) -> None:
        """Take `data` from `child`'s pipe: answer every call whose frame is now whole."""
        inbox = child.inbox
        inbox += data
        while len(inbox) >= _HEADER.size:
            call_id, size, _ = _HEADER.unpack_from(inbox)
            end = _HEADER.size + size
            if len(inbox) < end:
                break
            body = bytes(memoryview(inbox)[_HEADER.size : end])
            del inbox[:end]
            self._answer(child, call_id, body)

    def _answer(self, child: _Child, call_id: int, body: bytes) -> None:
        """Resolve call `call_id` of `child` with the answer `body` (unknown ids ignored)."""
        if call_id not in child.waiting:
            log.warning("%s: an answer to call %d, which it was not asked", self.name, call_id)
            return
        future = child.waiting.pop(call_id)
        if future is None or future.done():
            return
        try:
            ok, value, text = pickle.loads(body)
        except Exception as error:
            future.set_exception(WorkerError(f"{self.name}: its answer did not unpickle: {error}"))
            return
        if ok:
            future.set_result(value)
        else:
            value.__cause__ = RemoteTraceback(text)
            future.set_exception(value)

    def _lost(self, child: _Child, why: str) -> None:
        """`child` died: take the answers it sent before, fail what still waits on it,
        start its successor (once)."""
        if child is not self._child:
            return
        with contextlib.suppress(OSError):  # a broken pipe can be noticed on a write first
            while data := os.read(child.fd, READ_CHUNK):
                self._received(child, data)
        self._drop(child, WorkerLost(f"the {self.name} died ({why})"))
        child.process.join(0)
        if child.process.is_alive():  # still exiting, or closed its end alive: make sure
            child.process.kill()
        if self._closed:
            return
        self._child = self._start()
        self.restarts += 1
        if self._on_restart is not None:
            self._on_restart()

    def _drop(self, child: _Child, error: WorkerError) -> None:
        """Stop watching `child`'s pipe, close it, fail every call waiting on it."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.remove_reader(child.fd)
            self._loop.remove_writer(child.fd)
        child.conn.close()
        waiting, child.waiting = child.waiting, {}
        for future in waiting.values():
            if future is not None and not future.done() and not future.get_loop().is_closed():
                future.set_exception(error)

    def _shut(self) -> multiprocessing.process.BaseProcess | None:
        """Mark closed and close the pipe; the process to wait for (None: closed before)."""
        if self._closed:
            return None
        self._closed = True
        self._drop(self._child, WorkerClosed(f"the {self.name} is shut down"))
        return self._child.process


def _reap(process: multiprocessing.process.BaseProcess, name: str, grace: float) -> None:
    """Kill `process` if it is still running after its grace, and wait for it."""
    if process.is_alive():
        log.warning("the %s (pid %s) did not stop within %.1f s; killed", name, process.pid, grace)
        process.kill()
    process.join(1.0)
