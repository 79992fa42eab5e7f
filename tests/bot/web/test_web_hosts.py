"""A hostile Host header: whatever a request names as its host (another site, a directive
smuggled after `;`, spaces, a line break, non-ASCII), nothing of it reaches a response's
headers or the page; the page keeps its one Content-Security-Policy (`server.CSP`)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from yarl import URL

from bot.web.server import CSP
from tests.bot.web.harness import RECEIVE, TOKEN, web_table

HOSTILE = (
    b"evil.example",
    b"evil.example:8080",
    b"evil.example; script-src *",
    b"127.0.0.1 evil.example 'unsafe-inline'",
    b"evil.example\r\n X-Injected: 1",
    b"evil.example\rX-Injected: 1",
    "évil.exämple.укр".encode(),
    b"[::1]:1; connect-src *",
)
"""Host headers as sent on the wire (a line break inside one is a folded or broken line)."""
MARKS = (b"evil", b"xn--", b"X-Injected", b"script-src *", b"connect-src *", b"unsafe-inline")
"""What of the hostile hosts must show nowhere in an answer."""


async def raw_get(host: str, port: int, path: str, host_header: bytes) -> bytes:
    """The whole answer to a GET of `path` with `host_header` as its Host, bytes as sent."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(
            b"GET " + path.encode() + b" HTTP/1.1\r\nHost: " + host_header + b"\r\n"
            b"Connection: close\r\n\r\n"
        )
        await writer.drain()
        return await asyncio.wait_for(reader.read(), RECEIVE)
    finally:
        writer.close()


@pytest.mark.parametrize("path", ["/?token=" + TOKEN, "/s/0/table/terminal:duel/?token=" + TOKEN])
async def test_no_hostile_host_reaches_an_answer(
    tmp_path: Path, path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # aiohttp logs its parser's refusal of a broken header line at ERROR: not a fault here.
    monkeypatch.setattr(logging.getLogger("aiohttp.server"), "propagate", False)
    async with web_table(tmp_path, "duel", 2) as web:
        server = web.server
        assert server.host is not None and server.port is not None
        served = 0
        for hostile in HOSTILE:
            answer = await raw_get(server.host, server.port, path, hostile)
            head, _, body = answer.partition(b"\r\n\r\n")
            status = head.split(b"\r\n", 1)[0]
            for mark in MARKS:
                assert mark not in head, (hostile, head)
            if status.startswith(b"HTTP/1.1 200"):
                served += 1
                assert f"Content-Security-Policy: {CSP}".encode() in head.split(b"\r\n")
                assert b'src="static/app.js"' in body
                assert not any(mark in body for mark in MARKS), (hostile, body[:600])
            else:
                # A broken header line: aiohttp's parser refuses the request before any
                # handler runs, in plain text (its complaint quotes the line; never a page).
                assert status.startswith(b"HTTP/1.0 400"), (hostile, status)
                assert b"Content-Type: text/plain" in head and b"Content-Security" not in head
        assert served >= 5  # the well-formed ones are served, with the same policy


@pytest.mark.parametrize(
    ("place", "query"),
    [
        ("%2F%2Fevil.example", ""),
        ("%5C%5Cevil.example", "?a=1"),
        ("terminal:duel", "?token=" + TOKEN),
        ("javascript:alert(1)", ""),
        ("x", "?next=%0d%0aX-Injected:%201"),
    ],
)
async def test_a_place_without_its_slash_is_sent_to_its_own_page(
    tmp_path: Path, place: str, query: str
) -> None:
    async with web_table(tmp_path, "duel", 2) as web:
        asked = web.server.make_url(f"/s/0/table/{place}{query}")
        answer = await web.session.get(asked, allow_redirects=False)
        assert answer.status == 302
        target = asked.join(URL(answer.headers["Location"]))
        # The same site, the same place's page (only the final slash added), its query kept.
        assert (target.scheme, target.authority) == (asked.scheme, asked.authority), target
        assert target.raw_path == asked.raw_path + "/" or target.path == asked.path + "/"
        assert target.raw_query_string == asked.raw_query_string
        assert "X-Injected" not in answer.headers
