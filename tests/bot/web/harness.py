"""A web table served in this process for tests: storage, runtime, `WebFront`, the aiohttp
application and WebSocket clients that play through the same messages the page sends.

`KnowingFront` is the web front that also follows, from what the runtime hands it, the cards
each seat may know (its own cards in every view it was handed, and the cards events turn
face up for everybody): a frame naming any other card leaks one."""

from __future__ import annotations

import contextlib
import json
import logging
from collections import defaultdict
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import ClientSession, ClientWebSocketResponse, web
from aiohttp.test_utils import TestServer

from bot.runtime import Player, RuntimeConfig, Table, TableManager
from bot.runtime.seats import Player as SeatPlayer
from bot.runtime.snapshot import TableSnapshot
from bot.terminal.console import HUMAN_ID, place_of
from bot.web.front import WebFront
from bot.web.identity import Viewer
from bot.web.local import LocalAuthenticator
from bot.web.server import build_web_app
from engines.base import Event
from engines.bigtwo import Played
from engines.cards import Card, parse_card
from storage import Storage, open_storage
from tests.e2e.helpers import cards_in_text
from tests.e2e.process_play import private_cards, revealed_cards

TOKEN = "test-token"
RECEIVE = 20.0
"""Seconds a frame may take (a hang fails the test; nothing is timed)."""


class KnowingFront(WebFront):
    """`WebFront` recording what each seat (and a spectator, None) may know."""

    def __init__(self) -> None:
        super().__init__()
        self.shown: set[Card] = set()
        self.own: dict[int, set[Card]] = defaultdict(set)

    def _learn(self, table: TableSnapshot, events: Sequence[Event]) -> None:
        for event in events:
            self.shown |= revealed_cards(event)
            if isinstance(event, Played):
                self.shown |= set(event.cards)

    async def public(self, table: TableSnapshot, events: Sequence[Event]) -> None:  # type: ignore[override]
        self._learn(table, events)
        await super().public(table, events)

    async def private(
        self, table: TableSnapshot, seat: int, player: SeatPlayer, events: Sequence[Event]
    ) -> None:
        self.own[seat] |= private_cards(table.game, table.view(seat))
        self._learn(table, events)
        await super().private(table, seat, player, events)

    def known(self, seat: int | None) -> set[Card]:
        """What the owner of `seat` (None: a spectator) may have been shown so far."""
        return self.shown | (self.own[seat] if seat is not None else set())


class Spectators:
    """A second sign-in for tests: ``?watch=1`` watches the public table."""

    def __init__(self, place: str) -> None:
        self.place = place

    async def authenticate(self, request: web.Request) -> Viewer | None:
        if request.query.get("watch") != "1":
            return None
        return Viewer(self.place, None, "watcher")


def frame_cards(frame: dict[str, Any]) -> set[Card]:
    """Every card a frame names: its card objects' codes and its texts."""
    found: set[Card] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("code"), str) and isinstance(value.get("name"), str):
                found.add(parse_card(value["code"]))
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str):
            found.update(cards_in_text(value))

    walk({k: v for k, v in frame.items() if k != "strings"})
    return found


@dataclass
class Page:
    """One open page: its socket and every frame it received."""

    ws: ClientWebSocketResponse
    frames: list[dict[str, Any]] = field(default_factory=list)

    async def receive(self) -> dict[str, Any]:
        frame = json.loads(await self.ws.receive_str(timeout=RECEIVE))
        self.frames.append(frame)
        return frame

    async def until(self, kind: str, **match: Any) -> dict[str, Any]:
        """Read frames until one of `kind` (with the `match`ed fields)."""
        while True:
            frame = await self.receive()
            if frame["t"] == kind and all(frame.get(k) == v for k, v in match.items()):
                return frame

    def states(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["t"] == "state"]

    def lines(self, after: int = -1) -> list[tuple[int, str]]:
        return [
            (f["n"], line)
            for f in self.frames
            if f["t"] == "log" and f["n"] > after
            for line in f["lines"]
        ]


