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
  process (`bot.runtime.worker_process.WorkerProcess`: a pipe read and written by the
  event loop itself, no thread in this process), chosen by hash, and runs its decisions
  in order.
- A worker that dies (crash, OOM kill) breaks only its slot: the slot's process is
  started again at once (logged), and every decision that was waiting on it raises
  `AiWorkerLost`, so the runtime plays the game's safe default (`spec.timeout_action(view)`)
  for that turn. Policies of the dead worker are rebuilt from their seeds on their next
  decision.
- Workers are started with "spawn" (never "fork": the bot process has threads), ignore
  Ctrl-C (the parent shuts them down), run at a lower priority (`WORKER_NICENESS`), exit
  within 0.5 s if the parent dies without shutting them down (SIGKILL, crash), and import
  every game's AI at start-up, so the first decision is not slow. As always with "spawn",
  the main module must be safe to import (`if __name__ == "__main__":`); `python -m bot`
  and `deucebot` are.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import pickle
import random
from collections.abc import Callable, Sequence
from typing import Any

from bot.errors import DeucebotError
from bot.runtime.worker_process import WorkerClosed, WorkerLost, WorkerProcess
from engines.base import Policy
from engines.registry import GameSpec, available_games, get_game

log = logging.getLogger(__name__)

GameLookup = Callable[[str], GameSpec]


class AiPoolError(DeucebotError, RuntimeError):
    """The pool could not give a decision; the caller plays the safe default."""


class AiWorkerLost(AiPoolError):
    """The worker process died before answering (it has been restarted)."""


class AiPoolClosed(AiPoolError):
    """The pool is shut down."""


# ------------------------------------------------------------------ worker side

_games: GameLookup = get_game
_policies: dict[tuple[Any, int, str], tuple[int, Policy[Any, Any]]] = {}
"""(table id, seat, policy name) -> (seed, the policy built from it)."""

WORKER_NICENESS = 10
"""How much lower the workers' CPU priority is than the bot's. AI moves wait for an AI
delay anyway, while people wait for answers: when the cores are busy, the bot's event
loop goes first (measured by `deucebot bench discord`)."""


def _init_worker(games: GameLookup, preload: Sequence[str] | None) -> None:
    """Worker start-up (after `WorkerProcess`'s own: Ctrl-C ignored, priority lowered,
    exit with the parent): keep the game lookup, import the AI modules."""
    global _games
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
        """`workers` processes (each a slot of its own), started now. `games` looks a game up
        by name in the worker (must pickle: a module-level function); `preload` names the
        games whose AI the workers import at start-up (None: every game). `start_method`:
        "spawn" or "forkserver"."""
        if workers < 1:
            raise ValueError(f"an AI pool needs at least one worker, not {workers}")
        try:
            pickle.dumps(games)
        except Exception as error:
            raise TypeError(f"the AI pool's game lookup must pickle: {error}") from error
        preloaded = None if preload is None else tuple(preload)
        self._closed = False
        self._tables: list[set[Any]] = [set() for _ in range(workers)]
        """Per slot: tables that may have policies in that worker (for `forget`)."""
        self._slots = [
            WorkerProcess(
                f"AI worker {slot}",
                initializer=_init_worker,
                initargs=(games, preloaded),
                niceness=WORKER_NICENESS,
                start_method=start_method,
                on_restart=functools.partial(self._restarted, slot),
            )
            for slot in range(workers)
        ]

    @property
    def workers(self) -> int:
        """The number of worker slots."""
        return len(self._slots)

    @property
    def closed(self) -> bool:
        """True after `close` / `aclose`."""
        return self._closed

    @property
    def restarts(self) -> int:
        """Worker processes restarted after dying."""
        return sum(worker.restarts for worker in self._slots)

    @property
    def waiting(self) -> int:
        """Decisions (and other calls) sent to the workers and not answered yet."""
        return sum(worker.waiting for worker in self._slots)

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
        self._tables[slot].add(table_id)
        try:
            return await self._slots[slot].call(_decide, table_id, seat, game, policy, seed, view)
        except WorkerLost as error:
            raise AiWorkerLost(f"AI worker {slot} died during a decision") from error
        except WorkerClosed as error:
            raise AiPoolClosed("the AI pool is shut down") from error

    def forget(self, table_id: Any) -> None:
        """Drop the policies of `table_id` in the workers (fire and forget; in order after the
        decisions already sent, so a newer match's decisions are never affected)."""
        if self._closed:
            return
        for slot, tables in enumerate(self._tables):
            if table_id in tables:
                tables.discard(table_id)
                self._slots[slot].post(_forget, table_id)

    async def stored(self, slot: int = 0) -> list[tuple[Any, int, str]]:
        """The (table, seat, policy) keys worker `slot` holds (tests, diagnostics)."""
        return await self._slots[slot].call(_stored)

    async def pids(self) -> list[int]:
        """The process id of every worker, once each has started and answered."""
        return list(await asyncio.gather(*(worker.call(_ping) for worker in self._slots)))

    async def aclose(self) -> None:
        """Shut down: decisions still waiting raise `AiPoolClosed`, a worker exits once the
        decision it is running is done (killed after `SHUTDOWN_GRACE` seconds), and every
        worker process has exited when this returns. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        await asyncio.gather(*(worker.aclose(SHUTDOWN_GRACE) for worker in self._slots))

    def close(self) -> None:
        """`aclose` for code without an event loop (blocks until the workers exit)."""
        if self._closed:
            return
        self._closed = True
        for worker in self._slots:
            worker.close(SHUTDOWN_GRACE)

    # ---------------------------------------------------------------- internals

    def _restarted(self, slot: int) -> None:
        """Slot `slot`'s worker died and was started again: its policies are gone."""
        self._tables[slot].clear()
        log.error(
            "AI worker %d died; started a new one (its turns in progress play the safe "
            "default, its policies start afresh)",
            slot,
        )


SHUTDOWN_GRACE = 5.0
"""Seconds a worker has to finish its running decision at shutdown before it is killed."""
