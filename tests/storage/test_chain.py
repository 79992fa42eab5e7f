"""The hash-chained log on both backends (SQLite and PostgreSQL, see conftest.py): every
row the storage writes is chained per match, commits that share a group-commit batch
chain one after the other, a reopened storage chains on from the stored head, and a row
changed, removed or inserted outside the program is named by `verify_chain`.

Tampering needs the append-only triggers out of the way, as an outsider with the file
or a superuser would do it: on SQLite they are dropped; on PostgreSQL the tampering
connection (the test server's superuser) sets `session_replication_role = replica`,
which skips ordinary triggers for that session only."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

import asyncpg
import pytest

from storage import ChipEntry, DealRecord, PenaltyEntry, is_postgres_url
from storage.backend import AnyStorage, make_storage
from storage.chain import ROW_QUERIES, Kind, rechain
from storage.postgres import pg_sql

from .test_storage import NOW, commit, new_match


def chip(match_id: int, seat: int, delta: int) -> ChipEntry:
    """A chip-ledger row of `match_id`."""
    return ChipEntry("g", "holdem", match_id, 1, seat, f"p{seat}", False, delta, "pot", NOW)


def penalty(match_id: int, seat: int, points: int) -> PenaltyEntry:
    """A penalty-ledger row of `match_id`."""
    return PenaltyEntry("g", "bigtwo", match_id, 1, seat, f"p{seat}", False, points, NOW)


async def raw(target: str, *statements: str) -> list[Any]:
    """Run `statements` outside the program, triggers off; the last one's rows."""
    rows: list[Any] = []
    if is_postgres_url(target):
        conn = await asyncpg.connect(target)
        try:
            await conn.execute("SET session_replication_role = replica")
            for statement in statements:
                rows = list(await conn.fetch(statement))
        finally:
            await conn.close()
        return rows
    with sqlite3.connect(target) as db:
        for (trigger,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'"):
            db.execute(f"DROP TRIGGER {trigger}")
        for statement in statements:
            rows = db.execute(statement).fetchall()
    return rows


async def played(store: AnyStorage, place: str = "p") -> tuple[int, int]:
    """A match with rows of every kind: a first deal and a buy-in at its start, then six
    actions (two of them in one batch) writing a deal, chips and penalties."""
    table_id, match_id = await new_match(store, place, [("a", False), ("b", False)])
    await store.commit_action(
        commit(table_id, match_id, 0, deals=[DealRecord(match_id, 1, 0, "c1", 0)])
    )
    await store.commit_action(commit(table_id, match_id, 1, chips=[chip(match_id, 0, 5)]))
    await asyncio.gather(  # submitted together: one batch, chained in order
        store.commit_action(commit(table_id, match_id, 2, chips=[chip(match_id, 1, -5)])),
        store.commit_action(
            commit(
                table_id, match_id, 3, penalties=[penalty(match_id, 0, 3), penalty(match_id, 1, 0)]
            )
        ),
    )
    await store.commit_action(
        commit(table_id, match_id, 4, deals=[DealRecord(match_id, 2, 1, "c2", 5)])
    )
    await store.commit_action(commit(table_id, match_id, 5))
    return table_id, match_id


async def stored_chain(target: str, match_id: int) -> tuple[str | None, str | None]:
    """The stored head and the head of the chain recomputed from the stored rows."""
    found: list[tuple[Kind, Any]] = []
    for kind, sql in ROW_QUERIES.items():
        found += [(kind, tuple(r)) for r in await raw(target, _sql(target, sql, match_id))]
    head = await raw(target, f"SELECT head_hash FROM matches WHERE id = {match_id}")
    return head[0][0], rechain(match_id, found)[1]


def _sql(target: str, sql: str, match_id: int) -> str:
    """A `?` query with its one parameter written in (test values only)."""
    sql = sql.replace("?", str(match_id))
    return pg_sql(sql) if is_postgres_url(target) else sql


async def test_every_row_is_chained_and_the_chain_verifies(store: AnyStorage, target: str) -> None:
    _, match_id = await played(store)
    assert await store.verify_chain() == []
    for table in ("actions", "deals", "chip_ledger", "penalty_ledger"):
        assert await raw(target, f"SELECT count(*) FROM {table} WHERE hash IS NULL") == [(0,)]
    head, recomputed = await stored_chain(target, match_id)
    assert head is not None and head == recomputed
    assert await raw(target, "SELECT seed FROM match_secrets") == [(str(2**70),)]


async def test_a_reopened_storage_chains_on_from_the_stored_head(target: str) -> None:
    store = make_storage(target)
    await store.open()
    table_id, match_id = await played(store)
    await store.close()
    store = make_storage(target)
    await store.open()
    try:
        await store.commit_action(commit(table_id, match_id, 6, chips=[chip(match_id, 0, 1)]))
        assert await store.verify_chain([match_id]) == []
    finally:
        await store.close()
    head, recomputed = await stored_chain(target, match_id)
    assert head == recomputed


TAMPERING = {
    "changed action": (
        "UPDATE actions SET action = 'play 3D' WHERE seq = 2",
        "action seq 2: does not match its hash",
    ),
    "changed chip": (
        "UPDATE chip_ledger SET delta = 50 WHERE delta = 5",
        "chip_ledger row 3: does not match its hash",
    ),
    "removed penalty": (
        "DELETE FROM penalty_ledger WHERE penalty = 3",
        "penalty_ledger row 4: does not match its hash",
    ),
    "removed last action": (
        "DELETE FROM actions WHERE seq = 5",
        "the chain head: the last rows of the match were removed",
    ),
    "inserted action": (
        "INSERT INTO actions (match_id, seq, deal, seat, action, actor, at)"
        " VALUES (2, 9, 1, 0, 'pass', 'human', 0)",
        "action seq 9: has no hash: inserted outside the program",
    ),
    "changed deal commitment": (
        "UPDATE deals SET commitment = 'forged' WHERE deal = 2",
        "deal 2: does not match its hash",
    ),
}


@pytest.mark.parametrize("case", list(TAMPERING))
async def test_tampering_is_named_at_its_first_bad_row(
    store: AnyStorage, target: str, case: str
) -> None:
    _, intact = await played(store)  # a second match with the same rows stays intact
    table_id, match_id = await played(store, "q")
    assert match_id == 2
    edit, message = TAMPERING[case]
    await raw(target, edit.replace("WHERE ", f"WHERE match_id = {match_id} AND ", 1))
    problems = await store.verify_chain()
    assert len(problems) == 1, problems
    assert str(problems[0]).startswith(f"match {match_id} (table {table_id}): {message}")
    assert await store.verify_chain([intact]) == []
