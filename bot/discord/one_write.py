"""Multipart request bodies (messages with pictures) sent in one socket write.

aiohttp writes a multipart body part by part: a boundary, the part's headers, its payload
and a line break for each part, then the closing boundary: nine `send` calls for a message
with one picture, every one a system call on the bot's event loop (the profile of 100
busy tables put a sixth of the loop's time in socket writes). `OneWriteRequest` renders an
in-memory multipart body (discord.py's JSON payload and its pictures, all bytes) into one
buffer before sending, so that the request's headers and body leave in a single write,
byte for byte the same request. A body that is not all in memory (a file on disk) or is
large is sent as aiohttp sends it.
"""

from __future__ import annotations

from collections.abc import Coroutine
from types import SimpleNamespace
from typing import Any, TypeVar

import aiohttp
import discord

T = TypeVar("T")
LARGEST = 1 << 20
"""Bodies above this many bytes are written as aiohttp writes them (in parts)."""


def _at_once(work: Coroutine[Any, Any, T]) -> tuple[bool, T | None]:
    """Run `work` to its end if it never waits on anything (in-memory payloads' `as_bytes`
    and `close` do not): (True, its result); (False, None) if it would wait (abandoned)."""
    try:
        work.send(None)
    except StopIteration as done:
        return True, done.value
    work.close()
    return False, None


class OneWriteRequest(aiohttp.ClientRequest):
    """An aiohttp request whose in-memory multipart body is one buffer (`one_write`)."""

    def update_body_from_data(self, body: Any, _stacklevel: int = 3) -> None:
        """The body, an in-memory multipart body (or form) rendered to bytes first."""
        form = body() if isinstance(body, aiohttp.FormData) else body
        if isinstance(form, aiohttp.MultipartWriter) and (form.size or LARGEST + 1) <= LARGEST:
            done, data = _at_once(form.as_bytes())
            if done and data is not None:
                _at_once(form.close())
                form = aiohttp.BytesPayload(data, content_type=form.content_type)
        super().update_body_from_data(form, _stacklevel + 1)


def session_of(http: discord.http.HTTPClient) -> aiohttp.ClientSession | None:
    """The aiohttp session `http` sends with (it exists once logged in), or None.

    discord.py keeps it private (`HTTPClient.__session`, name-mangled, no public accessor):
    this is the one place that reads it, and only when it is an aiohttp session. A discord.py
    release that moves it gets None here, and `OneWriteHook` reaches the session the public
    way (discord.py's `http_trace` option) instead."""
    session = getattr(http, "_HTTPClient__session", None)
    return session if isinstance(session, aiohttp.ClientSession) else None


def _use_one_write(session: aiohttp.ClientSession) -> bool:
    """Make `session`'s requests `OneWriteRequest`s; whether they are (False: a session built
    with a request class of its own, left as it is)."""
    current = getattr(session, "_request_class", None)
    if current is OneWriteRequest:
        return True
    if current is not aiohttp.ClientRequest:
        return False
    session._request_class = OneWriteRequest
    return True


def one_write(http: discord.http.HTTPClient) -> bool:
    """Make the requests of `http`'s session (the bot's REST calls and every interaction
    answer and webhook call, which share it) `OneWriteRequest`s at once; whether it could
    (the session exists once logged in, and is an aiohttp session of the expected shape)."""
    session = session_of(http)
    return session is not None and _use_one_write(session)


class OneWriteHook:
    """The public way to the same as `one_write`, for when discord.py no longer keeps its
    session where `session_of` looks: discord.py's `http_trace` option (an aiohttp
    `TraceConfig`) is handed each request's session before aiohttp builds the request, so
    the first request (the login) makes the session one-write."""

    def __init__(self, trace: aiohttp.TraceConfig) -> None:
        """Hook into `trace` (the one given to discord.py as `http_trace`)."""
        self.took = False
        """Whether a request's session became (or already was) one-write through the hook."""
        trace.on_request_start.append(self._started)

    async def _started(
        self, session: aiohttp.ClientSession, ctx: SimpleNamespace, params: object
    ) -> None:
        if not self.took:
            self.took = _use_one_write(session)
