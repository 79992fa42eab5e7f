"""`deucebot bench web`: the web table's delivery, from a committed action to every
connected page having it.

All-AI Big Two tables on the real runtime and a SQLite file, served by the real web server
(`bot.web.server`) on loopback, each watched by `CLIENTS` WebSocket clients (spectators)
that read and parse every frame as the page does. Measured per action and page: from the
moment the runtime first handed the committed action to the front (its events, else its
refresh) to the page having parsed the state frame of that turn or a later one; p50 and
p99 per page and per action (to the last of its table's pages), at 1 table (AI moves back
to back) and at 100 paced tables (an AI move a second, as people see them). Also the
WebSocket bytes per action and page, the process's CPU per action and how late its event
loop ran. The clients run on the same event loop as the server: their parsing is part of
the figures.

Each configuration runs twice in the same run: with its pages, and with none connected
(the runtime and the front alone, the reference), so the web's cost shows as a ratio.
Every wait is bounded as a whole: the pages' connecting (`CONNECT_S`), the measured
window, the pages' catching up after it (`DRAIN_S`); progress goes to stderr, and a table
that stops moving or whose pages fall behind is reported, not waited on.

The first load (weight and time to interactive) is measured in a real Chromium by
`deucebot_dev.bench.web_page`.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import gzip
import json
import math
import os
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import ClientSession, TCPConnector, WSMsgType, web

from bot.commands.simulate import percentile
from bot.runtime import RuntimeConfig, TableManager
from bot.web.front import WebFront
from bot.web.identity import Viewer
from bot.web.server import STATIC, build_web_app
from deucebot_dev.bench.report import publish, run_each
from storage import open_storage

if TYPE_CHECKING:
    from bot.runtime import Table
    from bot.runtime.seats import Player
    from bot.runtime.snapshot import TableSnapshot
    from engines.base import Event

CLIENTS = 4
"""Pages watching each table."""
POLICY = "greedy"
"""A cheap AI: the figures measure the delivery, not the AI's search."""
CONNECT_S = 60.0
"""How long all the pages together may take to connect before the run is abandoned."""
DRAIN_S = 10.0
"""After the measured window, how long the pages may take to catch up with its last turn;
a page still behind then is reported (its turns count as undelivered)."""
STILL_S = 10.0
"""A table that made no move for this long at the window's end, its match unfinished, is
reported as stalled."""
PROGRESS_S = 5.0
"""Seconds between progress lines on stderr."""
TICK_S = 0.02
"""The event loop's lateness is sampled by a sleep this long, over and over."""


def progress(text: str) -> None:
    """One progress line on stderr (the figures go to stdout and the docs)."""
    print(f"[bench web] {text}", file=sys.stderr, flush=True)


class TimedFront(WebFront):
    """`WebFront` noting when each (place, turn) was first handed over (its events, or the
    refresh that follows them)."""

    def __init__(self) -> None:
        """Nothing handed over yet."""
        super().__init__()
        self.handed: dict[tuple[str, int], float] = {}

    def _stamp(self, table: TableSnapshot) -> None:
        self.handed.setdefault((table.place, table.turn), time.perf_counter())

    async def public(self, table: TableSnapshot, events: Sequence[Event]) -> None:
        """Note the time, then journal the events."""
        self._stamp(table)
        await super().public(table, events)

    async def private(
        self, table: TableSnapshot, seat: int, player: Player, events: Sequence[Event]
    ) -> None:
        """Note the time, then journal the seat's events."""
        self._stamp(table)
        await super().private(table, seat, player, events)

    async def refresh(self, table: TableSnapshot) -> None:
        """Note the time, then wake the pages."""
        self._stamp(table)
        await super().refresh(table)


class Watchers:
    """Signs in ``?place=P`` as a spectator of P (bench only)."""

    async def authenticate(self, request: web.Request) -> Viewer | None:
        """A spectator of the asked place."""
        place = request.query.get("place")
        return None if place is None else Viewer(place, None, "bench")


Seen = list[tuple[str, int, int, float]]
"""(place, page, turn, when) of every state frame a page parsed."""


