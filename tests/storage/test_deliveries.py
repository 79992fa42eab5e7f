"""Delivery records and what was said once survive a reopen (migration 005)."""

from __future__ import annotations

from pathlib import Path

from storage.deliveries import SqliteDeliveries
from storage.sqlite import SqliteStorage


async def _match(store: SqliteStorage) -> int:
    table = await store.create_table(
        guild="g", place="p", game="bigtwo", settings={}, options={}, seats=[], now=0.0
    )
    match = await store.start_match(
        table_id=table.id,
        number=1,
        seed=1,
        config={},
        first_seq=0,
        players=[],
        seats=[],
        deals=[],
        chips=[],
        deadline=None,
        deadline_turn=None,
        now=0.0,
    )
    return match.id


async def test_delivered_effects_are_kept_in_order_once_across_a_reopen(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    async with SqliteStorage(str(db)) as store:
        match_id = await _match(store)
        records = SqliteDeliveries(store)
        await records.mark_delivered(match_id, "board:1", 0, 111)
        await records.mark_delivered(match_id, "result:1", 9, 222)
        await records.mark_delivered(match_id, "board:1", 12, 333)  # again: the first stays
        await records.remember_said("42", "dm_closed", True)
        await records.remember_said("43", "dm_closed", True)
        await records.remember_said("43", "dm_closed", False)
    async with SqliteStorage(str(db)) as store:
        records = SqliteDeliveries(store)
        found = await records.delivered(match_id)
        assert [(r.effect, r.upto, r.message_id) for r in found] == [
            ("board:1", 0, 111),
            ("result:1", 9, 222),
        ]
        assert await records.delivered(match_id + 1) == []
        assert await records.said("42", "dm_closed")
        assert not await records.said("43", "dm_closed")
        assert not await records.said("42", "other")
