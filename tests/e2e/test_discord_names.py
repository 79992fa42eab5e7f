"""Members' names on Discord (issue 40, item 2): a nickname never pings anyone and never
renders as markdown (a mention, a masked link, bold, code, a spoiler), in the boards
(posts and edits), results, leaderboards and `/stats`; the bot pings only the member a
message addresses (their turn, a challenge), as the stand-in's `allowed_mentions` model
tells (`FakeDiscord.pings`)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from deucebot_dev.discord_standin import FakeDiscord, version_text
from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import board, boards, mentioned, play_until
from tests.e2e.poker_helpers import started_table


def rendered(version: dict[str, Any]) -> str:
    """The text of a message version Discord renders as markdown (its pictures' alt text is
    plain text and keeps names raw, as the pictures do)."""
    return version_text({**version, "descriptions": []})


def every_version(fake: FakeDiscord) -> list[str]:
    """The rendered text of every version of every message the bot sent."""
    return [rendered(v) for m in fake.messages.values() for v in m.history]


async def test_nicknames_neither_ping_nor_render_and_the_player_to_act_is_pinged(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    victim = standin.add_user("Vic")
    ana = standin.add_user("||s||")
    raw = [f"<@{victim.id}>", "[Prize](https://example.com)", "**x**", "_y_", "`z`"]
    guests = [standin.add_user(name) for name in raw]
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game="draw", seats=6, deals=2)
        for guest in guests:
            await standin.command(guest, "table join")
        await standin.command(ana, "table start")
        for guest in guests:  # they leave mid-match: the AI plays their seats
            await standin.command(guest, "table leave")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        async with asyncio.timeout(60):
            while mentioned(standin) != ana.id:
                await settle(bot)
        # The board addresses Ana on her turn: it pings her (and nobody else).
        assert standin.pinged(ana) and board(standin) in standin.pinged(ana)
        await standin.command(ana, "table leave")
        async with asyncio.timeout(120):
            while table.status != "finished":
                await settle(bot)
                await asyncio.sleep(0.05)
        await settle(bot)
        # The match's results (deal and match results: posts with embeds, not boards),
        # before any command answers in the channel.
        results = [
            m.text() for m in standin.public_messages() if m.embeds and m not in boards(standin)
        ]
        chips = await standin.command(ana, "leaderboard", game="draw")
        mine = await standin.command(guests[0], "stats")
        yours = await standin.command(ana, "stats", values={"user": guests[1]})
    # Nobody was pinged but the member a board addressed (Ana; a guest whose turn came
    # before they left), by any post or edit; the victim never; no role, no @everyone.
    assert standin.pinged(victim) == []
    for message, user in standin.pings:
        assert user in {ana.id, *(guest.id for guest in guests)}
        assert any(v["content"].startswith(f"<@{user}>, your turn") for v in message.history)
    assert standin.role_pings == [] and standin.everyone_pings == []
    texts = every_version(standin)
    victim_mention = re.compile(rf"(?<!\\)<@!?{victim.id}>")
    for text in texts:
        assert not victim_mention.search(text), text
        for name in [*raw, "||s||"]:
            assert name not in text, (name, text)
    # The names render literally: escaped, in the thinking lines, the boards' text, the
    # results, the leaderboards and /stats.
    shown = {
        f"<@{victim.id}>": f"\\<@\u200b{victim.id}>",
        "[Prize](https://example.com)": "\\[Prize\\](https://example.com)",
        "**x**": "\\*\\*x\\*\\*",
        "_y_": "\\_y\\_",
        "`z`": "\\`z\\`",
        "||s||": "\\|\\|s\\|\\|",
    }
    thinking = [v["content"] for m in boards(standin) for v in m.history]
    # A board version shows a seat's thinking line only if it is sent while that seat is
    # to act (timing): some guest's is seen here, the victim's exact line is checked on
    # the board itself (test_discord_board), and no version anywhere shows a raw name.
    assert any(f"🤖 {shown[name]} is thinking…" in thinking for name in raw), thinking
    board_texts = [rendered(v) for m in boards(standin) for v in m.history]
    assert results, "no result was posted"
    for escaped in shown.values():
        assert any(escaped in text for text in board_texts), escaped
        assert any(escaped in text for text in results), escaped
    final = chips.final()
    assert final is not None
    for name in [*raw, "||s||"]:
        assert shown[name] in final.text(), (name, final.text())
    for answer, name in ((mine, raw[0]), (yours, raw[1])):
        final = answer.final()
        assert final is not None and shown[name] in final.text(), final


async def test_a_challenge_pings_the_challenged_member_alone(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana, bo = standin.owner, standin.add_user("[Bo](https://example.com)")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "duel challenge", member=bo)
        challenge = next(m for m in standin.public_messages() if m.custom_ids())
        assert f"<@{ana.id}>" in challenge.content and f"<@{bo.id}>" in challenge.content
        # Addressed to Bo: it pings him; Ana, who challenged, is named but not pinged.
        assert standin.pinged(bo) == [challenge] and standin.pinged(ana) == []
        await standin.click(bo, challenge, "db:duel:yes:")
        assert "accepted" in challenge.content
        await settle(bot)
        # The accepted challenge (an edit naming both) pings nobody; then only the boards
        # ping, each the member whose turn it announces.
        assert standin.pinged(bo).count(challenge) == 1
        assert standin.pinged(ana).count(challenge) == 0
        for message, user in standin.pings:
            if message is not challenge:
                assert message in boards(standin)
                assert any(
                    v["content"].startswith(f"<@{user}>, your turn") for v in message.history
                )


async def test_the_closed_dms_notice_pings_the_member_it_addresses(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    shy = standin.add_user("Shy", dms_open=False)
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(shy, "duel challenge")  # against the AI
        await settle(bot)
        notices = [m for m in standin.public_messages() if "DM" in m.content]
        assert len(notices) == 1 and f"<@{shy.id}>" in notices[0].content
        assert notices[0] in standin.pinged(shy)
        assert {user for _, user in standin.pings} == {shy.id}


async def test_the_rating_board_shows_a_player_s_name_literally(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ann = standin.add_user("[Prize](https://example.com) **x**")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        table = await started_table(standin, bot, ann, game="bigtwo", deals=1)
        await play_until(
            standin, bot, {ann.id: (ann, "pass")}, done=lambda: table.status == "finished"
        )
        await settle(bot)
        rated = (await standin.command(ann, "leaderboard", game="bigtwo", by="rating")).final()
    assert rated is not None
    assert "\\[Prize\\](https://example.com) \\*\\*x\\*\\*: " in rated.text(), rated.text()
    assert "[Prize](" not in rated.text() and "**x**" not in rated.text()


async def test_a_season_s_name_is_written_literally(standin: FakeDiscord, tmp_path: Path) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3"):
        started = (await standin.command(ana, "season", name="__cup__ -x")).final()
        board = (
            await standin.command(ana, "leaderboard", game="bigtwo", by="rating", season="current")
        ).final()
    assert started is not None and not started.ephemeral
    assert "Season **\\_\\_cup\\_\\_ -x** starts now" in started.content, started.content
    assert board is not None and "season \\_\\_cup\\_\\_ -x" in board.text(), board.text()
