"""The event loop the bot's processes run on (`bot.process.event_loop`): uvloop where installed,
asyncio's own when asked for."""

from __future__ import annotations

import asyncio
import sys

import pytest
from pydantic import ValidationError

from bot.process import event_loop
from bot.process.settings import describe_error, load_settings


async def _which() -> str:
    await asyncio.sleep(0)
    return event_loop.name(asyncio.get_running_loop())


@pytest.mark.skipif(sys.platform == "win32", reason="uvloop does not build on Windows")
def test_the_bot_runs_on_uvloop_where_it_is_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DEUCEBOT_EVENT_LOOP", raising=False)
    kind = load_settings().event_loop
    assert kind == "uvloop" and event_loop.run(_which(), kind) == "uvloop"


def test_deucebot_event_loop_asyncio_asks_for_the_standard_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DEUCEBOT_EVENT_LOOP", " AsyncIO ")
    kind = load_settings().event_loop
    assert kind == "asyncio" and event_loop.loop_factory(kind) is None
    assert event_loop.run(_which(), kind) == "asyncio"


def test_an_unknown_event_loop_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEUCEBOT_EVENT_LOOP", "trio")
    with pytest.raises(ValidationError) as refused:
        load_settings()
    line = describe_error(refused.value)
    assert line.startswith("DEUCEBOT_EVENT_LOOP=trio is not allowed") and "uvloop" in line, line


def test_run_returns_the_coroutines_result_and_raises_its_error() -> None:
    async def fails() -> None:
        raise ValueError("from the coroutine")

    assert event_loop.run(asyncio.sleep(0, result=42)) == 42
    with pytest.raises(ValueError, match="from the coroutine"):
        event_loop.run(fails())
