"""The shutdown gate on its own: whom it waits for, and for how long."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any, cast

import discord

from bot.discord.replies import REFUSED
from bot.discord.shutdown_gate import ShutdownGate
from bot.discord.views import DYNAMIC_ITEMS, AmountModal


class _Interaction:
    """What the gate reads and calls of an interaction, recording the answer."""

    id = 1

    def __init__(self, kind: discord.InteractionType = discord.InteractionType.component):
        self.type = kind
        self.extras: dict[str, Any] = {}
        self.answers: list[Any] = []
        self.response = self

    async def autocomplete(self, choices: list[Any]) -> None:
        self.answers.append(("choices", choices))

    def is_done(self) -> bool:
        return bool(self.answers)

    async def send_message(self, **kwargs: Any) -> None:
        self.answers.append(("message", kwargs))


def _gate() -> ShutdownGate:
    return ShutdownGate(lambda interaction: "en")


async def test_the_shutdown_waits_for_each_handler_let_in_and_only_until_it_ends() -> None:
    gate = _gate()
    release = asyncio.Event()
    ended: list[str] = []

    async def handler(name: str) -> None:
        assert await gate.admit(_Interaction())  # type: ignore[arg-type]
        await gate.admit(_Interaction())  # type: ignore[arg-type]  # kept once
        await release.wait()
        ended.append(name)

    tasks = [asyncio.create_task(handler(n)) for n in "ab"]
    await asyncio.sleep(0)
    assert gate.in_flight == 2
    closing = asyncio.create_task(gate.close(5.0))
    await asyncio.sleep(0.05)
    assert not closing.done() and gate.shut
    release.set()
    assert await closing is True
    assert sorted(ended) == ["a", "b"] and gate.in_flight == 0
    await asyncio.gather(*tasks)


async def test_a_stuck_handler_holds_the_shutdown_no_longer_than_its_bound() -> None:
    gate = _gate()

    async def stuck() -> None:
        await gate.admit(_Interaction())  # type: ignore[arg-type]
        await asyncio.Event().wait()

    task = asyncio.create_task(stuck())
    await asyncio.sleep(0)
    started = time.monotonic()
    assert await gate.close(0.2) is False
    assert time.monotonic() - started < 2.0
    task.cancel()


async def test_a_handler_that_shuts_the_bot_down_does_not_wait_for_itself() -> None:
    gate = _gate()

    async def shutdown_command() -> bool:
        await gate.admit(_Interaction())  # type: ignore[arg-type]
        return await gate.close(5.0)

    assert await asyncio.wait_for(shutdown_command(), 1.0) is True


async def test_once_shut_an_autocomplete_gets_no_choices_and_nothing_runs() -> None:
    gate = _gate()
    assert await gate.close(0.1) is True
    asked = _Interaction(discord.InteractionType.autocomplete)
    assert await gate.admit(asked) is False  # type: ignore[arg-type]
    assert asked.answers == [("choices", [])] and gate.in_flight == 0
    assert asked.extras[REFUSED]  # no board rides on a refused interaction's token


async def test_every_component_and_the_amount_form_ask_the_gate_first() -> None:
    # A component class added later without the gate would run its handler during a
    # shutdown, against a closing database.
    gate = _gate()
    await gate.close(0.1)
    for kind in (*DYNAMIC_ITEMS, AmountModal):
        asked = _Interaction()
        asked.client = SimpleNamespace(gate=gate)  # type: ignore[attr-defined]
        check = cast(Any, kind).interaction_check
        assert await check(cast(Any, None), cast(Any, asked)) is False, kind.__name__
        [(what, sent)] = asked.answers
        assert what == "message" and sent["ephemeral"] and "restarting" in sent["content"]
