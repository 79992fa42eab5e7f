"""The web table's HTTP side: the page, its static files and one WebSocket per open page.

`build_web_app` makes the aiohttp application: ``GET /`` (the page, after a sign-in),
``GET /static/<file>`` (the page's modules and styles, shipped in the package), ``GET /ws``
(the live table, after a sign-in); the same three under each place's page, whose address
carries the shard of its table (``/s/<shard>/table/<place>/``): an address of a shard this
process does not hold is refused with 421 Misdirected Request. Every page load and
WebSocket upgrade asks each `Authenticator` in turn who it comes from; the first that knows
the request's kind answers (a refusal of that kind is final). Routes of other sign-ins (the
Discord Activity's) are added through `extra_routes`. Every URL the page uses is relative,
so it works the same under a proxy's path prefix (Discord's ``/.proxy``).

A connection (`Connection`) reads its viewer's own committed snapshot whenever the table
changes (`bot.web.front.WebFront` wakes it), sends the journal's entries of its audience it
missed, then the state; actions it receives go through `Table.act` with the turn they were
made for, so a stale or repeated click is refused by the runtime with its own message.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from importlib import resources
from typing import Any
from urllib.parse import quote

from aiohttp import WSCloseCode, WSMsgType, web
from aiohttp.typedefs import Handler, Middleware

from bot.errors import REFUSALS, Refusal
from bot.i18n import catalog, explain, normalise_language, t
from bot.render import get_renderer
from bot.render.text import move_cards
from bot.render.words import say_move
from bot.runtime import Table, TableManager
from bot.runtime.errors import TableError
from bot.runtime.shards import Shards, shard_of
from bot.web.frames import card_json, client_strings, encode, out_choice
from bot.web.front import WebFront
from bot.web.identity import Authenticator, Viewer, WebAuthError
from bot.web.refusals import refusal_page, request_language
from engines.base import IllegalAction
from engines.cards import CardParseError, parse_card
from engines.numbers import is_number

log = logging.getLogger(__name__)

STATIC = ("app.js", "cards.js", "style.css", "icon.svg")
"""The files under ``static/`` the page loads (nothing else is served)."""
TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
HEARTBEAT = 15.0
"""Seconds between pings: a page that stops answering (its pong not back within half of
this) is closed, and its connection dropped `CLOSE_TIMEOUT` later (`drop_once_closed`)."""
CLOSE_TIMEOUT = 5.0
"""Seconds a closing socket is given to finish (its last frames sent, the page's side of the
close read) before its connection is dropped: a page that no longer reads never holds one."""
RECHECK = 30.0
"""Seconds between asking a socket's sign-in again: a revoked link or an expired session
closes its member's open pages within about this long."""
SIGNED_OUT = 4403
"""The close code of a socket whose sign-in ended (the page stops reconnecting)."""
SHARD = r"/s/{shard:\d{1,4}}"
"""The shard prefix of a table's addresses (`bot.web.links.shard_prefix`; a shard count is
at most 4096)."""
PLACE_PAGES = (
    SHARD + "/table/{place}/",
    "/activity" + SHARD + "/table/{place}/",
    "/activity/.proxy" + SHARD + "/table/{place}/",
)
"""Where a place's table page is served (`bot.web.links.table_path`; the Activity's, with
and without Discord's ``/.proxy`` prefix, under its root mapping ``/activity``): its files
and WebSocket under it, so the page's relative URLs stay under that place. Each carries the
table's shard, so a reverse proxy can send it to the process driving that shard."""
MISDIRECTED = "misdirected"
"""The refusal of an address of a shard this process does not hold (HTTP 421)."""
UNSHARDED = Shards((0,), 1)
"""The shards of an unsharded process: shard 0 of 1 holds every table."""
RECENT = 30
"""Lines of the journal a freshly opened page is shown."""
MAX_MESSAGE = 4096
"""The largest message a page may send (an action is a few dozen bytes)."""
MAX_PAGES = 8
"""Pages (WebSockets) one signed-in member may hold open at one place at once: their tabs
and devices, not a flood (each open page does work at every change of the table)."""


CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'"
)
"""The page's Content-Security-Policy: everything from the page's own origin only (its
WebSocket included), nothing inline, no plug-ins, no ``<base>``, no forms.

It names no host, so nothing of a request (its Host header above all, which anyone can set
to anything: another site, or text with ``;`` that would add a directive) ever reaches it.
`'self'` already allows the page's WebSocket: CSP Level 3 matches `'self'` against ``ws:``
and ``wss:`` URLs of the page's own host and port (``ws:`` from an ``http:`` page, ``wss:``
from either), which every current browser follows. And it is right wherever the page is
served from: on ``http://127.0.0.1:PORT`` (`deucebot play --web`), behind a reverse proxy
at the public URL, and inside Discord, where the page's origin is Discord's proxy
(``https://<app>.discordsays.com``) whatever Host reaches this server; a host taken from the
request, or from the configuration, would be wrong in the last case anyway. So no Host is
refused either: a proxy may forward its own."""


SECURITY_HEADERS = {
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}


def page_language(request: web.Request, viewer: Viewer, table: str | None = None) -> str:
    """The language of a page: ``?lang=`` if given (the viewer's own choice), else the
    sign-in's (a Discord member's, as the bot answers them in private; the terminal's on
    `deucebot play --web`), else the table's (`table`: what its members chose, the server's
    language at `/table create`), else the browser's first (Accept-Language: no table yet),
    else the default. The table's comes before the browser's: the table speaks it already
    (its default player name, Vous), so a page in the browser's would mix two languages."""
    asked = request.query.get("lang") or viewer.locale or table
    if not asked:
        header = request.headers.get("Accept-Language", "")
        asked = header.split(",", 1)[0].split(";", 1)[0].strip() or None
    return normalise_language(asked)


async def sign_in(request: web.Request, authenticators: Sequence[Authenticator]) -> Viewer:
    """The viewer `request` comes from: the first authenticator that knows its kind. Raises
    403 (with the reason's words) when one refuses it or none knows it."""
    lang = normalise_language(request.query.get("lang"))
    for authenticator in authenticators:
        try:
            viewer = await authenticator.authenticate(request)
        except WebAuthError as error:
            key = f"web.auth.{error.code}"
            if key not in catalog(lang):
                key = "web.auth.refused"  # a reason this catalog does not word
            raise web.HTTPForbidden(text=t(key, lang)) from error
        if viewer is not None:
            place = request.match_info.get("place")
            if place is not None and place != viewer.place:
                raise web.HTTPForbidden(text=t("web.auth.other_table", lang))
            return viewer
    raise web.HTTPForbidden(text=t("web.auth.none", lang))


async def watch_sign_in(
    request: web.Request,
    authenticators: Sequence[Authenticator],
    viewer: Viewer,
    connection: Connection,
    recheck: float,
    close_timeout: float = CLOSE_TIMEOUT,
) -> None:
    """Ask `request`'s sign-in again every `recheck` seconds while `connection`'s socket is
    open; once it is refused (a revoked link, an expired session) or signs in someone else,
    tell the page why, as its last frame (nothing of the table follows it), and close the
    socket with `SIGNED_OUT` (`close_page`, within `close_timeout`)."""
    ws = connection.ws
    while not ws.closed:
        await asyncio.sleep(recheck)
        try:
            again = await sign_in(request, authenticators)
        except web.HTTPForbidden as refused:
            text = refused.text or ""
        except Exception:  # cannot be checked now (the database busy): the page stays
            log.warning("could not check an open page's sign-in again", exc_info=True)
            continue
        else:
            if (again.place, again.player_id) == (viewer.place, viewer.player_id):
                continue
            text = t("web.auth.other_table", normalise_language(request.query.get("lang")))
        with contextlib.suppress(ConnectionResetError, RuntimeError, TimeoutError):
            frame = json.dumps({"t": "signed_out", "text": text}, ensure_ascii=False)
            await asyncio.wait_for(connection.send_last(frame), close_timeout)
        await close_page(ws, close_timeout, SIGNED_OUT, b"signed out")
        return


