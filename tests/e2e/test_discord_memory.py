"""Memory that must not grow with use (issue 40, item 5), through the real bot and the
stand-in: many tables created, played and stopped, and many channels where members only
ran `/rules`, leave the process holding what it held before: no outbox, task, `/metrics`
series, lent interaction token or watched hand of a stopped table, nothing for a channel
without a table.

`SOAK_CYCLES` create/play/stop cycles run here (100 by default: about 50 s on a two-core
machine shared with other work); `DEUCEBOT_SOAK_CYCLES=1000` runs the issue's thousand
(about 4 minutes there)."""

from __future__ import annotations

import asyncio
import gc
import os
from pathlib import Path

import aiohttp

from bot.discord import effects as fx
from bot.discord.client import Deucebot
from bot.i18n import t
from bot.runtime.table import Table
from deucebot_dev.discord_standin import FakeDiscord, Message
from tests.e2e.conftest import bot_running, running_standin, settle
from tests.e2e.helpers import boards, play_turn
from tests.e2e.poker_helpers import started_table

SOAK_CYCLES = int(os.environ.get("DEUCEBOT_SOAK_CYCLES", "100"))
RULES_CHANNELS = 1000
TABLE_CHANNELS = 4
WARM_UP = 8
"""Cycles before the first count (pictures cached, routes and pools started)."""


async def _scrape(bot: Deucebot) -> str:
    """The bot's `/metrics` page, as Prometheus reads it."""
    assert bot.health is not None
    url = f"http://127.0.0.1:{bot.health.port}/metrics"
    async with aiohttp.ClientSession() as session, session.get(url) as answer:
        assert answer.status == 200
        return await answer.text()


def _alive(kind: type) -> int:
    """How many objects of exactly `kind` the process holds (after a full collection)."""
    return sum(1 for o in gc.get_objects() if type(o) is kind)


async def _counts(bot: Deucebot) -> dict[str, int]:
    """What the process holds now."""
    await settle(bot)
    gc.collect()
    page = await _scrape(bot)
    held = bot.front.held()
    return {
        **held,
        "asyncio tasks": len(asyncio.all_tasks()),
        "per-table series": sum(
            1 for line in page.splitlines() if not line.startswith("#") and 'table="' in line
        ),
        "tables": _alive(Table),
        "outbox objects": sum(1 for o in gc.get_objects() if type(o).__name__ == "TableChannel"),
        "interactions": sum(1 for o in gc.get_objects() if type(o).__name__ == "Interaction"),
    }


async def _cycle(fake: FakeDiscord, bot: Deucebot, channel: int) -> None:
    """A table created in `channel`, dealt, played (one move of Ana's: she opens her hand
    and leads or passes), and stopped."""
    ana = fake.owner
    created = await fake.command(ana, "table create", channel_id=channel, game="bigtwo", deals=1)
    assert created.final() is not None and not created.final().ephemeral, created
    await fake.command(ana, "table start", channel_id=channel)
    table = bot.tables.find(str(channel))
    assert table is not None
    await fake.wait_for(lambda: table.to_act == table.seat_of(str(ana.id)), 10)
    await settle(bot)
    turn = table.turn
    await play_turn(fake, bot, ana, "pass")
    assert table.turn > turn
    stopped = await fake.command(ana, "table stop", channel_id=channel)
    assert stopped.final() is not None, stopped
    assert bot.tables.find(str(channel)) is None


async def test_stopped_tables_and_rules_channels_leave_nothing_behind(tmp_path: Path) -> None:
    async with running_standin(channels=TABLE_CHANNELS + RULES_CHANNELS) as fake:
        tables, rules = fake.channel_ids[:TABLE_CHANNELS], fake.channel_ids[TABLE_CHANNELS:]
        async with bot_running(fake, tmp_path / "db.sqlite3", DEUCEBOT_HTTP_PORT=0) as bot:
            for index in range(WARM_UP):
                await _cycle(fake, bot, tables[index % TABLE_CHANNELS])
            before = await _counts(bot)
            assert before["outboxes"] == before["tokens"] == before["per-table series"] == 0
            for index in range(SOAK_CYCLES):
                await _cycle(fake, bot, tables[index % TABLE_CHANNELS])
            for channel in rules:
                answer = await fake.command(fake.owner, "rules", channel_id=channel, game="holdem")
                assert answer.ephemeral
            after = await _counts(bot)
            # Exactly as before; only the asyncio tasks of the process at large (an HTTP
            # connection of the last scrape, a cooldown's expiry) may differ by a couple.
            tasks = "asyncio tasks"
            assert after[tasks] <= before[tasks] + 2, (before, after)
            assert {**after, tasks: 0} == {**before, tasks: 0}, (before, after)
            # A live table holds its own (its channel, whose one task, one series, its
            # tokens; its DMs' task only once a hand is dealt), and lets go of them when
            # it stops.
            await fake.command(fake.owner, "table create", channel_id=tables[0], game="bigtwo")
            playing = await _counts(bot)
            assert playing["outboxes"] == 1 and playing["per-table series"] == 1, playing
            assert playing["tasks"] == 1 and playing["tokens"] == 1, playing
            await fake.command(fake.owner, "table stop", channel_id=tables[0])
            again = await _counts(bot)
            assert {**again, tasks: 0} == {**before, tasks: 0}, (before, again)
        assert not fake.errors, fake.errors


def _kind(message: Message) -> str:
    """What a public message of a table was when posted (its first version's title)."""
    title = str(message.history[0]["embeds"][0].get("title") or "")
    if title.endswith("waiting for players"):
        return "lobby"
    if title.endswith(": result"):
        return "result"
    return "match result" if title.endswith(": match result") else "board"


async def test_a_stopped_table_delivers_what_waited_before_it_is_let_go_of(
    tmp_path: Path,
) -> None:
    """Stopped the moment its match ends, while the channel's posts are slow: the last
    result and the match result still go out, once and in order, the board shows the
    table closed, and only then does the front let go of the table."""
    async with running_standin() as fake:
        ana, channel = fake.owner, fake.channel_id
        async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
            table = await started_table(fake, bot, ana, game="bigtwo", deals=1)
            assert table.match is not None
            await settle(bot)
            fake.slow.append(("POST", rf"/channels/{channel}/messages$", 0.5))
            await fake.command(ana, "table leave")  # the AI plays to the end, posts through REST
            await fake.wait_for(lambda: table.status == "finished", 60)
            assert bot.front.held()["outboxes"] == 1  # a finished table keeps its outbox
            await fake.command(ana, "table stop")
            await fake.wait_for(lambda: bot.front.held()["outboxes"] == 0, 30)
            fake.slow.clear()
            # Each effect of the match went out once, in order, the board first.
            kinds = [_kind(m) for m in fake.public_messages() if m.embeds]
            assert kinds == ["lobby", "board", "result", "match result"], kinds
            delivered = {r.effect for r in await bot.storage.delivered(table.match.id)}
            assert delivered == {"board:1", "result:1", fx.MATCH_RESULT}, delivered
            closed = boards(fake)[-1]
            assert t("discord.board.stopped", "en", table=table.id) in closed.text()
            assert closed.custom_ids() == []
            assert bot.front.held() == {"outboxes": 0, "tasks": 0, "tokens": 0, "hands": 0}
        assert not fake.errors, fake.errors
