"""The Discord bot process's web table (`bot.web.service`): a `/hand` link leads to a page
the server serves for that place, its WebSocket bound to that place's table and the
member's seat, fed by the runtime through `Fronts`; the Activity's spellings of the same
page; and a socket that ends when its sign-in does (a revoked link, an expired one)."""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import (
    ClientResponse,
    ClientSession,
    ClientWebSocketResponse,
    CookieJar,
    WSMsgType,
    WSServerHandshakeError,
    web,
)
from aiohttp.test_utils import TestServer

from bot.i18n import t
from bot.process.settings import Settings, load_settings
from bot.runtime import Player, RecordingFront, RuntimeConfig, Table, TableManager
from bot.runtime.fronts import Fronts
from bot.web.front import WebFront
from bot.web.identity import Viewer, WebAuthError
from bot.web.links import LinkAuthenticator, LinkSigner, link_url, table_path
from bot.web.server import SIGNED_OUT, build_web_app
from bot.web.service import WebService
from storage import Storage, open_storage

SECRET = "s" * 32
PLACE = "4242"
MEMBER = "1001"
RECEIVE = 10.0
"""Seconds a frame may take (a hang fails the test; nothing is timed)."""


async def _table(manager: TableManager) -> Table:
    table = await manager.create(
        guild="77",
        place=PLACE,
        game="bigtwo",
        settings={},
        options={"lang": "en"},
        owner=Player(MEMBER, "Ann"),
    )
    await table.start(seed=3)
    return table


@contextlib.asynccontextmanager
async def _runtime(tmp: Path) -> AsyncIterator[tuple[Storage, TableManager, WebFront, Table]]:
    storage = await open_storage(str(tmp / "bot.sqlite3"))
    web_front = WebFront()
    manager = TableManager(
        storage,
        Fronts(RecordingFront(), web_front),
        config=RuntimeConfig(ai_delay=0, timers=False),
    )
    try:
        yield storage, manager, web_front, await _table(manager)
    finally:
        await manager.close()
        await storage.close()


@contextlib.asynccontextmanager
async def _served(app: web.Application) -> AsyncIterator[TestServer]:
    """`app` served on a loopback port for the block."""
    server = TestServer(app, host="127.0.0.1")
    await server.start_server()
    try:
        yield server
    finally:
        await server.close()


def _ann_link(signer: LinkSigner, table: Table) -> str:
    """A signed link for the member Ann to `table`'s page."""
    return signer.make(
        place=PLACE, table_id=table.id, player_id=MEMBER, name="Ann", locale=None, generation=0
    )


async def _frame(ws: ClientWebSocketResponse, kind: str) -> dict[str, Any]:
    # The whole wait is bounded: the server's pings would restart a per-receive timeout.
    async with asyncio.timeout(RECEIVE):
        while True:
            message = await ws.receive()
            assert message.type == WSMsgType.TEXT, message
            frame: dict[str, Any] = json.loads(message.data)
            if frame["t"] == kind:
                return frame


async def test_a_hand_link_opens_the_members_seat_at_that_places_table(tmp_path: Path) -> None:
    settings = load_settings(
        DEUCEBOT_PUBLIC_URL="https://d.example",
        DEUCEBOT_LINK_SECRET=SECRET,
        DEUCEBOT_WEB_PORT="0",
    )
    assert settings.web_host == "127.0.0.1"
    async with _runtime(tmp_path) as (storage, manager, web_front, table):
        service = WebService(settings, manager, web_front, storage)
        await service.start()
        try:
            assert service.port
            base = f"http://127.0.0.1:{service.port}"
            token = LinkSigner(SECRET).make(
                place=PLACE,
                table_id=table.id,
                player_id=MEMBER,
                name="Ann",
                locale="en",
                generation=await storage.link_generation(MEMBER),
            )
            url = link_url(base, token, 0)
            async with ClientSession(cookie_jar=CookieJar(unsafe=True)) as session:
                opened = await session.get(url)
                # The link's redirect is a page the server serves for that place.
                assert opened.status == 200, await opened.text()
                assert opened.url.path == table_path(PLACE, 0)
                html = await opened.text()
                assert 'src="static/app.js"' in html
                for name in ("app.js", "style.css"):
                    asset = await session.get(f"{base}{table_path(PLACE, 0)}static/{name}")
                    assert asset.status == 200
                # The place without its final slash is sent to the page.
                bare = await session.get(f"{base}/s/0/table/{PLACE}", allow_redirects=False)
                assert bare.status == 302 and bare.headers["Location"] == f"./{PLACE}/"
                # Its WebSocket (the page's relative "ws", with the link's cookie) is the
                # member's seat at that table.
                ws = await session.ws_connect(f"{base}{table_path(PLACE, 0)}ws")
                state = await _frame(ws, "state")
                seat = table.seat_of(MEMBER)
                assert seat is not None and state["seat"] == seat
                assert len(state["hand"]) == 13
                # The runtime's deliveries reach it through the fan-out front: the member's
                # move (the hint's) comes back as the next state.
                while state["to_act"] != seat:
                    state = await _frame(ws, "state")
                await ws.send_json({"t": "hint"})
                hint = await _frame(ws, "hint")
                await ws.send_json({"t": "act", "action": hint["action"], "turn": state["n"]})
                after = await _frame(ws, "state")
                assert after["n"] > state["n"] and len(after["hand"]) < 13
                await ws.close()
                # The cookie goes to that place's page only; the link itself is refused
                # at another place's page.
                other = await session.get(f"{base}/s/0/table/5555/?link={token}")
                assert other.status == 403
                assert await other.text() == t("web.auth.other_table", "en")
        finally:
            await service.close()


