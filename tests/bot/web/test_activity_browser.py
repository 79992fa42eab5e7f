"""The Activity's page in a real browser (Debian's Chromium through playwright), with the
real Embedded App SDK (the vendored build) inside an iframe whose parent is a stand-in of
Discord's client: it speaks the SDK's postMessage protocol (HANDSHAKE -> READY, the
AUTHORIZE and AUTHENTICATE commands as FRAMEs answered by nonce, ERROR frames), and the
bot's server exchanges codes and reads the Activity instance at a loopback stand-in of
Discord's OAuth2 and instance endpoints."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.web.activity import ActivityAuthenticator, ActivitySessions, add_routes
from bot.web.identity import WebAuthError
from bot.web.oauth import DiscordOAuth
from tests.bot.web.oauth_standin import BOT_TOKEN, CLIENT_ID, CLIENT_SECRET, OAuthStandin
from tests.e2e.web_browser import chromium

pytest.importorskip("playwright.async_api")  # a dev dependency

HOST_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Discord stand-in</title>
</head><body>
<iframe id="activity" title="activity" width="400" height="300"
  src="/activity/?frame_id=frame-1&instance_id=i-1&platform=desktop&guild_id=77&channel_id=__CHANNEL__">
</iframe>
<script>
const CONFIG = __CONFIG__;
const frame = document.getElementById("activity");
window.sdkLog = [];
function reply(payload) { frame.contentWindow.postMessage([1, payload], location.origin); }
window.addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow || event.origin !== location.origin) return;
  const [op, data] = event.data;
  window.sdkLog.push([op, data.cmd || null]);
  if (op === 0) {  // HANDSHAKE: Discord checks the client id and frame before READY
    if (data.v !== 1 || data.client_id !== CONFIG.clientId || data.frame_id !== "frame-1") {
      frame.contentWindow.postMessage([2, {code: 4007, message: "Invalid Client ID"}],
                                      location.origin);
      return;
    }
    reply({cmd: "DISPATCH", evt: "READY", nonce: null, data: {v: 1,
      config: {api_endpoint: "//discord.com/api", environment: "production",
               cdn_host: "cdn.discordapp.com"},
      user: {id: "1001", username: "ada", discriminator: "0"}}});
  } else if (op === 1 && data.cmd === "AUTHORIZE") {
    const args = data.args;
    const asked = args.client_id === CONFIG.clientId && args.response_type === "code"
      && JSON.stringify(args.scope) === JSON.stringify(["identify"]);
    if (!asked || CONFIG.authorize === "refuse") {
      reply({cmd: "AUTHORIZE", evt: "ERROR", nonce: data.nonce,
             data: {code: 5000, message: "OAuth2 Error: access_denied"}});
    } else {
      reply({cmd: "AUTHORIZE", evt: null, nonce: data.nonce, data: {code: CONFIG.code}});
    }
  } else if (op === 1 && data.cmd === "AUTHENTICATE") {
    if (CONFIG.authenticate === "refuse" || !data.args.access_token) {
      reply({cmd: "AUTHENTICATE", evt: "ERROR", nonce: data.nonce,
             data: {code: 4009, message: "Invalid access token"}});
      return;
    }
    window.authenticatedWith = data.args.access_token;
    reply({cmd: "AUTHENTICATE", evt: null, nonce: data.nonce, data: {
      access_token: data.args.access_token,
      user: {id: "1001", username: "ada", discriminator: "0", public_flags: 0},
      scopes: ["identify"], expires: "2030-01-01T00:00:00.000Z",
      application: {id: CONFIG.clientId, name: "Deucebot", description: ""}}});
  }
});
</script></body></html>"""


@dataclass
class Rig:
    """The bot's app with the Activity and a host page; Discord's OAuth2 stand-in."""

    url: str
    discord: OAuthStandin


@pytest.fixture
async def rig() -> AsyncIterator[Rig]:
    standin = OAuthStandin()
    discord = TestClient(TestServer(standin.app()))
    await discord.start_server()
    sessions = ActivitySessions("secret")
    auth = ActivityAuthenticator(sessions)
    app = web.Application()
    oauth = DiscordOAuth(
        CLIENT_ID, CLIENT_SECRET, str(discord.make_url("/api")), bot_token=BOT_TOKEN
    )
    add_routes(app, oauth, sessions)
    standin.launch("i-1", "4242", ["1001"])

    async def host(request: web.Request) -> web.Response:
        config = {
            "clientId": CLIENT_ID,
            "code": request.query.get("code", "good-code"),
            "authorize": request.query.get("authorize", "accept"),
            "authenticate": request.query.get("authenticate", "accept"),
        }
        # The URL's channel is the client's word (a forged client may name any channel).
        channel = request.query.get("channel", "4242")
        page = HOST_PAGE.replace("__CONFIG__", json.dumps(config)).replace("__CHANNEL__", channel)
        return web.Response(text=page, content_type="text/html")

    async def table(request: web.Request) -> web.Response:
        """A stand-in of the table page: says whom the session signs in."""
        try:
            viewer = await auth.authenticate(request)
        except WebAuthError as refused:
            return web.Response(text=f"refused {refused.code}", status=403)
        who = "nobody" if viewer is None else f"{viewer.player_id} at {viewer.place}"
        return web.Response(text=f"<p id='who'>{who}</p>", content_type="text/html")

    app.router.add_get("/host", host)
    app.router.add_get("/activity/.proxy/s/{shard}/table/{place}/", table)
    bot = TestClient(TestServer(app, host="127.0.0.1"))
    await bot.start_server()
    try:
        yield Rig(str(bot.make_url("")), standin)
    finally:
        await bot.close()
        await discord.close()


