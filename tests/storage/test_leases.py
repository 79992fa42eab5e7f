"""Shard leases on both backends: a claim takes free, expired, own and proven-dead leases
only; two processes claiming at once get one winner per shard."""

from __future__ import annotations

import asyncio

from storage.backend import AnyStorage, make_storage
from storage.leases import ShardLease

NOW = 1_800_000_000.0


async def test_a_claim_takes_free_shards_and_leaves_a_live_owners(store: AnyStorage) -> None:
    got = await store.claim_shards(shards=[0, 1], count=4, owner="a", until=NOW + 30, now=NOW)
    assert got == [ShardLease(0, 4, "a", NOW + 30), ShardLease(1, 4, "a", NOW + 30)]
    # b wants shards 1 and 2: it gets 2 only; a keeps 1, unchanged.
    got = await store.claim_shards(shards=[1, 2], count=4, owner="b", until=NOW + 40, now=NOW + 1)
    assert got == [ShardLease(1, 4, "a", NOW + 30), ShardLease(2, 4, "b", NOW + 40)]
    # a renews its own.
    got = await store.claim_shards(shards=[0, 1], count=4, owner="a", until=NOW + 60, now=NOW + 20)
    assert [lease.expires_at for lease in got] == [NOW + 60, NOW + 60]
    assert {lease.owner for lease in await store.shard_leases()} == {"a", "b"}


async def test_an_expired_or_proven_dead_lease_is_taken_over(store: AnyStorage) -> None:
    await store.claim_shards(shards=[0], count=2, owner="old", until=NOW + 30, now=NOW)
    await store.claim_shards(shards=[1], count=2, owner="other", until=NOW + 30, now=NOW)
    # Not expired, not named dead: refused.
    got = await store.claim_shards(shards=[0], count=2, owner="new", until=NOW + 50, now=NOW + 10)
    assert got[0].owner == "old"
    # Named dead by the claimer: taken at once; naming the wrong owner takes nothing.
    got = await store.claim_shards(
        shards=[0, 1],
        count=2,
        owner="new",
        until=NOW + 50,
        now=NOW + 10,
        take_from={0: "old", 1: "someone-else"},
    )
    assert [(lease.owner, lease.expires_at) for lease in got] == [
        ("new", NOW + 50),
        ("other", NOW + 30),
    ]
    # Expired: taken.
    got = await store.claim_shards(shards=[1], count=2, owner="new", until=NOW + 90, now=NOW + 31)
    assert got == [ShardLease(1, 2, "new", NOW + 90)]
    await store.release_shards("new")
    assert await store.shard_leases() == []


async def test_two_claims_at_once_give_each_shard_one_owner(target: str) -> None:
    first, second = make_storage(target), make_storage(target)
    await first.open()
    try:
        if target.startswith("postgresql://"):
            await second.open()
            others: list[AnyStorage] = [first, second]
        else:
            others = [first]  # SQLite: one process per file (its lock); writes are serial
        claims = await asyncio.gather(
            *(
                s.claim_shards(shards=[0, 1, 2], count=3, owner=f"p{i}", until=NOW + 30, now=NOW)
                for i, s in enumerate(others * 2)
            )
        )
        owners = {lease.shard_id: lease.owner for lease in await first.shard_leases()}
        assert len(owners) == 3
        for claim in claims:  # every claimer sees the same single owner per shard
            assert {lease.shard_id: lease.owner for lease in claim} == owners
    finally:
        await first.close()
        if target.startswith("postgresql://"):
            await second.close()
