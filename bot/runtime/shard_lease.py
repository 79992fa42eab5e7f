"""`ShardLeaseKeeper`: a sharded process's claim on its shards, kept in the database.

A table must be driven by exactly one process. Discord itself would let two processes
connect the same shard (both would get its clicks), so the process fences itself through
the database: at start it claims its shards (`storage.leases`) and renews the claim every
third of the lease while it runs.

- A free, expired or own lease is taken at once.
- A lease whose owner is proven dead is taken at once: same host, and no process with
  that pid (the usual restart after a crash or a SIGKILL).
- Any other lease is watched for one renewal period: renewed, its owner is alive and the
  start is refused (`ShardsTaken`, one line naming the shard and the owner); not
  renewed, it expires and is taken. So a restarted process on another host resumes its
  shards at most one lease period after the crash.
- A process whose renewal finds a shard taken by another (it was paused longer than the
  lease) is told (`on_lost`) and must stop driving tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable, Sequence

from bot.errors import DeucebotError
from bot.runtime.shards import Shards
from storage.leases import LeaseStore, ShardLease

log = logging.getLogger(__name__)


class ShardsTaken(DeucebotError):
    """Another live process drives some of these shards (or runs another shard count)."""


def owner_name() -> str:
    """This process as a lease owner: host, pid and a random tag (`host/pid/tag`)."""
    return f"{socket.gethostname()}/{os.getpid()}/{secrets.token_hex(4)}"


def proven_dead(owner: str) -> bool:
    """Whether the owner `host/pid/tag` is certainly gone: it ran on this host and no
    process has its pid now (another host's owner is never proven dead here)."""
    host, _, rest = owner.partition("/")
    pid_text = rest.partition("/")[0]
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # exists, but is someone else's (PermissionError)
        return False
    return False


class ShardLeaseKeeper:
    """Claims `shards` for this process in `storage` and keeps them while it runs."""

    def __init__(
        self,
        storage: LeaseStore,
        shards: Shards,
        *,
        seconds: float = 30.0,
        owner: str | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """A keeper of `shards`' leases lasting `seconds` each (renewed every third)."""
        self.storage = storage
        self.shards = shards
        self.seconds = seconds
        self.owner = owner or owner_name()
        self._clock = clock
        self._task: asyncio.Task[None] | None = None
        self.held = False

    async def acquire(self) -> None:
        """Claim every shard (see the module's rules); `ShardsTaken` if another live
        process holds one, or leases exist for another shard count, and nothing is kept."""
        rows = await self.storage.shard_leases()
        now = self._clock()
        mixed = [r for r in rows if r.shard_count != self.shards.count and r.expires_at >= now]
        if mixed:
            lease = mixed[0]
            raise ShardsTaken(
                f"shard {lease.shard_id} of {lease.shard_count} is run by {lease.owner} "
                f"(until {_when(lease.expires_at)}), but this process was given "
                f"DEUCEBOT_SHARD_COUNT={self.shards.count}: every process needs the same count"
            )
        seen = {r.shard_id: r for r in rows}
        dead = {
            s: r.owner for s, r in seen.items() if r.owner != self.owner and proven_dead(r.owner)
        }
        got = await self._claim(dead)
        waited: dict[int, float] = {}
        logged = False
        while True:
            others = [lease for lease in got if lease.owner != self.owner]
            if not others:
                break
            for lease in others:
                first = waited.setdefault(lease.shard_id, lease.expires_at)
                if lease.expires_at > first:  # renewed while we watched: alive
                    await self.storage.release_shards(self.owner)
                    raise ShardsTaken(
                        f"shard {lease.shard_id} of {self.shards.count} is already run by "
                        f"{lease.owner} (its lease is renewed): stop that process first, or "
                        "give this one other DEUCEBOT_SHARD_IDS"
                    )
            if not logged:
                logged = True
                log.info(
                    "shards %s are leased by %s; waiting to see whether it is alive",
                    ",".join(str(lease.shard_id) for lease in others),
                    ", ".join(sorted({lease.owner for lease in others})),
                )
            await asyncio.sleep(min(1.0, self.seconds / 10))
            got = await self._claim({})
        self.held = True
        log.info("leased %s as %s for %.0f s", self.shards, self.owner, self.seconds)

    async def _claim(self, dead: dict[int, str]) -> list[ShardLease]:
        now = self._clock()
        return await self.storage.claim_shards(
            shards=self.shards.ids,
            count=self.shards.count,
            owner=self.owner,
            until=now + self.seconds,
            now=now,
            take_from=dead,
        )

    def keep(self, on_lost: Callable[[Sequence[ShardLease]], None]) -> None:
        """Renew the leases every third of their length until `release`; `on_lost` is
        called once (and renewal stops) if another process took a shard meanwhile."""

        async def renew() -> None:
            while True:
                await asyncio.sleep(self.seconds / 3)
                try:
                    got = await self._claim({})
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("could not renew the shard leases; retrying")
                    continue
                lost = [lease for lease in got if lease.owner != self.owner]
                if lost:
                    self.held = False
                    on_lost(lost)
                    return

        self._task = asyncio.get_running_loop().create_task(renew())

    async def release(self) -> None:
        """Stop renewing and free the leases (a graceful stop: the next process need not
        wait)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self.held:
            self.held = False
            await self.storage.release_shards(self.owner)


def _when(epoch: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(epoch))
