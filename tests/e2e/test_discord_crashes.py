"""The bot as its own process, SIGKILLed right after a commit and before each kind of post
(`DEUCEBOT_KILL_AT`, see deucebot_dev/crashpoints.py), or right after Discord stored a post
and before the bot read the answer, again and again, then restarted: every deal's board
and result appear exactly once, in order; no earlier board keeps live buttons; the
amounts are the ledger's."""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from deucebot_dev.discord_standin import FakeDiscord, Message
from storage.sqlite import SqliteStorage
from tests.e2e.bot_process import BotProcess, bot_env, ready_or_ended, spawn_bot
from tests.e2e.deliveries import check_match, shown
from tests.e2e.helpers import first_embed

KILLED = -signal.SIGKILL
ANSWER_GRACE = 2.0
"""Seconds between the stand-in storing a post and the bot dying on its answer, at most."""


async def _until_killed_or(bot: BotProcess, done: Callable[[], bool], timeout: float = 90) -> bool:
    """Wait until the process kills itself (True) or `done()` holds (False)."""
    async with asyncio.timeout(timeout):
        while True:
            if bot.proc.returncode is not None:
                assert bot.proc.returncode == KILLED, (bot.proc.returncode, bot.err()[-3000:])
                assert "killing the process" in bot.err()
                return True
            if done():
                # A kill in the answer's window comes right after the stand-in stored the
                # post that made `done()` true: give the process that moment to die.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(bot.proc.wait(), ANSWER_GRACE)
                if bot.proc.returncode is None:
                    return False
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(bot.proc.wait(), 0.1)


def _finished(standin: FakeDiscord) -> bool:
    return any(
        m.embeds and str(m.embeds[0].get("title", "")).endswith(": match result")
        for m in standin.public_messages()
    )


async def _run_chain(
    standin: FakeDiscord,
    tmp_path: Path,
    game: str,
    options: dict[str, object],
    chain: list[str],
    ai_delay: float = 0.0,
) -> int:
    """Create a table, play it with AI seats only through a process killed at each point of
    `chain` in turn (each restart goes on from the database), then finish in a last
    process. Returns how many kills happened at a named point."""
    ana = standin.owner
    kills = 0
    for index, point in enumerate(chain):
        standin.reset_ready()
        bot = await spawn_bot(
            bot_env(
                {
                    **standin.env(),
                    "DEUCEBOT_KILL_AT": point,
                    "DEUCEBOT_AI_PROCESSES": "0",
                    "DEUCEBOT_AI_DELAY": str(ai_delay),
                },
                tmp_path,
            ),
            tmp_path,
            f"p{index}",
        )
        try:
            if index == 0:
                await standin.wait_ready(60)
                await standin.command(ana, "table create", game=game, **options)
                await standin.command(ana, "table start")
                await standin.command(ana, "table leave")  # the AI plays every seat
            else:
                await ready_or_ended(standin, bot)
            if await _until_killed_or(bot, lambda: _finished(standin)):
                kills += 1
        finally:
            if bot.proc.returncode is None:
                bot.proc.kill()
                await bot.wait(15)
    standin.reset_ready()
    last = await spawn_bot(
        bot_env(
            {**standin.env(), "DEUCEBOT_AI_PROCESSES": "0", "DEUCEBOT_AI_DELAY": str(ai_delay)},
            tmp_path,
        ),
        tmp_path,
        "last",
    )
    try:
        await standin.wait_ready(60)
        await standin.wait_for(lambda: _finished(standin), 60)
        # No sleep: the shutdown itself sends what was committed (`DiscordFront.drain`).
    finally:
        last.proc.send_signal(signal.SIGTERM)
        assert await last.wait(30) == 0
    assert "Traceback" not in last.err(), last.err()[-3000:]
    return kills


async def _check(standin: FakeDiscord, db: Path) -> None:
    storage = SqliteStorage(str(db))
    await storage.open()
    try:
        table = (await storage.live_tables())[0]
        match = await storage.current_match(table.id)
        assert match is not None and match.finished_at is not None
        names = [seat.name for seat in await storage.seats(table.id)]
        await check_match(standin, storage, match.id, names)
    finally:
        await storage.close()


# Each chain: the first process dies before the first deal result (after the member left);
# each restart dies at the next named point (a board, an edit, a result, the match result).
# The AI waits a little between moves so that play is still going on at each restart (Big
# Two's too: with its first board edited through Ana's token, outside the channel's edit
# bucket, the first process keeps up and the match no longer outlasts the chain at once).
CHAINS = {
    "bigtwo": (3, 0.05, ["result@1", "board@1", "edit@1", "result@1", "edit@3", "match_result@1"]),
    "draw": (4, 0.1, ["result@1", "board@1", "edit@2", "result@1", "board@1", "match_result@1"]),
    "bigtwo-edits": (2, 0.05, ["edit@4", "edit@1", "board@1", "edit@2", "result@1", "edit@1"]),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CHAINS))
