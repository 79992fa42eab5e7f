"""A 429 storm of the stand-in refuses as Discord's rate limits do (`Via` set, `retry_after`
saying when the limit lifts), so discord.py waits and tries again, an interaction's answer
included, instead of reading a Cloudflare ban and giving up (the cause of a flaky health
test: an answer refused in the storm was left at "thinking...")."""

from __future__ import annotations

import asyncio
import time

import aiohttp

from tests.e2e.conftest import running_standin

AUTH = {"Authorization": "Bot standin-token"}


async def test_a_storms_429_says_when_it_ends_as_discords_do() -> None:
    async with running_standin() as fake, aiohttp.ClientSession() as http:
        url = f"{fake.api_base}/channels/{fake.channel_id}/messages"
        fake.storm(1.0, 429)
        async with http.post(url, json={"content": "board"}, headers=AUTH) as answer:
            told = time.monotonic()
            assert answer.status == 429
            assert answer.headers.get("Via")  # discord.py retries only a 429 with one
            waited = float((await answer.json())["retry_after"])
        assert told + waited >= fake.storm_until
        assert int(answer.headers["Retry-After"]) >= waited
        await asyncio.sleep(waited)
        async with http.post(url, json={"content": "board"}, headers=AUTH) as answer:
            assert answer.status == 200
        assert fake.storm_refused == 1
