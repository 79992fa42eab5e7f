"""A whole match under every one of Discord's REST limits: the global one and each
channel's buckets (5 messages and 5 edits per 5 s), with the production edit spacing."""

from __future__ import annotations

from pathlib import Path

import pytest

from deucebot_dev.discord_standin import FakeDiscord
from tests.e2e.conftest import bot_running
from tests.e2e.helpers import boards, play_until, settle

pytestmark = pytest.mark.slow


async def test_a_match_under_discords_limits_finishes_and_meets_no_429(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    standin.limits.channel_buckets = True
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game="bigtwo", deals=2)
        await standin.command(ana, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        await play_until(
            standin, bot, {ana.id: (ana, "pass")}, done=lambda: table.status == "finished"
        )
        await settle(bot)
        assert len(boards(standin)) == 3  # the lobby, then one board per deal
        assert bot.rest_budget.stats.sent > 0
    assert standin.limits.refused == []
