"""The bot's own REST budget: a sliding window below Discord's global limit, most urgent first."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

import pytest

from bot.discord.rest_budget import Priority, RequestBudget, classify, install, priority


def test_routes_are_classed_and_interaction_routes_are_exempt() -> None:
    assert classify("POST", "/interactions/{interaction_id}/{interaction_token}/callback") is None
    assert classify("POST", "/webhooks/{webhook_id}/{webhook_token}") is None
    assert classify("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original") is None
    assert classify("POST", "/channels/{channel_id}/messages") is Priority.POST
    assert classify("PATCH", "/channels/{channel_id}/messages/{message_id}") is Priority.EDIT
    assert classify("POST", "/users/@me/channels") is Priority.DM


async def test_requests_within_the_limit_go_at_once() -> None:
    budget = RequestBudget(limit=5, window=10.0)
    async with asyncio.timeout(1):
        for _ in range(5):
            await budget.acquire(Priority.POST)
    assert budget.stats.sent == 5
    assert budget.stats.queued == 0


async def test_no_window_ever_holds_more_than_the_limit() -> None:
    budget = RequestBudget(limit=3, window=0.2)
    released: list[float] = []

    async def one() -> None:
        await budget.acquire(Priority.POST)
        released.append(time.monotonic())

    start = time.monotonic()
    await asyncio.gather(*(one() for _ in range(10)))
    released.sort()
    # 10 requests at 3 per 0.2 s: the last batch cannot start before 3 windows have passed.
    assert released[-1] - start >= 0.6 - 0.01
    for i in range(len(released) - 3):
        assert released[i + 3] - released[i] >= 0.2 - 0.01
    assert budget.stats.sent == 10
    assert budget.stats.queued == 7


async def test_queued_requests_go_most_urgent_first() -> None:
    budget = RequestBudget(limit=1, window=0.05)
    await budget.acquire(Priority.POST)  # the window is now full
    order: list[Priority] = []

    async def one(level: Priority) -> None:
        await budget.acquire(level)
        order.append(level)

    tasks = []
    for level in (Priority.DM, Priority.EDIT, Priority.DM, Priority.POST, Priority.ANSWER):
        tasks.append(asyncio.create_task(one(level)))
        await asyncio.sleep(0)  # arrival order: DM first, ANSWER last
    await asyncio.gather(*tasks)
    assert order == [Priority.ANSWER, Priority.POST, Priority.EDIT, Priority.DM, Priority.DM]


async def test_a_cancelled_waiter_gives_its_slot_up() -> None:
    budget = RequestBudget(limit=1, window=0.1)
    await budget.acquire(Priority.POST)
    gone = asyncio.create_task(budget.acquire(Priority.ANSWER))
    await asyncio.sleep(0)
    stays = asyncio.create_task(budget.acquire(Priority.DM))
    await asyncio.sleep(0)
    gone.cancel()
    async with asyncio.timeout(1):
        await stays
    assert gone.cancelled()
    assert budget.stats.sent == 2
    assert budget.waiting == 0


def test_a_budget_needs_a_positive_limit_and_window() -> None:
    with pytest.raises(ValueError):
        RequestBudget(limit=0)
    with pytest.raises(ValueError):
        RequestBudget(window=0)


@dataclass
class _Route:
    method: str
    path: str


class _Http:
    def __init__(self) -> None:
        self.calls: list[str] = []

    async def request(self, route: _Route, **kwargs: Any) -> str:
        self.calls.append(route.path)
        return route.path


async def test_installed_budget_meters_counted_routes_and_lets_exempt_ones_through() -> None:
    http = _Http()
    budget = RequestBudget(limit=1, window=30.0)
    install(http, budget)
    assert await http.request(_Route("POST", "/channels/{channel_id}/messages")) == (
        "/channels/{channel_id}/messages"
    )
    # The window is full for 30 s: an interaction answer still goes through at once...
    async with asyncio.timeout(1):
        await http.request(_Route("POST", "/interactions/{interaction_id}/{token}/callback"))
    # ...and a counted request waits.
    blocked = asyncio.create_task(http.request(_Route("PATCH", "/channels/{c}/messages/{m}")))
    await asyncio.sleep(0.05)
    assert not blocked.done()
    assert budget.waiting == 1
    blocked.cancel()
    assert budget.stats.sent == 1


async def test_a_marked_priority_wins_over_the_route() -> None:
    http = _Http()
    budget = RequestBudget(limit=1, window=0.05)
    install(http, budget)
    await budget.acquire(Priority.POST)
    order: list[str] = []

    async def send(tag: str, level: Priority | None) -> None:
        if level is None:
            await http.request(_Route("POST", "/channels/{channel_id}/messages"))
        else:
            with priority(level):
                await http.request(_Route("POST", "/channels/{channel_id}/messages"))
        order.append(tag)

    dm = asyncio.create_task(send("dm", Priority.DM))
    await asyncio.sleep(0)
    board = asyncio.create_task(send("board", None))
    await asyncio.sleep(0)
    await asyncio.gather(dm, board)
    assert order == ["board", "dm"]
