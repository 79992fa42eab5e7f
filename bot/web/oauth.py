"""Discord's OAuth2 for the Activity: a code exchanged for an access token, then the user.

The Embedded App SDK's `authorize` gives the page a code; the page posts it to the bot
(`bot.web.activity`), which exchanges it at ``<base>/oauth2/token`` with the application's
client id and secret (the secret never leaves the server) and reads ``<base>/users/@me``
with the access token. Where the Activity runs is never taken from the page: the bot reads
the Activity instance the SDK names (``<base>/v10/applications/<client id>/
activity-instances/<instance id>``, with the bot token), whose ``location`` is the channel
and ``users`` the members connected to it. `base` is Discord's API
(``https://discord.com/api``) or a local stand-in in tests. Every refusal is an
`OAuthRefused` with a code the page can name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.errors import DeucebotError

DENIED, INVALID_CODE, TOKEN_EXPIRED = "denied", "invalid_code", "token_expired"
MISCONFIGURED, UNREACHABLE = "misconfigured", "discord_unreachable"
UNKNOWN_INSTANCE = "unknown_instance"
INSTANCE_ID = re.compile(r"[A-Za-z0-9_-]{1,200}")
"""What an Activity instance id may be (``i-<launch id>-gc-<guild id>-<channel id>``): it
goes into a URL path, so nothing else (no ``/``, ``.``, ``%``) reaches Discord."""


class OAuthRefused(DeucebotError):
    """Discord refused (or could not be asked): `code` names why."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code


@dataclass(frozen=True, slots=True)
class DiscordUser:
    """The signed-in Discord user: `id`, `name` (display name, else username), `locale`."""

    id: str
    name: str
    locale: str | None


@dataclass(frozen=True, slots=True)
class ActivityInstance:
    """A running Activity instance as Discord reports it: the channel it runs in (and its
    server, None in a private channel) and the ids of the users connected to it."""

    instance_id: str
    channel_id: str
    guild_id: str | None
    users: frozenset[str]


def _instance(instance_id: str, body: Any) -> ActivityInstance:
    """The instance of an answer of the instance endpoint; `OAuthRefused` if malformed."""
    location = body.get("location") if isinstance(body, dict) else None
    users = body.get("users") if isinstance(body, dict) else None
    channel = location.get("channel_id") if isinstance(location, dict) else None
    if not (isinstance(channel, str) and channel.isascii() and channel.isdigit()):
        raise OAuthRefused(UNREACHABLE, "an instance without a channel")
    if not isinstance(users, list):
        raise OAuthRefused(UNREACHABLE, "an instance without users")
    guild = location.get("guild_id") if isinstance(location, dict) else None
    return ActivityInstance(
        instance_id, channel, str(guild) if guild else None, frozenset(str(u) for u in users)
    )


def _token_error(status: int, body: Any) -> OAuthRefused:
    """The refusal of a token endpoint answer that gave no token."""
    error = body.get("error") if isinstance(body, dict) else None
    if error == "access_denied":
        return OAuthRefused(DENIED, str(error))
    if error == "invalid_grant":
        return OAuthRefused(INVALID_CODE, str(error))
    if error in ("invalid_client", "unauthorized_client", "invalid_request") or status == 401:
        return OAuthRefused(MISCONFIGURED, str(error))
    return OAuthRefused(UNREACHABLE, f"HTTP {status}")


class DiscordOAuth:
    """The OAuth2 calls of the Activity's sign-in, for application `client_id`."""

    def __init__(
        self,
        client_id: str,
        client_secret: str,
        base: str,
        *,
        bot_token: str,
        timeout: float = 10.0,
    ) -> None:
        """Calls to `base` (an API base URL without a trailing slash), each bounded by
        `timeout` seconds; `bot_token` reads Activity instances."""
        self.client_id, self._secret, self._bot_token = client_id, client_secret, bot_token
        self.base = base.rstrip("/")
        self._timeout = aiohttp.ClientTimeout(total=timeout)
        self._session: aiohttp.ClientSession | None = None

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=self._timeout)
        return self._session

    async def close(self) -> None:
        """Close the HTTP connections."""
        if self._session is not None:
            await self._session.close()

    async def exchange(self, code: str) -> str:
        """The access token `code` is worth; `OAuthRefused` when Discord refuses it."""
        form = {
            "client_id": self.client_id,
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        try:
            async with self._http().post(f"{self.base}/oauth2/token", data=form) as answer:
                body = await answer.json(content_type=None)
                status = answer.status
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            raise OAuthRefused(UNREACHABLE, type(error).__name__) from None
        token = body.get("access_token") if isinstance(body, dict) else None
        if status != 200 or not isinstance(token, str) or not token:
            raise _token_error(status, body)
        return token

    async def user(self, access_token: str) -> DiscordUser:
        """Who `access_token` belongs to; `OAuthRefused` ``token_expired`` once it is not
        valid any more."""
        headers = {"Authorization": f"Bearer {access_token}"}
        try:
            async with self._http().get(f"{self.base}/users/@me", headers=headers) as answer:
                status = answer.status
                body = await answer.json(content_type=None) if status == 200 else None
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            raise OAuthRefused(UNREACHABLE, type(error).__name__) from None
        if status == 401:
            raise OAuthRefused(TOKEN_EXPIRED)
        if status != 200 or not isinstance(body, dict) or not str(body.get("id", "")).isdigit():
            raise OAuthRefused(UNREACHABLE, f"HTTP {status}")
        name = body.get("global_name") or body.get("username") or str(body["id"])
        locale = body.get("locale")
        return DiscordUser(str(body["id"]), str(name), str(locale) if locale else None)

    async def instance(self, instance_id: str) -> ActivityInstance:
        """The running Activity instance `instance_id` of this application (where it runs,
        who is in it); `OAuthRefused` ``unknown_instance`` when Discord knows no such
        running instance (or the id cannot be one)."""
        if not INSTANCE_ID.fullmatch(instance_id):
            raise OAuthRefused(UNKNOWN_INSTANCE, "not an instance id")
        url = f"{self.base}/v10/applications/{self.client_id}/activity-instances/{instance_id}"
        headers = {"Authorization": f"Bot {self._bot_token}"}
        try:
            async with self._http().get(url, headers=headers) as answer:
                status = answer.status
                body = await answer.json(content_type=None) if status == 200 else None
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            raise OAuthRefused(UNREACHABLE, type(error).__name__) from None
        if status == 404:
            raise OAuthRefused(UNKNOWN_INSTANCE)
        if status in (401, 403):
            raise OAuthRefused(MISCONFIGURED, f"HTTP {status} reading an instance")
        if status != 200:
            raise OAuthRefused(UNREACHABLE, f"HTTP {status}")
        return _instance(instance_id, body)
