"""The Activity's server side (`bot.web.activity`, `bot.web.oauth`) against a loopback
stand-in of Discord's OAuth2 and Activity instance endpoints: the code exchange, the
channel read from Discord's instance (never the page's word), the session, each refusal."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import asdict, dataclass

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.web.activity import ActivityAuthenticator, ActivitySessions, add_routes
from bot.web.identity import Viewer, WebAuthError
from bot.web.oauth import DiscordOAuth
from tests.bot.web.oauth_standin import BOT_TOKEN, CLIENT_ID, CLIENT_SECRET, OAuthStandin

SECRET = "link-secret-for-tests"


class Clock:
    """A wall clock the test moves."""

    def __init__(self) -> None:
        self.now = 2_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Rig:
    """The bot's app (Activity routes and a stand-in table page) and Discord's stand-in."""

    bot: TestClient[web.Request, web.Application]
    discord: OAuthStandin
    sessions: ActivitySessions
    clock: Clock


async def _rig(
    secret: str = CLIENT_SECRET, bot_token: str = BOT_TOKEN, shard_count: int = 1
) -> tuple[Rig, list[TestClient[web.Request, web.Application]]]:
    standin = OAuthStandin()
    discord = TestClient(TestServer(standin.app()))
    await discord.start_server()
    clock = Clock()
    sessions = ActivitySessions(SECRET, clock=clock)
    auth = ActivityAuthenticator(sessions)
    oauth = DiscordOAuth(CLIENT_ID, secret, str(discord.make_url("/api")), bot_token=bot_token)
    standin.launch("i-1", "4242", ["1001", "1002"])
    app = web.Application()
    add_routes(app, oauth, sessions, shard_count=shard_count)

    async def page(request: web.Request) -> web.Response:
        try:
            viewer = await auth.authenticate(request)
        except WebAuthError as refused:
            return web.json_response({"refused": refused.code}, status=403)
        return web.json_response(None if viewer is None else asdict(viewer))

    app.router.add_get("/s/{shard}/table/{place}", page)
    bot = TestClient(TestServer(app))
    await bot.start_server()
    return Rig(bot, standin, sessions, clock), [bot, discord]


@pytest.fixture
async def rig() -> AsyncIterator[Rig]:
    made, clients = await _rig()
    try:
        yield made
    finally:
        for client in clients:
            await client.close()


async def _post(
    rig: Rig, body: object, path: str = "/activity/.proxy/api/token", lang: str = "en"
) -> tuple[int, dict[str, object]]:
    answer = await rig.bot.post(path, json=body, headers={"Accept-Language": lang})
    return answer.status, await answer.json()


async def test_a_code_becomes_a_session_bound_to_the_channels_table(rig: Rig) -> None:
    rig.discord.grant("good-code", "1001", "Ada", "fr")
    status, body = await _post(rig, {"code": "good-code", "instance_id": "i-1"})
    assert status == 200, body
    assert body["access_token"] == "access-0"  # what the SDK's authenticate needs
    assert body["user"] == {"id": "1001", "name": "Ada", "locale": "fr"}
    session = str(body["session"])
    assert body["table"] == f"s/0/table/4242/?session={session}"
    assert rig.sessions.read(session) == Viewer("4242", "1001", "Ada", "fr")
    # The table page signs the member in by the session, as a header or on the URL.
    page = await rig.bot.get("/s/0/table/4242", headers={"Authorization": f"Bearer {session}"})
    assert (await page.json())["player_id"] == "1001"
    page = await rig.bot.get(f"/s/0/table/4242?session={session}")
    assert (await page.json())["place"] == "4242"
    # Another channel's table is refused, and nothing signs in without a session.
    other = await rig.bot.get(f"/s/0/table/5555?session={session}")
    assert other.status == 403 and (await other.json())["refused"] == "other_table"
    assert await (await rig.bot.get("/s/0/table/4242")).json() is None
    # Without Discord's proxy in front the route answers too.
    rig.discord.grant("second", "1002", "Bo")
    status, body = await _post(rig, {"code": "second", "instance_id": "i-1"}, "/activity/api/token")
    assert status == 200 and body["user"] == {"id": "1002", "name": "Bo", "locale": "en"}


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"instance_id": "i-1"}, 400, "no_code"),  # the member refused the authorization
        ({"code": "", "instance_id": "i-1"}, 400, "no_code"),
        ({"code": "x", "channel_id": "4242"}, 400, "no_instance"),  # a channel is not taken
        ({"code": "x", "instance_id": ""}, 400, "no_instance"),
        ({"code": "refused-by-member", "instance_id": "i-1"}, 401, "denied"),
        ({"code": "never-issued", "instance_id": "i-1"}, 401, "invalid_code"),
    ],
)
async def test_refusals_of_the_exchange(rig: Rig, body: object, status: int, code: str) -> None:
    got, answer = await _post(rig, body, lang="fr")
    assert (got, answer["error"]) == (status, code)
    assert answer["message"]
    assert "session" not in answer and "access_token" not in answer


async def test_the_channel_is_the_instances_not_the_pages(rig: Rig) -> None:
    """A member in an Activity in channel 4242 names channel 9999 (another server's, with a
    table): the session is bound to 4242, where Discord says the instance runs."""
    rig.discord.grant("good-code", "1001", "Ada")
    status, body = await _post(
        rig, {"code": "good-code", "instance_id": "i-1", "channel_id": "9999", "guild_id": "5"}
    )
    assert status == 200, body
    assert body["place"] == "4242"
    assert rig.sessions.read(str(body["session"])).place == "4242"
    assert rig.discord.calls == ["token", "me", "instance"]
    other = await rig.bot.get(f"/s/0/table/9999?session={body['session']}")
    assert (await other.json())["refused"] == "other_table"


async def test_an_instance_in_another_channel_binds_to_that_channel(rig: Rig) -> None:
    rig.discord.launch("i-2", "5555", ["1001"], guild_id="88")
    rig.discord.grant("good-code", "1001", "Ada")
    status, body = await _post(rig, {"code": "good-code", "instance_id": "i-2"})
    assert (status, body["place"]) == (200, "5555")


@pytest.mark.parametrize(("guild", "shard"), [(1 << 22, 1), (2 << 22, 0), (3 << 22 | 99, 1)])
async def test_the_table_address_carries_the_shard_of_the_instances_guild(
    guild: int, shard: int
) -> None:
    """Any process may exchange the code (Discord maps ``/`` to one host): the answer sends
    the page under the prefix of the shard driving the table, Discord's
    ``(guild >> 22) % shard_count``, whatever process answered."""
    made, clients = await _rig(shard_count=2)
    try:
        made.discord.launch("i-9", "5555", ["1001"], guild_id=str(guild))
        made.discord.grant("good-code", "1001", "Ada")
        status, body = await _post(made, {"code": "good-code", "instance_id": "i-9"})
        assert status == 200, body
        assert body["table"] == f"s/{shard}/table/5555/?session={body['session']}"
    finally:
        for client in clients:
            await client.close()


async def test_an_unknown_instance_is_refused(rig: Rig) -> None:
    rig.discord.grant("good-code", "1001", "Ada")
    status, body = await _post(rig, {"code": "good-code", "instance_id": "i-404"}, lang="fr")
    assert (status, body["error"]) == (403, "unknown_instance")
    assert body["message"] == (
        "Discord ne connaît aucune activité en cours de ce nom. Relancez-la depuis le salon."
    )
    assert "session" not in body and "access_token" not in body


@pytest.mark.parametrize(
    "instance_id", ["../../users/@me", "i-1/../i-1", "i%2D1", "i 1", "x" * 201]
)
async def test_an_instance_id_never_reaches_another_path(rig: Rig, instance_id: str) -> None:
    """The id goes into the URL's path: anything but letters, digits, ``-`` and ``_`` is
    refused before Discord is asked."""
    rig.discord.grant("good-code", "1001", "Ada")
    status, body = await _post(rig, {"code": "good-code", "instance_id": instance_id})
    assert (status, body["error"]) == (403, "unknown_instance")
    assert "instance" not in rig.discord.calls


async def test_a_user_not_in_the_instance_is_refused(rig: Rig) -> None:
    """A member who knows a running instance's id (it is in every launch's URL) but is not
    connected to it gets no session for its channel."""
    rig.discord.grant("good-code", "3003", "Eve")
    status, body = await _post(rig, {"code": "good-code", "instance_id": "i-1"}, lang="uk")
    assert (status, body["error"]) == (403, "not_in_instance")
    assert body["message"] == (
        "Ви не в цій активності, тож її стіл для вас не відкриється. Приєднайтеся до неї з каналу."
    )
    assert "session" not in body and "access_token" not in body


async def test_an_ended_instance_is_refused(rig: Rig) -> None:
    rig.discord.grant("good-code", "1001", "Ada")
    del rig.discord.instances["i-1"]  # everyone left: the instance ended
    status, body = await _post(rig, {"code": "good-code", "instance_id": "i-1"})
    assert (status, body["error"]) == (403, "unknown_instance")


async def test_a_wrong_bot_token_says_misconfigured() -> None:
    made, clients = await _rig(bot_token="not the token")
    try:
        made.discord.grant("good", "1001", "Ada")
        status, body = await _post(made, {"code": "good", "instance_id": "i-1"})
        assert (status, body["error"]) == (502, "misconfigured")
        assert "not the token" not in str(body)
    finally:
        for client in clients:
            await client.close()


async def test_a_code_is_good_once(rig: Rig) -> None:
    rig.discord.grant("once", "1001", "Ada")
    assert (await _post(rig, {"code": "once", "instance_id": "i-1"}))[0] == 200
    status, body = await _post(rig, {"code": "once", "instance_id": "i-1"}, lang="uk")
    assert (status, body["error"]) == (401, "invalid_code")
    assert (
        body["message"]
        == "Discord відхилив код входу (недійсний або прострочений). Запустіть активність знову."
    )


async def test_an_expired_access_token_is_refused(rig: Rig) -> None:
    rig.discord.grant("late", "1001", "Ada")
    rig.discord.expired.add("access-0")  # expired before the user is read
    status, body = await _post(rig, {"code": "late", "instance_id": "i-1"})
    assert (status, body["error"]) == (401, "token_expired")
    assert rig.discord.calls == ["token", "me"]


async def test_a_wrong_client_secret_says_misconfigured() -> None:
    made, clients = await _rig(secret="not the secret")
    try:
        made.discord.grant("good", "1001", "Ada")
        status, body = await _post(made, {"code": "good", "instance_id": "i-1"})
        assert (status, body["error"]) == (502, "misconfigured")
    finally:
        for client in clients:
            await client.close()


async def test_discord_unreachable() -> None:
    oauth = DiscordOAuth(
        CLIENT_ID, CLIENT_SECRET, "http://127.0.0.1:9/api", bot_token=BOT_TOKEN, timeout=5
    )
    app = web.Application()
    add_routes(app, oauth, ActivitySessions(SECRET))
    async with TestClient(TestServer(app)) as bot:
        answer = await bot.post("/activity/api/token", json={"code": "c", "instance_id": "i-1"})
        assert answer.status == 502
        assert (await answer.json())["error"] == "discord_unreachable"


async def test_forged_and_expired_sessions_are_refused(rig: Rig) -> None:
    session = rig.sessions.make(Viewer("4242", "1001", "Ada", "en"))
    forged = ActivitySessions("another secret").make(Viewer("4242", "1001", "Ada", "en"))
    answer = await rig.bot.get(f"/s/0/table/4242?session={forged}")
    assert (await answer.json())["refused"] == "forged"
    answer = await rig.bot.get(f"/s/0/table/4242?session={session[:-1]}A")
    assert (await answer.json())["refused"] == "forged"
    rig.clock.now += 3600
    answer = await rig.bot.get(f"/s/0/table/4242?session={session}")
    assert (await answer.json())["refused"] == "expired"


async def test_the_activity_page_forbids_anything_external(rig: Rig) -> None:
    answer = await rig.bot.get("/activity/")
    assert answer.status == 200
    policy = answer.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    assert "http" not in policy.split("frame-ancestors")[0]
