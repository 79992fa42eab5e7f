"""The optional HTTP endpoint (`DEUCEBOT_HTTP_PORT`; off by default, 127.0.0.1 only).

- `GET /healthz`: 200 when the bot is healthy, 503 when not (what load balancers and
  `systemd`/container health checks expect), with a JSON body naming each check:
  `gateway` (connected to Discord), `storage` (a read answers within `STORAGE_WAIT`
  seconds), `delivery` (no table's oldest undelivered effect older than
  `DEUCEBOT_HEALTH_MAX_LAG` seconds; a table paused for a lost permission does not count:
  restarting would not give the permission back).
- `GET /metrics`: every metric in the Prometheus text format (`metrics.BotMetrics`).

A GET never writes to the database: the storage check is one read (on SQLite it waits on
the thread every commit uses, so a stuck commit shows), and it runs at most once per
`STORAGE_EVERY` seconds however many GETs come (concurrent ones share it; the others get
its verdict), so probing the endpoint cannot load the storage the tables share.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot.discord.metrics import BotMetrics

log = logging.getLogger("deucebot.discord")

HOST = "127.0.0.1"
STORAGE_WAIT = 5.0
"""Seconds the storage check waits for its read."""
STORAGE_EVERY = 1.0
"""Seconds a storage verdict is reused: at most one read per that many seconds."""


@dataclass(frozen=True)
class Probes:
    """What `/healthz` asks the bot."""

    gateway: Callable[[], bool]
    """Whether every gateway connection is open."""
    storage: Callable[[], Awaitable[None]]
    """Read from the storage, writing nothing (raises when the storage cannot)."""
    lag: Callable[[], float]
    """The largest outbox lag of the tables not paused (seconds)."""
    max_lag: float


class HealthServer:
    """The `/healthz` and `/metrics` endpoint of one bot process."""

    def __init__(
        self,
        probes: Probes,
        metrics: BotMetrics,
        port: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """An endpoint on 127.0.0.1:`port` (0: a free port, see `port` once started);
        `clock` times the reuse of storage verdicts."""
        self.probes = probes
        self.metrics = metrics
        self.port = port
        self.clock = clock
        self.storage_reads = 0
        """Storage checks run so far."""
        self._runner: web.AppRunner | None = None
        self._storage_check: asyncio.Task[str] | None = None
        self._storage_verdict: tuple[float, str] | None = None

    async def start(self) -> None:
        """Listen (the port chosen is logged)."""
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, HOST, self.port)
        await site.start()
        server = site._server
        if server is not None and self.port == 0:
            self.port = int(server.sockets[0].getsockname()[1])  # type: ignore[attr-defined]
        log.info(
            "health and metrics endpoint on http://%s:%s (/healthz, /metrics)", HOST, self.port
        )

    async def close(self) -> None:
        """Stop listening."""
        if self._storage_check is not None:
            self._storage_check.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def checks(self) -> dict[str, str]:
        """Each check's verdict: "ok" or what is wrong."""
        out = {"gateway": "ok" if self.probes.gateway() else "not connected"}
        out["storage"] = await self._storage()
        lag = self.probes.lag()
        bound = self.probes.max_lag
        out["delivery"] = (
            "ok"
            if lag <= bound or not math.isfinite(bound)
            else (f"lag {lag:.1f} s over {bound:g} s")
        )
        return out

    async def _storage(self) -> str:
        """The storage's verdict: the last one if it is recent, else the check under way
        (started if none is), shared by every GET waiting for it."""
        recent = self._storage_verdict
        if recent is not None and self.clock() - recent[0] < STORAGE_EVERY:
            return recent[1]
        if self._storage_check is None or self._storage_check.done():
            self._storage_check = asyncio.create_task(self._check_storage())
        # Shielded: a GET whose client goes away does not cancel the others' check.
        return await asyncio.shield(self._storage_check)

    async def _check_storage(self) -> str:
        """Run the storage probe once; its verdict, remembered with its time."""
        self.storage_reads += 1
        try:
            await asyncio.wait_for(self.probes.storage(), STORAGE_WAIT)
            verdict = "ok"
        except TimeoutError:
            verdict = f"no answer within {STORAGE_WAIT:g} s"
        except Exception as error:
            verdict = f"cannot read: {type(error).__name__}"
        self._storage_verdict = (self.clock(), verdict)
        return verdict

    async def _healthz(self, request: web.Request) -> web.Response:
        checks = await self.checks()
        healthy = all(verdict == "ok" for verdict in checks.values())
        return web.json_response(
            {"healthy": healthy, "checks": checks}, status=200 if healthy else 503
        )

    async def _metrics(self, request: web.Request) -> web.Response:
        body = self.metrics.text()  # on the loop: the live gauges read the bot's state
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
