"""Posts whose answer never reached the bot. One Discord stored but answered with an
error (503 after storing: the answer lost) is tried again with the same nonce and so never
appears twice: a whole match where every post's first answer is lost, boards, results,
notices and DMs alike; a follow-up through a member's token (no nonce) is not tried again
but looked for in the channel. One left as an intent by a process that knew no earlier message of
the channel is found by its deal at the next start, not mistaken for the lobby board."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from deucebot_dev.discord_standin import FakeDiscord
from tests.e2e.conftest import bot_running, settle
from tests.e2e.deliveries import check_match, shown
from tests.e2e.helpers import play_until


async def test_every_post_whose_answer_was_lost_is_shown_once(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    bo = standin.add_user("Bo")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game="bigtwo", deals=2)
        await standin.command(bo, "table join")
        await settle(bot)
        before = max(standin.messages)  # the lobby board (a REST post or a follow-up)
        standin.lose_answers = True
        await standin.command(ana, "table start")
        await standin.command(bo, "table leave")  # the AI plays for Bo: his hand goes by DM
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.match is not None
        # Ana plays on: her clicks lend the tokens the boards and results ride on (a
        # member who left their seat lends none).
        styles = {ana.id: (ana, "pass")}
        await play_until(standin, bot, styles, done=lambda: table.status == "finished")
        await settle(bot)
        await check_match(standin, bot.storage, table.match.id, table.names)
        posts = [
            m for m in standin.messages.values() if m.interaction_user is None and m.id > before
        ]
        dms = [m for m in posts if m.channel_id in standin.dm_channels]
        assert dms and len(posts) + standin.lost_followups > len(dms) + 4
        # Each post was stored once, answered 503, tried again and answered with itself.
        assert standin.deduplicated == len(posts)
        # Boards and results through the members' tokens while they lived (follow-ups, no
        # nonce): each stored once, answered 503, found in the channel, not posted again.
        assert standin.lost_followups >= 2
        assert bot.front.retries >= standin.deduplicated


async def test_an_intent_that_knew_no_earlier_message_finds_its_board_by_its_deal(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "db.sqlite3"
    ana = standin.owner
    async with bot_running(standin, db) as bot:
        await standin.command(ana, "table create", game="bigtwo", deals=2)
        await standin.command(ana, "table start")  # Owner's seat waits for Owner: deal 1 stays
        await settle(bot)
    first = next(m for kind, deal, m in shown(standin).order if kind == "board" and deal == 1)
    versions = len(first.history)
    # As if the process had died right after Discord stored deal 1's board, having posted
    # nothing before that it knew of: the board's record is an intent naming no message.
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE deliveries SET delivered = 0, message_id = NULL")
        assert conn.total_changes == 1
    standin.nonce_window = 0.0  # and the restart comes after Discord's dedup window
    async with bot_running(standin, db) as bot:
        await settle(bot)
        assert shown(standin).boards() == [1]  # adopted, not posted again
        assert len(first.history) > versions  # and drawn again by the new process
        lobby = shown(standin).order[0]
        assert lobby[1] == 0 and lobby[2].custom_ids() == []  # the lobby stays replaced
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT effect, message_id, delivered FROM deliveries").fetchall()
    assert rows == [("board:1", str(first.id), 1)]
