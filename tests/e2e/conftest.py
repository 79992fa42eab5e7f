"""Fixtures for the end-to-end tests: the Discord stand-in and bots started against it.

`bot_running(standin, db)` starts the real bot (`bot.discord.app.serve`, the code
behind `python -m bot`) in this process with the settings pointing at the stand-in;
every ERROR logged by discord.py or the bot fails the test, as do unknown routes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.discord.app import point_at
from bot.discord.client import Deucebot, create_bot
from bot.process.settings import load_settings
from deucebot_dev.discord_standin import FakeDiscord


class _ErrorCollector(logging.Handler):
    """Sends every ERROR record to the stand-in's error list."""

    def __init__(self, standin: FakeDiscord) -> None:
        super().__init__(level=logging.ERROR)
        self.standin = standin

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text += f": {record.exc_info[1]!r}"
        self.standin.errors.append(f"bot logged {record.levelname} ({record.name}): {text}")


@contextlib.asynccontextmanager
async def running_standin(**shape: int) -> AsyncIterator[FakeDiscord]:
    """A running stand-in (`shape`: channels, guilds, shard_count); fails the test if the
    bot misbehaved against it."""
    fake = FakeDiscord(**shape)
    # Discord's per-channel buckets (5 messages or edits per 5 s) would make every test
    # that plays a match at machine speed wait for minutes; the global limit stays on, and
    # test_rest_limits.py plays a whole match under every limit.
    fake.limits.channel_buckets = False
    await fake.start()
    collector = _ErrorCollector(fake)
    logging.getLogger().addHandler(collector)
    try:
        yield fake
    finally:
        logging.getLogger().removeHandler(collector)
        await fake.stop()
    fake.assert_clean()


@pytest.fixture
async def standin() -> AsyncIterator[FakeDiscord]:
    """A running stand-in; fails the test if the bot misbehaved against it."""
    async with running_standin() as fake:
        yield fake


@pytest.fixture
async def two_shards() -> AsyncIterator[FakeDiscord]:
    """A running stand-in with two guilds, guild 0 on shard 0 and guild 1 on shard 1."""
    async with running_standin(guilds=2, shard_count=2) as fake:
        yield fake


def settings_for(fake: FakeDiscord, db: Path | str, **extra: Any) -> Any:
    """Settings pointing at the stand-in (what `.env` would hold)."""
    env = fake.env()
    return load_settings(
        DISCORD_TOKEN=env["DISCORD_TOKEN"],
        DISCORD_API_BASE=env["DISCORD_API_BASE"],
        DISCORD_GATEWAY_URL=env["DISCORD_GATEWAY_URL"],
        DEV_GUILD_ID=int(env["DEV_GUILD_ID"]),
        DEUCEBOT_DB=str(db),
        DEUCEBOT_AI_DELAY=extra.pop("ai_delay", 0.0),
        DEUCEBOT_TURN_SECONDS=extra.pop("turn_seconds", 0),
        # No cooldowns unless a test asks (tests click Hint every turn).
        DEUCEBOT_STATS_COOLDOWN=extra.pop("stats_cooldown", 0),
        DEUCEBOT_HINT_COOLDOWN=extra.pop("hint_cooldown", 0),
        DEUCEBOT_CREATE_COOLDOWN=extra.pop("create_cooldown", 0),
        DEUCEBOT_TABLE_COMMANDS_PER_MINUTE=extra.pop("table_commands_per_minute", 0),
        **extra,
    )


@contextlib.asynccontextmanager
async def bot_running(
    fake: FakeDiscord, db: Path | str, *, shards: list[int] | None = None, **extra: Any
) -> AsyncIterator[Deucebot]:
    """The real bot, logged in to the stand-in, commands synced; closed on exit. With
    `shards`: one process of a sharded bot (`fake.shard_count` shards, commands synced
    globally), running those shards; other shards' bots keep running."""
    settings = settings_for(fake, db, **extra)
    if shards is not None:
        settings = settings.model_copy(
            update={
                "shard_count": fake.shard_count,
                "shard_ids": ",".join(map(str, shards)),
                "dev_guild_id": None,
            }
        )
    saved = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
    point_at(settings)
    fake.reset_ready(shards=shards)
    bot = create_bot(settings, edit_interval=0.0, guild_ready_timeout=0.05)
    task = asyncio.create_task(bot.start(settings.discord_token or ""))
    try:
        await fake.wait_ready(shards=shards)
        async with asyncio.timeout(10):
            await bot.wait_until_ready()
        yield bot
    finally:
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, 5)
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved


async def settle(bot: Deucebot) -> None:
    """Wait until AI turns are played and the front has sent everything."""
    for _ in range(3):
        await bot.tables.idle()
        await bot.front.settle()
        await asyncio.sleep(0.01)


async def ai_warm(bot: Deucebot) -> None:
    """Wait until the bot's AI workers have started and loaded every game's AI: on a loaded
    machine that takes seconds (a lowered priority), which a test timing AI moves must not
    count as theirs."""
    pool = bot.tables.ai.pool
    if pool is not None:
        await pool.pids()
