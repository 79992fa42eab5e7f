"""The bot's Prometheus metrics (`prometheus_client`), on a registry of their own.

Counted as things happen: actions accepted, interaction latency (from the moment Discord
received the interaction, read from its snowflake id, to the bot's answer), REST calls by
route and status, 429 answers by scope, AI decision time, storage commit time, each
effect's delivery delay. Read at scrape time (`Live`): live tables by game, each table's
outbox lag, paused tables, the gateway latency.

Routes are labelled as templates (`POST /channels/{id}/messages`): ids and interaction or
webhook tokens never become label values.
"""

from __future__ import annotations

import asyncio
import functools
import re
import time
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, ParamSpec, TypeVar

import aiohttp
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from bot.discord.rest_budget import _api_path as api_path

DISCORD_EPOCH_MS = 1420070400000
LATENCY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
_CALLBACK = re.compile(r"^/interactions/(\d+)/[^/]+/callback$")
T = TypeVar("T")
P = ParamSpec("P")


@dataclass(frozen=True)
class Live:
    """What the bot is now, read at each scrape."""

    tables_by_game: dict[str, int]
    """Live (not stopped) tables per game."""
    outbox_lag: dict[int, float]
    """Table id -> seconds its oldest undelivered effect has waited."""
    paused: int
    """Tables whose channel delivery is paused (a lost permission)."""
    gateway_latency: float
    """Seconds of the gateway's last heartbeat round trip (inf: none yet)."""


def route_of(path: str) -> str:
    """A REST path as a label: `/api/v10` dropped, ids `{id}`, tokens `{token}`."""
    parts = api_path(path).split("/")
    out: list[str] = []
    for i, part in enumerate(parts):
        if part.isdigit():
            out.append("{id}")
        elif i >= 3 and parts[i - 2] in ("interactions", "webhooks"):
            out.append("{token}")
        else:
            out.append(part)
    return "/".join(out)


def sent_at(interaction_id: int) -> float:
    """When Discord created an interaction (`time.time()` seconds), from its snowflake."""
    return ((interaction_id >> 22) + DISCORD_EPOCH_MS) / 1000


class BotMetrics:
    """Every metric of one bot process, and the hooks that feed them."""

    def __init__(self, live: Callable[[], Live]) -> None:
        """Metrics on a fresh registry; `live` is read at each scrape."""
        self.registry = CollectorRegistry()
        r = self.registry
        self.actions = Counter(
            "deucebot_actions", "Actions accepted (members', AI's, timeouts)", registry=r
        )
        self.interaction_latency = Histogram(
            "deucebot_interaction_latency_seconds",
            "From Discord receiving an interaction to the bot's answer",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.rest_calls = Counter(
            "deucebot_rest_calls",
            "Discord REST calls by route and answer status",
            ["method", "route", "status"],
            registry=r,
        )
        self.rate_limited = Counter(
            "deucebot_rest_rate_limited",
            "Discord 429 answers by scope (user, global, shared)",
            ["scope"],
            registry=r,
        )
        self.ai_decision = Histogram(
            "deucebot_ai_decision_seconds", "AI decision time", buckets=LATENCY_BUCKETS, registry=r
        )
        self.storage_commit = Histogram(
            "deucebot_storage_commit_seconds",
            "Time to commit one accepted action",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.delivery = Histogram(
            "deucebot_delivery_seconds",
            "From an effect's hand-over to the front to its delivery in the channel",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        r.register(_LiveCollector(live))

    def text(self) -> bytes:
        """Every metric in the Prometheus text format."""
        return generate_latest(self.registry)

    def action_done(self, seconds: float) -> None:
        """A `RuntimeConfig.latency_sink`: one action accepted."""
        self.actions.inc()

    def trace(self, trace: aiohttp.TraceConfig) -> None:
        """Count the REST calls going through `trace` (discord.py's `http_trace`)."""

        async def end(
            session: aiohttp.ClientSession,
            ctx: SimpleNamespace,
            params: aiohttp.TraceRequestEndParams,
        ) -> None:
            route = route_of(params.url.path)
            status = params.response.status
            self.rest_calls.labels(params.method, route, str(status)).inc()
            if status == 429:
                scope = params.response.headers.get("X-RateLimit-Scope", "unknown")
                self.rate_limited.labels(scope).inc()
            answered = _CALLBACK.match(api_path(params.url.path))
            if answered is not None:
                waited = time.time() - sent_at(int(answered.group(1)))
                self.interaction_latency.observe(max(0.0, waited))

        trace.on_request_end.append(end)


def timed(
    method: Callable[P, Coroutine[Any, Any, T]], observe: Callable[[float], None]
) -> Callable[P, Coroutine[Any, Any, T]]:
    """`method` (a coroutine function) reporting each call's duration to `observe`; used to
    time the AI's `decide` where the bot wires it."""

    @functools.wraps(method)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        started = time.perf_counter()
        try:
            return await method(*args, **kwargs)
        finally:
            observe(time.perf_counter() - started)

    return wrapper


class _LiveCollector(Collector):
    """The gauges read from the bot at scrape time."""

    def __init__(self, live: Callable[[], Live]) -> None:
        self.live = live

    def collect(self) -> Iterator[Metric]:
        now = self.live()
        tables = GaugeMetricFamily(
            "deucebot_live_tables", "Live (not stopped) tables by game", labels=["game"]
        )
        for game, count in sorted(now.tables_by_game.items()):
            tables.add_metric([game], count)
        yield tables
        lag = GaugeMetricFamily(
            "deucebot_outbox_lag_seconds",
            "Seconds the oldest undelivered effect of a table has waited",
            labels=["table"],
        )
        for table, seconds in sorted(now.outbox_lag.items()):
            lag.add_metric([str(table)], seconds)
        yield lag
        yield GaugeMetricFamily(
            "deucebot_paused_tables", "Tables whose channel delivery is paused", value=now.paused
        )
        yield GaugeMetricFamily(
            "deucebot_gateway_latency_seconds",
            "The gateway's last heartbeat round trip",
            value=now.gateway_latency,
        )


def timed_start(
    start: Callable[P, asyncio.Future[T]], observe: Callable[[float], None]
) -> Callable[P, asyncio.Future[T]]:
    """`start` (a function returning the future of work it began) reporting the time from
    each call until its future is done to `observe`; used to time the storage's
    `begin_commit`, the commit of every action, where the bot wires it."""

    @functools.wraps(start)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> asyncio.Future[T]:
        started = time.perf_counter()
        future = start(*args, **kwargs)
        future.add_done_callback(lambda _: observe(time.perf_counter() - started))
        return future

    return wrapper
