"""`AiPool`: AI decisions in worker processes, so AI CPU never starves the event loop.

Pure-Python AI (the strong Big Two AI spends ~7 ms p50 / 60 ms p99 per decision) holds
the GIL when it runs in a thread, and the one event loop that answers every human waits
behind it. The pool runs decisions in `workers` separate processes instead (default 1:
on a 2-core machine one core for the event loop, one for the AI).

    pool = AiPool(workers=1)
    action = await pool.decide(table_id, seat, "bigtwo", "strong", seed, view)
    pool.forget(table_id)             # the table stopped, finished or began a new match
    await pool.aclose()               # shutdown: no process is left behind

- Policies live in the worker across decisions, one per (table, seat, policy name),
  built as `get_game(game).make_policy(name, random.Random(seed))`, so stateful
  policies keep their memory (a new seed, i.e. a new match, builds a fresh one). The
  main process sends only the seat's view and gets the action back.
- A given (table, seat) always goes to the same worker: each worker slot is its own
  single-process executor, chosen by hash, and runs its decisions in order.
- A worker that dies (crash, OOM kill) breaks only its slot: the slot is rebuilt at once
  (logged), and every decision that was waiting on it raises `AiWorkerLost`, so the
  runtime plays the game's safe default (`spec.timeout_action(view)`) for that turn.
  Policies of the dead worker are rebuilt from their seeds on their next decision.
- Workers are started with "spawn" (never "fork": the bot process has threads), ignore
  Ctrl-C (the parent shuts them down), exit within 0.5 s if the parent dies without
  shutting them down (SIGKILL, crash), and import every game's AI at start-up, so the
  first decision is not slow. As always with "spawn", the main module must be safe to
  import (`if __name__ == "__main__":`); `python -m bot` and `deucebot` are.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import pickle
import random
import signal
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from engines.base import Policy
from engines.registry import GameSpec, available_games, get_game

log = logging.getLogger(__name__)

GameLookup = Callable[[str], GameSpec]


class AiPoolError(RuntimeError):
    """The pool could not give a decision; the caller plays the safe default."""


class AiWorkerLost(AiPoolError):
    """The worker process died before answering (it has been restarted)."""


class AiPoolClosed(AiPoolError):
    """The pool is shut down."""


# ------------------------------------------------------------------ worker side

_games: GameLookup = get_game
_policies: dict[tuple[Any, int, str], tuple[int, Policy[Any, Any]]] = {}
"""(table id, seat, policy name) -> (seed, the policy built from it)."""


def _exit_with_parent(parent: int, every: float = 0.5) -> None:
    """Exit as soon as the pool's owner `parent` is gone (killed without shutting us down):
    an orphaned worker would otherwise wait forever and keep the owner's stdout open.
    A worker the owner started itself ("spawn") watches its own parent id change; one
    started by a fork server, or one whose owner died before it got here, checks that
    the owner's process still exists."""
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


WORKER_NICENESS = 10
"""How much lower the workers' CPU priority is than the bot's. AI moves wait for an AI
delay anyway, while people wait for answers: when the cores are busy, the bot's event
loop goes first (measured by `deucebot bench discord`)."""


def _init_worker(games: GameLookup, preload: Sequence[str] | None, parent: int) -> None:
    """Worker start-up: ignore Ctrl-C (the parent shuts us down), lower our CPU priority,
    exit with the parent, import the AI modules. `parent` is the pool owner's pid, taken
    in the owner: if it died while this worker was still starting, `os.getppid()` here
    would already name the process that adopted us, and we would wait for it forever."""
    global _games
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):  # a sandbox may refuse it; run at our priority
            os.nice(WORKER_NICENESS)
    threading.Thread(
        target=_exit_with_parent, args=(parent,), name="exit-with-parent", daemon=True
    ).start()
    _games = games
    _policies.clear()
    for game in available_games() if preload is None else preload:
        try:
            spec = games(game)
            for name in spec.policies:
                spec.make_policy(name, random.Random(0))
        except Exception:  # a broken game must not stop the others' AI
            log.exception("AI worker: could not preload the AI of %s", game)


def _decide(table_id: Any, seat: int, game: str, policy: str, seed: int, view: Any) -> Any:
    """One decision with the (table, seat) policy that lives in this worker."""
    key = (table_id, seat, policy)
    entry = _policies.get(key)
    if entry is None or entry[0] != seed:
        entry = (seed, _games(game).make_policy(policy, random.Random(seed)))
        _policies[key] = entry
    return entry[1].decide(view)


def _forget(table_id: Any) -> int:
    """Drop every policy of `table_id`; returns how many there were."""
    keys = [key for key in _policies if key[0] == table_id]
    for key in keys:
        del _policies[key]
    return len(keys)


def _ping() -> int:
    """Start-up check: the worker's process id."""
    return multiprocessing.current_process().pid or 0


def _stored() -> list[tuple[Any, int, str]]:
    """The (table, seat, policy) keys this worker holds (tests)."""
    return sorted(_policies, key=repr)


# -------------------------------------------------------------------- main side


