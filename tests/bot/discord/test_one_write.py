"""Multipart bodies in one socket write (`bot.discord.one_write`): the same request, byte for
byte, as aiohttp's part-by-part writing, in one `transport.write` instead of nine; through a
real loopback server."""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import AsyncIterator, Iterator
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bot.discord.one_write import OneWriteRequest

PICTURE = bytes(range(256)) * 300  # 76.8 KB: more than one of aiohttp's 64 KB chunks


def _form() -> aiohttp.FormData:
    """A message with a picture, as discord.py builds it."""
    form = aiohttp.FormData(quote_fields=False)
    form.add_field(name="payload_json", value='{"content": "hi", "attachments": []}')
    form.add_field(
        name="files[0]",
        value=io.BytesIO(PICTURE),
        filename="table-1.png",
        content_type="application/octet-stream",
    )
    return form


@pytest.fixture
def writes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The size of every socket-transport write an aiohttp client made meanwhile."""
    from asyncio import selector_events

    from aiohttp.client_proto import ResponseHandler

    sizes: list[int] = []
    transport = selector_events._SelectorSocketTransport
    plain = transport.write

    def counted(self: Any, data: Any) -> None:
        if isinstance(self.get_protocol(), ResponseHandler):
            sizes.append(len(data))
        plain(self, data)

    monkeypatch.setattr(transport, "write", counted)
    yield sizes


@contextlib.asynccontextmanager
async def serving(app: web.Application) -> AsyncIterator[str]:
    """`app` served on a free loopback port while inside; its base URL."""
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


async def _upload(request_class: type[aiohttp.ClientRequest], writes: list[int]) -> tuple:
    """Post `_form()` to a loopback server with `request_class`: (what the server read, the
    body's raw bytes, the writes the client made)."""
    got: dict[str, Any] = {}

    async def handler(request: web.Request) -> web.Response:
        got["raw"] = await request.read()
        got["type"] = request.content_type
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_post("/up", handler)
    async with (
        serving(app) as base,
        aiohttp.ClientSession(request_class=request_class) as session,
    ):
        writes.clear()
        async with session.post(f"{base}/up", data=_form()) as response:
            assert response.status == 200
            client_writes = list(writes)
    return got["type"], got["raw"], client_writes


async def test_a_multipart_body_goes_out_in_one_write_byte_for_byte_the_same(
    writes: list[int],
) -> None:
    kind, plain, parts = await _upload(aiohttp.ClientRequest, writes)
    kind_one, one, single = await _upload(OneWriteRequest, writes)
    assert kind == kind_one == "multipart/form-data"
    boundary = plain.split(b"\r\n", 1)[0]
    assert one.replace(one.split(b"\r\n", 1)[0], boundary) == plain  # only the boundary differs
    assert PICTURE in one
    assert len(parts) > 5  # aiohttp alone: boundary, headers, payload, CRLF... per part
    assert len(single) == 1  # the request line, headers and whole body at once


async def test_a_body_that_would_wait_is_left_to_aiohttp() -> None:
    """A payload that does not render at once (a stream) is sent as aiohttp sends it."""

    async def stream() -> Any:
        await asyncio.sleep(0.001)
        yield b"x"

    form = aiohttp.FormData()
    form.add_field("payload_json", "{}")
    form.add_field("files[0]", stream(), filename="a.png")  # type: ignore[arg-type]
    loop = asyncio.get_running_loop()
    request = OneWriteRequest("POST", aiohttp.client.URL("http://h/x"), data=form, loop=loop)
    assert isinstance(request.body, aiohttp.MultipartWriter)
