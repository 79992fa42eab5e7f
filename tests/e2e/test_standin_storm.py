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


async def test_a_storm_from_the_first_post_meets_one_however_late_it_comes() -> None:
    async with running_standin() as fake, aiohttp.ClientSession() as http:
        url = f"{fake.api_base}/channels/{fake.channel_id}/messages"
        fake.storm(0.3, 503, from_first=True)
        async with http.get(url, headers=AUTH) as answer:  # a read does not start it
            assert answer.status == 200
        await asyncio.sleep(0.4)  # longer than the storm, which has not begun
        async with http.post(url, json={"content": "board"}, headers=AUTH) as answer:
            assert answer.status == 503  # the first post starts it
        assert fake.storm_until <= time.monotonic() + 0.3
        await asyncio.sleep(max(0.0, fake.storm_until - time.monotonic()))
        async with http.post(url, json={"content": "board"}, headers=AUTH) as answer:
            assert answer.status == 200
        assert fake.storm_refused == 1
