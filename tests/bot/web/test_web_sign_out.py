"""A page signed out (a revoked link, an expired session) gets its `signed_out` frame as
its last: a frame of the table already on its way goes first, none follows (it raced the
socket's close, and made a test of the revocation flaky)."""

from __future__ import annotations

import asyncio
import time
from typing import cast

from aiohttp import web

from bot.runtime import TableManager
from bot.web.front import WebFront
from bot.web.identity import Viewer
from bot.web.server import Connection


class Socket:
    """The frames a page was sent; each send waits for the test to let it through."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.go = asyncio.Event()

    async def send_str(self, text: str) -> None:
        await self.go.wait()
        self.sent.append(text)


async def test_nothing_of_the_table_follows_a_pages_last_frame() -> None:
    socket = Socket()
    manager = cast(TableManager, None)  # never asked: only frames are sent here
    page = Connection(
        manager,
        WebFront(),
        Viewer("p", "1", "Ann"),
        "en",
        cast(web.WebSocketResponse, socket),
        time.monotonic,
    )
    on_its_way = asyncio.create_task(page.send_text("state 1"))
    await asyncio.sleep(0)  # the state is being sent (the lock taken) when the page is told
    last = asyncio.create_task(page.send_last("signed out"))
    late = asyncio.create_task(page.send({"t": "log"}))
    await asyncio.sleep(0)
    socket.go.set()
    await asyncio.gather(on_its_way, last, late)
    await page.send_text("state 2")
    assert socket.sent == ["state 1", "signed out"]
