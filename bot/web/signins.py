"""The Discord sign-ins of the web server, from the settings: what the server mounts and asks.

`discord_signins` mounts the routes of the ways in that the settings configure (the `/hand`
links: `bot.web.links`; the Activity: `bot.web.activity`) and returns their
authenticators, for the server to ask in turn about every page load and WebSocket upgrade.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web

from bot.process.settings import Settings
from bot.web import activity, links
from bot.web.identity import Authenticator
from bot.web.oauth import DiscordOAuth


def discord_signins(
    app: web.Application,
    settings: Settings,
    generation: Callable[[str], Awaitable[int]],
    table_at: Callable[[str], int | None],
    *,
    page: Callable[[str, int], str] = links.table_path,
) -> list[Authenticator]:
    """Mount on `app` the sign-in routes `settings` configure; their authenticators (none
    when neither links nor the Activity are). `generation` reads a member's link generation
    (`Storage.link_generation`), `table_at` the id of the live table at a place, `page`
    the path of a place's table page (its place and shard)."""
    secret = settings.link_secret
    found: list[Authenticator] = []
    if not settings.links_ready or not secret:
        return found
    checker = links.LinkAuthenticator(links.LinkSigner(secret), generation, table_at)
    links.add_routes(app, checker, page=page)
    found.append(checker)
    client_id, client_secret = settings.activity_client_id, settings.activity_client_secret
    bot_token = settings.discord_token
    if settings.activity_ready and client_id and client_secret and bot_token:
        sessions = activity.ActivitySessions(secret)
        oauth = DiscordOAuth(client_id, client_secret, settings.oauth_base, bot_token=bot_token)
        activity.add_routes(app, oauth, sessions, page=page, shard_count=settings.shard_count or 1)
        found.append(activity.ActivityAuthenticator(sessions))
    return found