@dataclass
class Received:
    """What the pages received: their state frames, and their bytes with when."""

    seen: Seen = field(default_factory=list)
    sizes: list[tuple[float, int]] = field(default_factory=list)
    reached: dict[tuple[str, int], int] = field(default_factory=dict)
    """The furthest turn each (place, page) has parsed."""

    def bytes_between(self, start: float, stop: float) -> int:
        """The bytes of the frames received from `start` to `stop`."""
        return sum(size for at, size in self.sizes if start <= at <= stop)


async def _watch(
    session: ClientSession, url: str, place: str, page: int, received: Received
) -> None:
    async with session.ws_connect(url, params={"place": place}, max_msg_size=0) as ws:
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                break
            frame = json.loads(message.data)
            now = time.perf_counter()
            received.sizes.append((now, len(message.data.encode())))
            if frame.get("t") == "state":
                turn = int(frame["n"])
                received.seen.append((place, page, turn, now))
                received.reached[place, page] = max(turn, received.reached.get((place, page), -1))


@dataclass(frozen=True)
class Delivery:
    """Each turn handed in the window, to each page of its table: how long it took."""

    per_page: list[float]
    """Seconds from handing to each page having it, one per (turn, page) delivered."""
    per_action: list[float]
    """Seconds from handing to the last page of its table having it, per turn that every
    page got."""
    undelivered: int
    """(turn, page) pairs of the window that the page never got."""
    behind: list[str]
    """Places with a page that never got some turn of the window."""


def delivery(
    handed: dict[tuple[str, int], float],
    seen: Seen,
    start: float,
    stop: float,
    pages: int,
) -> Delivery:
    """For each turn handed from `start` to `stop` and each of its table's `pages`: the wait
    until that page parsed a state of that turn or a later one (a page woken late skips a
    turn). A page only reads a turn once the front has it (the runtime hands it over under
    the table's lock, which reading a state takes), so the first frame at or past a turn
    came after it."""
    reached: dict[tuple[str, int], tuple[list[int], list[float]]] = {}
    for place, page, turn, at in seen:
        turns, whens = reached.setdefault((place, page), ([], []))
        turns.append(turn)
        whens.append(at)
    for key, (turns, whens) in reached.items():
        # The furthest turn shown so far, per frame: a page has a turn once any frame
        # at or past it arrived, so the first index where this reaches the turn counts.
        reached[key] = (list(accumulate(turns, max)), whens)
    per_page: list[float] = []
    per_action: list[float] = []
    missed = 0
    behind: set[str] = set()
    for (place, turn), at in handed.items():
        if not start <= at <= stop:
            continue
        waits = []
        for page in range(pages):
            turns, whens = reached.get((place, page), ([], []))
            index = bisect.bisect_left(turns, turn)
            if index < len(turns):
                waits.append(whens[index] - at)
            else:
                missed += 1
                behind.add(place)
        per_page += waits
        if pages and len(waits) == pages:
            per_action.append(max(waits))
    return Delivery(per_page, per_action, missed, sorted(behind))


def quantile_interval(values: list[float], q: float) -> tuple[float, float]:
    """A 95% interval of the `q`-th percentile (0-100), from the order statistics (the
    normal approximation of the binomial count below it); nan for no values. The samples
    of one burst are not independent: read it as the spread of the figure, not more."""
    if not values:
        return math.nan, math.nan
    ordered = sorted(values)
    n, p = len(ordered), q / 100
    half = 1.96 * math.sqrt(n * p * (1 - p))
    low = max(0, math.floor(n * p - half) - 1)
    high = min(n - 1, math.ceil(n * p + half) - 1)
    return ordered[low], ordered[high]


async def _lateness(late: list[float]) -> None:
    """Note, forever, how much later than asked each `TICK_S` sleep wakes (the loop busy
    or the process not scheduled): what every delivery waits behind."""
    while True:
        before = time.perf_counter()
        await asyncio.sleep(TICK_S)
        late.append(time.perf_counter() - before - TICK_S)


