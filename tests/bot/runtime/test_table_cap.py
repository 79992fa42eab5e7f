"""The per-server cap on live tables (`RuntimeConfig.max_tables_per_guild`)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.runtime import TableError

OPTIONS = {"ai_policy": "greedy"}


async def test_a_server_at_its_cap_cannot_open_another_table(env: Any) -> None:
    manager = await env.reopen(max_tables_per_guild=2)
    for place in ("a", "b"):
        await manager.create(guild="g1", place=place, game="bigtwo", options=OPTIONS)
    before = env.counts()
    with pytest.raises(TableError) as caught:
        await manager.create(guild="g1", place="c", game="bigtwo", options=OPTIONS)
    assert caught.value.code == "too_many_tables" and caught.value.params["limit"] == 2
    assert env.counts() == before and manager.find("c") is None
    # Other servers have their own count, and a stopped table frees a place in the count.
    await manager.create(guild="g2", place="d", game="bigtwo", options=OPTIONS)
    await manager.stop("a")
    await manager.create(guild="g1", place="c", game="bigtwo", options=OPTIONS)


async def test_concurrent_creates_never_exceed_the_cap(env: Any) -> None:
    manager = await env.reopen(max_tables_per_guild=3)
    await manager.create(guild="g1", place="p0", game="bigtwo", options=OPTIONS)
    results = await asyncio.gather(
        *(
            manager.create(guild="g1", place=f"p{i}", game="bigtwo", options=OPTIONS)
            for i in range(1, 6)
        ),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, TableError)]
    assert len(refused) == 3 and {r.code for r in refused} == {"too_many_tables"}
    assert env.rows("SELECT count(*) FROM tables WHERE guild = 'g1'") == [(3,)]


async def test_no_cap_by_default(env: Any) -> None:
    for i in range(30):
        await env.manager.create(guild="g1", place=f"p{i}", game="bigtwo", options=OPTIONS)
    assert len(env.manager.tables) == 30


async def test_creates_do_not_wait_for_each_other(env: Any) -> None:
    """Each create writes to the database; a slow write must not hold the others (they
    once queued behind one lock, 30 s at 500 tables opening at once)."""
    manager = await env.reopen(max_tables_per_guild=2)
    storage = manager.storage
    written = storage.create_table
    release = asyncio.Event()
    entered: list[str] = []

    async def slow_create_table(**kwargs: Any) -> Any:
        entered.append(kwargs["place"])
        if kwargs["place"] == "slow":
            await release.wait()
        return await written(**kwargs)

    storage.create_table = slow_create_table
    slow = asyncio.ensure_future(
        manager.create(guild="g1", place="slow", game="bigtwo", options=OPTIONS)
    )
    await asyncio.sleep(0)
    fast = await asyncio.wait_for(
        manager.create(guild="g2", place="fast", game="bigtwo", options=OPTIONS), 5
    )
    assert fast.place == "fast" and not slow.done()
    # Meanwhile the table being created counts: in its place and against its guild's cap.
    with pytest.raises(TableError) as twice:
        await manager.create(guild="g1", place="slow", game="bigtwo", options=OPTIONS)
    assert twice.value.code == "table_exists"
    await manager.create(guild="g1", place="second", game="bigtwo", options=OPTIONS)
    with pytest.raises(TableError) as capped:
        await manager.create(guild="g1", place="third", game="bigtwo", options=OPTIONS)
    assert capped.value.code == "too_many_tables"
    release.set()
    assert (await slow).place == "slow"
    assert entered == ["slow", "fast", "second"]
    assert env.rows("SELECT count(*) FROM tables WHERE guild = 'g1'") == [(2,)]