def _shard_settings(ids: str) -> Settings:
    return load_settings(
        DEUCEBOT_PUBLIC_URL="https://d.example",
        DEUCEBOT_LINK_SECRET=SECRET,
        DEUCEBOT_WEB_PORT="0",
        DEUCEBOT_SHARD_COUNT="2",
        DEUCEBOT_SHARD_IDS=ids,
    )


async def _misdirected(answer: ClientResponse, lang: str = "en") -> None:
    """`answer` is the 421 refusal page, in `lang`, and nothing else: no table."""
    assert answer.status == 421, await answer.text()
    assert answer.headers["X-Deucebot-Refusal"] == "misdirected"
    body = await answer.text()
    assert html.escape(t("web.auth.misdirected", lang)) in body
    assert "Ann" not in body and "app.js" not in body and "♦" not in body


async def test_another_shards_addresses_are_misdirected(tmp_path: Path) -> None:
    """A process holding shard 0 of 2 serves shard 0's addresses and refuses shard 1's
    (the table at the place is driven by another process) with 421 and a page in the
    viewer's language: the page, its files, its WebSocket, the link, the Activity's
    spellings; and a table of shard 0 is not served under shard 1's prefix either, even by
    a process holding both."""
    async with _runtime(tmp_path) as (storage, manager, web_front, table):
        token = LinkSigner(SECRET).make(
            place=PLACE,
            table_id=table.id,
            player_id=MEMBER,
            name="Ann",
            locale="en",
            generation=0,
        )
        for ids in ("0", "0,1"):
            service = WebService(_shard_settings(ids), manager, web_front, storage)
            await service.start()
            base = f"http://127.0.0.1:{service.port}"
            try:
                async with ClientSession(cookie_jar=CookieJar(unsafe=True)) as session:
                    mine = await session.get(link_url(base, token, 0))
                    assert mine.status == 200 and mine.url.path == table_path(PLACE, 0)
                    other = table_path(PLACE, 1)
                    for path in (
                        f"/s/1/link/{token}",
                        f"{other}?link={token}",
                        f"{other}static/app.js",
                        f"/activity{other}?link={token}",
                        f"/activity/.proxy{other}?link={token}",
                    ):
                        # (A link naming the wrong one of this process's shards leads
                        # to a page of that shard: refused.)
                        await _misdirected(await session.get(base + path))
                    french = {"Accept-Language": "fr-FR,fr;q=0.9"}
                    await _misdirected(await session.get(base + other, headers=french), "fr")
                    await _misdirected(await session.get(f"{base}{other}?lang=uk"), "uk")
                    with pytest.raises(WSServerHandshakeError) as refused:
                        await session.ws_connect(f"{base}{other}ws?link={token}")
                    assert refused.value.status == 421
                    # No shard has a number that long (nor an error on reading one).
                    huge = await session.get(f"{base}/s/{'9' * 5000}/table/{PLACE}/")
                    assert huge.status == 404
                    # Every address names its shard: the bot serves no page at the root.
                    assert (await session.get(f"{base}/?link={token}")).status == 404
            finally:
                await service.close()