async def test_killed_before_every_kind_of_post_each_deal_is_announced_once_in_order(
    standin: FakeDiscord, tmp_path: Path, name: str
) -> None:
    deals, delay, chain = CHAINS[name]
    game = name.split("-")[0]
    kills = await _run_chain(standin, tmp_path, game, {"deals": deals}, chain, delay)
    assert kills >= len(chain) - 1, kills
    await _check(standin, tmp_path / "bot.sqlite3")


@pytest.mark.slow
async def test_killed_before_the_match_result_it_is_posted_once_after_the_restart(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    # The final commit finishes the match; the kill comes before its result is posted.
    chain = ["match_result@1", "match_result@1"]
    kills = await _run_chain(standin, tmp_path, "bigtwo", {"deals": 1}, chain)
    assert kills == 2  # the first restart delivers it first thing, and dies there too
    await _check(standin, tmp_path / "bot.sqlite3")
    assert len(shown(standin).match_results()) == 1
    with sqlite3.connect(tmp_path / "bot.sqlite3") as db:
        effects = [row[0] for row in db.execute("SELECT effect FROM deliveries ORDER BY rowid")]
    assert effects == ["board:1", "result:1", "match_result"], effects


# The processes of these chains die in the other window: Discord stored the post and
# answered, the bot had not read the answer yet (so nothing recorded it); each restart
# dies on the first post it makes after taking over what the one before left (the first
# of the first chain dies before a post, as the chains above). Deal 2's board is posted
# in the window in both; the last process of each dies on the match result.
HISTORY_CHAIN = ["result@1", "board_answer@1", "result_answer@1", "match_result_answer@1"]
NONCE_CHAIN = ["board_answer@2", "result_answer@1", "board_answer@1", "match_result_answer@1"]


def _turns(message: Message) -> list[int]:
    """The turn in the footer of each version of a board, oldest first."""
    found = []
    for version in message.history:
        footer = str((first_embed(version).get("footer") or {}).get("text", ""))
        numbers = [int(n) for n in re.findall(r"\d+", footer)]
        if len(numbers) == 3:
            found.append(numbers[2])
    return found


async def _check_window(standin: FakeDiscord, tmp_path: Path) -> None:
    """One board and one result per deal, older boards without buttons (`_check`); no
    intent left unrecorded; the boards posted in the window were edited on by the
    restarted processes (deal 2's turn moved on, the last one shows the match over), not
    left behind for others."""
    await _check(standin, tmp_path / "bot.sqlite3")
    with sqlite3.connect(tmp_path / "bot.sqlite3") as db:
        left = db.execute("SELECT effect FROM deliveries WHERE delivered = 0").fetchall()
    assert left == []
    boards = [m for kind, deal, m in shown(standin).order if kind == "board" and deal > 0]
    turns = _turns(boards[1])
    assert len(turns) >= 2 and max(turns) > turns[0], turns
    # The last board shows the end: edits reached it (posted in the window too, or not).
    assert "The match is over" in boards[-1].content, boards[-1].content


@pytest.mark.slow
async def test_killed_after_discord_stored_a_post_it_is_found_in_the_channel_not_posted_again(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    # Every restart comes after Discord's dedup window: only the recorded intent and the
    # channel's history keep the posts single.
    standin.nonce_window = 0.0
    kills = await _run_chain(standin, tmp_path, "bigtwo", {"deals": 3}, HISTORY_CHAIN, 0.05)
    assert kills == len(HISTORY_CHAIN)
    await _check_window(standin, tmp_path)
    logs = "".join(path.read_text() for path in tmp_path.glob("*-logs/stderr"))
    in_window = [point for point in HISTORY_CHAIN if "_answer" in point]
    assert logs.count("posted by an earlier process; adopted") == len(in_window), logs
    assert standin.deduplicated == 0


@pytest.mark.slow
async def test_killed_after_discord_stored_a_post_the_nonce_returns_it_within_the_window(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    # The bot cannot read the channel (no Read Message History): the post's nonce alone,
    # repeated within Discord's window, returns the message the dead process made.
    standin.history_readable = False
    kills = await _run_chain(standin, tmp_path, "bigtwo", {"deals": 3}, NONCE_CHAIN, 0.05)
    assert kills == len(NONCE_CHAIN)
    await _check_window(standin, tmp_path)
    assert standin.deduplicated == len(NONCE_CHAIN)
