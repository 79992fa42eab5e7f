"""Tables that never hang and resist misuse, end to end through the Discord stand-in."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from bot.discord.client import Deucebot
from bot.runtime import Table
from deucebot_dev.discord_standin import FakeDiscord, User
from tests.e2e.conftest import ai_warm, bot_running, settle
from tests.e2e.helpers import board, mentioned, open_hand


async def start_with(standin: FakeDiscord, bot: Deucebot, other: User) -> tuple[Table, User]:
    """`other` joins the owner's table in the first channel, the owner starts it; the table
    and the member the board then asks to play (the AI plays at once)."""
    await standin.command(other, "table join")
    await standin.command(standin.owner, "table start")
    await settle(bot)
    table = bot.tables.find(str(standin.channel_id))
    assert table is not None
    users = {standin.owner.id: standin.owner, other.id: other}
    asked = await standin.wait_for(lambda: mentioned(standin) in users and mentioned(standin))
    return table, users[asked]


async def test_joining_an_ai_seat_while_it_thinks_arms_the_turn_timer(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    # The repro: AI delay 0.7 s, a short turn timer, a member joins while the AI
    # seat to act is "thinking", then does nothing. The table must time them out.
    ana = standin.owner
    bo = standin.add_user("Bo")
    async with bot_running(standin, tmp_path / "db.sqlite3", ai_delay=0.7) as bot:
        await ai_warm(bot)  # AI moves come before seat 1's turn: not the workers' start-up
        await standin.command(ana, "table create", game="bigtwo", turn_seconds=1)
        await standin.command(ana, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.match is not None
        async with asyncio.timeout(10):
            while table.to_act != 1:  # seat 1 is the first seat without a human
                await asyncio.sleep(0.01)
        assert table.seats[1].ai_plays
        joined = await standin.command(bo, "table join")
        assert joined.ephemeral and table.seat_of(str(bo.id)) == 1
        assert table.to_act == 1, "the AI played before the join arrived"
        turn = table.turn
        assert table.deadline is not None and table.deadline_turn == turn
        async with asyncio.timeout(5):
            while table.turn == turn:
                await asyncio.sleep(0.05)
        actions = await bot.storage.actions(table.match.id)
        assert [(a.seat, a.actor) for a in actions if a.seq == turn] == [(1, "timeout")]


async def test_a_table_answers_only_controls_used_in_its_own_channel(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    bo = standin.add_user("Bo", locale="fr")
    other = standin.snowflake()
    standin.channel_ids.append(other)  # a second channel of the same server
    foreign = standin.add_foreign_channel()  # a channel of another server
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game="bigtwo", deals=1)
        table, who = await start_with(standin, bot, bo)
        assert table.match is not None
        hand, shared = await open_hand(standin, who), board(standin)
        turn, logged = table.turn, len(await bot.storage.actions(table.match.id))
        for channel in (other, foreign):
            for control in ("db:pass:", "db:hand:", "db:sort:"):
                answer = await standin.click_copy(
                    who,
                    hand if control != "db:hand:" else shared,
                    control,
                    channel_id=channel,
                )
                shown = answer.final()
                assert shown is not None and shown.ephemeral, control
                assert shown.content.startswith("⛔"), shown.content
                assert not shown.embeds and not shown.components and not shown.attachments
        assert shown is not None  # the last refusal speaks the clicker's language
        assert ("autre salon" if who is bo else "another channel") in shown.content
        await settle(bot)
        assert table.turn == turn
        assert len(await bot.storage.actions(table.match.id)) == logged
        # The same controls still work in the table's own channel.
        again = (await standin.click(who, shared, "db:hand:")).final()
        assert again is not None and again.ephemeral and again.component("db:pass:")


async def test_a_server_at_its_table_cap_gets_a_clear_refusal(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    bo = standin.add_user("Bo", locale="uk")
    second = standin.snowflake()
    standin.channel_ids.append(second)
    db = tmp_path / "db.sqlite3"
    async with bot_running(standin, db, DEUCEBOT_MAX_TABLES_PER_SERVER=1) as bot:
        created = await standin.command(ana, "table create", game="bigtwo")
        assert not created.ephemeral
        refused = (
            await standin.command(bo, "table create", game="duel", channel_id=second)
        ).final()
        assert refused is not None and refused.ephemeral
        assert refused.content.startswith("⛔") and "/table stop" in refused.content
        assert "1" in refused.content and "столів" in refused.content  # Bo's language
        assert bot.tables.find(str(second)) is None
        assert not standin.public_messages(second)
        await standin.command(ana, "table stop")
        again = await standin.command(bo, "table create", game="duel", channel_id=second)
        assert not again.ephemeral and bot.tables.find(str(second)) is not None


async def test_costly_commands_have_a_per_member_cooldown(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    bo = standin.add_user("Bo", locale="fr")
    second = standin.snowflake()
    standin.channel_ids.append(second)
    db = tmp_path / "db.sqlite3"
    async with bot_running(
        standin, db, stats_cooldown=1.5, hint_cooldown=60, create_cooldown=60
    ) as bot:
        first = (await standin.command(ana, "stats")).final()
        assert first is not None and first.embeds
        again = (await standin.command(ana, "stats")).final()
        assert again is not None and again.ephemeral and not again.embeds
        assert again.content.startswith("⏳") and " s." in again.content
        assert int(again.content.split()[-2]) in (1, 2)  # when to try again
        # Per member: Bo is not slowed down by Ana, and /leaderboard has its own count.
        bos = (await standin.command(bo, "stats")).final()
        assert bos is not None and bos.embeds
        board_answer = (await standin.command(ana, "leaderboard", game="bigtwo")).final()
        assert board_answer is not None and board_answer.embeds
        await asyncio.sleep(1.6)
        later = (await standin.command(ana, "stats")).final()
        assert later is not None and later.embeds
        # /table create: a second table by the same member soon after is refused.
        await standin.command(ana, "table create", game="bigtwo")
        slow = (await standin.command(ana, "table create", game="duel", channel_id=second)).final()
        assert slow is not None and slow.ephemeral and slow.content.startswith("⏳")
        assert bot.tables.find(str(second)) is None
        # Hints: /hint and the hand's Hint button share one cooldown, in the member's language.
        _, who = await start_with(standin, bot, bo)
        asked = await standin.command(who, "hint")
        await standin.wait_for(lambda: asked.followups)  # deferred while the AI thinks
        hinted = asked.message  # the deferred answer, filled in (a board may ride after it)
        assert hinted is not None and "💡" in hinted.text()
        hand = await open_hand(standin, who)
        clicked = (await standin.click(who, hand, "db:hint:")).final()
        assert clicked is not None and clicked.ephemeral and clicked.content.startswith("⏳")
        assert ("réessayez" if who is bo else "try that again") in clicked.content
        assert "💡" not in hand.text()


async def test_a_hint_asked_as_the_ai_workers_stop_still_shows_the_hand(
    standin: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A member clicks Hint just as the bot shuts down (a restart, a deploy): the AI workers
    # stop under the hint. The member still gets their hand, told in their language that
    # there is no hint this time; nothing is logged as an error (the stand-in fails the
    # test on one).
    bo = standin.add_user("Bo", locale="fr")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(standin.owner, "table create", game="bigtwo")
        _, who = await start_with(standin, bot, bo)
        seats = bot.tables.ai
        assert seats.pool is not None
        pool, asked = seats.pool, seats.hint

        async def once_the_workers_stop(*args: Any) -> Any:
            while not pool.closed:
                await asyncio.sleep(0.01)
            return await asked(*args)

        monkeypatch.setattr(seats, "hint", once_the_workers_stop)
        hand = await open_hand(standin, who)
        clicked = await standin.click(who, hand, "db:hint:")
        assert clicked.kind == 6  # deferred while the AI thinks
        await bot.tables.close()  # what the bot's shutdown stops first
        await standin.wait_for(lambda: "💡" in hand.content)
        assert ("Pas de conseil" if who is bo else "No hint this time") in hand.content
        assert hand.component("db:play:") is not None  # the hand, playable after the restart


async def test_a_hint_whose_ai_worker_dies_shows_the_hand_and_costs_no_hint(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    # The AI worker deciding a member's hint dies (killed: out of memory, a crash) while
    # the hint waits for it. The member gets their hand back, told in their language that
    # there is no hint this time, and the hint is not counted against their 30-second
    # cooldown: Hint is taken again at once, by the worker started in its place.
    bo = standin.add_user("Bo", locale="fr")
    async with bot_running(standin, tmp_path / "db.sqlite3", hint_cooldown=30) as bot:
        await standin.command(standin.owner, "table create", game="bigtwo")
        _, who = await start_with(standin, bot, bo)
        pool = bot.tables.ai.pool
        assert pool is not None
        pids = await pool.pids()
        for pid in pids:
            os.kill(pid, signal.SIGSTOP)  # the hint is sure to wait on its worker
        try:
            hand = await open_hand(standin, who)
            clicked = await standin.click(who, hand, "db:hint:")
            assert clicked.kind == 6  # deferred while the AI thinks
            async with asyncio.timeout(5):
                while pool.waiting == 0:
                    await asyncio.sleep(0.01)
        finally:
            for pid in pids:
                os.kill(pid, signal.SIGKILL)
        await standin.wait_for(lambda: "💡" in hand.content)
        assert ("Pas de conseil" if who is bo else "No hint this time") in hand.content
        assert hand.component("db:play:") is not None
        # The worker's death is an error of its own, logged once per worker; nothing else.
        died = [e for e in standin.errors if "AI worker" in e and "died" in e]
        assert died and len(died) == len(standin.errors) <= len(pids), standin.errors
        standin.errors.clear()
        edits = hand.edits
        again = await standin.click(who, hand, "db:hint:")
        assert again.kind == 6, again  # taken, not refused as too soon
        await standin.wait_for(lambda: hand.edits > edits, 10)
        assert "💡" in hand.content and "⏳" not in hand.content, hand.content