async def _until(
    done: Callable[[], bool], seconds: float, what: Callable[[], str], tasks: list[Any]
) -> bool:
    """Wait until `done()`, at most `seconds`, with progress lines (`what()`); False when
    the time ran out. A page's task that ended meanwhile (refused, closed) is an error."""
    deadline = time.perf_counter() + seconds
    told = time.perf_counter()
    while not done():
        for task in tasks:
            if task.done() and not task.cancelled() and task.exception() is not None:
                raise RuntimeError(f"a page failed: {task.exception()!r}")
        now = time.perf_counter()
        if now >= deadline:
            return False
        if now - told >= PROGRESS_S:
            progress(what())
            told = now
        await asyncio.sleep(0.05)
    return True


@dataclass
class Served:
    """Tables on the real runtime, served by the real web server on loopback."""

    front: TimedFront
    tables: list[Table]
    url: str
    """The server's root, ending in a slash."""
    runtime: list[float]
    """The runtime's own seconds per action (validate, commit, hand over)."""


@contextlib.asynccontextmanager
async def serve(tables: int, ai_delay: float) -> AsyncIterator[Served]:
    """`tables` all-AI Big Two tables (not started) at places ``bench:0``, ``bench:1``, ...
    on a SQLite file, served to `Watchers` sign-ins; everything closed on exit."""
    with tempfile.TemporaryDirectory(prefix="deucebot-bench-web-") as tmp:
        storage = await open_storage(str(Path(tmp) / "bench.sqlite3"))
        front = TimedFront()
        runtime: list[float] = []
        config = RuntimeConfig(ai_delay=ai_delay, timers=False, latency_sink=runtime.append)
        manager = TableManager(storage, front, config=config)
        runner = web.AppRunner(build_web_app(manager, front, [Watchers()]))
        try:
            await runner.setup()
            await web.TCPSite(runner, "127.0.0.1", 0).start()
            port = runner.addresses[0][1]
            made = [
                await manager.create(
                    guild="bench",
                    place=f"bench:{i}",
                    game="bigtwo",
                    settings={"deals": 100},
                    options={"ai_policy": POLICY},
                )
                for i in range(tables)
            ]
            yield Served(front, made, f"http://127.0.0.1:{port}/", runtime)
        finally:
            await runner.cleanup()
            await manager.close()
            await storage.close()


async def run(
    tables: int, seconds: float, ai_delay: float, clients: int = CLIENTS, still: float = STILL_S
) -> dict[str, Any]:
    """`tables` tables with `clients` pages each, played for `seconds`: latency, bytes, CPU,
    and the tables that stalled (no move in the window's last `still` seconds, their match
    unfinished)."""
    label = f"{tables} table(s), {clients} page(s) each, AI delay {ai_delay:g} s"
    progress(f"{label}: starting")
    received = Received()
    watchers: list[asyncio.Task[None]] = []
    async with serve(tables, ai_delay) as served:
        front, made = served.front, served.tables
        places = [t.place for t in made]
        # Every page holds its connection for the whole run: the default pool of 100
        # connections would leave the 101st page waiting for one forever.
        session = ClientSession(connector=TCPConnector(limit=0))
        try:
            watchers = [
                asyncio.create_task(_watch(session, served.url + "ws", place, page, received))
                for place in places
                for page in range(clients)
            ]
            wanted = tables * clients

            def connected() -> int:
                return sum(front.watchers(p) for p in places)

            if not await _until(
                lambda: connected() >= wanted,
                CONNECT_S,
                lambda: f"{label}: {connected()} of {wanted} pages connected",
                watchers,
            ):
                raise RuntimeError(
                    f"{label}: {connected()} of {wanted} pages connected in {CONNECT_S:g} s"
                )
            progress(f"{label}: {wanted} pages connected; playing {seconds:g} s")
            late: list[float] = []
            ticker = asyncio.create_task(_lateness(late))
            watchers.append(ticker)
            cpu, start = time.process_time(), time.perf_counter()
            for table in made:
                await table.start()
            stop = start + seconds
            await _until(
                lambda: time.perf_counter() >= stop,
                seconds + 1,
                lambda: f"{label}: {len(front.handed)} actions, {len(received.seen)} states",
                watchers,
            )
            stop, cpu = time.perf_counter(), time.process_time() - cpu
            ticker.cancel()
            last = {t.place: t.turn for t in made}
            if not await _until(
                lambda: all(
                    received.reached.get((p, page), -1) >= last[p]
                    for p in places
                    for page in range(clients)
                ),
                DRAIN_S,
                lambda: f"{label}: pages catching up",
                watchers,
            ):
                progress(f"{label}: some pages still behind after {DRAIN_S:g} s")
            moved = {place: at for (place, _), at in front.handed.items()}
            stalled = sorted(
                t.place for t in made if not t.finished and stop - moved.get(t.place, 0) > still
            )
        finally:
            for task in watchers:
                task.cancel()
            await asyncio.gather(*watchers, return_exceptions=True)
            await session.close()
        runtime = list(served.runtime)
    result = summary(front.handed, received, runtime, start, stop, clients)
    result.update(tables=tables, clients=clients, cpu_ms=cpu * 1000 / max(1, result["actions"]))
    result.update(
        stalled=stalled,
        late_p99=percentile(late, 99) * 1000,
        late_max=max(late, default=math.nan) * 1000,
    )
    progress(
        f"{label}: done, {result['actions']} actions, page p99 {_ms(result['p99'])} ms, "
        f"{result['undelivered']} undelivered, stalled: {', '.join(stalled) or 'none'}"
    )
    return result


