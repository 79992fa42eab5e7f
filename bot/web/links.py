"""Signed per-member browser links to one seat at one table (`/hand` -> "Open in browser").

A link is ``<public URL>/s/<shard>/link/<token>`` (the shard of the table's guild: a
reverse proxy routes ``/s/<shard>/`` to the process driving that shard): the token
(`bot.web.signing`, purpose ``hand-link``) names the table's place and id, the member, their
name and language, when it expires and the member's link generation when it was made.
Opening it checks all of that, sets a session cookie holding the same token (HttpOnly,
SameSite=Lax, its path the table's page only, gone when the link expires) and redirects to
the table's page; the page and its WebSocket are then signed in by the cookie (or by
``?link=<token>`` on the URL itself).

A link is refused (`WebAuthError`) when it is forged (``forged``), expired (``expired``),
made for another table than the one at its place now or than the page asked for
(``other_table``), or revoked (``revoked``: the member's generation, stored by migration
014, was raised since it was made, `Storage.revoke_links`).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiohttp import web

from bot.web.identity import Viewer, WebAuthError
from bot.web.refusals import refusal_page, request_language
from bot.web.signing import FORGED, sign, unsign

PURPOSE = "hand-link"
COOKIE = "deucebot_link"
LINK_SECONDS = 12 * 3600.0
"""How long a link stays valid by default."""
EXPIRED, REVOKED, OTHER_TABLE = "expired", "revoked", "other_table"


def shard_prefix(shard: int) -> str:
    """The path prefix of every web address of the tables of shard `shard` (``/s/<shard>``):
    the documented routing rule sends it to the process holding that shard
    (docs/scaling.md)."""
    return f"/s/{shard}"


def table_path(place: str, shard: int) -> str:
    """The path of the table page at `place`, a table of shard `shard`
    (`bot.runtime.shards.shard_of` of its guild; 0 unsharded). Its files and WebSocket live
    under it: the final slash keeps the page's relative URLs there."""
    return f"{shard_prefix(shard)}/table/{place}/"


@dataclass(frozen=True, slots=True)
class HandLink:
    """What a valid link says: the member `player_id` (named `name`, reading `locale`)
    at table `table_id` in `place`, made in link generation `generation`, valid until
    `expires` (epoch seconds)."""

    place: str
    table_id: int
    player_id: str
    name: str
    locale: str | None
    generation: int
    expires: float


class LinkSigner:
    """Makes and reads link tokens with `secret`; `lifetime` seconds each; `clock` is the
    wall clock (injected for tests)."""

    def __init__(
        self,
        secret: str,
        *,
        lifetime: float = LINK_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """A signer with `secret` (never empty)."""
        if not secret:
            raise ValueError("browser links need a secret (DEUCEBOT_LINK_SECRET)")
        self._secret, self.lifetime, self.clock = secret, lifetime, clock

    def make(
        self,
        *,
        place: str,
        table_id: int,
        player_id: str,
        name: str,
        locale: str | None,
        generation: int,
    ) -> str:
        """A token for `player_id`'s seat at table `table_id` in `place`."""
        payload = {
            "p": place,
            "t": table_id,
            "m": player_id,
            "n": name,
            "l": locale,
            "g": generation,
            "e": round(self.clock() + self.lifetime),
        }
        return sign(self._secret, PURPOSE, payload)

    def read(self, token: str) -> HandLink:
        """What `token` says; `WebAuthError` ``forged`` or ``expired`` if it may not be used."""
        link = self.decode(token)
        if self.clock() >= link.expires:
            raise WebAuthError(EXPIRED)
        return link

    def decode(self, token: str) -> HandLink:
        """What `token` says, expired or not; `WebAuthError` ``forged`` unless it is ours."""
        data = unsign(self._secret, PURPOSE, token)
        try:
            link = HandLink(
                place=str(data["p"]),
                table_id=int(data["t"]),
                player_id=str(data["m"]),
                name=str(data["n"]),
                locale=None if data["l"] is None else str(data["l"]),
                generation=int(data["g"]),
                expires=float(data["e"]),
            )
        except (KeyError, TypeError, ValueError):
            raise WebAuthError(FORGED) from None
        return link


def link_url(public_url: str, token: str, shard: int) -> str:
    """The address a member opens: `public_url` (the bot's public base URL), the prefix of
    the table's shard `shard`, then ``/link/<token>``."""
    return f"{public_url.rstrip('/')}{shard_prefix(shard)}/link/{token}"


class LinkAuthenticator:
    """The `Authenticator` of `/hand` links: ``?link=`` on the URL, else the link cookie.
    `generation(member)` reads the member's stored link generation
    (`Storage.link_generation`); `table_at(place)` is the id of the live table at a place
    (None: none)."""

    def __init__(
        self,
        signer: LinkSigner,
        generation: Callable[[str], Awaitable[int]],
        table_at: Callable[[str], int | None],
    ) -> None:
        """An authenticator reading tokens with `signer`."""
        self.signer, self._generation, self._table_at = signer, generation, table_at

    async def check(self, token: str, place: str | None = None) -> HandLink:
        """The link `token` if it may be used now (for the page of `place` when given);
        `WebAuthError` with its reason otherwise."""
        link = self.signer.read(token)
        if place is not None and place != link.place:
            raise WebAuthError(OTHER_TABLE)
        if self._table_at(link.place) != link.table_id:
            raise WebAuthError(OTHER_TABLE)
        if link.generation < await self._generation(link.player_id):
            raise WebAuthError(REVOKED)
        return link

    async def authenticate(self, request: web.Request) -> Viewer | None:
        """The member a link or link cookie signs in; None without either."""
        token = request.query.get("link") or request.cookies.get(COOKIE)
        if not token:
            return None
        link = await self.check(token, request.match_info.get("place"))
        return Viewer(link.place, link.player_id, link.name, link.locale)


def _token_locale(signer: LinkSigner, token: str) -> str | None:
    """The language a token asks for, even when it is refused (to refuse in it)."""
    try:
        return signer.decode(token).locale
    except WebAuthError:
        return None


def add_routes(
    app: web.Application,
    authenticator: LinkAuthenticator,
    *,
    page: Callable[[str, int], str] = table_path,
) -> None:
    """Mount ``GET /s/{shard}/link/{token}`` on `app`: a valid link sets the session cookie
    (scoped to `page(place, shard)`) and redirects to that page; a refused one gets a page
    saying why, in the member's language. (Whether this process holds the shard is the
    server's question, asked before: `bot.web.server.build_web_app`.)"""

    async def open_link(request: web.Request) -> web.StreamResponse:
        token = request.match_info["token"]
        try:
            link = await authenticator.check(token)
        except WebAuthError as refused:
            lang = request_language(request, _token_locale(authenticator.signer, token))
            return refusal_page(refused.code, lang)
        path = page(link.place, int(request.match_info["shard"]))
        response = web.Response(status=303, headers={"Location": path})
        response.set_cookie(
            COOKIE,
            token,
            path=path,
            max_age=max(1, int(link.expires - authenticator.signer.clock())),
            httponly=True,
            samesite="Lax",
            secure=request.secure,
        )
        response.headers["Cache-Control"] = "no-store"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response

    app.router.add_get("/s/{shard:\\d{1,4}}/link/{token}", open_link)
