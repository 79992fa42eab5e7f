"""The web table with two shard processes on one PostgreSQL database (docs/scaling.md,
"The web table across processes"): every address of a table carries its shard
(``/s/<shard>/...``), the process holding that shard serves it, the other refuses it with
421 Misdirected Request and no table data, and the Activity's token exchange, which may
reach either process, answers the address under the table's shard."""

from __future__ import annotations

import asyncio
import html
import json
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from aiohttp import (
    ClientResponse,
    ClientSession,
    ClientWebSocketResponse,
    CookieJar,
    WSMsgType,
    WSServerHandshakeError,
)
from aiohttp.test_utils import TestServer

from bot.i18n import t
from deucebot_dev.discord_standin import FakeDiscord, User
from storage.backend import open_storage
from tests.bot.web.oauth_standin import CLIENT_ID, CLIENT_SECRET, OAuthStandin
from tests.e2e.bot_process import BotProcess, shard_env, spawn_bot
from tests.e2e.process_play import stop
from tests.e2e.shard_play import channel_boards, create_and_start
from tests.e2e.web_browser import free_port

pytestmark = pytest.mark.slow

SECRET = "a-link-secret-of-the-tests-32-characters-or-more"
PUBLIC = "https://deucebot.example.org"
RECEIVE = 20.0
"""Seconds a frame may take (a hang fails the test; nothing is timed)."""


def _env(
    fake: FakeDiscord, db: str, shard: int, port: int, oauth: str, cwd: Path
) -> dict[str, str]:
    return shard_env(
        fake,
        db,
        shard,
        cwd,
        DEUCEBOT_WEB_PORT=str(port),
        DEUCEBOT_PUBLIC_URL=PUBLIC,
        DEUCEBOT_LINK_SECRET=SECRET,
        DEUCEBOT_ACTIVITY_CLIENT_ID=CLIENT_ID,
        DEUCEBOT_ACTIVITY_CLIENT_SECRET=CLIENT_SECRET,
        DEUCEBOT_OAUTH_BASE=oauth,
    )


async def _link_path(fake: FakeDiscord, user: User, channel: int) -> str:
    """The path of `user`'s browser link from their hand's "Open in browser" in `channel`."""
    board = channel_boards(fake, channel)[-1]
    hand = (await fake.click(user, board, "db:hand:")).message
    assert hand is not None
    offer = (await fake.click(user, hand, "db:browser:")).message
    assert offer is not None
    [url] = [u for u in offer.link_urls() if u.startswith(PUBLIC)]
    return urlparse(url).path


async def _misdirected(answer: ClientResponse) -> None:
    """The 421 refusal page, and nothing of the table."""
    assert answer.status == 421, await answer.text()
    assert answer.headers["X-Deucebot-Refusal"] == "misdirected"
    assert "Set-Cookie" not in answer.headers
    body = await answer.text()
    assert html.escape(t("web.auth.misdirected", "en")) in body
    assert "app.js" not in body and "Owner" not in body


async def _frame(ws: ClientWebSocketResponse, kind: str) -> dict[str, Any]:
    async with asyncio.timeout(RECEIVE):  # bounded as a whole (pings restart a receive's)
        while True:
            message = await ws.receive()
            assert message.type == WSMsgType.TEXT, message
            frame: dict[str, Any] = json.loads(message.data)
            if frame["t"] == kind:
                return frame


async def _play_by_socket(ws: ClientWebSocketResponse, moves: int) -> list[str]:
    """Play the member's next `moves` turns through the page's socket (the AI's suggestion
    each time); the moves the table acknowledged (a later state, a smaller hand)."""
    played: list[str] = []
    state = await _frame(ws, "state")
    while len(played) < moves:
        while state["to_act"] != state["seat"]:
            state = await _frame(ws, "state")
        await ws.send_json({"t": "hint"})
        hint = await _frame(ws, "hint")
        await ws.send_json({"t": "act", "action": hint["action"], "turn": state["n"]})
        after = await _frame(ws, "state")
        assert after["n"] > state["n"], after
        if hint["action"] != "pass":
            assert len(after["hand"]) < len(state["hand"])
        played.append(str(hint["action"]))
        state = after
    return played