@dataclass
class WebTable:
    """A table at ``terminal:<game>`` with its web server."""

    manager: TableManager
    storage: Storage
    front: KnowingFront
    server: TestServer
    session: ClientSession
    table: Table

    def url(self, path: str, **query: Any) -> str:
        params = "&".join(f"{k}={v}" for k, v in query.items())
        return str(self.server.make_url(path)) + (f"?{params}" if params else "")

    async def open(self, **query: Any) -> Page:
        """A page of the terminal player (or, with watch=1 and no token, a spectator)."""
        if "watch" not in query:
            query.setdefault("token", TOKEN)
        ws = await self.session.ws_connect(self.url("/ws", **query))
        page = Page(ws)
        await page.until("hello")
        return page


@contextlib.asynccontextmanager
async def web_table(
    tmp: Path,
    game: str,
    seed: int,
    *,
    db: Path | None = None,
    start: bool = True,
    app: Mapping[str, Any] | None = None,
    **settings: Any,
) -> AsyncIterator[WebTable]:
    """A web table of `game` against AI seats (no AI delay), served on loopback; the same
    `db` resumes its match; `app`: more keywords of `build_web_app` (its timeouts)."""
    storage = await open_storage(str(db or tmp / "web.sqlite3"))
    front = KnowingFront()
    manager = TableManager(storage, front, config=RuntimeConfig(ai_delay=0, timers=False))
    place = place_of(game)
    await manager.restore(places={place})
    table = manager.find(place)
    if table is None:
        table = await manager.create(
            guild="terminal",
            place=place,
            game=game,
            settings=settings,
            options={"lang": "en"},
            owner=Player(HUMAN_ID, "Ann"),
        )
        if start:
            await table.start(seed=seed)
    auth = [LocalAuthenticator(place, HUMAN_ID, "Ann", TOKEN), Spectators(place)]
    server = TestServer(build_web_app(manager, front, auth, **(app or {})), host="127.0.0.1")
    await server.start_server()
    session = ClientSession()
    errors = _Errors()
    logging.getLogger().addHandler(errors)
    try:
        yield WebTable(manager, storage, front, server, session, table)
    finally:
        logging.getLogger().removeHandler(errors)
        await session.close()
        await server.close()
        await manager.close()
        await storage.close()
    assert not errors.records, errors.records


class _Errors(logging.Handler):
    """Every ERROR logged meanwhile (a front that failed, a connection that crashed)."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(
            record.getMessage() + (f": {record.exc_info[1]!r}" if record.exc_info else "")
        )


async def play_turn(page: Page, state: dict[str, Any]) -> None:
    """Make the AI's suggested move for the page's seat, as the page would send it: a
    choice of cards through the card pick, anything else by its button's action."""
    await page.ws.send_json({"t": "hint"})
    hint = await page.until("hint")
    action: str = hint["action"]
    pick = state["controls"]["pick"]
    if pick is not None and pick["verb"] == "play" and action != "pass":
        cards = [c["code"] for c in hint["cards"]]
        await page.ws.send_json({"t": "pick", "verb": "play", "cards": cards, "turn": state["n"]})
    else:
        await page.ws.send_json({"t": "act", "action": action, "turn": state["n"]})


async def play_deal(
    page: Page, state: dict[str, Any] | None = None, *, limit: int = 400
) -> dict[str, Any]:
    """Play the page's seat (from `state`, the last state read, if any) until a deal's
    result comes or the match ends; returns the state after it."""
    frame = state
    for _ in range(limit):
        if frame is None:
            frame = await page.receive()
        if frame["t"] == "log" and frame["result"]:
            return await page.until("state")
        if frame["t"] == "state":
            if frame["status"] != "playing":
                return frame
            if frame["to_act"] == frame["seat"] and (
                frame["controls"]["moves"] or frame["controls"]["pick"]
            ):
                await play_turn(page, frame)
        frame = None
    raise AssertionError("the deal did not end")
