"""The stand-in's `wait_for`: a predicate that fails an assertion because the bot has not
sent a message yet waits for it, instead of ending the test on a race."""

from __future__ import annotations

import asyncio

import pytest

from deucebot_dev.discord_standin import FakeDiscord


async def test_a_failed_assertion_is_not_true_yet() -> None:
    fake = FakeDiscord()
    posted: list[str] = []

    def newest() -> str:
        assert posted, "nothing was posted"
        return posted[-1]

    async def post_later() -> None:
        await asyncio.sleep(0.05)
        posted.append("board")
        fake.changed.set()

    poster = asyncio.create_task(post_later())
    assert await fake.wait_for(newest, 2) == "board"
    await poster


async def test_a_timeout_names_the_last_failed_assertion() -> None:
    def never() -> bool:
        raise AssertionError("no board was posted")

    with pytest.raises(TimeoutError) as raised:
        await FakeDiscord().wait_for(never, 0.3)
    assert isinstance(raised.value.__cause__, AssertionError)
    assert "no board was posted" in str(raised.value.__cause__)


async def test_any_other_error_ends_the_wait_at_once() -> None:
    def broken() -> bool:
        raise KeyError("seat")

    with pytest.raises(KeyError):  # not waited on until the timeout
        await FakeDiscord().wait_for(broken, 5)