class AiPool:
    """AI decisions in worker processes (see the module docstring)."""

    def __init__(
        self,
        workers: int = 1,
        *,
        games: GameLookup = get_game,
        preload: Sequence[str] | None = None,
        start_method: str = "spawn",
    ) -> None:
        """`workers` processes (each a slot of its own). `games` looks a game up by name in the
        worker (must pickle: a module-level function); `preload` names the games whose AI the
        workers import at start-up (None: every game). `start_method`: "spawn" or
        "forkserver"."""
        if workers < 1:
            raise ValueError(f"an AI pool needs at least one worker, not {workers}")
        if start_method not in ("spawn", "forkserver"):
            raise ValueError(f"start method {start_method!r}: use 'spawn' or 'forkserver'")
        try:
            pickle.dumps(games)
        except Exception as error:
            raise TypeError(f"the AI pool's game lookup must pickle: {error}") from error
        self._context = multiprocessing.get_context(start_method)
        self._games = games
        self._preload = None if preload is None else tuple(preload)
        self._closed = False
        self._slots = [self._new_executor() for _ in range(workers)]
        self._tables: list[set[Any]] = [set() for _ in range(workers)]
        """Per slot: tables that may have policies in that worker (for `forget`)."""
        self.restarts = 0
        """Worker processes restarted after dying."""
        for slot in range(workers):
            self._warm(slot)

    @property
    def workers(self) -> int:
        """The number of worker slots."""
        return len(self._slots)

    @property
    def closed(self) -> bool:
        """True after `close` / `aclose`."""
        return self._closed

    def slot_of(self, table_id: Any, seat: int) -> int:
        """The worker slot that always serves (table, seat)."""
        return hash((table_id, seat)) % len(self._slots)

    async def decide(
        self, table_id: Any, seat: int, game: str, policy: str, seed: int, view: Any
    ) -> Any:
        """The action of policy `policy` (built from `seed`) for `seat` of `table_id`, decided
        in its worker from `view`. Raises `AiWorkerLost` if the worker died (it is restarted),
        `AiPoolClosed` after shutdown, or whatever the policy itself raised."""
        if self._closed:
            raise AiPoolClosed("the AI pool is shut down")
        slot = self.slot_of(table_id, seat)
        executor = self._slots[slot]
        try:
            future = executor.submit(_decide, table_id, seat, game, policy, seed, view)
        except BrokenProcessPool as error:
            self._restart(slot, executor)
            raise AiWorkerLost(f"AI worker {slot} had died") from error
        except RuntimeError as error:
            if self._closed:
                raise AiPoolClosed("the AI pool is shut down") from error
            raise AiPoolError(f"AI worker {slot} refused the decision: {error}") from error
        self._tables[slot].add(table_id)
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool as error:
            self._restart(slot, executor)
            raise AiWorkerLost(f"AI worker {slot} died during a decision") from error

    def forget(self, table_id: Any) -> None:
        """Drop the policies of `table_id` in the workers (fire and forget; in order after the
        decisions already sent, so a newer match's decisions are never affected)."""
        if self._closed:
            return
        for slot, tables in enumerate(self._tables):
            if table_id not in tables:
                continue
            tables.discard(table_id)
            executor = self._slots[slot]
            try:
                future = executor.submit(_forget, table_id)
            except BrokenProcessPool:  # the worker died: its policies are gone anyway
                self._restart(slot, executor)
                continue
            except RuntimeError:  # shut down meanwhile
                continue
            future.add_done_callback(_ignore_result)

    async def stored(self, slot: int = 0) -> list[tuple[Any, int, str]]:
        """The (table, seat, policy) keys worker `slot` holds (tests, diagnostics)."""
        return await asyncio.wrap_future(self._slots[slot].submit(_stored))

    async def pids(self) -> list[int]:
        """The process id of every worker (started if needed)."""
        return list(
            await asyncio.gather(*(asyncio.wrap_future(e.submit(_ping)) for e in self._slots))
        )

    async def aclose(self) -> None:
        """Shut down: queued decisions are cancelled, a running one finishes (or is killed
        after `SHUTDOWN_GRACE` seconds), and every worker process has exited when this
        returns. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        await asyncio.gather(*(asyncio.to_thread(_stop, executor) for executor in self._slots))

    def close(self) -> None:
        """`aclose` for code without an event loop (blocks until the workers exit)."""
        if self._closed:
            return
        self._closed = True
        for executor in self._slots:
            _stop(executor)

    # ---------------------------------------------------------------- internals

    def _new_executor(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=1,
            mp_context=self._context,
            initializer=_init_worker,
            initargs=(self._games, self._preload, os.getpid()),
        )

    def _warm(self, slot: int) -> None:
        """Start the slot's process now (it imports the AI), not on the first decision."""
        with contextlib.suppress(RuntimeError):  # broken or shut down meanwhile
            self._slots[slot].submit(_ping).add_done_callback(_ignore_result)

    def _restart(self, slot: int, broken: ProcessPoolExecutor) -> None:
        """Replace a broken slot (once, however many decisions saw it break)."""
        if self._closed or self._slots[slot] is not broken:
            return
        self._slots[slot] = self._new_executor()
        self._tables[slot].clear()
        self.restarts += 1
        broken.shutdown(wait=False, cancel_futures=True)
        log.error(
            "AI worker %d died; started a new one (its turns in progress play the safe "
            "default, its policies start afresh)",
            slot,
        )
        self._warm(slot)


SHUTDOWN_GRACE = 5.0
"""Seconds a worker has to finish its running decision at shutdown before it is killed."""


def _stop(executor: ProcessPoolExecutor, grace: float = SHUTDOWN_GRACE) -> None:
    """Shut `executor` down and wait until its process has exited, killing it after `grace`
    seconds. `shutdown(wait=True)` alone can wait forever: a worker stuck in a decision, or
    the executor's own thread stuck after a worker died."""
    # The executor keeps its processes private; they are needed to wait with a limit.
    processes = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + grace
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            log.warning("AI worker %s did not stop within %.0f s; killed", process.pid, grace)
            process.kill()
            process.join(1.0)


def _ignore_result(future: concurrent.futures.Future[Any]) -> None:
    """Retrieve a fire-and-forget future's outcome so nothing is logged as unretrieved."""
    if not future.cancelled():
        future.exception()
