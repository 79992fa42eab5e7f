"""`replies.in_time`: work slower than `DEFER_AFTER` has its interaction deferred first
(Discord's window is 3 s), and its answer goes only after the deferral; fast work is
answered directly."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import discord
import pytest

from bot.discord import replies
from bot.discord.replies import in_time


class _Response:
    def __init__(self, log: list[str], defer_seconds: float) -> None:
        self.log = log
        self.defer_seconds = defer_seconds
        self.deferred: dict[str, Any] | None = None

    def is_done(self) -> bool:
        return self.deferred is not None

    async def defer(self, **kwargs: Any) -> None:
        self.log.append("defer sent")
        await asyncio.sleep(self.defer_seconds)
        self.deferred = kwargs
        self.log.append("deferred")


class _Interaction:
    id = 1

    def __init__(self, kind: discord.InteractionType, defer_seconds: float = 0.0) -> None:
        self.log: list[str] = []
        self.type = kind
        self.extras: dict[str, Any] = {}
        self.response = _Response(self.log, defer_seconds)


async def _work(interaction: _Interaction, seconds: float) -> int:
    await asyncio.sleep(seconds)
    interaction.log.append("work done")
    return 7


@pytest.fixture(autouse=True)
def _short_window(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replies, "DEFER_AFTER", 0.05)


async def test_fast_work_is_answered_without_a_deferral() -> None:
    interaction = _Interaction(discord.InteractionType.component)
    got = await in_time(cast(discord.Interaction, interaction), _work(interaction, 0.0))
    assert got == 7 and interaction.log == ["work done"]
    await asyncio.sleep(0.1)  # the deferral's timer is gone with the work
    assert interaction.response.deferred is None


async def test_slow_work_is_deferred_inside_the_window_then_answered() -> None:
    interaction = _Interaction(discord.InteractionType.component)
    got = await in_time(cast(discord.Interaction, interaction), _work(interaction, 0.3))
    assert got == 7
    assert interaction.log == ["defer sent", "deferred", "work done"]
    assert interaction.response.deferred == {}  # a click defers as an update


async def test_the_answer_waits_for_a_deferral_still_on_its_way() -> None:
    """The work ends while Discord is still taking the deferral: the caller gets the
    result only once the deferral is through, so its answer is a follow-up, not a second
    response."""
    interaction = _Interaction(discord.InteractionType.application_command, 0.2)
    got = await in_time(
        cast(discord.Interaction, interaction), _work(interaction, 0.1), public=True
    )
    assert got == 7 and interaction.response.is_done()
    assert interaction.log == ["defer sent", "work done", "deferred"]
    assert interaction.response.deferred == {"ephemeral": False, "thinking": True}


async def test_work_that_fails_after_a_deferral_still_raises_its_error() -> None:
    interaction = _Interaction(discord.InteractionType.component)

    async def failing() -> int:
        await asyncio.sleep(0.2)
        raise ValueError("refused")

    with pytest.raises(ValueError, match="refused"):
        await in_time(cast(discord.Interaction, interaction), failing())
    assert interaction.log == ["defer sent", "deferred"]


async def test_work_is_awaited_in_place_not_handed_to_a_task() -> None:
    """Work that never waits is answered on in_time's first step: no task of its own, so
    a busy loop costs the answer no extra turn."""
    interaction = _Interaction(discord.InteractionType.component)
    answering = in_time(cast(discord.Interaction, interaction), _work(interaction, 0))
    # asyncio.sleep(0) yields once: the one suspension is the work's own.
    assert answering.send(None) is None
    with pytest.raises(StopIteration) as done:
        answering.send(None)
    assert done.value.value == 7 and interaction.log == ["work done"]
