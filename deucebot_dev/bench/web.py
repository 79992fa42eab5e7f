"""`deucebot bench web`: the web table's delivery, from a committed action to every
connected page having it.

All-AI Big Two tables on the real runtime and a SQLite file, served by the real web server
(`bot.web.server`) on loopback, each watched by `CLIENTS` WebSocket clients (spectators)
that read and parse every frame as the page does. Measured per action and client: from the
moment the runtime handed the committed action to the front (`WebFront.refresh`) to the
client having parsed the state frame of that turn or a later one; p50 and p99 at 1 table
and at 100 paced tables (an AI move a second, as people see them). Also the WebSocket bytes
per action and client, and the first load's page weight (the page and its files, raw and
gzipped). The clients run on the same event loop as the server: their parsing is part of
the figure. Take the figures on a quiet machine; the render time inside a browser is not in
them.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import ClientSession, WSMsgType, web

from bot.commands.simulate import percentile
from bot.runtime import RuntimeConfig, TableManager
from bot.web.front import WebFront
from bot.web.identity import Viewer
from bot.web.server import STATIC, build_web_app
from deucebot_dev.bench.report import publish
from storage import open_storage

if TYPE_CHECKING:
    from bot.runtime.snapshot import TableSnapshot

CLIENTS = 4
"""Pages watching each table."""
POLICY = "greedy"
"""A cheap AI: the figures measure the delivery, not the AI's search."""


class TimedFront(WebFront):
    """`WebFront` noting when each (place, turn) was handed over."""

    def __init__(self) -> None:
        """Nothing handed over yet."""
        super().__init__()
        self.handed: dict[tuple[str, int], float] = {}

    async def refresh(self, table: TableSnapshot) -> None:
        """Note the time, then wake the pages."""
        self.handed.setdefault((table.place, table.turn), time.perf_counter())
        await super().refresh(table)


class Watchers:
    """Signs in ``?place=P`` as a spectator of P (bench only)."""

    async def authenticate(self, request: web.Request) -> Viewer | None:
        """A spectator of the asked place."""
        place = request.query.get("place")
        return None if place is None else Viewer(place, None, "bench")


Seen = list[tuple[str, int, int, float]]
"""(place, page, turn, when) of every state frame a page parsed."""


async def _watch(
    session: ClientSession, url: str, place: str, page: int, seen: Seen, sizes: list[int]
) -> None:
    async with session.ws_connect(url, params={"place": place}, max_msg_size=0) as ws:
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                break
            sizes.append(len(message.data.encode()))
            frame = json.loads(message.data)
            if frame.get("t") == "state":
                seen.append((place, page, int(frame["n"]), time.perf_counter()))


async def run(tables: int, seconds: float, ai_delay: float) -> dict[str, Any]:
    """`tables` tables with `CLIENTS` pages each for `seconds`: latency and bytes."""
    with tempfile.TemporaryDirectory(prefix="deucebot-bench-web-") as tmp:
        storage = await open_storage(str(Path(tmp) / "bench.sqlite3"))
        front = TimedFront()
        manager = TableManager(
            storage, front, config=RuntimeConfig(ai_delay=ai_delay, timers=False)
        )
        runner = web.AppRunner(build_web_app(manager, front, [Watchers()]))
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        port = runner.addresses[0][1]
        url = f"http://127.0.0.1:{port}/ws"
        seen: Seen = []
        sizes: list[int] = []
        session = ClientSession()
        watchers: list[asyncio.Task[None]] = []
        try:
            places = [f"bench:{i}" for i in range(tables)]
            made = []
            for place in places:
                table = await manager.create(
                    guild="bench",
                    place=place,
                    game="bigtwo",
                    settings={"deals": 100},
                    options={"ai_policy": POLICY},
                )
                made.append(table)
            for place in places:
                watchers += [
                    asyncio.create_task(_watch(session, url, place, page, seen, sizes))
                    for page in range(CLIENTS)
                ]
            while sum(front.watchers(p) for p in places) < tables * CLIENTS:
                await asyncio.sleep(0.05)
            start = time.perf_counter()
            for table in made:
                await table.start()
            await asyncio.sleep(seconds)
        finally:
            for task in watchers:
                task.cancel()
            await asyncio.gather(*watchers, return_exceptions=True)
            await session.close()
            await runner.cleanup()
            await manager.close()
            await storage.close()
    latencies = _latencies(front.handed, seen, start)
    actions = sum(1 for at in front.handed.values() if at >= start)
    return {
        "tables": tables,
        "actions": actions,
        "p50": percentile(latencies, 50) * 1000,
        "p99": percentile(latencies, 99) * 1000,
        "bytes": sum(sizes) / max(1, actions * CLIENTS),
    }


def _latencies(handed: dict[tuple[str, int], float], seen: Seen, start: float) -> list[float]:
    """For each turn handed over and each page of its table: the wait until that page
    parsed a state of that turn or a later one (a page woken late skips a turn)."""
    pages: dict[tuple[str, int], list[tuple[int, float]]] = {}
    for place, page, turn, at in seen:
        pages.setdefault((place, page), []).append((turn, at))
    out: list[float] = []
    for (place, turn), at in handed.items():
        if at < start:
            continue
        for page in range(CLIENTS):
            arrived = [when for n, when in pages.get((place, page), []) if n >= turn and when >= at]
            if arrived:
                out.append(min(arrived) - at)
    return out


def page_weight() -> tuple[int, int]:
    """The first load's bytes: the page and every file it loads, raw and gzipped."""
    from importlib import resources

    root = resources.files("bot.web").joinpath("static")
    files = [root.joinpath(name).read_bytes() for name in ("index.html", *STATIC)]
    return sum(len(f) for f in files), sum(len(gzip.compress(f)) for f in files)


def main(quick: bool = False, write: bool = False) -> int:
    """Run the configurations and publish them."""
    runs = [(1, 5.0, 0.0), (10, 10.0, 1.0)] if quick else [(1, 20.0, 0.0), (100, 60.0, 1.0)]
    rows = []
    for tables, seconds, delay in runs:
        result = asyncio.run(run(tables, seconds, delay))
        rows.append(
            f"| {result['tables']} | {delay:g} s | {result['actions']} | {result['p50']:.1f} ms "
            f"| {result['p99']:.1f} ms | {result['bytes']:.0f} B |"
        )
    raw, packed = page_weight()
    body = "\n".join(
        [
            "From an action handed to the web front (after its commit) to each of "
            f"{CLIENTS} pages per table having parsed that turn's state "
            "(`deucebot_dev/bench/web.py`; "
            "clients on the server's event loop, so their parsing counts).",
            "",
            "| tables | AI delay | actions | p50 | p99 | WebSocket bytes per action and page |",
            "| --- | --- | --- | --- | --- | --- |",
            *rows,
            "",
            f"First load: {raw / 1024:.1f} KB raw, {packed / 1024:.1f} KB gzipped "
            "(the page, its modules, styles and icon).",
        ]
    )
    publish("Web table (`deucebot bench web`)", body, write and not quick)
    return 0
