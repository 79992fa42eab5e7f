"""The stand-in honours a message post's `nonce` with `enforce_nonce` as Discord documents
it (the same nonce in the same channel within the window returns the message already
created, and creates none), refuses nonces Discord refuses, and lists a channel's history
as Discord does (newest first, `after` a message, nothing without Read Message History)."""

from __future__ import annotations

from typing import Any

import aiohttp

from deucebot_dev.discord_standin import FakeDiscord
from tests.e2e.conftest import running_standin

AUTH = {"Authorization": "Bot standin-token"}


async def _post(
    http: aiohttp.ClientSession, fake: FakeDiscord, channel: int, body: dict[str, Any]
) -> tuple[int, Any]:
    async with http.post(
        f"{fake.api_base}/channels/{channel}/messages", json=body, headers=AUTH
    ) as answer:
        return answer.status, await answer.json()


async def _history(http: aiohttp.ClientSession, fake: FakeDiscord, query: str) -> list[Any]:
    url = f"{fake.api_base}/channels/{fake.channel_id}/messages?{query}"
    async with http.get(url, headers=AUTH) as answer:
        assert answer.status == 200
        found: list[Any] = await answer.json()
        return found


async def test_an_enforced_nonce_returns_the_message_already_created() -> None:
    async with running_standin(channels=2) as fake, aiohttp.ClientSession() as http:
        first, second = fake.channel_ids
        body = {"content": "board", "nonce": "t1-m1-board:1", "enforce_nonce": True}
        status, made = await _post(http, fake, first, body)
        assert status == 200 and made["nonce"] == "t1-m1-board:1"
        status, again = await _post(http, fake, first, {**body, "content": "other"})
        assert status == 200 and again["id"] == made["id"] and again["content"] == "board"
        assert len(fake.public_messages(first)) == 1 and fake.deduplicated == 1
        # Another channel, or the same nonce not enforced: a new message each time.
        status, elsewhere = await _post(http, fake, second, body)
        assert status == 200 and elsewhere["id"] != made["id"]
        for _ in range(2):
            status, loose = await _post(http, fake, first, {"content": "x", "nonce": "n"})
            assert status == 200 and loose["id"] != made["id"]
        assert len(fake.public_messages(first)) == 3


async def test_after_the_window_the_same_nonce_creates_another_message() -> None:
    async with running_standin() as fake, aiohttp.ClientSession() as http:
        body = {"content": "board", "nonce": "abc", "enforce_nonce": True}
        _, made = await _post(http, fake, fake.channel_id, body)
        fake.nonce_window = 0.0
        _, later = await _post(http, fake, fake.channel_id, body)
        assert later["id"] != made["id"] and len(fake.public_messages()) == 2


async def test_a_nonce_of_a_deleted_message_is_not_found() -> None:
    async with running_standin() as fake, aiohttp.ClientSession() as http:
        body = {"content": "board", "nonce": "gone", "enforce_nonce": True}
        _, made = await _post(http, fake, fake.channel_id, body)
        url = f"{fake.api_base}/channels/{fake.channel_id}/messages/{made['id']}"
        async with http.delete(url, headers=AUTH) as answer:
            assert answer.status == 204
        status, refused = await _post(http, fake, fake.channel_id, body)
        assert status == 404 and refused["code"] == 10008
        assert fake.public_messages() == []


async def test_nonces_discord_refuses_are_refused() -> None:
    async with running_standin() as fake, aiohttp.ClientSession() as http:
        for nonce in ("x" * 26, 1.5, True, ["a"], 2**64):
            status, refused = await _post(
                http, fake, fake.channel_id, {"content": "c", "nonce": nonce}
            )
            assert status == 400 and refused["code"] == 50035, nonce
        assert len(fake.errors) == 5
        fake.errors.clear()
        for nonce in ("x" * 25, 2**62, -5):
            status, _ = await _post(http, fake, fake.channel_id, {"content": "c", "nonce": nonce})
            assert status == 200, nonce
        assert fake.errors == []


async def test_history_lists_newest_first_after_a_message_and_never_a_nonce() -> None:
    async with running_standin() as fake, aiohttp.ClientSession() as http:
        made = []
        for n in range(5):
            body = {"content": f"m{n}", "nonce": f"n{n}", "enforce_nonce": True}
            made.append((await _post(http, fake, fake.channel_id, body))[1]["id"])
        newest = await _history(http, fake, "limit=2")
        assert [m["content"] for m in newest] == ["m4", "m3"]
        after = await _history(http, fake, f"after={made[1]}&limit=2")
        assert [m["content"] for m in after] == ["m3", "m2"]  # the two right after m1
        before = await _history(http, fake, f"before={made[3]}")
        assert [m["content"] for m in before] == ["m2", "m1", "m0"]
        assert all("nonce" not in m for m in newest + after + before)
        fake.history_readable = False
        assert await _history(http, fake, "limit=100") == []
        url = f"{fake.api_base}/channels/{fake.channel_id}/messages?after=1&before=2"
        async with http.get(url, headers=AUTH) as answer:
            assert answer.status == 400
        assert len(fake.errors) == 1
        fake.errors.clear()
