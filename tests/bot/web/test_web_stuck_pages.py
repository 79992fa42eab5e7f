"""A page that stops reading (a frozen tab, a hostile client) holds nothing for long: once
the heartbeat finds it gone, or the server closes its socket, its connection is dropped
within the close timeout, its handler ends and its watcher and page slot are freed; a
shutdown does not wait for it. The page here is a raw socket: it completes the WebSocket
handshake, sends messages the server answers (refusals) and never reads again."""

from __future__ import annotations

import asyncio
import json
import socket
import struct
from pathlib import Path

from aiohttp.web import Server

from bot.web.server import MAX_PAGES
from tests.bot.web.harness import TOKEN, WebTable, web_table

QUICK = {"heartbeat": 0.4, "close_timeout": 0.4}
"""Small timeouts, so the test waits for seconds, not minutes."""
BOUND = 60.0
"""How long a stuck page may take to be let go (a hang fails; nothing is timed)."""
JUNK = 3000
"""Messages the stuck page sends: their refusals (~100 bytes each) fill every buffer."""
PLACE = "terminal:duel"


def masked_text(payload: bytes) -> bytes:
    """One client text frame (masked, as a client must send it; the zero mask leaves the
    payload as it is)."""
    assert len(payload) < 126
    return struct.pack("!BB", 0x81, 0x80 | len(payload)) + b"\0\0\0\0" + payload


async def stuck_page(web: WebTable) -> socket.socket:
    """Open the player's socket, make the server answer `JUNK` messages, read nothing."""
    server = web.server
    assert server.host is not None and server.port is not None
    loop = asyncio.get_running_loop()
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await loop.sock_connect(sock, (server.host, server.port))
    await loop.sock_sendall(
        sock,
        f"GET /ws?token={TOKEN} HTTP/1.1\r\nHost: {server.host}:{server.port}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode(),
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += await asyncio.wait_for(loop.sock_recv(sock, 1), BOUND)
    assert head.startswith(b"HTTP/1.1 101"), head
    # On loopback the kernel's buffers grow to megabytes: a small send buffer on the
    # server's side of this one connection stands for a slow network, so the server's own
    # buffer fills after a few hundred kilobytes.
    (transport,) = [
        handler.transport
        for handler in http_server(web).connections
        if handler.transport is not None
        and handler.transport.get_extra_info("peername")[1] == sock.getsockname()[1]
    ]
    transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    junk = masked_text(json.dumps({"t": "no such message"}).encode()) * JUNK
    sent = 0
    while sent < len(junk):  # as much as the server takes; it stops once it cannot answer
        try:
            sent += sock.send(junk[sent:])
        except BlockingIOError:
            await asyncio.sleep(0.01)
        if transport.get_write_buffer_size():
            return sock  # the server holds bytes the page does not read
    for _ in range(int(BOUND / 0.05)):
        if transport.get_write_buffer_size() or transport.is_closing():
            return sock
        await asyncio.sleep(0.05)
    raise AssertionError("the server never had to wait for the page")


def http_server(web: WebTable) -> Server:
    """The aiohttp server under the test server (it lists its open connections)."""
    runner = web.server.runner
    assert runner is not None and runner.server is not None
    return runner.server


async def let_go(web: WebTable, server: Server) -> None:
    """Wait until `server` holds no connection and no page watches the place."""
    for _ in range(int(BOUND / 0.05)):
        if not server.connections and not web.front.watchers(PLACE):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(
        f"still held: {len(server.connections)} connections, {web.front.watchers(PLACE)} watchers"
    )


async def test_a_page_that_stops_reading_is_let_go_and_frees_its_slot(tmp_path: Path) -> None:
    async with web_table(tmp_path, "duel", 2, app=QUICK) as web:
        sock = await stuck_page(web)
        try:
            await let_go(web, http_server(web))
            # Its page slot is free again: the member opens as many pages as allowed.
            pages = [await web.open() for _ in range(MAX_PAGES)]
            for page in pages:
                await page.ws.close()
        finally:
            sock.close()


async def test_a_shutdown_does_not_wait_for_a_page_that_stopped_reading(tmp_path: Path) -> None:
    # The heartbeat would not find it before the shutdown: the server's own close must end.
    async with web_table(tmp_path, "duel", 2, app={**QUICK, "heartbeat": 600.0}) as web:
        sock = await stuck_page(web)
        try:
            while not web.front.watchers(PLACE):
                await asyncio.sleep(0.05)
            server = http_server(web)
            await asyncio.wait_for(web.server.close(), BOUND)
            await let_go(web, server)
        finally:
            sock.close()
