"""Delivery records and what was said once, on both backends, kept across a reopen
(migration 005 and its PostgreSQL twin)."""

from __future__ import annotations

from storage.backend import make_storage
from storage.deliveries import Deliveries
from tests.storage.test_storage import new_match


async def test_delivered_effects_are_kept_once_across_a_reopen(target: str) -> None:
    store = make_storage(target)
    await store.open()
    try:
        _, match_id = await new_match(store, "p", [("a", False), ("b", True)])
        records: Deliveries = store  # both backends implement the protocol
        await records.mark_delivered(match_id, "board:1", 0, 111)
        await records.mark_delivered(match_id, "result:1", 9, 222)
        await records.mark_delivered(match_id, "board:2", 9, 2**62)
        await records.mark_delivered(match_id, "board:1", 12, 333)  # again: the first stays
        await records.remember_said("42", "dm_closed", True)
        await records.remember_said("42", "dm_closed", True)
        await records.remember_said("43", "dm_closed", True)
        await records.remember_said("43", "dm_closed", False)
    finally:
        await store.close()
    store = make_storage(target)
    await store.open()
    try:
        found = await store.delivered(match_id)
        assert sorted((r.effect, r.upto, r.message_id) for r in found) == [
            ("board:1", 0, 111),
            ("board:2", 9, 2**62),
            ("result:1", 9, 222),
        ]
        assert [r.upto for r in found] == sorted(r.upto for r in found)
        assert await store.delivered(match_id + 1) == []
        assert await store.said("42", "dm_closed")
        assert not await store.said("43", "dm_closed")
        assert not await store.said("42", "other")
    finally:
        await store.close()


async def test_an_intent_is_kept_until_its_delivery_replaces_it(target: str) -> None:
    store = make_storage(target)
    await store.open()
    try:
        _, match_id = await new_match(store, "p", [("a", False), ("b", True)])
        records: Deliveries = store
        await records.mark_delivered(match_id, "board:1", 0, 111)
        await records.intend(match_id, "board:1", 0, 5)  # delivered already: nothing
        await records.intend(match_id, "result:1", 9, 111)
        await records.intend(match_id, "result:1", 9, 999)  # again: the first stays
        await records.intend(match_id, "board:2", 9, None)
    finally:
        await store.close()
    store = make_storage(target)
    await store.open()
    try:
        found = await store.intents(match_id)
        assert [(i.effect, i.after) for i in found] == [("result:1", 111), ("board:2", None)]
        assert [r.effect for r in await store.delivered(match_id)] == ["board:1"]
        await store.mark_delivered(match_id, "result:1", 9, 222)
        await store.mark_delivered(match_id, "result:1", 9, 333)  # the first delivery stays
        assert [i.effect for i in await store.intents(match_id)] == ["board:2"]
        delivered = {r.effect: r.message_id for r in await store.delivered(match_id)}
        assert delivered == {"board:1": 111, "result:1": 222}
    finally:
        await store.close()
