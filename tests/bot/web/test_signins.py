"""The web server's Discord sign-ins from the settings (`bot.web.signins`): the routes and
authenticators of exactly what is configured."""

from __future__ import annotations

from aiohttp import web

from bot.process.settings import load_settings
from bot.web.activity import ActivityAuthenticator
from bot.web.links import LinkAuthenticator
from bot.web.signins import discord_signins

LINKS = {"DEUCEBOT_PUBLIC_URL": "https://d.example", "DEUCEBOT_LINK_SECRET": "k" * 32}
ACTIVITY = {
    **LINKS,
    "DISCORD_TOKEN": "bot-token",
    "DEUCEBOT_ACTIVITY_CLIENT_ID": "123456789012345678",
    "DEUCEBOT_ACTIVITY_CLIENT_SECRET": "shh",
}


async def _zero(player_id: str) -> int:
    return 0


def _paths(app: web.Application) -> set[str]:
    return {route.resource.canonical for route in app.router.routes() if route.resource}


def test_nothing_configured_mounts_nothing() -> None:
    app = web.Application()
    assert discord_signins(app, load_settings(), _zero, {}.get) == []
    assert _paths(app) == set()


def test_links_alone() -> None:
    app = web.Application()
    found = discord_signins(app, load_settings(**LINKS), _zero, {}.get)
    assert [type(a) for a in found] == [LinkAuthenticator]
    assert _paths(app) == {"/s/{shard}/link/{token}"}


def test_links_and_the_activity() -> None:
    app = web.Application()
    found = discord_signins(app, load_settings(**ACTIVITY), _zero, {}.get)
    assert [type(a) for a in found] == [LinkAuthenticator, ActivityAuthenticator]
    assert {
        "/s/{shard}/link/{token}",
        "/activity/",
        "/activity/api/token",
        "/activity/.proxy/api/token",
    } <= _paths(app)


def test_no_activity_without_the_bot_token() -> None:
    """The bot token reads where an Activity runs: without it nothing would check the
    channel, so the Activity is not mounted at all."""
    app = web.Application()
    no_token = {k: v for k, v in ACTIVITY.items() if k != "DISCORD_TOKEN"}
    found = discord_signins(app, load_settings(**no_token), _zero, {}.get)
    assert [type(a) for a in found] == [LinkAuthenticator]
    assert "/activity/api/token" not in _paths(app)