async def _signed_out(ws: ClientWebSocketResponse) -> str:
    """The words of the page's `signed_out` frame; the socket then closes as signed out."""
    frame = await _frame(ws, "signed_out")
    closed = await ws.receive(timeout=RECEIVE)
    # The code the server closed with is the CLOSE frame's data (the client's own
    # `close_code` may still read 1006 while its side of the closing handshake runs).
    assert closed.type == WSMsgType.CLOSE and closed.data == SIGNED_OUT
    return str(frame["text"])


async def test_revoking_links_closes_the_members_open_pages(tmp_path: Path) -> None:
    settings = load_settings(
        DEUCEBOT_PUBLIC_URL="https://d.example",
        DEUCEBOT_LINK_SECRET=SECRET,
        DEUCEBOT_WEB_PORT="0",
    )
    async with _runtime(tmp_path) as (storage, manager, web_front, table):
        service = WebService(settings, manager, web_front, storage, recheck=0.05)
        await service.start()
        try:
            token = LinkSigner(SECRET).make(
                place=PLACE,
                table_id=table.id,
                player_id=MEMBER,
                name="Ann",
                locale="fr",
                generation=await storage.link_generation(MEMBER),
            )
            page = f"http://127.0.0.1:{service.port}{table_path(PLACE, 0)}"
            async with ClientSession() as session:
                ws = await session.ws_connect(f"{page}ws?link={token}&lang=fr")
                await _frame(ws, "state")
                await storage.revoke_links(MEMBER)
                assert await _signed_out(ws) == t("web.auth.revoked", "fr")
        finally:
            await service.close()


async def test_an_expired_link_closes_its_open_page(tmp_path: Path) -> None:
    now = [1000.0]
    async with _runtime(tmp_path) as (storage, manager, web_front, table):
        signer = LinkSigner(SECRET, lifetime=60, clock=lambda: now[0])
        links = LinkAuthenticator(signer, storage.link_generation, lambda place: table.id)
        app = build_web_app(manager, web_front, [links], recheck=0.05)
        async with _served(app) as server:
            token = _ann_link(signer, table)
            async with ClientSession() as session:
                url = server.make_url(f"{table_path(PLACE, 0)}ws").with_query(link=token)
                ws = await session.ws_connect(url)
                await _frame(ws, "state")
                now[0] += 61
                assert await _signed_out(ws) == t("web.auth.expired", "en")


@pytest.mark.parametrize("base", ["/activity/s/0/table/", "/activity/.proxy/s/0/table/"])
async def test_the_activitys_spellings_of_a_page_serve_the_same_table(
    tmp_path: Path, base: str
) -> None:
    """The Activity hands over to ``.proxy/`` + `table_path` under its ``/activity`` root
    mapping: Discord's proxy strips ``/.proxy``, a host without it does not."""
    async with _runtime(tmp_path) as (storage, manager, web_front, table):
        signer = LinkSigner(SECRET)
        links = LinkAuthenticator(signer, storage.link_generation, lambda place: table.id)
        async with _served(build_web_app(manager, web_front, [links])) as server:
            token = _ann_link(signer, table)
            page = f"{base}{PLACE}/"
            async with ClientSession() as session:
                html = await session.get(server.make_url(page).with_query(link=token))
                assert html.status == 200
                assert (await session.get(server.make_url(page + "static/app.js"))).status == 200
                ws = await session.ws_connect(server.make_url(page + "ws").with_query(link=token))
                assert (await _frame(ws, "state"))["seat"] == table.seat_of(MEMBER)
                await ws.close()


class Flaky:
    """Signs the member in, then cannot check (a storage error), then refuses: revoked."""

    def __init__(self) -> None:
        self.asked = 0

    async def authenticate(self, request: web.Request) -> Viewer | None:
        self.asked += 1
        if self.asked == 2:
            raise RuntimeError("the database is busy")
        if self.asked > 2:
            raise WebAuthError("revoked")
        return Viewer(PLACE, MEMBER, "Ann")


async def test_a_sign_in_that_cannot_be_checked_is_asked_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with _runtime(tmp_path) as (_, manager, web_front, table):
        flaky = Flaky()
        app = build_web_app(manager, web_front, [flaky], recheck=0.05)
        async with _served(app) as server, ClientSession() as session:
            ws = await session.ws_connect(server.make_url(f"{table_path(PLACE, 0)}ws"))
            assert (await _frame(ws, "state"))["seat"] == table.seat_of(MEMBER)
            assert await _signed_out(ws) == t("web.auth.revoked", "en")
            assert flaky.asked >= 3
            assert "could not check an open page's sign-in again" in caplog.text