def summary(
    handed: dict[tuple[str, int], float],
    received: Received,
    runtime: list[float],
    start: float,
    stop: float,
    clients: int,
) -> dict[str, Any]:
    """The figures of a window from `start` to `stop`: latencies in ms, with intervals."""
    done = delivery(handed, received.seen, start, stop, clients)
    actions = sum(1 for at in handed.values() if start <= at <= stop)
    seconds = stop - start
    return {
        "actions": actions,
        "rate": actions / seconds if seconds > 0 else math.nan,
        "samples": len(done.per_page),
        "p50": percentile(done.per_page, 50) * 1000,
        "p99": percentile(done.per_page, 99) * 1000,
        "p99_ci": tuple(x * 1000 for x in quantile_interval(done.per_page, 99)),
        "all_p50": percentile(done.per_action, 50) * 1000,
        "all_p99": percentile(done.per_action, 99) * 1000,
        "all_p99_ci": tuple(x * 1000 for x in quantile_interval(done.per_action, 99)),
        "undelivered": done.undelivered,
        "behind": done.behind,
        "runtime_p99": percentile(runtime, 99) * 1000,
        "bytes": received.bytes_between(start, stop) / max(1, actions * clients),
    }


def page_weight() -> tuple[int, int]:
    """The first load's bytes: the page and every file it loads, raw and gzipped."""
    from importlib import resources

    root = resources.files("bot.web").joinpath("static")
    files = [root.joinpath(name).read_bytes() for name in ("index.html", *STATIC)]
    return sum(len(f) for f in files), sum(len(gzip.compress(f)) for f in files)


def _bounded(config: tuple[int, float, float, int]) -> dict[str, Any]:
    """One configuration, bounded as a whole (a hang becomes a reported failure)."""
    tables, seconds, delay, clients = config
    limit = CONNECT_S + seconds + DRAIN_S + 120
    try:
        result = asyncio.run(asyncio.wait_for(run(tables, seconds, delay, clients), limit))
    except TimeoutError as error:
        raise RuntimeError(f"did not finish within {limit:g} s") from error
    result["delay"] = delay
    return result


def _ms(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.1f}"


