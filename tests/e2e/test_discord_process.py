"""The real entry point (`python -m bot`) as a process: token errors, a restart mid-deal,
a board posted through an interaction token kept by the next process, and a click still
being answered when the process is told to stop."""

from __future__ import annotations

import asyncio
import re
import signal
from pathlib import Path

from deucebot_dev.discord_standin import INTERACTION, REST, FakeDiscord, Message, User
from storage.backend import open_storage
from tests.e2e.bot_process import BotProcess, bot_env, spawn_bot
from tests.e2e.helpers import board, boards, mentioned


async def test_without_a_token_it_says_where_to_put_one(tmp_path: Path) -> None:
    bot = await spawn_bot(bot_env({}, tmp_path), tmp_path)
    assert await bot.wait(30) == 2
    lines = bot.err().strip().splitlines()
    assert len(lines) == 1, lines
    assert "DISCORD_TOKEN" in lines[0] and ".env" in lines[0]
    assert "deucebot play bigtwo" in lines[0]


async def test_a_wrong_token_gives_one_clear_line_and_is_never_logged(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    env = bot_env({**standin.env(), "DISCORD_TOKEN": "wrong-secret-token"}, tmp_path)
    bot = await spawn_bot(env, tmp_path)
    assert await bot.wait(30) == 2
    text = bot.err()
    assert "Traceback" not in text
    assert "refused the token" in text.strip().splitlines()[-1]
    assert "wrong-secret-token" not in text + bot.out()


async def test_a_new_process_on_the_same_database_goes_on_with_the_old_board_buttons(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    env = bot_env(standin.env(), tmp_path)
    first = await spawn_bot(env, tmp_path, "first")
    try:
        await _deal_one(standin, ana)
        old_board = board(standin)
        # Mid-deal: Ana leads or answers once, then the process dies without warning.
        hand = (await standin.click(ana, old_board, "db:hand:")).message
        assert hand is not None and hand.ephemeral
    finally:
        second = await _killed_and_restarted(first, standin, env, tmp_path)
    try:
        await standin.wait_ready(60)
        # The restored table posts a fresh board; the old board's button still works.
        await standin.wait_for(lambda: len(boards(standin)) >= 2, 20)
        again = await standin.click(ana, old_board, "db:hand:")
        assert again.kind == 4 and again.ephemeral
        hand = again.message
        assert hand is not None and hand.component("db:sel:")["options"]
        # An old hand's buttons are answered, not failed: stale turn or played (a pass
        # played on the board the new process kept editing is answered with that board).
        stale = await standin.click(ana, old_board, "db:pass:")
        final = stale.final()
        assert final is not None
        if stale.kind == 7:
            assert final.id == old_board.id and not stale.followups
        else:
            assert final.ephemeral and final.content.startswith(("⛔", "✅")), final
        # And the game goes on: Ana plays her next turn from a restored hand.
        await _take_turn(standin, ana)
    finally:
        # SIGTERM, as systemd or `docker stop` send it: a graceful stop.
        second.proc.send_signal(signal.SIGTERM)
        assert await second.wait(30) == 0  # it ends itself within 20 s at worst
    text = second.err()
    assert "Traceback" not in text and " ERROR " not in text, text[-3000:]
    assert "SIGTERM received: shutting down" in text and "database closed" in text
    assert "standin-token" not in text + first.err()


async def test_a_click_still_being_answered_at_sigterm_is_answered_before_the_process_ends(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    # Ana moves from her hand; the bot commits the move and is answering the click (Discord
    # is slow to take the answer: 1 s) when SIGTERM arrives, as on a deploy. The process
    # waits for the answer before it closes its connections: Ana sees her move confirmed,
    # nothing is logged as an error, the process ends cleanly and the log holds the move.
    # Without the shutdown gate (`Deucebot.close` not waiting) the click is never answered.
    ana = standin.owner
    db = tmp_path / "bot.sqlite3"
    bot = await spawn_bot(bot_env(standin.env(), tmp_path), tmp_path)
    try:
        await _deal_one(standin, ana)
        hand = (await standin.click(ana, board(standin), "db:hand:")).message
        assert hand is not None and hand.ephemeral
        # Her first turn: she opens the deal (her lowest card, the 3♦, opens it) or an AI
        # opened and she passes; either move is always legal.
        leading = "contains 3♦" in hand.embeds[0]["description"]
        if leading:
            lowest = hand.component("db:sel:")["options"][0]["value"]
            assert lowest == "3D", lowest
            await standin.select(ana, hand, "db:sel:", [lowest])
        callbacks = standin.calls("POST", "/callback")
        standin.slow.append(("POST", r"/interactions/\d+/[^/]+/callback$", 1.0))
        click = asyncio.create_task(standin.click(ana, hand, "db:play:" if leading else "db:pass:"))
        await standin.wait_for(lambda: standin.calls("POST", "/callback") > callbacks, 10)
        bot.proc.send_signal(signal.SIGTERM)
        answered = await asyncio.wait_for(click, 15)
        assert answered.kind == 7, answered
        final = answered.final()
        assert final is not None and final.content.startswith("✅"), final
        assert await bot.wait(30) == 0
    finally:
        if bot.proc.returncode is None:
            bot.proc.kill()
            await bot.wait(15)
    text = bot.err()
    assert "Traceback" not in text and " ERROR " not in text, text[-3000:]
    assert "SIGTERM received: shutting down" in text and "database closed" in text
    storage = await open_storage(str(db), read_only=True)
    try:
        (match,) = await storage.matches()
        moves = [a for a in await storage.actions(match.id) if a.actor == "human"]
    finally:
        await storage.close()
    assert len(moves) == 1, moves
    assert (moves[0].action == "pass") is not leading, moves


async def _killed_and_restarted(
    first: BotProcess, standin: FakeDiscord, env: dict[str, str], tmp_path: Path
) -> BotProcess:
    """Kill `first` without warning; start the next process on the same database."""
    first.proc.kill()
    await first.wait(15)
    standin.reset_ready()
    return await spawn_bot(env, tmp_path, "second")


async def _deal_one(standin: FakeDiscord, ana: User) -> None:
    """Once the bot is up: a one-deal Big Two table of Ana's, started, her turn."""
    await standin.wait_ready(60)
    await standin.command(ana, "table create", game="bigtwo", deals=1)
    await standin.command(ana, "table start")
    await standin.wait_for(lambda: mentioned(standin) == ana.id, 20)


async def _take_turn(standin: FakeDiscord, user: User) -> None:
    """Wait for `user`'s turn, then lead the lowest card or pass, from the ephemeral hand.
    The board may lag a moment behind the table, so a hand that turns out stale is retried."""
    for _ in range(20):
        await standin.wait_for(lambda: mentioned(standin) == user.id, 20)
        fresh = (await standin.click(user, board(standin), "db:hand:")).message
        assert fresh is not None
        lowest = fresh.component("db:sel:")["options"][0]["value"]
        await standin.select(user, fresh, "db:sel:", [lowest])
        if fresh.content.startswith("🔄") or fresh.component("db:play:").get("disabled"):
            await asyncio.sleep(0.1)
            continue
        played = await standin.click(user, fresh, "db:play:")
        if played.kind == 4:  # the lowest single does not beat the table: pass instead
            played = await standin.click(user, fresh, "db:pass:")
        if played.kind == 7 and fresh.content.startswith("✅"):
            return
        await asyncio.sleep(0.1)
    raise AssertionError("could not take a turn after the restart")


async def test_a_board_a_killed_process_posted_through_a_token_is_edited_through_rest(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    """The deal's board is a follow-up of Ana's interaction; the process dies mid-deal with
    its token; the next one edits that same board through its REST route (the recorded
    message id), posts no second board of the deal, and the deal goes on."""
    ana = standin.owner
    env = bot_env(standin.env(), tmp_path)
    first = await spawn_bot(env, tmp_path, "first")
    try:
        await _deal_one(standin, ana)
        dealt = board(standin)
        assert dealt.via == INTERACTION, dealt.via  # through the token of /table start
        turn = _turn(dealt)
    finally:
        second = await _killed_and_restarted(first, standin, env, tmp_path)
    try:
        await standin.wait_ready(60)
        await _take_turn(standin, ana)
        await standin.wait_for(lambda: _turn(dealt) > turn, 20)
        assert dealt.via == REST  # the token went with the first process
        assert [b.id for b in boards(standin) if _deal(b) == 1] == [dealt.id]
    finally:
        second.proc.send_signal(signal.SIGTERM)
        assert await second.wait(30) == 0
    text = second.err()
    assert "Traceback" not in text and " ERROR " not in text, text[-3000:]
    assert not standin.errors, standin.errors


def _numbers(message: Message) -> list[int]:
    """A board's footer numbers: table, deal, turn."""
    return [int(n) for n in re.findall(r"\d+", message.embeds[0]["footer"]["text"])]


def _deal(message: Message) -> int:
    return _numbers(message)[1]


def _turn(message: Message) -> int:
    return _numbers(message)[2]
