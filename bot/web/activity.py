"""The Activity's server side: the SDK client's code exchange and the session it gets.

Inside Discord the Activity's page (`bot/web/static/activity/`) runs the Embedded App SDK's
`ready` -> `authorize` and posts the code with the SDK's `instanceId` to ``api/token``
(through Discord's proxy: ``/.proxy/api/token``). The server exchanges the code
(`bot.web.oauth`), reads the user, then reads that Activity instance from Discord with the
bot token: the channel is the instance's ``location`` (never what the page says), and the
user must be among the instance's ``users``. It answers with the access token (for the SDK's
`authenticate`), a signed session bound to that channel's table (purpose
``activity-session``, `SESSION_SECONDS` long) and the relative address of the table page,
under the prefix of its guild's shard (``s/<shard>/table/<channel>/``).
The table page and its WebSocket present the session as ``Authorization: Bearer <session>``
or ``?session=<session>``; the member's seat follows from their Discord id, anyone else
watches the public table.

Refusals (JSON ``{"error": code, "message": words}``): ``no_code`` (no code posted, as when
the member refused the authorization), ``no_instance`` (no instance id posted),
``unknown_instance`` (Discord knows no such running instance of this application),
``not_in_instance`` (the signed-in user is not connected to it), ``denied``,
``invalid_code`` (an invalid or expired code), ``token_expired``, ``misconfigured``,
``discord_unreachable``; and for the session, ``forged``, ``expired``, ``other_table``.
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.i18n import normalise_language
from bot.runtime.shards import shard_of
from bot.web.identity import Viewer, WebAuthError
from bot.web.links import table_path
from bot.web.oauth import (
    MISCONFIGURED,
    TOKEN_EXPIRED,
    UNKNOWN_INSTANCE,
    UNREACHABLE,
    DiscordOAuth,
    OAuthRefused,
)
from bot.web.refusals import refusal_json, refusal_text, request_language
from bot.web.signing import FORGED, sign, unsign

PURPOSE = "activity-session"
SESSION_SECONDS = 3600.0
"""How long an Activity session signs in (a new one comes with every launch)."""
EXPIRED, OTHER_TABLE, NO_CODE = "expired", "other_table", "no_code"
NO_INSTANCE, NOT_IN_INSTANCE = "no_instance", "not_in_instance"
ACTIVITY_PATH = "/activity"
"""Where the Activity lives on the server (the developer portal maps ``/`` to it)."""
STATIC = Path(str(resources.files("bot.web"))) / "static" / "activity"


class ActivitySessions:
    """Makes and reads Activity sessions signed with `secret`; `clock` is injected."""

    def __init__(
        self,
        secret: str,
        *,
        lifetime: float = SESSION_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """Sessions of `lifetime` seconds."""
        if not secret:
            raise ValueError("Activity sessions need a secret (DEUCEBOT_LINK_SECRET)")
        self._secret, self.lifetime, self.clock = secret, lifetime, clock

    def make(self, viewer: Viewer) -> str:
        """A session signing `viewer` in."""
        payload = {
            "p": viewer.place,
            "m": viewer.player_id,
            "n": viewer.name,
            "l": viewer.locale,
            "e": round(self.clock() + self.lifetime),
        }
        return sign(self._secret, PURPOSE, payload)

    def read(self, token: str) -> Viewer:
        """The viewer `token` signs in; `WebAuthError` ``forged`` or ``expired``."""
        data = unsign(self._secret, PURPOSE, token)
        try:
            member = data["m"]
            viewer = Viewer(
                place=str(data["p"]),
                player_id=None if member is None else str(member),
                name=str(data["n"]),
                locale=None if data["l"] is None else str(data["l"]),
            )
            expires = float(data["e"])
        except (KeyError, TypeError, ValueError):
            raise WebAuthError(FORGED) from None
        if self.clock() >= expires:
            raise WebAuthError(EXPIRED)
        return viewer


class ActivityAuthenticator:
    """The `Authenticator` of Activity sessions (``Authorization: Bearer`` or ``?session=``)."""

    def __init__(self, sessions: ActivitySessions) -> None:
        """An authenticator reading sessions made by `sessions`."""
        self.sessions = sessions

    async def authenticate(self, request: web.Request) -> Viewer | None:
        """The member the request's session signs in; None without a session."""
        header = request.headers.get("Authorization", "")
        token = header[7:].strip() if header.startswith("Bearer ") else None
        token = token or request.query.get("session")
        if not token:
            return None
        viewer = self.sessions.read(token)
        place = request.match_info.get("place")
        if place is not None and place != viewer.place:
            raise WebAuthError(OTHER_TABLE)
        return viewer