def _row(run: dict[str, Any], alone: dict[str, Any] | None) -> str:
    """A table row: a run with pages, its reference (none connected) beside it."""
    lo, hi = run["p99_ci"]
    alo, ahi = run["all_p99_ci"]
    ratio = (
        f"{run['cpu_ms'] / alone['cpu_ms']:.2f}x ({alone['cpu_ms']:.2f} ms alone)"
        if alone and alone["cpu_ms"] > 0
        else "-"
    )
    rate = (
        f"{run['rate']:.0f} ({run['rate'] / alone['rate']:.2f}x alone)"
        if alone and alone["rate"] > 0
        else f"{run['rate']:.0f}"
    )
    runtime = f"{_ms(run['runtime_p99'])} ({_ms(alone['runtime_p99'])} alone)" if alone else "-"
    issues = (
        [f"{run['undelivered']} undelivered (behind: {', '.join(run['behind'])})"]
        if run["undelivered"]
        else []
    )
    issues += [f"stalled: {', '.join(run['stalled'])}"] if run["stalled"] else []
    return (
        f"| {run['tables']} x {run['clients']} | {run['delay']:g} s | {run['actions']} "
        f"| {rate} | {_ms(run['p50'])} / {_ms(run['p99'])} [{_ms(lo)}, {_ms(hi)}] "
        f"| {_ms(run['all_p50'])} / {_ms(run['all_p99'])} [{_ms(alo)}, {_ms(ahi)}] "
        f"| {run['bytes']:.0f} B | {run['cpu_ms']:.2f} ms, {ratio} | {runtime} "
        f"| {_ms(run['late_p99'])} / {_ms(run['late_max'])} "
        f"| {'; '.join(issues) or 'none'} |"
    )


def main(quick: bool = False, write: bool = False) -> int:
    """Run the configurations (each with its reference) and the first load; publish."""
    from deucebot_dev.bench.web_page import first_load_figures

    shapes = [(1, 5.0, 0.0), (10, 10.0, 1.0)] if quick else [(1, 20.0, 0.0), (100, 60.0, 1.0)]
    began, loads = time.perf_counter(), [os.getloadavg()[0]]
    configs = [(t, s, d, c) for t, s, d in shapes for c in (CLIENTS, 0)]
    results, failed = run_each(configs, _bounded, lambda c: f"{c[0]} tables x {c[3]} pages")
    rows = []
    for result in results:
        if result["clients"]:
            alone = next(
                (r for r in results if r["tables"] == result["tables"] and not r["clients"]),
                None,
            )
            rows.append(_row(result, alone))
    raw, packed = page_weight()
    load = first_load_figures(loads=3 if quick else 10)
    loads.append(os.getloadavg()[0])
    progress(f"finished in {time.perf_counter() - began:.0f} s")
    body = "\n".join(
        [
            "From an action handed to the web front (after its commit) to each of "
            f"{CLIENTS} pages per table having parsed that turn's state "
            "(`deucebot_dev/bench/web.py`; in-process aiohttp WebSocket clients on the "
            "server's event loop, so their parsing counts), p50 / p99 [95% interval of the "
            "p99] per page and per action (to the last of its table's pages). Each "
            "configuration also ran with no page connected (the runtime and front alone, "
            "the reference): actions per second, the process's CPU per action (server and "
            "pages together) and the runtime's own p99 per action (validate, commit, "
            "hand over) as ratios of it. Samples: per page, the actions times the pages; per "
            "action, the actions. Loop "
            f"late: how much later than asked a {TICK_S * 1000:g} ms sleep woke during the "
            "window (every delivery waits behind it).",
            "",
            "| tables x pages | AI delay | actions | actions/s | per page ms | per action ms "
            "| WebSocket bytes per action and page | CPU per action | runtime p99 ms "
            "| loop late p99 / max ms | stalled or behind |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
            *rows,
            *(["", "Failed: " + "; ".join(failed)] if failed else []),
            "",
            load,
            "",
            f"Files (the page, its modules, styles and icon): {raw / 1024:.1f} KB raw, "
            f"{packed / 1024:.1f} KB if gzipped.",
            "",
            f"The machine's load average (1 min) at the start and the end: "
            f"{loads[0]:.1f}, {loads[1]:.1f} for {os.cpu_count()} cores (above that, other work "
            "shared them); "
            f"the whole run took {time.perf_counter() - began:.0f} s.",
        ]
    )
    publish("Web table (`deucebot bench web`)", body, write and not quick)
    return 1 if failed else 0