@pytest.fixture
async def browser() -> AsyncIterator[object]:
    # Without Chromium: skipped here, failed under CI (which installs it).
    async with chromium() as launched:
        yield launched


async def _open(browser: object, rig: Rig, query: str, locale: str = "en-US") -> object:
    context = await browser.new_context(locale=locale)  # type: ignore[attr-defined]
    page = await context.new_page()
    await page.goto(f"{rig.url}/host?{query}")
    return page


def _activity(page: object) -> object:
    return page.frame_locator("#activity")  # type: ignore[attr-defined]


async def test_the_sdk_handshake_signs_the_member_in_and_hands_over(browser, rig: Rig) -> None:  # type: ignore[no-untyped-def]
    rig.discord.grant("good-code", "1001", "Ada")
    page = await _open(browser, rig, "code=good-code")
    who = _activity(page).locator("#who")
    await who.wait_for(timeout=20_000)
    assert await who.text_content() == "1001 at 4242"
    log = await page.evaluate("window.sdkLog")
    assert [entry for entry in log if entry[1] != "CAPTURE_LOG"][:3] == [
        [0, None],
        [1, "AUTHORIZE"],
        [1, "AUTHENTICATE"],
    ]
    assert await page.evaluate("window.authenticatedWith") == "access-0"
    assert rig.discord.calls == ["token", "me", "instance"]
    frame_url = page.frames[1].url
    assert frame_url.startswith(f"{rig.url}/activity/.proxy/s/0/table/4242/?session=")


async def test_the_channel_on_the_url_is_not_trusted(browser, rig: Rig) -> None:  # type: ignore[no-untyped-def]
    """The frame's URL names channel 9999; Discord's instance runs in 4242: the member is
    signed in at 4242's table only."""
    rig.discord.grant("good-code", "1001", "Ada")
    page = await _open(browser, rig, "code=good-code&channel=9999")
    who = _activity(page).locator("#who")
    await who.wait_for(timeout=20_000)
    assert await who.text_content() == "1001 at 4242"


async def test_a_member_not_in_the_instance_is_refused(browser, rig: Rig) -> None:  # type: ignore[no-untyped-def]
    rig.discord.grant("good-code", "3003", "Eve")
    page = await _open(browser, rig, "code=good-code", locale="fr-FR")
    status = _activity(page).locator("body[data-state=refused] #status")
    await status.wait_for(timeout=20_000)
    assert await _activity(page).locator("body").get_attribute("data-error") == "not_in_instance"
    assert (await status.text_content() or "").startswith("Vous n'êtes pas dans cette activité")
    assert await page.evaluate("window.authenticatedWith") is None


async def test_a_refused_authorization_is_said_in_the_members_language(browser, rig: Rig) -> None:  # type: ignore[no-untyped-def]
    page = await _open(browser, rig, "authorize=refuse", locale="fr-FR")
    status = _activity(page).locator("body[data-state=refused] #status")
    await status.wait_for(timeout=20_000)
    assert (await status.text_content() or "").startswith("Discord n'a pas autorisé Deucebot")
    assert await _activity(page).locator("body").get_attribute("data-error") == "no_code"
    assert rig.discord.calls == []  # nothing was exchanged


async def test_an_expired_access_token_is_refused(browser, rig: Rig) -> None:  # type: ignore[no-untyped-def]
    rig.discord.grant("good-code", "1001", "Ada")
    rig.discord.expired.add("access-0")
    page = await _open(browser, rig, "code=good-code", locale="uk-UA")
    status = _activity(page).locator("body[data-state=refused] #status")
    await status.wait_for(timeout=20_000)
    assert await _activity(page).locator("body").get_attribute("data-error") == "token_expired"
    assert (
        await status.text_content()
        == "Термін вашого входу в Discord минув. Запустіть активність знову."
    )


async def test_an_invalid_code_and_a_refused_authenticate(browser, rig: Rig) -> None:  # type: ignore[no-untyped-def]
    page = await _open(browser, rig, "code=stale-code")
    status = _activity(page).locator("body[data-state=refused] #status")
    await status.wait_for(timeout=20_000)
    assert await _activity(page).locator("body").get_attribute("data-error") == "invalid_code"
    rig.discord.grant("good-code", "1001", "Ada")
    page = await _open(browser, rig, "code=good-code&authenticate=refuse")
    status = _activity(page).locator("body[data-state=refused] #status")
    await status.wait_for(timeout=20_000)
    assert await _activity(page).locator("body").get_attribute("data-error") == "token_expired"
    assert (await status.text_content() or "").startswith("Your Discord sign-in has expired.")
    assert await page.evaluate("window.authenticatedWith") is None
