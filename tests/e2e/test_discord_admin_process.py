"""What a server admin meets, through the bot's own process (`python -m bot`) and the
stand-in: a permission taken away mid-match and given back."""

from __future__ import annotations

from pathlib import Path

from bot.devtools.discord_standin import FakeDiscord
from tests.e2e.bot_process import spawn_bot
from tests.e2e.process_play import check_ledger, env_for, match_over_shown, replay_match, stop


async def test_a_permission_lost_mid_match_in_the_bot_process_loses_nothing(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    bea = standin.add_user("Bea", locale="fr")
    bot = await spawn_bot(env_for(standin, tmp_path, DEUCEBOT_AI_DELAY="0.05"), tmp_path)
    try:
        await standin.wait_ready(30)
        await standin.command(ana, "table create", game="draw", deals=2)
        await standin.command(ana, "table start")
        standin.deny_bot(standin.channel_id, "embed_links")
        await standin.command(ana, "table leave")  # the AI plays every seat from here
        await standin.wait_for(lambda: standin.forbidden, 30)
        answer = await standin.command(bea, "table status")
        notice = await standin.wait_for(lambda: answer.followups, 10)
        assert notice[0].ephemeral and "Intégrer des liens" in notice[0].content
        assert not match_over_shown(standin)
        standin.allow_bot(standin.channel_id, "embed_links")
        await standin.command(ana, "table status")  # resumes the delivery
        await standin.wait_for(lambda: match_over_shown(standin), 60)
    finally:
        await stop(bot)
    assert "channel delivery paused" in bot.err()
    db = tmp_path / "bot.sqlite3"
    await check_ledger(standin, db, await replay_match(db))
