"""Browser-link generations (migration 014), on SQLite and on a real PostgreSQL: revoking
raises a member's generation durably, and a link made before is refused from then on."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.web.identity import WebAuthError
from bot.web.links import LinkAuthenticator, LinkSigner
from storage import open_storage
from storage.backend import AnyStorage, make_storage
from storage.base import SeatRecord
from storage.transfer import copy_sqlite_to_postgres


async def test_revoking_raises_the_generation_durably(target: str, store: AnyStorage) -> None:
    assert await store.link_generation("1001") == 0
    assert await store.revoke_links("1001") == 1
    assert await store.revoke_links("1001") == 2
    assert await store.link_generation("2002") == 0  # one member's revocation is theirs only
    await store.close()
    again = make_storage(target)
    await again.open()
    try:
        assert await again.link_generation("1001") == 2
    finally:
        await again.close()
    await store.open()  # the fixture closes it


async def test_a_revoked_link_is_refused_through_storage(store: AnyStorage) -> None:
    signer = LinkSigner("secret")
    auth = LinkAuthenticator(signer, store.link_generation, {"77": 3}.get)

    def made(generation: int) -> str:
        return signer.make(
            place="77",
            table_id=3,
            player_id="1001",
            name="Ada",
            locale=None,
            generation=generation,
        )

    before = made(await store.link_generation("1001"))
    assert (await auth.check(before)).player_id == "1001"
    await store.revoke_links("1001")
    with pytest.raises(WebAuthError) as refused:
        await auth.check(before)
    assert refused.value.code == "revoked"
    after = made(await store.link_generation("1001"))
    assert (await auth.check(after)).generation == 1


async def _live(store: AnyStorage, place: str) -> int | None:
    record = await store.table_at(place)
    return None if record is None else record.id


async def test_a_stopped_tables_links_are_refused_through_storage(store: AnyStorage) -> None:
    """A link names its table: once that table is stopped (and another opened at its
    place) the stored tables refuse it, whatever its member's generation."""
    seats = [SeatRecord(0, "1001", "Ada", "greedy"), SeatRecord(1, None, "AI 2", "greedy")]
    table = await store.create_table(
        guild="g", place="77", game="duel", settings={}, options={}, seats=seats, now=1.0
    )
    signer = LinkSigner("secret")
    token = signer.make(
        place="77", table_id=table.id, player_id="1001", name="Ada", locale=None, generation=0
    )
    places: dict[str, int | None] = {"77": await _live(store, "77")}
    auth = LinkAuthenticator(signer, store.link_generation, places.get)
    assert (await auth.check(token)).table_id == table.id
    await store.set_status(table.id, "stopped")
    places["77"] = await _live(store, "77")
    with pytest.raises(WebAuthError) as refused:
        await auth.check(token)
    assert refused.value.code == "other_table"
    again = await store.create_table(
        guild="g", place="77", game="duel", settings={}, options={}, seats=seats, now=2.0
    )
    places["77"] = await _live(store, "77")
    assert places["77"] == again.id != table.id
    with pytest.raises(WebAuthError) as refused:
        await auth.check(token)
    assert refused.value.code == "other_table"


async def test_migrate_db_keeps_revocations(tmp_path: Path, pg_url: str) -> None:
    """A link revoked on SQLite stays revoked after `deucebot migrate-db` to PostgreSQL."""
    source = tmp_path / "old.sqlite3"
    lite = await open_storage(str(source))
    await lite.revoke_links("1001")
    await lite.revoke_links("1001")
    await lite.close()
    await copy_sqlite_to_postgres(str(source), pg_url)
    copied = await open_storage(pg_url)
    try:
        assert await copied.link_generation("1001") == 2
        assert await copied.revoke_links("1001") == 3
    finally:
        await copied.close()
