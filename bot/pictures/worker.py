"""`PictureDrawer`: pictures drawn in a worker process, so that drawing never holds the
bot's GIL.

Pillow keeps the GIL while it quantizes a picture to its palette and encodes the PNG
(about half of a table picture's 5 ms): drawn in a thread of the bot's process, every
board picture stalled the event loop that answers people (measured with `deucebot bench
discord`: own processing p99 at 100 paced tables went from 38 to 138 ms when pictures
came). The drawer sends the picture's model (a small frozen dataclass: what is drawn)
to one worker process and gets the PNG and alt text back; the result is kept in this
process's picture cache (`bot.pictures.remember`), where the message builders find it.

    drawer = PictureDrawer(processes=1)
    picture = await drawer.picture(model, "table")            # a board, a result
    picture = await drawer.picture(model, "hand", urgent=True)  # someone waits for it
    await drawer.aclose()

- At most `IN_FLIGHT` pictures at a time go to the worker, the urgent ones (a hand
  someone clicked for) before the others (boards and results, which only wait for their
  next edit): a hand waits at most for the few pictures already sent. More than one in
  flight keeps the worker drawing while the bot's loop is busy: with one, the next
  picture was sent only once the loop had handled the last one's result, so at 300 busy
  tables the worker idled between pictures, boards waited for theirs past
  `bot.discord.board.DRAW_SECONDS` and were then drawn on the loop itself.
- The same model asked twice while it is being drawn is drawn once.
- `processes=0`, a closed drawer or a worker that died draw in a thread instead (the
  worker is started again, logged): a picture is late, never lost.
- The worker is started with "spawn" (the bot has threads), ignores Ctrl-C, runs a little
  below the bot's priority, exits with the bot, and draws the card tiles and fonts once
  at start-up (`bot.pictures.warm`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import multiprocessing
import os
import signal
import threading
from collections.abc import Hashable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot import pictures
from bot.pictures.model import Picture
from bot.runtime.ai_pool import _exit_with_parent, _stop

log = logging.getLogger(__name__)

WORKER_NICENESS = 3
"""How much lower the worker's CPU priority is than the bot's: people's answers first,
then pictures, then AI turns (which wait for an AI delay anyway, at +10)."""

Key = tuple[Hashable, str]
IN_FLIGHT = 3
"""Pictures sent to the worker at once (the rest wait here, urgent ones first)."""


def _init_worker(parent: int) -> None:
    """Worker start-up: ignore Ctrl-C, lower the priority, exit with `parent`, warm up."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(WORKER_NICENESS)
    threading.Thread(
        target=_exit_with_parent, args=(parent,), name="exit-with-parent", daemon=True
    ).start()
    pictures.warm()


def _draw_in_worker(model: Any, kind: str) -> Picture:
    """In the worker: draw `model` (its own caches keep the layers that do not change)."""
    return pictures.draw_picture(model, kind)


def _ping() -> int:
    return os.getpid()


class PictureDrawer:
    """Pictures drawn in a worker process (see the module docstring)."""

    def __init__(self, processes: int = 1, *, start_method: str = "spawn") -> None:
        """A drawer with one worker process (`processes=0`: threads of this process)."""
        self._context = multiprocessing.get_context(start_method)
        self._executor: ProcessPoolExecutor | None = None
        if processes > 0:
            self._executor = self._new_executor()
        self._urgent: collections.deque[Key] = collections.deque()
        self._later: collections.deque[Key] = collections.deque()
        self._waiting: dict[Key, asyncio.Future[Picture]] = {}
        self._drawing = 0
        """Pictures sent to the worker and not back yet."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        self.drawn = 0
        """Pictures drawn by the worker."""
        self.in_threads = 0
        """Pictures drawn in a thread (no worker, or it had died)."""
        self.restarts = 0
        """Worker processes started again after dying."""

    @property
    def processes(self) -> int:
        """Worker processes in use (0: threads)."""
        return 0 if self._executor is None else 1

    async def picture(self, model: Any, kind: str, *, urgent: bool = False) -> Picture:
        """The picture of `model` (cached, else drawn by the worker and then cached);
        `urgent`: someone waits for it, it goes before the boards queued. Raises what
        drawing raised."""
        found = pictures.cached(model, kind)
        if found is not None:
            return found
        key: Key = (model, kind)
        waiting = self._waiting.get(key)
        if waiting is None:
            waiting = self._waiting[key] = asyncio.get_running_loop().create_future()
            waiting.add_done_callback(_retrieve)
            (self._urgent if urgent else self._later).append(key)
            self._pump()
        elif urgent and key in self._later:
            self._later.remove(key)
            self._urgent.append(key)
        return await asyncio.shield(waiting)

    def _pump(self) -> None:
        """Send the next pictures to the worker, up to `IN_FLIGHT` being drawn."""
        while self._drawing < IN_FLIGHT and (self._urgent or self._later):
            key = (self._urgent or self._later).popleft()
            self._drawing += 1
            task = asyncio.get_running_loop().create_task(self._draw(key))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _draw(self, key: Key) -> None:
        waiting = self._waiting[key]
        try:
            picture = await self._drawn(*key)
        except asyncio.CancelledError:
            waiting.cancel()
            raise
        except Exception as error:
            if not waiting.done():
                waiting.set_exception(error)
        else:
            pictures.remember(key[0], key[1], picture)  # type: ignore[arg-type]
            if not waiting.done():
                waiting.set_result(picture)
        finally:
            self._waiting.pop(key, None)
            self._drawing -= 1
            if not self._closed:
                self._pump()

    async def _drawn(self, model: Any, kind: str) -> Picture:
        executor = self._executor
        if executor is not None and not self._closed:
            try:
                picture = await asyncio.wrap_future(executor.submit(_draw_in_worker, model, kind))
            except BrokenProcessPool:
                self._restart(executor)
            except RuntimeError:  # shut down meanwhile
                pass
            else:
                self.drawn += 1
                return picture
        self.in_threads += 1
        return await asyncio.to_thread(pictures.draw_picture, model, kind)

    async def pid(self) -> int | None:
        """The worker's process id (started if needed); None without a worker."""
        if self._executor is None:
            return None
        return await asyncio.wrap_future(self._executor.submit(_ping))

    async def aclose(self) -> None:
        """Stop the worker (pictures asked for later are drawn in threads); safe twice."""
        if self._closed:
            return
        self._closed = True
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(_stop, executor, 2.0)
        # Whatever was still queued is drawn in threads now.
        while self._urgent or self._later:
            key = (self._urgent or self._later).popleft()
            self._drawing += 1
            await self._draw(key)

    def _new_executor(self) -> ProcessPoolExecutor:
        executor = ProcessPoolExecutor(
            max_workers=1,
            mp_context=self._context,
            initializer=_init_worker,
            initargs=(os.getpid(),),
        )
        # Start the process now (it draws the tiles once), not on the first picture.
        executor.submit(_ping).add_done_callback(lambda _: None)
        return executor

    def _restart(self, broken: ProcessPoolExecutor) -> None:
        """Replace a worker that died (once, however many pictures saw it die)."""
        if self._closed or self._executor is not broken:
            return
        self._executor = self._new_executor()
        self.restarts += 1
        broken.shutdown(wait=False, cancel_futures=True)
        log.error("the picture worker died; started a new one (this picture drawn in a thread)")


def _retrieve(future: asyncio.Future[Picture]) -> None:
    """Mark a picture's failure seen (its askers got it; no "never retrieved" warning)."""
    if not future.cancelled():
        future.exception()
