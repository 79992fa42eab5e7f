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


def one_write(http: discord.http.HTTPClient) -> bool:
    """Make the requests of `http`'s session (the bot's REST calls and every interaction
    answer and webhook call, which share it) `OneWriteRequest`s; whether it could (the
    session exists once logged in, and is an aiohttp session of the expected shape)."""
    session = getattr(http, "_HTTPClient__session", None)
    if not isinstance(session, aiohttp.ClientSession):
        return False
    if getattr(session, "_request_class", None) is not aiohttp.ClientRequest:
        return False
    session._request_class = OneWriteRequest
    return True