async def _posted(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def add_routes(
    app: web.Application,
    oauth: DiscordOAuth,
    sessions: ActivitySessions,
    *,
    page: Callable[[str, int], str] = table_path,
    shard_count: int = 1,
) -> None:
    """Mount the Activity on `app` under `ACTIVITY_PATH`: its page and ES modules, and
    ``POST api/token`` (also under ``.proxy/``, as the page asks through Discord's proxy);
    `page(place, shard)` is the table page the Activity hands over to, under the prefix of
    the shard of the instance's guild among `shard_count` (any process may exchange the
    code: the page then goes to the process driving the table)."""

    async def token(request: web.Request) -> web.Response:
        body = await _posted(request)
        lang = request_language(request)
        code, instance_id = body.get("code"), body.get("instance_id")
        if not isinstance(code, str) or not code:
            return refusal_json(NO_CODE, lang, 400)
        if not isinstance(instance_id, str) or not instance_id:
            return refusal_json(NO_INSTANCE, lang, 400)
        try:
            access = await oauth.exchange(code)
            user = await oauth.user(access)
            # Where the Activity runs is Discord's word, not the page's: a member naming
            # another channel (even in another server) would watch its table.
            instance = await oauth.instance(instance_id)
        except OAuthRefused as refused:
            return refusal_json(refused.code, lang, _STATUS.get(refused.code, 401))
        if user.id not in instance.users:
            return refusal_json(NOT_IN_INSTANCE, lang, 403)
        channel = instance.channel_id
        shard = shard_of(instance.guild_id or "", shard_count)
        viewer = Viewer(channel, user.id, user.name, normalise_language(user.locale))
        session = sessions.make(viewer)
        return web.json_response(
            {
                "access_token": access,
                "session": session,
                "place": channel,
                "table": page(channel, shard).lstrip("/") + "?session=" + session,
                "user": {"id": user.id, "name": user.name, "locale": viewer.locale},
                # What the page says if the SDK's own authenticate then fails.
                "refusals": {TOKEN_EXPIRED: refusal_text(TOKEN_EXPIRED, lang)},
            },
            headers={"Cache-Control": "no-store"},
        )

    shell = (STATIC / "index.html").read_text(encoding="utf-8")
    shell = shell.replace("{{client_id}}", html.escape(oauth.client_id, quote=True))

    async def index(request: web.Request) -> web.Response:
        return web.Response(text=shell, content_type="text/html", headers=_PAGE_HEADERS)

    async def close(_app: web.Application) -> None:
        await oauth.close()

    app.router.add_post(f"{ACTIVITY_PATH}/api/token", token)
    app.router.add_post(f"{ACTIVITY_PATH}/.proxy/api/token", token)
    app.router.add_get(f"{ACTIVITY_PATH}/", index)
    # Discord's proxy strips ``/.proxy`` (the page asks under it); without the proxy in front
    # (a local test host) the prefix arrives: both spellings are served.
    app.router.add_static(f"{ACTIVITY_PATH}/static", STATIC)
    app.router.add_static(f"{ACTIVITY_PATH}/.proxy/static", STATIC)
    app.on_cleanup.append(close)


_STATUS = {MISCONFIGURED: 502, UNREACHABLE: 502, UNKNOWN_INSTANCE: 403}
"""The HTTP status of an `OAuthRefused` code (401 for the others: the sign-in itself)."""

_PAGE_HEADERS = {
    "Cache-Control": "no-store",
    # Only what the proxy serves: this origin's own modules and requests, nothing external.
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data:;"
        " style-src 'self'; frame-ancestors https://discord.com https://*.discord.com 'self'"
    ),
}
