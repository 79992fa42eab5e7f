"""Browser-link generations (migration 014), on SQLite and on a real PostgreSQL: revoking
raises a member's generation durably, and a link made before is refused from then on."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.web.identity import WebAuthError
from bot.web.links import LinkAuthenticator, LinkSigner
from storage import open_storage
from storage.backend import AnyStorage, make_storage
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
