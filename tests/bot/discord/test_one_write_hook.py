"""discord.py's HTTP session made one-write without relying on its private attribute:
`session_of` reads it only when it is where expected, and `OneWriteHook` reaches the session
the public way (the `http_trace` option); a real discord.py `HTTPClient` against a loopback
server, logging in and posting a picture."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web
from discord.http import HTTPClient, Route, handle_message_parameters

from bot.discord.one_write import OneWriteHook, OneWriteRequest, one_write, session_of
from tests.bot.discord.test_one_write import PICTURE, serving, writes

__all__ = ["writes"]  # the fixture, used here by name

USER = {"id": "1", "username": "deucebot", "discriminator": "0", "avatar": None}


@pytest.fixture
async def api(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[list[bytes]]:
    """A loopback stand-in for the two Discord routes used here (discord.py's `Route.BASE`
    points at it); the message bodies it received."""
    bodies: list[bytes] = []

    async def me(request: web.Request) -> web.Response:
        return web.json_response(USER)

    async def post(request: web.Request) -> web.Response:
        bodies.append(await request.read())
        return web.json_response({"id": "2", "channel_id": "7"})

    app = web.Application()
    app.router.add_get("/api/v10/users/@me", me)
    app.router.add_post("/api/v10/channels/7/messages", post)
    async with serving(app) as base:
        monkeypatch.setattr(Route, "BASE", f"{base}/api/v10")
        yield bodies


async def _logged_in(trace: aiohttp.TraceConfig | None = None) -> HTTPClient:
    http = HTTPClient(asyncio.get_running_loop(), http_trace=trace)
    await http.static_login("token")
    return http


async def _post_picture(http: HTTPClient) -> None:
    picture = discord.File(io.BytesIO(PICTURE), filename="table-1.png")
    with handle_message_parameters(content="hi", file=picture) as params:
        await http.send_message(7, params=params)


async def test_the_session_is_read_where_discord_py_keeps_it(api: list[bytes]) -> None:
    http = await _logged_in()
    try:
        session = session_of(http)
        assert isinstance(session, aiohttp.ClientSession)
        assert one_write(http)
        assert session._request_class is OneWriteRequest
    finally:
        await http.close()


def test_a_client_without_the_private_session_is_not_guessed_at() -> None:
    moved: Any = SimpleNamespace(_HTTPClient__other=object())  # a release that renamed it
    assert session_of(moved) is None
    assert not one_write(moved)
    wrong: Any = SimpleNamespace(_HTTPClient__session="not a session")
    assert session_of(wrong) is None


async def test_the_public_hook_makes_discord_py_s_session_one_write(
    api: list[bytes], writes: list[int]
) -> None:
    trace = aiohttp.TraceConfig()
    hook = OneWriteHook(trace)
    http = await _logged_in(trace)  # the login request hands the session to the hook
    try:
        assert hook.took
        writes.clear()
        await _post_picture(http)
        assert len(writes) == 1  # request line, headers and the whole picture at once
        assert len(api) == 1 and PICTURE in api[0]
    finally:
        await http.close()


async def test_the_hook_leaves_a_session_of_another_request_class_alone(api: list[bytes]) -> None:
    class Own(aiohttp.ClientRequest):
        pass

    trace = aiohttp.TraceConfig()
    hook = OneWriteHook(trace)
    async with aiohttp.ClientSession(request_class=Own, trace_configs=[trace]) as session:
        async with session.get(f"{Route.BASE}/users/@me") as response:
            assert response.status == 200
        assert not hook.took
        assert session._request_class is Own