async def close_page(
    ws: web.WebSocketResponse, timeout: float, code: int, message: bytes = b""
) -> None:
    """Close `ws` with `code`, waiting at most `timeout` seconds: `WebSocketResponse.close`
    first sends the close frame and waits for it to leave, which never ends for a page that
    stopped reading (`drop_once_closed` then drops the connection)."""
    with contextlib.suppress(TimeoutError, ConnectionError):
        await asyncio.wait_for(ws.close(code=code, message=message), timeout)


async def drop_once_closed(
    ws: web.WebSocketResponse, transport: asyncio.Transport, every: float, grace: float
) -> None:
    """Once `ws` is closed (its heartbeat found the page gone, or either side closed it),
    wait `grace` seconds, then abort `transport` (checking every `every` seconds meanwhile).

    aiohttp closes a dead page's transport with `close()`, which keeps the connection until
    its unsent bytes leave: never, when the page stopped reading (a frozen tab, a hostile
    client), and a task writing to it waits as long. `abort()` (the public way: the
    request's transport) drops them: the writes fail, the page's handler ends and frees
    what the page held. A socket closed cleanly is over within `grace` (then this is
    cancelled, or aborts a connection already gone: nothing)."""
    while not ws.closed:
        await asyncio.sleep(every)
    await asyncio.sleep(grace)
    transport.abort()


def shard_gate(manager: TableManager, shards: Shards) -> Middleware:
    """The middleware refusing, with 421 Misdirected Request and a page in the viewer's
    language, every request whose address names a shard this process does not hold (its
    tables are driven, and their sockets served, by another process), or a shard other than
    that of the table it drives at the address's place. Nothing of a table is read first."""

    @web.middleware
    async def gate(request: web.Request, handler: Handler) -> web.StreamResponse:
        shard = request.match_info.get("shard")
        if shard is not None:
            wanted = int(shard)
            table = manager.find(request.match_info.get("place", ""))
            here = table is None or shard_of(table.guild, shards.count) == wanted
            if wanted not in shards.ids or not here:
                lang = request_language(request, request.query.get("lang"))
                return refusal_page(MISDIRECTED, lang, status=421)
        return await handler(request)

    return gate


def _static(name: str) -> bytes:
    return resources.files("bot.web").joinpath("static", name).read_bytes()


def refusal_text(error: IllegalAction | Refusal | CardParseError, lang: str) -> str:
    """A refused action in `lang`, worded as Discord answers the same refusal."""
    if isinstance(error, CardParseError):
        return "⛔ " + t("discord.bad_cards", lang, token=error.token[:40])
    return "⛔ " + explain(error, lang)


class WebRefusal(TableError):
    """A message from a page the server cannot take (its `code` names why)."""


