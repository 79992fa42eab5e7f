"""The health and metrics endpoint (`DEUCEBOT_HTTP_PORT`) scraped during stand-in runs:
`/healthz` 200 while all is well, 503 naming the check while Discord refuses every post
for longer than the lag bound; `/metrics` in the Prometheus text format, each metric fed
by what really happened."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot.discord.client import Deucebot
from deucebot_dev.discord_standin import FakeDiscord
from tests.e2e.conftest import ai_warm, bot_running, settle

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def samples(text: str) -> Samples:
    """Every sample of a Prometheus text page: (name, sorted labels) -> value."""
    out: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def total(found: Samples, name: str, **labels: str) -> float:
    """The sum of the samples of `name` whose labels include `labels`."""
    return sum(
        value
        for (sample, tags), value in found.items()
        if sample == name and set(labels.items()) <= set(tags)
    )


async def get(bot: Deucebot, path: str) -> tuple[int, str, str]:
    """GET a path of the bot's endpoint: status, content type, body."""
    assert bot.health is not None
    url = f"http://127.0.0.1:{bot.health.port}{path}"
    async with aiohttp.ClientSession() as session, session.get(url) as answer:
        return answer.status, answer.headers["Content-Type"], await answer.text()


async def test_off_unless_a_port_is_set(standin: FakeDiscord, tmp_path: Path) -> None:
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        assert bot.health is None


async def test_metrics_and_health_during_a_match(standin: FakeDiscord, tmp_path: Path) -> None:
    ana = standin.owner
    async with bot_running(
        standin, tmp_path / "db.sqlite3", DEUCEBOT_HTTP_PORT=0, ai_delay=0.02
    ) as bot:
        status, kind, body = await get(bot, "/healthz")
        assert status == 200 and '"healthy": true' in body, body
        await standin.command(ana, "table create", game="draw", deals=2)
        standin.storm(1.0, 429)  # a few rate-limited answers, retried after it
        await standin.command(ana, "table start")
        await standin.command(ana, "table leave")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        await standin.wait_for(lambda: table.status == "finished", 60)
        await settle(bot)
        status, kind, text = await get(bot, "/metrics")
        assert status == 200 and kind.startswith("text/plain") and "version=" in kind
        found = samples(text)
        actions = await bot.storage.actions(table.match.id)  # type: ignore[union-attr]
        assert total(found, "deucebot_actions_total") >= len(actions) > 0
        assert total(found, "deucebot_live_tables", game="draw") == 1
        assert total(found, "deucebot_interaction_latency_seconds_count") >= 3
        posted = total(
            found, "deucebot_rest_calls_total", method="POST", route="/channels/{id}/messages"
        )
        assert posted >= 5  # boards and results
        limited = total(found, "deucebot_rest_rate_limited_total", scope="user")
        assert limited == standin.storm_refused > 0
        assert total(found, "deucebot_ai_decision_seconds_count") >= len(actions) - 5
        assert total(found, "deucebot_storage_commit_seconds_count") >= len(actions)
        assert total(found, "deucebot_delivery_seconds_count") >= 5
        assert ("deucebot_outbox_lag_seconds", (("table", str(table.id)),)) in found
        assert not re.search(r"tok\d", text) and "standin-token" not in text  # no token shown


async def test_healthz_is_503_while_delivery_lags_past_the_bound(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    async with bot_running(
        standin, tmp_path / "db.sqlite3", DEUCEBOT_HTTP_PORT=0, DEUCEBOT_HEALTH_MAX_LAG=1
    ) as bot:
        await standin.command(ana, "table create", game="duel")
        await settle(bot)
        standin.storm(4.0, 503)
        # The lag is watched from the start: a command the bot defers (a busy machine) is
        # answered only once the storm is over, and by then the board may be out too.
        started = asyncio.create_task(standin.command(ana, "table start"))
        await standin.wait_for(lambda: bot.front.lag() and max(bot.front.lag().values()) > 1.2, 5)
        status, _, body = await get(bot, "/healthz")
        assert status == 503 and "delivery" in body and "over 1 s" in body, body
        assert '"gateway": "ok"' in body and '"storage": "ok"' in body
        await started
        await standin.wait_for(lambda: standin.storm_until < time.monotonic(), 6)
        await settle(bot)
        status, _, body = await get(bot, "/healthz")
        assert status == 200, body


async def test_a_paused_table_is_not_a_sick_bot(standin: FakeDiscord, tmp_path: Path) -> None:
    ana = standin.owner
    async with bot_running(
        standin, tmp_path / "db.sqlite3", DEUCEBOT_HTTP_PORT=0, DEUCEBOT_HEALTH_MAX_LAG=1
    ) as bot:
        await ai_warm(bot)  # the AI's move meets the refusal: not the workers' start-up
        await standin.command(ana, "table create", game="duel")
        await standin.command(ana, "table start")
        await settle(bot)
        standin.deny_bot(standin.channel_id, "embed_links")
        await standin.command(ana, "table leave")  # the AI plays on, unseen
        await standin.wait_for(lambda: bot.front.paused(), 15)
        await standin.wait_for(lambda: max(bot.front.lag().values()) > 1.2, 5)
        status, _, body = await get(bot, "/healthz")
        assert status == 200, body
        _, _, text = await get(bot, "/metrics")
        assert total(samples(text), "deucebot_paused_tables") == 1
