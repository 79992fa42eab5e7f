"""Members' preferences (the card deck of their private pictures) on both backends, kept
across a reopen (migration 008 and its PostgreSQL twin)."""

from __future__ import annotations

from storage.backend import make_storage
from storage.base import Storage


async def test_a_members_choice_is_remembered_changed_and_kept_across_a_reopen(
    target: str,
) -> None:
    store: Storage = make_storage(target)
    await store.open()
    try:
        assert await store.member_pref("42", "deck") is None
        await store.set_member_pref("42", "deck", "four")
        await store.set_member_pref("43", "deck", "four")
        await store.set_member_pref("43", "deck", "two")  # changed: the last choice counts
        assert await store.member_pref("42", "deck") == "four"
        assert await store.member_pref("42", "other") is None
    finally:
        await store.close()
    again: Storage = make_storage(target)
    await again.open()
    try:
        assert await again.member_pref("42", "deck") == "four"
        assert await again.member_pref("43", "deck") == "two"
        assert await again.member_pref("44", "deck") is None
    finally:
        await again.close()
