"""The local sign-in of `deucebot play --web`: a random token in the URL printed on the
terminal names the terminal player's seat; a request without it is not of this kind, one
with a wrong token is refused."""

from __future__ import annotations

import hmac
import os
import secrets
from pathlib import Path

from aiohttp import web

from bot.web.identity import Viewer, WebAuthError

TOKEN_PARAM = "token"
"""The query parameter carrying the local token (on the page's URL and its WebSocket's)."""


class LocalAuthenticator:
    """Signs in whoever presents `token` as `player_id` (named `name`, reading `locale`:
    the terminal's language, that of a saved table included) at `place`."""

    def __init__(
        self, place: str, player_id: str, name: str, token: str, locale: str | None = None
    ) -> None:
        """Accept `token` (compared in constant time) for `player_id`'s seat at `place`."""
        self.place = place
        self.player_id = player_id
        self.name = name
        self.token = token
        self.locale = locale

    async def authenticate(self, request: web.Request) -> Viewer | None:
        """The terminal player when the request carries the token; None without one."""
        given = request.query.get(TOKEN_PARAM)
        if given is None:
            return None
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            raise WebAuthError("wrong_token")
        return Viewer(self.place, self.player_id, self.name, self.locale)


def new_token() -> str:
    """A fresh random token (URL-safe, 128 bits)."""
    return secrets.token_urlsafe(16)


def kept_token(path: Path) -> str:
    """The token kept in `path` (beside a saved match's database, so a page left open
    signs in again after a restart), made and written (owner-only) the first time."""
    try:
        token = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        token = ""
    if token:
        return token
    token = new_token()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(token + "\n")
    return token
