"""The event loop the bot's long-running processes run on: uvloop where it exists.

uvloop (libuv under asyncio's API) runs the same coroutines with less CPU per callback,
socket read and write: the bot's main thread spends most of its time in the loop and in
aiohttp's transports (a gateway event in, an interaction answer and a board edit out for
every click), so at a busy token it is the difference between a board that keeps up and
one that falls behind (docs/scaling.md). Where uvloop is not installed (Windows) or the
setting `DEUCEBOT_EVENT_LOOP=asyncio` asks for the standard loop, asyncio's own is used.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def loop_factory(kind: str = "uvloop") -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop factory, or None for asyncio's default loop (`kind` "asyncio", or
    uvloop not installed)."""
    if kind == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:  # Windows: uvloop does not build there
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def name(loop: asyncio.AbstractEventLoop) -> str:
    """Which loop `loop` is, for the startup log: "uvloop" or "asyncio"."""
    return type(loop).__module__.partition(".")[0]


def run(main: Coroutine[Any, Any, T], kind: str = "uvloop") -> T:
    """`asyncio.run(main)` on the loop `loop_factory(kind)` picks."""
    with asyncio.Runner(loop_factory=loop_factory(kind)) as runner:
        return runner.run(main)
