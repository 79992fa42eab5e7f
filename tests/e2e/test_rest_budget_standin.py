"""Discord's global limit against discord.py's own HTTP client: without the bot's budget a
burst loses messages; with it, nothing is refused and everything arrives."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import discord
import pytest
from discord.http import HTTPClient, Route, handle_message_parameters

from bot.discord.rest_budget import RequestBudget, budget_trace
from deucebot_dev.discord_standin import FakeDiscord

BURST = 150
"""Messages sent at once, over several channels (so no channel bucket is the limit)."""


@pytest.fixture
async def limited() -> AsyncIterator[FakeDiscord]:
    """A stand-in with many channels and the real limits on."""
    fake = FakeDiscord(channels=BURST // 5)
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@contextlib.asynccontextmanager
async def client_for(
    fake: FakeDiscord, budget: RequestBudget | None = None
) -> AsyncIterator[HTTPClient]:
    """discord.py's HTTP client, logged in to the stand-in (metered by `budget` if given)."""
    previous = Route.BASE
    Route.BASE = fake.api_base
    trace = None if budget is None else budget_trace(budget)
    http = HTTPClient(asyncio.get_running_loop(), http_trace=trace)
    try:
        await http.static_login("standin-token")
        yield http
    finally:
        await http.close()
        Route.BASE = previous


async def burst(fake: FakeDiscord, http: HTTPClient) -> list[BaseException | None]:
    """Send BURST messages at once, five per channel; what each send ended with."""

    async def one(i: int) -> None:
        channel = fake.channel_ids[i % len(fake.channel_ids)]
        with handle_message_parameters(content=f"message {i}") as params:
            await http.send_message(channel, params=params)

    results = await asyncio.gather(*(one(i) for i in range(BURST)), return_exceptions=True)
    return [r if isinstance(r, BaseException) else None for r in results]


async def test_without_a_budget_a_burst_draws_global_429s(limited: FakeDiscord) -> None:
    async with client_for(limited) as http:
        outcomes = await burst(limited, http)
    global_refusals = [r for r in limited.limits.refused if r[2]]
    assert global_refusals, "the stand-in must refuse a burst over the global limit"
    lost = [o for o in outcomes if isinstance(o, discord.HTTPException)]
    delivered = sum(1 for m in limited.messages.values() if m.content.startswith("message "))
    assert delivered + len(lost) == BURST


async def test_with_the_budget_a_burst_meets_no_429_and_arrives_whole(
    limited: FakeDiscord,
) -> None:
    budget = RequestBudget()
    async with client_for(limited, budget) as http:
        outcomes = await burst(limited, http)
    assert outcomes == [None] * BURST
    assert limited.limits.refused == []
    delivered = sorted(
        int(m.content.split()[1])
        for m in limited.messages.values()
        if m.content.startswith("message ")
    )
    assert delivered == list(range(BURST))
    assert budget.stats.queued > 0  # the budget, not luck, kept it under the limit
