"""Shard leases: which process drives which shards of a sharded bot, until when.

A sharded bot process claims its shards when it starts and renews the claim while it
runs (`bot.runtime.shard_lease`). A claim takes a shard whose lease is free, expired,
already the claimer's, or held by an owner the claimer proved dead; any other shard keeps
its owner, and the claimer sees that in the leases it gets back. One conditional upsert
per shard makes two processes that claim at once agree on a single winner, on SQLite
and on PostgreSQL alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from storage.statements import Statement

CLAIM_SHARD = (
    "INSERT INTO shard_leases (shard_id, shard_count, owner, expires_at) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (shard_id) DO UPDATE SET shard_count = excluded.shard_count,"
    " owner = excluded.owner, expires_at = excluded.expires_at"
    " WHERE shard_leases.owner = excluded.owner OR shard_leases.expires_at < ?"
    " OR shard_leases.owner = ?"
)
RELEASE_SHARDS = "DELETE FROM shard_leases WHERE owner = ?"


@dataclass(frozen=True, slots=True)
class ShardLease:
    """Shard `shard_id` (of `shard_count`) is driven by `owner` until `expires_at` (epoch s)."""

    shard_id: int
    shard_count: int
    owner: str
    expires_at: float


class LeaseStore(Protocol):
    """What a storage offers for shard leases (both SQL backends)."""

    async def shard_leases(self) -> list[ShardLease]:
        """Every shard lease, by shard id (expired ones included)."""
        ...

    async def claim_shards(
        self,
        *,
        shards: Sequence[int],
        count: int,
        owner: str,
        until: float,
        now: float,
        take_from: Mapping[int, str] | None = None,
    ) -> list[ShardLease]:
        """Claim `shards` (of `count`) for `owner` until `until`; see `SqlLeases`."""
        ...

    async def release_shards(self, owner: str) -> None:
        """Drop every lease of `owner` (a graceful stop)."""
        ...


class SqlLeases:
    """`LeaseStore` for a backend with `_all` (reads) and `_group` (group-committed writes)."""

    _group: Any

    async def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        raise NotImplementedError

    async def shard_leases(self) -> list[ShardLease]:
        """Every shard lease, by shard id (expired ones included)."""
        rows = await self._all("SELECT * FROM shard_leases ORDER BY shard_id")
        return [
            ShardLease(r["shard_id"], r["shard_count"], r["owner"], float(r["expires_at"]))
            for r in rows
        ]

    async def claim_shards(
        self,
        *,
        shards: Sequence[int],
        count: int,
        owner: str,
        until: float,
        now: float,
        take_from: Mapping[int, str] | None = None,
    ) -> list[ShardLease]:
        """Claim `shards` (of `count`) for `owner` until `until`, in one transaction: each
        shard is taken if its lease is free, expired at `now`, already `owner`'s, or held by
        `take_from[shard]` (an owner proven dead). Returns the leases of `shards` as stored
        afterwards; those with another owner were not taken."""
        dead = take_from or {}
        statements: list[Statement] = [
            (CLAIM_SHARD, (shard, count, owner, until, now, dead.get(shard, "")))
            for shard in shards
        ]
        await self._group.submit(statements)
        wanted = set(shards)
        return [lease for lease in await self.shard_leases() if lease.shard_id in wanted]

    async def release_shards(self, owner: str) -> None:
        """Drop every lease of `owner` (a graceful stop)."""
        await self._group.submit([(RELEASE_SHARDS, (owner,))])
