"""A loopback stand-in for Discord's OAuth2 token endpoint, `/users/@me` and the Activity
instance endpoint, as strict as Discord about what it checks: the client id and secret, the
grant type, a code used once; an instance is read only with the application's bot token,
only for that application, and only while it runs (else 404)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from deucebot_dev.discord_standin import activity_instance

CLIENT_ID = "123456789012345678"
CLIENT_SECRET = "client-secret-for-tests"
BOT_TOKEN = "bot-token-for-tests"


@dataclass
class OAuthStandin:
    """Codes it accepts (code -> the user it signs in) and tokens it issued."""

    codes: dict[str, dict[str, str]] = field(default_factory=dict)
    tokens: dict[str, dict[str, str]] = field(default_factory=dict)
    expired: set[str] = field(default_factory=set)
    """Access tokens that have expired since they were issued (answered 401)."""
    calls: list[str] = field(default_factory=list)
    instances: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Running Activity instances by id, as Discord serialises them."""
    bot_token: str = BOT_TOKEN
    """The application's bot token, the only one that reads its instances."""

    def launch(
        self, instance_id: str, channel_id: str, users: list[str], guild_id: str | None = "77"
    ) -> None:
        """Run instance `instance_id` of the application in `channel_id` with `users` in it
        (a guild channel, or with `guild_id` None a private one)."""
        self.instances[instance_id] = activity_instance(
            CLIENT_ID, instance_id, "1276580072400224306", channel_id, guild_id, users
        )

    def grant(self, code: str, user_id: str, name: str, locale: str = "en-US") -> None:
        """Make `code` a valid code for the user `user_id`."""
        self.codes[code] = {
            "id": user_id,
            "username": name.lower(),
            "global_name": name,
            "locale": locale,
            "discriminator": "0",
            "avatar": "",
        }

    def app(self) -> web.Application:
        """The stand-in's routes (mounted at the API base, e.g. ``http://127.0.0.1:P/api``)."""
        app = web.Application()
        app.router.add_post("/api/oauth2/token", self._token)
        app.router.add_get("/api/users/@me", self._me)
        app.router.add_get(
            "/api/v10/applications/{app}/activity-instances/{instance}", self._instance
        )
        return app

    async def _instance(self, request: web.Request) -> web.Response:
        self.calls.append("instance")
        if request.headers.get("Authorization") != f"Bot {self.bot_token}":
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        if request.match_info["app"] != CLIENT_ID:
            return web.json_response({"message": "Missing Access", "code": 50001}, status=403)
        found = self.instances.get(request.match_info["instance"])
        if found is None:
            return web.json_response({"message": "404: Not Found", "code": 0}, status=404)
        return web.json_response(found)

    async def _token(self, request: web.Request) -> web.Response:
        form = await request.post()
        self.calls.append("token")
        if form.get("client_id") != CLIENT_ID or form.get("client_secret") != CLIENT_SECRET:
            return web.json_response({"error": "invalid_client"}, status=401)
        if form.get("grant_type") != "authorization_code":
            return web.json_response({"error": "unsupported_grant_type"}, status=400)
        code = str(form.get("code"))
        if code == "refused-by-member":
            return web.json_response({"error": "access_denied"}, status=400)
        user = self.codes.pop(code, None)  # a code is good once
        if user is None:
            return web.json_response(
                {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'},
                status=400,
            )
        token = f"access-{len(self.tokens)}"
        self.tokens[token] = user
        return web.json_response(
            {
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": 604800,
                "refresh_token": "r",
                "scope": "identify",
            }
        )

    async def _me(self, request: web.Request) -> web.Response:
        self.calls.append("me")
        header = request.headers.get("Authorization", "")
        token = header.removeprefix("Bearer ")
        if not header.startswith("Bearer ") or token not in self.tokens or token in self.expired:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return web.json_response(self.tokens[token])
