"""Issue 40: cooldowns that alternating servers cannot bypass, and limits on the commands
that cost other members (restarts, stops, seats, histories), end to end through the
Discord stand-in."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.devtools.discord_standin import FakeDiscord
from tests.e2e.conftest import bot_running, running_standin


@asynccontextmanager
async def two_servers() -> AsyncIterator[FakeDiscord]:
    """A stand-in with two servers, one channel each, the owner in both."""
    async with running_standin(guilds=2) as fake:
        yield fake


async def test_alternating_two_servers_does_not_bypass_the_cooldown(tmp_path: Path) -> None:
    async with two_servers() as standin:
        ana = standin.owner
        lenient, strict = (standin.guild_channels[g][0] for g in standin.guild_ids)
        async with bot_running(standin, tmp_path / "db.sqlite3", stats_cooldown=600):
            answer = await standin.command(
                ana, "config cooldown", channel_id=strict, kind="stats", seconds=3600
            )
            assert answer.message is not None and answer.message.content.startswith("✅"), answer
            through = 0
            for turn in range(20):
                place = (lenient, strict)[turn % 2]
                found = (await standin.command(ana, "stats", channel_id=place)).final()
                assert found is not None
                if found.embeds:
                    through += 1
                else:
                    assert found.ephemeral and found.content.startswith("⏳"), found.content
            assert through == 1
