"""A post Discord stored but answered with an error (503 after storing: the answer lost)
is tried again with the same nonce and so never appears twice: whole matches where every
post's first answer is lost, boards, results, notices and DMs alike."""

from __future__ import annotations

from pathlib import Path

from bot.devtools.discord_standin import FakeDiscord
from tests.e2e.conftest import bot_running, settle
from tests.e2e.deliveries import check_match


async def test_every_post_whose_answer_was_lost_is_shown_once(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    bo = standin.add_user("Bo")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game="bigtwo", deals=2)
        await standin.command(bo, "table join")
        standin.lose_answers = True
        await standin.command(ana, "table start")
        await standin.command(ana, "table leave")  # the AI plays for both members now:
        await standin.command(bo, "table leave")  # their hands go by DM after each move
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.match is not None
        await standin.wait_for(lambda: table.status == "finished", 90)
        await settle(bot)
        await check_match(standin, bot.storage, table.match.id, table.names)
        posts = [m for m in standin.messages.values() if m.interaction_user is None]
        dms = [m for m in posts if m.channel_id in standin.dm_channels]
        assert dms and len(posts) > len(dms) + 4
        # Each was stored once, answered 503, tried again and answered with itself.
        assert standin.deduplicated == len(posts) - 1  # the lobby board came before
        assert bot.front.retries >= standin.deduplicated
