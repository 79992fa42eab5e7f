"""Sharding in the runtime: which guilds a process drives, and the database leases that
keep one process per shard (`ShardLeaseKeeper`) on a real SQLite file."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.runtime import NullFront, TableManager
from bot.runtime.shard_lease import ShardLeaseKeeper, ShardsTaken, proven_dead
from bot.runtime.shards import Shards, shard_of
from storage import SqliteStorage
from storage.leases import ShardLease


def guild_on(shard: int, count: int, n: int = 0) -> str:
    """A Discord-like guild id on `shard` of `count`."""
    return str((((1 << 20) * count + n * count + shard) << 22) | 12345)


def test_a_guild_belongs_to_the_shard_discord_puts_it_on() -> None:
    assert shard_of("81384788765712384", 4) == (81384788765712384 >> 22) % 4
    assert [shard_of(guild_on(s, 3), 3) for s in range(3)] == [0, 1, 2]
    assert shard_of("terminal", 3) == 0  # not a guild: shard 0, as DMs
    mine = Shards((1, 2), 3)
    assert [mine.owns(guild_on(s, 3)) for s in range(3)] == [False, True, True]
    with pytest.raises(ValueError, match="do not fit"):
        Shards((3,), 3)


async def test_restore_takes_only_the_tables_of_this_process_s_shards(tmp_path: Path) -> None:
    path = str(tmp_path / "db.sqlite3")
    async with SqliteStorage(path) as storage:
        manager = TableManager(storage, NullFront())
        for shard in (0, 1, 0, 1):
            guild = guild_on(shard, 2, n=len(manager.tables))
            await manager.create(guild=guild, place=f"chan-{len(manager.tables)}", game="bigtwo")
        await manager.close()
    async with SqliteStorage(path) as storage:
        one = TableManager(storage, NullFront(), shards=Shards((1,), 2))
        restored = await one.restore()
        assert sorted(t.place for t in restored) == ["chan-1", "chan-3"]
        await one.close()


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[SqliteStorage]:
    store = SqliteStorage(str(tmp_path / "db.sqlite3"))
    await store.open()
    yield store
    await store.close()


async def test_a_second_keeper_of_a_live_shard_is_refused_within_a_renewal(
    storage: SqliteStorage,
) -> None:
    first = ShardLeaseKeeper(storage, Shards((0, 1), 2), seconds=3, owner="far/1/a")
    await first.acquire()
    first.keep(lambda lost: None)
    second = ShardLeaseKeeper(storage, Shards((1,), 2), seconds=3, owner="far/2/b")
    loop = asyncio.get_running_loop()
    started = loop.time()
    with pytest.raises(ShardsTaken, match=r"shard 1 of 2 is already run by far/1/a"):
        await second.acquire()
    assert loop.time() - started < 3  # seen renewed, not waited out
    assert {lease.owner for lease in await storage.shard_leases()} == {"far/1/a"}
    await first.release()
    assert await storage.shard_leases() == []
    await second.acquire()  # free now: taken at once
    assert [lease.owner for lease in await storage.shard_leases()] == ["far/2/b"]


async def test_a_lease_nobody_renews_is_taken_once_it_expires(storage: SqliteStorage) -> None:
    crashed = ShardLeaseKeeper(storage, Shards((0,), 1), seconds=2, owner="elsewhere/7/x")
    await crashed.acquire()  # and never renewed: its process died on another host
    heir = ShardLeaseKeeper(storage, Shards((0,), 1), seconds=2, owner="here/8/y")
    loop = asyncio.get_running_loop()
    started = loop.time()
    await heir.acquire()
    assert 1.0 < loop.time() - started < 4
    assert [lease.owner for lease in await storage.shard_leases()] == ["here/8/y"]


async def test_a_dead_owner_on_this_host_is_replaced_at_once(storage: SqliteStorage) -> None:
    child = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    gone = f"{socket.gethostname()}/{child.stdout.strip()}/old"
    assert proven_dead(gone)
    assert not proven_dead(f"{socket.gethostname()}/{os.getpid()}/me")
    assert not proven_dead(f"another-host/{child.stdout.strip()}/old")
    await ShardLeaseKeeper(storage, Shards((0,), 1), seconds=600, owner=gone).acquire()
    heir = ShardLeaseKeeper(storage, Shards((0,), 1), seconds=600)
    await asyncio.wait_for(heir.acquire(), 2)
    assert [lease.owner for lease in await storage.shard_leases()] == [heir.owner]


async def test_another_shard_count_is_refused(storage: SqliteStorage) -> None:
    await ShardLeaseKeeper(storage, Shards((0,), 2), seconds=60, owner="a/1/a").acquire()
    other = ShardLeaseKeeper(storage, Shards((1,), 3), seconds=60, owner="b/2/b")
    with pytest.raises(ShardsTaken, match="DEUCEBOT_SHARD_COUNT=3: every process needs the same"):
        await other.acquire()


async def test_a_keeper_whose_shard_was_taken_is_told_and_stops_renewing(
    storage: SqliteStorage,
) -> None:
    slow = ShardLeaseKeeper(storage, Shards((0,), 1), seconds=3, owner="a/1/a")
    await slow.acquire()
    lost: list[list[ShardLease]] = []
    slow.keep(lambda leases: lost.append(list(leases)))
    # Another process takes it (as if `slow` had been stalled past its lease).
    await storage.claim_shards(
        shards=[0], count=1, owner="b/2/b", until=1e12, now=0, take_from={0: "a/1/a"}
    )
    async with asyncio.timeout(3):
        while not lost:
            await asyncio.sleep(0.05)
    assert lost == [[ShardLease(0, 1, "b/2/b", 1e12)]] and not slow.held
    await slow.release()  # frees nothing of the new owner's
    assert [lease.owner for lease in await storage.shard_leases()] == ["b/2/b"]