class Connection:
    """One open page: its viewer, language and socket (see the module docstring)."""

    def __init__(
        self,
        manager: TableManager,
        front: WebFront,
        viewer: Viewer,
        lang: str,
        ws: web.WebSocketResponse,
        clock: Callable[[], float],
        *,
        restarts: bool = False,
    ) -> None:
        """Serve `viewer` in `lang` over `ws`; `restarts`: a player out of the match may
        start a new one from the page (`deucebot play --web`)."""
        self.manager = manager
        self.front = front
        self.viewer = viewer
        self.lang = lang
        self.ws = ws
        self.clock = clock
        self.restarts = restarts
        self.flag = front.watch(viewer.place)
        self._sending = asyncio.Lock()
        self._ended = False

    async def send(self, frame: dict[str, Any]) -> None:
        """Send one frame (frames of one connection never interleave)."""
        await self.send_text(encode(frame))

    async def send_text(self, text: str) -> None:
        """Send one frame already encoded (`encode`); nothing once `send_last` was called."""
        async with self._sending:
            if not self._ended:
                await self.ws.send_str(text)

    async def send_last(self, text: str) -> None:
        """Send `text` (encoded) as the page's last frame: a frame being sent goes first, none
        after (a page signed out sees nothing more of the table)."""
        self._ended = True
        async with self._sending:
            await self.ws.send_str(text)

    def _table(self) -> Table | None:
        return self.manager.find(self.viewer.place)

    def _seat(self, table: Table) -> int | None:
        pid = self.viewer.player_id
        return None if pid is None else table.seat_of(pid)

    async def run(self, since: int) -> None:
        """Serve until the page goes away: push states, read actions."""
        await self.send(
            {
                "t": "hello",
                "lang": self.lang,
                "name": self.viewer.name,
                "strings": client_strings(self.lang),
            }
        )
        pusher = asyncio.get_running_loop().create_task(self._push(since))
        try:
            async for message in self.ws:
                if message.type != WSMsgType.TEXT:
                    continue
                await self._receive(message.data)
        finally:
            pusher.cancel()
            # A dropped connection (`drop_once_closed`) fails the pusher's write.
            with contextlib.suppress(asyncio.CancelledError, ConnectionError):
                await pusher
            self.front.unwatch(self.viewer.place, self.flag)

    async def _push(self, sent: int) -> None:
        """Whenever the table changes: the missed lines of the viewer's audience, then the
        state at the committed turn (`sent`: the last turn the page showed, -1: none). A
        state the page already has (a refresh that changed nothing it sees) is not sent."""
        last: dict[str, Any] | None = None
        while True:
            self.flag.clear()
            table = self._table()
            if table is None:
                await self.send({"t": "absent", "text": t("web.no_table", self.lang)})
                await self.flag.wait()
                continue
            seat = self._seat(table)
            shown = await table.committed(seat)
            if seat is not None and shown.seat_of(self.viewer.player_id or "") != seat:
                continue  # the seat changed hands meanwhile: look again
            place, pid = self.viewer.place, self.viewer.player_id
            entries = self.front.since(place, sent, shown.turn, seat, pid, shown.id)
            fresh = entries is None
            if entries is None:
                entries = self.front.since(place, -1, shown.turn, seat, pid, shown.id) or []
                entries = entries[-RECENT:]
            # Built once per audience and language for all the place's pages (`FrameCache`).
            frames = self.front.frames(place)
            for entry in entries:
                first = self.front.first_line(place, entry, seat, pid)
                text = frames.log(entry, seat, self.lang, fresh, first)
                if text is not None:
                    await self.send_text(text)
            state, text = frames.state(shown, seat, self.lang, self.clock(), fresh, self.restarts)
            same = {**state, "time_left": None} == {**(last or {}), "time_left": None}
            if not same or fresh:
                await self.send_text(text)
            last, sent = state, shown.turn
            await self.flag.wait()

    async def _receive(self, data: str) -> None:
        """One message from the page; a refusal is answered in the viewer's language."""
        try:
            if len(data) > MAX_MESSAGE:
                raise WebRefusal("message too long", code="web.bad_message")
            try:
                message = json.loads(data)
            except RecursionError:  # nested deeper than the decoder goes, in 4 KB
                raise WebRefusal("nested too deep", code="web.bad_message") from None
            if not isinstance(message, dict):
                raise WebRefusal("not an object", code="web.bad_message")
            await self._handle(message)
        except (*REFUSALS, CardParseError) as error:
            await self.send({"t": "refused", "text": refusal_text(error, self.lang)})
            self.flag.set()  # the page shows the table as it stands again
        except ValueError as error:  # not JSON
            refusal = WebRefusal(str(error), code="web.bad_message")
            await self.send({"t": "refused", "text": refusal_text(refusal, self.lang)})
            self.flag.set()  # the page shows the table as it stands again

    async def _handle(self, message: dict[str, Any]) -> None:
        kind = message.get("t")
        table = self._table()
        pid = self.viewer.player_id
        if table is None or pid is None:
            raise WebRefusal("watching only", code="web.watching")
        if kind == "hint":
            await self._hint(table, pid)
            return
        if kind == "new":
            await self._new_match(table)
            return
        if kind == "autopass":
            table.set_autopass(pid, bool(message.get("on")))
            self.flag.set()
            return
        turn = message.get("turn")
        if not isinstance(turn, int) or isinstance(turn, bool):
            raise WebRefusal("no turn", code="web.bad_message")
        await table.act(pid, self._action(table, kind, message), turn)

    def _action(self, table: Table, kind: object, message: dict[str, Any]) -> str:
        """The canonical text of the move a message asks for (the engine still checks it)."""
        if kind == "act":
            return _text(message.get("action"))
        if kind == "pick":
            verb = _text(message.get("verb"))
            cards = message.get("cards")
            if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                raise WebRefusal("bad cards", code="web.bad_message")
            if not cards:
                raise WebRefusal("no card chosen", code="web.no_cards")
            for card in cards:
                parse_card(card)
            if verb == "play":
                return "play " + " ".join(cards)
            seat = self._seat(table)
            view = table.snapshot(seat).view(seat)
            return str(get_renderer(table.game).parse_input(f"{verb} {' '.join(cards)}", view))
        if kind == "raise":
            verb, amount = _text(message.get("verb")), str(message.get("amount", "")).strip()
            if verb not in ("bet", "raise"):
                raise WebRefusal("bad verb", code="web.bad_message")
            if not is_number(amount):
                raise WebRefusal("not a number", code="web.not_a_number", text=amount[:40])
            return f"{verb} {int(amount)}"
        if kind == "rebuy":
            caves = str(message.get("caves", ""))
            if caves == "sitout":
                return "sitout"
            if not is_number(caves):
                raise WebRefusal("not a number", code="web.not_a_number", text=caves[:40])
            return f"rebuy {int(caves)}"
        raise WebRefusal("unknown message", code="web.bad_message")

    async def _new_match(self, table: Table) -> None:
        """A new match with fresh stacks, asked from the page by a player out of this one
        (the terminal's `new`); refused where the page offers none (a table on Discord)."""
        if not self.restarts:
            raise WebRefusal("no new match from this page", code="web.bad_message")
        seat = self._seat(table)
        if out_choice(table.snapshot(seat), seat, self.lang, restarts=True) is None:
            raise WebRefusal("still in the match", code="web.not_out")
        await table.restart(seed=None)

    async def _hint(self, table: Table, pid: str) -> None:
        action = str(await table.hint(pid))
        await self.send(
            {
                "t": "hint",
                "action": action,
                "cards": [card_json(c) for c in move_cards(action)],
                "label": say_move(action, get_renderer(table.game).move_areas, self.lang),
            }
        )


