"""Two shard processes of one bot (here: two bots in this process) sharing one PostgreSQL
database: each drives only the tables of its guilds, and one restarting leaves the other
alone. The version with real processes and SIGKILL is test_discord_shard_processes.py."""

from __future__ import annotations

import time

from deucebot_dev.discord_standin import FakeDiscord
from tests.e2e.conftest import bot_running, settle
from tests.e2e.shard_play import create_and_start, play_own_turn


async def test_each_shard_drives_its_guilds_tables_and_a_restart_is_not_noticed(
    two_shards: FakeDiscord, pg_url: str
) -> None:
    fake = two_shards
    ana = fake.owner
    one_guild, two_guild = fake.guild_ids
    assert (fake.shard_of(one_guild), fake.shard_of(two_guild)) == (0, 1)
    chan_a, chan_b = fake.guild_channels[one_guild][0], fake.guild_channels[two_guild][0]
    db = pg_url
    async with bot_running(fake, db, shards=[0], DEUCEBOT_AI_PROCESSES=0) as one:
        async with bot_running(fake, db, shards=[1], DEUCEBOT_AI_PROCESSES=0) as two:
            assert sorted(g.id for g in one.guilds) == [one_guild]
            assert sorted(g.id for g in two.guilds) == [two_guild]
            await create_and_start(fake, ana, chan_a)
            await create_and_start(fake, ana, chan_b)
            await settle(one)
            await settle(two)
            # Each table lives in the process of its guild's shard, and only there.
            assert list(one.tables.tables) == [str(chan_a)]
            assert list(two.tables.tables) == [str(chan_b)]
            table_b = two.tables.get(str(chan_b))
            for _ in range(200):  # Ana plays at least once at table B
                if await play_own_turn(fake, ana, chan_b, lambda: two.tables.find(str(chan_b))):
                    break
                await settle(two)
            else:
                raise AssertionError("Ana never got a turn at table B")
            await settle(two)
            acknowledged = table_b.turn
            table_a = one.tables.get(str(chan_a))
            turn_a, calls_a = table_a.turn, (one.front.rest_calls, one.front.token_calls)
        # Shard 1's process is gone; shard 0's goes on; a new shard 1 process comes up.
        async with bot_running(fake, db, shards=[1], DEUCEBOT_AI_PROCESSES=0) as two_again:
            assert fake.identified == [0, 1, 1]
            assert list(two_again.tables.tables) == [str(chan_b)], "only its own tables"
            restored = two_again.tables.get(str(chan_b))
            assert restored.turn >= acknowledged, "an acknowledged move was lost"
            assert one.tables.get(str(chan_a)) is table_a
            calls = (one.front.rest_calls, one.front.token_calls)
            assert table_a.turn == turn_a and calls == calls_a, "shard 0 noticed the restart"
            # Both deals are played to the end, each by its own process.
            finders = {
                chan_a: (one, lambda: one.tables.find(str(chan_a))),
                chan_b: (two_again, lambda: two_again.tables.find(str(chan_b))),
            }
            deadline = time.monotonic() + 60
            while any(f() is not None and f().status == "playing" for _, f in finders.values()):
                assert time.monotonic() < deadline, "the deals did not end"
                for chan, (bot, find) in finders.items():
                    await play_own_turn(fake, ana, chan, find)
                    await settle(bot)
            # Each guild's leaderboard, asked in that guild (so of its shard's process),
            # holds that guild's one match, whoever wrote it.
            for guild, chan in ((one_guild, chan_a), (two_guild, chan_b)):
                answer = await fake.command(ana, "leaderboard", channel_id=chan, game="bigtwo")
                shown = answer.final()
                assert shown is not None and not shown.ephemeral
                assert "Owner" in shown.text(), shown.text()
                board = await one.storage.leaderboard(
                    guild=str(guild),
                    game="bigtwo",
                    scoring="penalty",
                    period="all",
                    now=time.time(),
                )
                rows = [r for r in board.humans + board.unranked if r.player_id == str(ana.id)]
                assert len(rows) == 1 and rows[0].matches == 1 and rows[0].deals == 1, rows
                assert sum(r.deals for r in board.ai) == 3  # the three AI seats' deals