async def test_each_table_address_reaches_the_process_of_its_shard(
    two_shards: FakeDiscord, pg_url: str, tmp_path: Path
) -> None:
    fake = two_shards
    ana = fake.owner
    guild_b = fake.guild_ids[1]
    assert fake.shard_of(guild_b) == 1
    chan_b = fake.guild_channels[guild_b][0]
    ports = [free_port(), free_port()]
    discord = OAuthStandin(bot_token=fake.env()["DISCORD_TOKEN"])
    oauth = TestServer(discord.app(), host="127.0.0.1")
    await oauth.start_server()
    procs: list[BotProcess] = []
    try:
        base = str(oauth.make_url("/api"))
        for shard in (0, 1):
            env = _env(fake, pg_url, shard, ports[shard], base, tmp_path)
            procs.append(await spawn_bot(env, tmp_path, f"shard{shard}"))
        await fake.wait_ready(60, shards=[0, 1])
        zero, one = (f"http://127.0.0.1:{port}" for port in ports)

        await create_and_start(fake, ana, chan_b)
        await fake.wait_for(lambda: bool(channel_boards(fake, chan_b)), 20)
        # The link is made by the process driving the table: under its shard's prefix.
        path = await _link_path(fake, ana, chan_b)
        assert path.startswith("/s/1/link/"), path
        token = path.removeprefix("/s/1/link/")
        page = f"/s/1/table/{chan_b}/"
        async with ClientSession(cookie_jar=CookieJar(unsafe=True)) as session:
            # Shard 0's process refuses every address of shard 1's table.
            for address in (path, f"{page}?link={token}", f"{page}static/app.js"):
                await _misdirected(await session.get(zero + address, allow_redirects=False))
            with pytest.raises(WSServerHandshakeError) as refused:
                await session.ws_connect(f"{zero}{page}ws?link={token}")
            assert refused.value.status == 421
            assert len(session.cookie_jar) == 0  # nothing was signed in

            # Shard 1's process serves the link, the page and its socket: Ana plays.
            opened = await session.get(one + path)
            assert opened.status == 200, await opened.text()
            assert opened.url.path == page
            assert 'src="static/app.js"' in await opened.text()
            ws = await session.ws_connect(f"{one}{page}ws")
            played = await _play_by_socket(ws, 2)
            await ws.close()

            # The Activity's token exchange asked of shard 0's process (Discord maps "/"
            # to one host) answers the table's address under shard 1's prefix.
            discord.launch("i-web-1", str(chan_b), [str(ana.id)], guild_id=str(guild_b))
            discord.grant("code-1", str(ana.id), "Owner")
            answer = await session.post(
                f"{zero}/activity/.proxy/api/token",
                json={"code": "code-1", "instance_id": "i-web-1"},
            )
            body = await answer.json()
            assert answer.status == 200, body
            assert body["table"] == f"s/1/table/{chan_b}/?session={body['session']}"
            # That address (as a host without Discord's proxy asks it) is shard 1's page.
            handed = "/activity/.proxy/" + str(body["table"])
            assert (await session.get(one + handed)).status == 200
            await _misdirected(await session.get(zero + handed))

        storage = await open_storage(pg_url, read_only=True)
        try:  # the moves made on the page are the table's, in the shared database
            table = await storage.table_at(str(chan_b))
            assert table is not None and table.guild == str(guild_b)
            match = await storage.current_match(table.id)
            assert match is not None
            seat = next(
                p.seat for p in await storage.match_players(match.id) if p.player_id == str(ana.id)
            )
            logged = [a.action for a in await storage.actions(match.id) if a.seat == seat]
            assert logged[: len(played)] == played
        finally:
            await storage.close()
        for proc in procs:
            await stop(proc)
    finally:
        for proc in procs:
            if proc.proc.returncode is None:
                proc.proc.kill()
                await proc.proc.wait()
        await oauth.close()
