"""Who is looking at a web table: the seam between the web server and its ways to sign in.

The web server asks each configured `Authenticator` in turn, for every page load and
WebSocket upgrade, who the request comes from. The local table (`deucebot play --web`) has
one authenticator (a random token in the URL printed on the terminal); Discord adds the
Activity's session and the signed per-member links of `/hand`. An authenticator answers
`None` when the request is not of its kind, and raises `WebAuthError` when it is of its
kind but refused (expired, revoked, forged).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from aiohttp import web

from bot.errors import DeucebotError


@dataclass(frozen=True, slots=True)
class Viewer:
    """A signed-in viewer of the table at `place` (the runtime's table key).

    `player_id` is the runtime's `Player.id` (a Discord user id as text, or "terminal"); a
    seat at the table owned by that id is the viewer's seat. `None` watches the public table
    only. `locale` is the viewer's language when the sign-in tells it ("en", "fr", "uk")."""

    place: str
    player_id: str | None
    name: str
    locale: str | None = None


class WebAuthError(DeucebotError):
    """A sign-in of an authenticator's kind that is refused; `code` names why (a locale key
    suffix such as "expired", "revoked", "forged", "denied")."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class Authenticator(Protocol):
    """One way to sign in to a web table."""

    async def authenticate(self, request: web.Request) -> Viewer | None:
        """The viewer `request` comes from, None when the request is not of this kind."""
        ...
