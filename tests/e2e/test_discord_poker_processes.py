"""Hold'em, French draw poker and Deuce Duel played whole through the bot as its own process
(`python -m bot`, settings from the environment) and the stand-in, by two members and AI
seats, only through the controls a member sees: every public message version is scanned for
cards shown before the game showed them, the boards' figures are the match replayed from the
database log, each deal's result says what its ledger rows say. Then the same with the
process SIGKILLed at a kill point mid-match and restarted on the same database."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from deucebot_dev.discord_standin import FakeDiscord, Message, User
from tests.e2e.bot_process import ready_or_ended, spawn_bot
from tests.e2e.pictures import check_pictures
from tests.e2e.process_play import (
    Choose,
    Replayed,
    betting_order,
    buttons,
    check_ledger,
    click_label,
    env_for,
    play_until_exit,
    replay_match,
    scan_public,
    seen_privately,
    stop,
)

Setup = Callable[[FakeDiscord, list[User]], Awaitable[None]]
"""Opens the match for the members (the first one creates)."""

HOLDEM = {"game": "holdem", "seats": 4, "stack": 200, "small_blind": 10, "big_blind": 20}


async def bet(fake: FakeDiscord, user: User, hand: Message, moves: int) -> None:
    """A betting turn: vary the buttons and the amount form."""
    await click_label(fake, user, hand, betting_order(moves))


async def lock_or_bet(fake: FakeDiscord, user: User, hand: Message, moves: int) -> None:
    """A duel turn: lock a card chosen in the menu, else bet (all-in or call from the 12th
    move on, so that a duel of 20 chips each ends in time)."""
    if not any(c.startswith("db:pick:") for c in hand.custom_ids()):
        if moves >= 12:
            await click_label(fake, user, hand, ("All-in", "Call"))
        else:
            await bet(fake, user, hand, moves)
        return
    options = [o["value"] for o in hand.component("db:sel:")["options"]]
    assert len(options) == 2, options
    await fake.select(user, hand, "db:sel:", [options[moves % 2]])
    if hand.component("db:pick:").get("disabled"):  # a hand the table moved past
        return
    await fake.click(user, hand, "db:pick:")


async def cautious(fake: FakeDiscord, user: User, hand: Message, most: int) -> None:
    """Check, call at most `most` chips, else fold (a member who never busts early)."""
    labels = buttons(hand)
    small = [lab for lab in labels if lab.startswith("Call ") and int(lab.split()[1]) <= most]
    await click_label(fake, user, hand, ("Check", *small, "Fold"))


async def cautious_bet(fake: FakeDiscord, user: User, hand: Message, moves: int) -> None:
    """Hold'em, cautious for the first dozen moves (calls up to the big blind), then `bet`:
    a kill point some deals in is still reached."""
    if moves >= 12:
        await bet(fake, user, hand, moves)
    else:
        await cautious(fake, user, hand, HOLDEM["big_blind"])  # type: ignore[arg-type]


async def lock_or_fold(fake: FakeDiscord, user: User, hand: Message, moves: int) -> None:
    """A cautious duel turn for the first dozen moves (lock a card, check, call 1 chip, else
    fold: the match lasts several deals), then as `lock_or_bet`."""
    if moves >= 12 or any(c.startswith("db:pick:") for c in hand.custom_ids()):
        await lock_or_bet(fake, user, hand, moves)
    else:
        await cautious(fake, user, hand, 1)


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


async def _table(fake: FakeDiscord, options: dict[str, object], members: list[User]) -> None:
    """The first member creates a table with `options`, the others join, it starts."""
    await fake.command(members[0], "table create", **options)
    for member in members[1:]:
        await fake.command(member, "table join")
    await fake.command(members[0], "table start")


async def _duel_accepted(fake: FakeDiscord, members: list[User]) -> None:
    """The first member challenges the second, who clicks Accept."""
    await fake.command(members[0], "duel challenge", member=members[1])
    challenge = next(m for m in fake.public_messages() if "db:duel:yes:" in str(m.custom_ids()))
    await fake.click(members[1], challenge, "db:duel:yes:")
    assert "accepted" in challenge.content, challenge.content


async def _checked(fake: FakeDiscord, db: Path, members: list[User]) -> Replayed:
    """The match in `db` against the channel: privacy, figures, results and ledger."""
    match = await replay_match(db)
    scanned = scan_public(fake, match)
    # The scan could fail: it read cards in public messages, and the members were shown
    # cards nobody else saw then.
    assert scanned.cards_shown > 0 or not match.revealed, scanned
    for user in members:
        assert seen_privately(fake, user) & set().union(*match.held.values()), user.name
    if match.game in ("holdem", "duel"):
        assert scanned.figures >= len(match.steps) // 2, (scanned, len(match.steps))
    await check_ledger(fake, db, match)
    assert check_pictures(fake) > 0  # boards and results carry their pictures
    return match


async def _whole_match(
    standin: FakeDiscord, tmp_path: Path, setup: Setup, choose: Choose
) -> Replayed:
    """Two members play a whole match in one process (never killed)."""
    members = [standin.owner, standin.add_user("Bo")]
    return await _killed_match(standin, tmp_path, members, setup, choose, [])


@pytest.mark.slow
@pytest.mark.timeout(150)
async def test_holdem_whole_match_through_the_controls(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    match = await _whole_match(
        standin, tmp_path, lambda f, m: _table(f, {**HOLDEM, "deals": 4}, m), bet
    )
    assert match.ai == [False, False, True, True]


@pytest.mark.slow
@pytest.mark.timeout(150)
async def test_duel_between_two_members_through_the_controls(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    match = await _whole_match(standin, tmp_path, _duel_accepted, lock_or_bet)
    assert match.ai == [False, False]
    assert len(match.revealed) >= 2  # locked cards were shown at each showdown


@pytest.mark.slow
@pytest.mark.timeout(150)
async def test_draw_whole_match_through_the_controls(standin: FakeDiscord, tmp_path: Path) -> None:
    match = await _whole_match(
        standin,
        tmp_path,
        lambda f, m: _table(f, {"game": "draw", "seats": 4, "deals": 3}, m),
        draw_or_bet,
    )
    assert match.ai == [False, False, True, True]


async def _killed_match(
    standin: FakeDiscord,
    tmp_path: Path,
    members: list[User],
    setup: Setup,
    choose: Choose,
    chain: list[str],
) -> Replayed:
    """Play a match through processes SIGKILLed at each point of `chain` in turn (each
    restart on the same database), the members playing on whatever board is newest, then
    finish it in a last process; check it as a whole match."""
    for index, point in enumerate([*chain, ""]):
        standin.reset_ready()
        extra = {"DEUCEBOT_KILL_AT": point} if point else {}
        bot = await spawn_bot(env_for(standin, tmp_path, **extra), tmp_path, f"p{index}")
        try:
            if index == 0:
                await standin.wait_ready(60)
                await setup(standin, members)
            else:
                await ready_or_ended(standin, bot)
            killed = await play_until_exit(standin, bot, members, choose)
            assert killed == bool(point), (point, killed)
        finally:
            if bot.proc.returncode is None:
                await stop(bot)
    return await _checked(standin, tmp_path / "bot.sqlite3", members)


@pytest.mark.slow
@pytest.mark.timeout(150)
@pytest.mark.parametrize("level", [None, "hard"])
async def test_holdem_killed_mid_match_resumes_and_finishes(
    standin: FakeDiscord, tmp_path: Path, level: str | None
) -> None:
    # Two members and two AI seats (the default level, and `hard`, which reads each
    # player's habits), killed before the first hand's result is posted, then before a
    # board edit of the second hand: each restart goes on where the database says.
    members = [standin.owner, standin.add_user("Bo")]
    options = {**HOLDEM, "deals": 4} | ({"ai": level} if level else {})
    match = await _killed_match(
        standin,
        tmp_path,
        members,
        lambda f, m: _table(f, options, m),
        cautious_bet,
        ["result@1", "edit@2"],
    )
    assert match.ai == [False, False, True, True]
    assert len({step.deal for step in match.steps}) >= 2
    # The board says which level the AI seats play.
    label = f"AI: {level or 'normal'}"
    assert any(label in m.text() for m in standin.public_messages()), label


@pytest.mark.slow
@pytest.mark.timeout(150)
async def test_duel_killed_mid_match_resumes_and_finishes(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    # A member against the AI, killed before the first deal's result is posted, then at
    # a board edit after the restart.
    match = await _killed_match(
        standin,
        tmp_path,
        [standin.owner],
        lambda f, m: _table(f, {"game": "duel", "stack": 10, "ante": 1}, m),
        lock_or_fold,
        ["result@1", "edit@4"],
    )
    assert match.ai == [False, True]
    assert len({step.deal for step in match.steps}) >= 2