def _text(value: object) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 200:
        raise WebRefusal("bad action", code="web.bad_message")
    return value


def build_web_app(
    manager: TableManager,
    front: WebFront,
    authenticators: Sequence[Authenticator],
    *,
    extra_routes: Iterable[web.AbstractRouteDef] = (),
    clock: Callable[[], float] = time.time,
    recheck: float = RECHECK,
    shards: Shards = UNSHARDED,
    root: bool = True,
    heartbeat: float = HEARTBEAT,
    close_timeout: float = CLOSE_TIMEOUT,
    restarts: bool = False,
) -> web.Application:
    """The web table's application over `manager`'s tables (whose front is, or includes,
    `front`): the page, its files and the WebSocket at each place's pages (`PLACE_PAGES`)
    and, with `root`, at ``/`` (whichever place the sign-in names: `deucebot play --web`),
    signed in by `authenticators` (asked in turn, and again every `recheck` seconds for an
    open socket), plus `extra_routes` (another sign-in's endpoints). Addresses of a shard
    other than `shards` holds are refused (`shard_gate`). A socket is pinged every
    `heartbeat` seconds; a closing one, or one whose page stopped answering, has its
    connection dropped `close_timeout` seconds later (`drop_once_closed`). `restarts`: a
    player out of the match may start a new one from the page (`deucebot play --web`)."""
    files = {name: _static(name) for name in STATIC}
    page = _static("index.html")

    async def index(request: web.Request) -> web.StreamResponse:
        await sign_in(request, authenticators)
        headers = {**SECURITY_HEADERS, "Content-Security-Policy": CSP}
        return web.Response(body=page, content_type="text/html", charset="utf-8", headers=headers)

    async def static(request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        body = files.get(name)
        if body is None:
            raise web.HTTPNotFound()
        kind = TYPES[name[name.rindex(".") :]]
        headers = {"X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache"}
        return web.Response(body=body, content_type=kind, charset="utf-8", headers=headers)

    async def socket(request: web.Request) -> web.StreamResponse:
        viewer = await sign_in(request, authenticators)
        table = manager.find(viewer.place)
        lang = page_language(request, viewer, None if table is None else table.options.lang)
        since_text = request.query.get("since", "")
        # A turn has a few digits; int() refuses a number thousands of digits long.
        since = int(since_text) if is_number(since_text) and len(since_text) < 19 else -1
        member = (viewer.place, viewer.player_id)
        if viewer.player_id is not None and pages.get(member, 0) >= MAX_PAGES:
            raise web.HTTPTooManyRequests(text=t("web.too_many_pages", lang, n=MAX_PAGES))
        pages[member] = pages.get(member, 0) + 1
        ws = web.WebSocketResponse(
            heartbeat=heartbeat, timeout=close_timeout, max_msg_size=MAX_MESSAGE
        )
        tasks: list[asyncio.Task[None]] = []
        loop = asyncio.get_running_loop()
        try:
            await ws.prepare(request)
            connection = Connection(manager, front, viewer, lang, ws, clock, restarts=restarts)
            sockets.add(ws)
            tasks.append(
                loop.create_task(
                    watch_sign_in(
                        request, authenticators, viewer, connection, recheck, close_timeout
                    )
                )
            )
            transport = request.transport
            if transport is not None:
                every = min(heartbeat, close_timeout) / 2
                tasks.append(
                    loop.create_task(drop_once_closed(ws, transport, every, close_timeout))
                )
            with contextlib.suppress(ConnectionResetError):
                await connection.run(since)
        finally:
            sockets.discard(ws)
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            # Bytes still unsent as the page's handler ends (a page that stopped reading
            # just as the socket closed) are dropped after the grace, not kept for ever.
            transport = request.transport
            if transport is not None and transport.get_write_buffer_size():
                loop.call_later(close_timeout, transport.abort)
            pages[member] -= 1
            if not pages[member]:
                del pages[member]
        return ws

    async def bare_place(request: web.Request) -> web.StreamResponse:
        # A place's page without its final slash: relative URLs would leave the place. The
        # target stays relative (a proxy's path prefix is kept) but always a path: the place
        # re-encoded after "./", so neither "//host" nor "\\host" (a decoded %2F or %5C) nor
        # a colon ("terminal:duel" read as a scheme) sends the browser elsewhere.
        target = "./" + quote(request.match_info["place"], safe=":") + "/"
        if request.rel_url.raw_query_string:
            target += "?" + request.rel_url.raw_query_string
        raise web.HTTPFound(target)

    async def going_away(app: web.Application) -> None:
        # Pages reconnect on their own (to the next process): the server closes them all
        # at once, each given at most `close_timeout` (a page that stopped reading never
        # answers).
        await asyncio.gather(
            *(close_page(ws, close_timeout, WSCloseCode.GOING_AWAY) for ws in list(sockets))
        )

    sockets: set[web.WebSocketResponse] = set()
    pages: dict[tuple[str, str | None], int] = {}  # open pages per member at a place

    app = web.Application(middlewares=[shard_gate(manager, shards)])
    app.on_shutdown.append(going_away)
    if root:
        app.add_routes(
            [web.get("/", index), web.get("/static/{name}", static), web.get("/ws", socket)]
        )
    app.add_routes(
        [
            *(
                route
                for base in PLACE_PAGES
                for route in (
                    web.get(base, index),
                    web.get(base + "static/{name}", static),
                    web.get(base + "ws", socket),
                    web.get(base.rstrip("/"), bare_place),
                )
            ),
            *extra_routes,
        ]
    )
    return app
