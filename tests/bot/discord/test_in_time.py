"""`replies.in_time`: work slower than `DEFER_AFTER` has its interaction deferred first
(Discord's window is 3 s), and its answer goes only after the deferral; fast work is
answered directly. A slash command that comes while the loop runs late is deferred at once
and its work waits at the loop-pressure gate; a click never waits there."""

from __future__ import annotations

import asyncio
import time
from typing import Any, cast

import discord
import pytest

from bot.discord import replies
from bot.discord.loop_pressure import LoopPressure
from bot.discord.replies import PRIVATE_DEFERRAL, in_time


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


class _Client:
    def __init__(self, pressure: LoopPressure) -> None:
        self.pressure = pressure


class _Interaction:
    id = 1

    def __init__(
        self,
        kind: discord.InteractionType,
        defer_seconds: float = 0.0,
        client: _Client | None = None,
    ) -> None:
        self.client = client
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


async def _late_gate() -> LoopPressure:
    """A started gate whose loop was just late (blocked past its threshold)."""
    pressure = LoopPressure(period=0.01, late=0.02)
    pressure.start()
    asyncio.get_running_loop().call_soon(time.sleep, 0.08)
    while pressure.lag <= pressure.late:
        await asyncio.sleep(0.001)
    return pressure


async def _started(interaction: _Interaction) -> int:
    interaction.log.append("work started")
    return 7


@pytest.mark.parametrize("public", [True, False])
async def test_a_command_while_the_loop_is_late_is_deferred_at_once_and_waits(
    public: bool,
) -> None:
    pressure = await _late_gate()
    try:
        interaction = _Interaction(
            discord.InteractionType.application_command, client=_Client(pressure)
        )
        answering = asyncio.ensure_future(
            in_time(cast(discord.Interaction, interaction), _started(interaction), public=public)
        )
        while "deferred" not in interaction.log:
            await asyncio.sleep(0)
        # Deferred with the visibility its answer will have; the work waits at the gate.
        assert interaction.response.deferred == {"ephemeral": not public, "thinking": True}
        assert interaction.extras.get(PRIVATE_DEFERRAL, False) is not public
        assert pressure.work_waiting() == 1 and "work started" not in interaction.log
        assert await asyncio.wait_for(answering, 2) == 7  # let go once the loop keeps time
        assert interaction.log == ["defer sent", "deferred", "work started"]
        assert pressure.work_held == 1
    finally:
        pressure.stop()


async def test_a_click_while_the_loop_is_late_is_answered_without_waiting() -> None:
    pressure = await _late_gate()
    try:
        interaction = _Interaction(discord.InteractionType.component, client=_Client(pressure))
        answering = in_time(cast(discord.Interaction, interaction), _started(interaction))
        with pytest.raises(StopIteration) as done:  # on its first step: nothing held it
            answering.send(None)
        assert done.value.value == 7 and interaction.log == ["work started"]
        assert interaction.response.deferred is None and pressure.work_held == 0
    finally:
        pressure.stop()
