"""The bot's own REST budget: a sliding window below Discord's global limit, most urgent first."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.discord.rest_budget import Priority, RequestBudget, classify


def test_routes_are_classed_and_interaction_routes_are_exempt() -> None:
    assert classify("POST", "/interactions/1/tok/callback") is None
    assert classify("POST", "/webhooks/1/tok") is None
    assert classify("PATCH", "/webhooks/1/tok/messages/@original") is None
    assert classify("POST", "/channels/1/messages") is Priority.POST
    assert classify("PATCH", "/channels/1/messages/2") is Priority.EDIT
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
        budget.release()  # answered at once

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
    budget.release()
    order: list[Priority] = []

    async def one(level: Priority) -> None:
        await budget.acquire(level)
        order.append(level)
        budget.release()

    tasks = []
    levels = (
        Priority.DM,
        Priority.EDIT,
        Priority.DM,
        Priority.WAITED,
        Priority.POST,
        Priority.ANSWER,
    )
    for level in levels:
        tasks.append(asyncio.create_task(one(level)))
        await asyncio.sleep(0)  # arrival order: DM first, ANSWER last
    await asyncio.gather(*tasks)
    assert order == [
        Priority.ANSWER,
        Priority.POST,
        Priority.WAITED,
        Priority.EDIT,
        Priority.DM,
        Priority.DM,
    ]


async def test_a_cancelled_waiter_gives_its_slot_up() -> None:
    budget = RequestBudget(limit=1, window=0.1)
    await budget.acquire(Priority.POST)
    budget.release()
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


async def test_a_request_in_flight_holds_its_slot_until_its_answer_has_aged_out() -> None:
    budget = RequestBudget(limit=1, window=0.1)
    await budget.acquire(Priority.POST)
    waiter = asyncio.create_task(budget.acquire(Priority.POST))
    await asyncio.sleep(0.3)  # far past the window: the first is still unanswered
    assert not waiter.done()
    answered = time.monotonic()
    budget.release()
    async with asyncio.timeout(1):
        await waiter
    assert time.monotonic() - answered >= 0.1 - 0.01


async def test_the_front_spaces_board_edits_further_while_requests_queue() -> None:
    from types import SimpleNamespace

    from bot.discord.front import DiscordFront

    budget = RequestBudget(limit=1, window=60.0)
    client = SimpleNamespace(rest_budget=budget)
    front = DiscordFront(client, host=None, edit_interval=1.0)
    person, ai = True, False  # an edit people wait for, or not (`waited_for`)
    assert front._edit_backoff(person) == 1.0
    assert front._edit_backoff(ai) == 1.0  # nothing waits
    await budget.acquire(Priority.POST)  # the window is full: the next ones queue
    waiting = [asyncio.ensure_future(budget.acquire(Priority.EDIT)) for _ in range(60)]
    await asyncio.sleep(0)
    assert budget.waiting == 60
    assert front._edit_backoff(person) == 3.0  # 60: three
    assert front._edit_backoff(ai) == 5.0  # nobody waits: twice more
    waiting += [asyncio.ensure_future(budget.acquire(Priority.DM)) for _ in range(500)]
    await asyncio.sleep(0)
    assert front._edit_backoff(person) == 8.0  # at most eight
    assert front._edit_backoff(ai) == 16.0  # at most sixteen
    for future in waiting:
        future.cancel()
    await asyncio.gather(*waiting, return_exceptions=True)


def test_edits_people_wait_for_a_person_to_act_a_new_trick_or_a_new_street(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from types import SimpleNamespace

    from bot.discord import board_edits

    ai = SimpleNamespace(to_act=0, seats=[SimpleNamespace(ai_plays=True)])
    person = SimpleNamespace(to_act=0, seats=[SimpleNamespace(ai_plays=False)])
    on_table: list[tuple[str, ...]] = [()]
    monkeypatch.setattr(board_edits, "table_cards", lambda shown: on_table[0])
    waited = board_edits.waited_for
    assert waited(person, ("3D",))  # type: ignore[arg-type]  # a person is to act
    on_table[0] = ("5S",)
    assert not waited(ai, ("3D",))  # type: ignore[arg-type]  # a play beats another
    on_table[0] = ()
    assert waited(ai, ("3D",))  # type: ignore[arg-type]  # cleared: a new trick
    on_table[0] = ("2C", "7H", "9D", "KS")
    assert waited(ai, ("2C", "7H", "9D"))  # type: ignore[arg-type]  # the turn card: a street
    assert not waited(ai, ())  # type: ignore[arg-type]  # nothing shown before
