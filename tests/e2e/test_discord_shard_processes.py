"""Two real bot processes run the two shards of one bot against one PostgreSQL database,
with a table in a guild on each shard. A third process started on a running shard is
refused (one line). One process is killed (SIGKILL) mid-deal and restarted: its table
resumes with every acknowledged move, the other process never notices, and each guild's
leaderboard holds its match."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

import pytest

from deucebot_dev.discord_standin import FakeDiscord
from storage.backend import open_storage
from tests.e2e.bot_process import BotProcess, shard_env, spawn_bot
from tests.e2e.shard_play import channel_boards, create_and_start, take_turn, whose_turn

pytestmark = pytest.mark.slow


async def _play(fake: FakeDiscord, channel: int, moves: list[str], until: float) -> None:
    """Ana's turns in `channel` until the board stops asking anyone or `until` passes;
    acknowledged moves are appended to `moves`."""
    ana = fake.owner
    while time.monotonic() < until:
        move = await take_turn(fake, ana, channel)
        if move is not None:
            moves.append(move)
        elif _finished(fake, channel):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the deal in {channel} did not end in time")


def _finished(fake: FakeDiscord, channel: int) -> bool:
    """The deal is over: its result was posted (a message of its own, titled "... result")
    and the board asks nobody to play."""
    results = [
        m
        for m in fake.public_messages(channel)
        if m.embeds and str(m.embeds[0].get("title") or "").endswith("result")
    ]
    return bool(results) and whose_turn(fake, channel) is None


def _board_versions(fake: FakeDiscord, channel: int) -> int:
    """How many versions (posts and edits) the boards of `channel` have had."""
    return sum(len(board.history) for board in channel_boards(fake, channel))


async def test_two_shard_processes_one_killed_and_restarted(
    two_shards: FakeDiscord, pg_url: str, tmp_path: Path
) -> None:
    fake = two_shards
    ana = fake.owner
    guild_a, guild_b = fake.guild_ids
    chan_a, chan_b = fake.guild_channels[guild_a][0], fake.guild_channels[guild_b][0]
    procs: list[BotProcess] = []

    async def start(shard: int, name: str) -> BotProcess:
        proc = await spawn_bot(shard_env(fake, pg_url, shard, tmp_path), tmp_path, name)
        procs.append(proc)
        return proc

    try:
        zero = await start(0, "zero")
        one = await start(1, "one")
        await fake.wait_ready(60, shards=[0, 1])
        # A second process for shard 1 is refused while the first one lives.
        intruder = await start(1, "intruder")
        assert await intruder.wait(30) == 2
        lines = intruder.err().strip().splitlines()
        assert "already run by" in lines[-1] and "shard 1 of 2" in lines[-1], lines[-3:]
        assert "Traceback" not in intruder.err()
        assert fake.identified.count(1) == 1, "the refused process never connected"

        await create_and_start(fake, ana, chan_a)
        await create_and_start(fake, ana, chan_b)
        moves_a: list[str] = []
        moves_b: list[str] = []
        until = time.monotonic() + 60
        while not moves_b:  # Ana makes at least one acknowledged move at table B
            assert time.monotonic() < until, "Ana never got a turn at table B"
            move = await take_turn(fake, ana, chan_b)
            if move:
                moves_b.append(move)
            await asyncio.sleep(0.05)
        shown_b = _board_versions(fake, chan_b)
        one.proc.kill()  # SIGKILL: no goodbye, no lease released
        assert await one.wait(15) == -signal.SIGKILL
        # Shard 0 goes on meanwhile: its table keeps answering.
        calls_before = len(fake.rest_calls)
        await _play(fake, chan_a, moves_a, time.monotonic() + 90)
        assert len(fake.rest_calls) > calls_before
        fake.reset_ready(shards=[1])
        again = await start(1, "again")
        await fake.wait_ready(60, shards=[1])
        # The restored table redraws its board (the deal's own, kept from the killed
        # process) and the deal goes on to its end.
        await fake.wait_for(lambda: _board_versions(fake, chan_b) > shown_b, 30)
        await _play(fake, chan_b, moves_b, time.monotonic() + 90)

        for chan in (chan_a, chan_b):  # each guild's leaderboard, from its own process
            answer = (
                await fake.command(ana, "leaderboard", channel_id=chan, game="bigtwo")
            ).final()
            assert answer is not None and "Owner" in answer.text(), answer
        storage = await open_storage(pg_url, read_only=True)
        try:
            for guild, chan, moves in ((guild_a, chan_a, moves_a), (guild_b, chan_b, moves_b)):
                table = await storage.table_at(str(chan))
                assert table is not None and table.guild == str(guild)
                match = await storage.current_match(table.id)
                assert match is not None
                log = await storage.actions(match.id)
                seat = next(
                    p.seat
                    for p in await storage.match_players(match.id)
                    if p.player_id == str(ana.id)
                )
                ana_moves = [a.action for a in log if a.seat == seat]
                assert ana_moves == moves, (ana_moves, moves)  # nothing acknowledged lost
                board = await storage.leaderboard(
                    guild=str(guild),
                    game="bigtwo",
                    scoring="penalty",
                    period="all",
                    now=time.time(),
                )
                rows = [r for r in board.humans + board.unranked if r.player_id == str(ana.id)]
                assert [(r.matches, r.deals) for r in rows] == [(1, 1)]
        finally:
            await storage.close()
        for proc in (zero, again):
            proc.proc.send_signal(signal.SIGTERM)
            assert await proc.wait(30) == 0
        text = zero.err()
        assert "Traceback" not in text and " ERROR " not in text, text[-3000:]
        assert "took shard" not in text
    finally:
        for proc in procs:
            if proc.proc.returncode is None:
                proc.proc.kill()
                await proc.proc.wait()
