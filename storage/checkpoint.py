"""WAL checkpoints off the commit path, for the SQLite backend.

In WAL mode every commit appends to the `-wal` file; a checkpoint copies those pages back
into the database file and syncs it. SQLite runs one by default inside whichever commit
pushes the WAL past 1,000 pages, so that one commit (and every action waiting behind it in
the group commit) pays for copying and syncing up to 4 MB: the long tail of the action
latency. The writer connection turns that off (`wal_autocheckpoint = 0`) and a
`Checkpointer` runs `PRAGMA wal_checkpoint(PASSIVE)` instead, on a connection and a thread
of its own, about once a second while there are new commits. A passive checkpoint never
waits for the writer and the writer never waits for it (WAL lets both run at once), so a
commit only ever waits for its own sync. Durability is unchanged: a commit is durable once
its WAL frames are synced, checkpointed or not, and an unfinished checkpoint is redone
from the WAL at the next start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from concurrent.futures import ThreadPoolExecutor

log = logging.getLogger(__name__)

CHECKPOINT_SECONDS = 1.0
"""How often the WAL is copied back while commits keep coming."""


class Checkpointer:
    """Runs passive WAL checkpoints of one database file in the background."""

    def __init__(self, path: str, synchronous: str, every: float = CHECKPOINT_SECONDS) -> None:
        """Checkpoint `path` every `every` seconds once `start`ed; the checkpoint syncs as
        `synchronous` says (the writer's setting)."""
        self.path = path
        self.synchronous = synchronous
        self.every = every
        self.checkpoints = 0
        """How many checkpoints ran (tests and the benchmark read it)."""
        self.commits = 0
        """How many commits were noted (`committed`)."""
        self.copied = 0
        """Commits noted before the last checkpoint that ran: all of those are in the file."""
        self._dirty = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._thread: ThreadPoolExecutor | None = None
        self._conn: sqlite3.Connection | None = None

    def start(self) -> None:
        """Begin checkpointing (on the running loop)."""
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-checkpoint")
        self._task = asyncio.get_running_loop().create_task(self._loop())

    def committed(self) -> None:
        """Note that a commit added pages to the WAL."""
        self.commits += 1
        self._dirty.set()

    async def close(self) -> None:
        """Stop; the last checkpoint is left to SQLite, which runs one when the last
        connection to the file closes."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._thread is not None:
            if self._conn is not None:
                await asyncio.get_running_loop().run_in_executor(self._thread, self._conn.close)
                self._conn = None
            self._thread.shutdown()
            self._thread = None

    async def _loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self._dirty.wait()
            self._dirty.clear()
            upto = self.commits
            try:
                await loop.run_in_executor(self._thread, self._checkpoint)
                self.checkpoints += 1
                self.copied = upto
            except sqlite3.Error:
                # The next commit asks again; SQLite redoes the WAL at start-up meanwhile.
                log.warning("WAL checkpoint of %s failed", self.path, exc_info=True)
            await asyncio.sleep(self.every)

    def _checkpoint(self) -> None:
        if self._conn is None:
            self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._conn.execute(f"PRAGMA synchronous = {self.synchronous}")
        self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
