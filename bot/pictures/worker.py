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

- An urgent picture (a hand someone clicked for) goes to the worker at once, as an urgent
  call: the worker draws it next, before the boards and results already sent to it
  (which only wait for their next edit), so a hand waits at most for the picture being
  drawn. Of the others, at most `IN_FLIGHT` are at the worker at a time; more than one
  keeps it drawing while the bot's loop is busy: with one, the next picture was sent only
  once the loop had handled the last one's result, so at 300 busy tables the worker idled
  between pictures, boards waited for theirs past `bot.discord.board.DRAW_SECONDS` and
  were then drawn on the loop itself.
- The same model asked twice while it is being drawn is drawn once.
- `processes=0`, a closed drawer or a worker that died draw in a thread instead (the
  worker is started again, logged): a picture is late, never lost.
- The worker is a `bot.runtime.worker_process.WorkerProcess`: its pipe is read and
  written by the event loop itself (no thread in this process), a PNG coming back in
  pieces as the pipe gives it. It is started with "spawn" (the bot has threads), ignores
  Ctrl-C, runs a little below the bot's priority, exits with the bot, and draws the card
  tiles and fonts once at start-up (`bot.pictures.warm`).
"""

from __future__ import annotations

import asyncio
import collections
import logging
import os
from collections.abc import Hashable
from typing import Any

from bot import pictures
from bot.pictures.model import Picture
from bot.runtime.worker_process import WorkerError, WorkerProcess

log = logging.getLogger(__name__)

WORKER_NICENESS = 3
"""How much lower the worker's CPU priority is than the bot's: people's answers first,
then pictures, then AI turns (which wait for an AI delay anyway, at +10)."""

Key = tuple[Hashable, str]
IN_FLIGHT = 8
"""Pictures other than urgent ones sent to the worker at once (the rest wait here). The
next is sent only once the loop has taken a result, so at a full loop (1,000 busy
tables) 3 held the worker to a few dozen pictures a second: boards waited past
`DRAW_SECONDS` and were drawn on the loop itself, 556 of them in 40 s (none with 8 or
16). Urgent pictures do not count: they go at once and the worker draws them first
(before, they waited behind these, and at 300 busy tables own-processing p99 was 80-90
ms with 3 in flight, 150 ms with 8 and 190-210 ms with 16)."""

SHUTDOWN_GRACE = 2.0
"""Seconds the worker has to finish its picture at shutdown before it is killed."""


def _draw_in_worker(model: Any, kind: str) -> Picture:
    """In the worker: draw `model` (its own caches keep the layers that do not change)."""
    return pictures.draw_picture(model, kind)


class PictureDrawer:
    """Pictures drawn in a worker process (see the module docstring)."""

    def __init__(self, processes: int = 1, *, start_method: str = "spawn") -> None:
        """A drawer with one worker process (`processes=0`: threads of this process)."""
        self._worker: WorkerProcess | None = None
        if processes > 0:
            self._worker = WorkerProcess(
                "picture worker",
                initializer=pictures.warm,
                niceness=WORKER_NICENESS,
                start_method=start_method,
                on_restart=self._restarted,
            )
        self._urgent: collections.deque[Key] = collections.deque()
        self._later: collections.deque[Key] = collections.deque()
        self._waiting: dict[Key, asyncio.Future[Picture]] = {}
        self._unsent: set[Key] = set()
        """The pictures queued and not sent to the worker yet."""
        self._askers: dict[Key, int] = {}
        """How many callers wait for each picture asked for."""
        self._drawing = 0
        """Pictures other than urgent ones sent to the worker and not back yet."""
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
        return 0 if self._worker is None else 1

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
            self._unsent.add(key)
            self._pump()
        elif urgent and key in self._unsent and key not in self._urgent:
            self._urgent.append(key)  # sent from there; its place among the later skipped
            self._pump()
        self._askers[key] = self._askers.get(key, 0) + 1
        try:
            return await asyncio.shield(waiting)
        finally:
            self._askers[key] -= 1
            if not self._askers[key]:
                del self._askers[key]
                self._forget_unsent(key)

    def _forget_unsent(self, key: Key) -> None:
        """Nobody waits for `key` any more (they gave up): not drawn if not sent yet (a
        board whose edit moved on must not cost the worker a picture). Its place in the
        queue is skipped when reached (a queue is hundreds long on a busy bot: looking it
        up there would compare every model)."""
        if key in self._unsent:
            self._unsent.discard(key)
            self._waiting.pop(key).cancel()

    def _next(self, queue: collections.deque[Key]) -> Key | None:
        """The next picture of `queue` to draw (those given up, or sent already, skipped)."""
        while queue:
            key = queue.popleft()
            if key in self._unsent:
                self._unsent.discard(key)
                return key
        return None

    def _pump(self) -> None:
        """Send every urgent picture to the worker, and the others up to `IN_FLIGHT`."""
        while (key := self._next(self._urgent)) is not None:
            self._start(key, urgent=True)
        while self._drawing < IN_FLIGHT and (key := self._next(self._later)) is not None:
            self._drawing += 1
            self._start(key, urgent=False)

    def _start(self, key: Key, *, urgent: bool) -> None:
        task = asyncio.get_running_loop().create_task(self._draw(key, urgent))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _draw(self, key: Key, urgent: bool) -> None:
        waiting = self._waiting[key]
        try:
            picture = await self._drawn(*key, urgent=urgent)
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
            if not urgent:
                self._drawing -= 1
            if not self._closed:
                self._pump()

    async def _drawn(self, model: Any, kind: str, *, urgent: bool) -> Picture:
        worker = self._worker
        if worker is not None and not self._closed:
            try:
                picture = await worker.call(_draw_in_worker, model, kind, urgent=urgent)
            except WorkerError:  # it died (started again, logged), or shut down meanwhile
                pass
            else:
                self.drawn += 1
                return picture
        self.in_threads += 1
        return await asyncio.to_thread(pictures.draw_picture, model, kind)

    async def pid(self) -> int | None:
        """The worker's process id, once it has started and answered; None without one."""
        if self._worker is None:
            return None
        return await self._worker.call(os.getpid)

    async def aclose(self) -> None:
        """Stop the worker (pictures asked for later are drawn in threads); safe twice."""
        if self._closed:
            return
        self._closed = True
        worker, self._worker = self._worker, None
        if worker is not None:
            await worker.aclose(SHUTDOWN_GRACE)
        # Whatever was still queued is drawn in threads now.
        for queue, urgent in ((self._urgent, True), (self._later, False)):
            while (key := self._next(queue)) is not None:
                self._drawing += not urgent
                await self._draw(key, urgent)

    def _restarted(self) -> None:
        """The worker died and was started again (the pictures it was drawing go to threads)."""
        self.restarts += 1
        log.error("the picture worker died; started a new one (this picture drawn in a thread)")


def _retrieve(future: asyncio.Future[Picture]) -> None:
    """Mark a picture's failure seen (its askers got it; no "never retrieved" warning)."""
    if not future.cancelled():
        future.exception()
