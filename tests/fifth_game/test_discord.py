"""High Card played whole on Discord: the bot as its own process (`python -m bot`, the game
loaded from this package through `DEUCEBOT_EXTRA_GAMES`) and the stand-in, two members and
an AI seat, only through the controls a member sees; then its board pictures with their alt
text, the members' hands, each deal's result, `/history`, the rating leaderboard and
`/stats`. Public messages never show a card before the deal's showdown did."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deucebot_dev.discord_standin import FakeDiscord, Message, User
from tests.e2e.bot_process import ready_or_ended, spawn_bot
from tests.e2e.conftest import running_standin
from tests.e2e.pictures import check_pictures
from tests.e2e.process_play import (
    buttons,
    check_ledger,
    env_for,
    play_through_controls,
    replay_match,
    scan_public,
    seen_privately,
    stop,
)

EXTRA = {
    "DEUCEBOT_EXTRA_GAMES": "tests.fifth_game.plugin",
    "DEUCEBOT_CREATE_COOLDOWN": "0",
    "DEUCEBOT_STATS_COOLDOWN": "0",
    "DEUCEBOT_AI_PROCESSES": "1",  # the AI's worker process loads the game too
}


async def stay_or_fold(fake: FakeDiscord, user: User, hand: Message, moves: int) -> None:
    """Stay twice, then fold, by clicking the hand's buttons."""
    labels = buttons(hand)
    want = "fold" if moves % 3 == 2 else "stay"
    label = next((lab for lab in labels if want in lab.lower()), next(iter(labels)))
    await fake.click(user, hand, labels[label])


@pytest.mark.slow
@pytest.mark.timeout(200)
async def test_a_whole_match_through_the_bot_process_and_the_standin(
    highcard: str, tmp_path: Path
) -> None:
    async with running_standin() as standin:
        await _whole_match(standin, tmp_path)


async def _whole_match(standin: FakeDiscord, tmp_path: Path) -> None:
    standin.keep_files = True
    ana, bo = standin.owner, standin.add_user("Bo")
    bot = await spawn_bot(env_for(standin, tmp_path, **EXTRA), tmp_path)
    try:
        await ready_or_ended(standin, bot)
        assert bot.proc.returncode is None, bot.err()[-3000:]
        # The game's own options, and a refusal naming an option it lacks.
        lacking = await standin.command(ana, "table create", game="highcard", blind=2)
        assert lacking.ephemeral and "blind" in lacking.message.content, lacking.message.content
        low = await standin.command(ana, "table create", game="highcard", stack=10, ante=6)
        assert low.ephemeral and "12" in low.message.content, low.message.content
        await standin.command(ana, "table create", game="highcard", seats=3, stack=40, deals=3)
        await standin.command(bo, "table join")
        await standin.command(ana, "table start")
        moves = await play_through_controls(standin, [ana, bo], stay_or_fold)
        assert moves >= 1

        sent = (await standin.command(ana, "history", deals=10)).final()
        assert sent is not None and sent.ephemeral and sent.attachments
        assert sent.attachments[-1] == "deucebot-history.json"
        # Pictures may be sent meanwhile (a board's late edit): the file by its name.
        kept = [data for name, data in standin.files if name == "deucebot-history.json"]
        history = json.loads(kept[-1])
        assert {m["game"] for m in history["matches"]} == {"highcard"}
        phh = (await standin.command(ana, "history", deals=10, format="phh")).final()
        assert phh is not None and not phh.attachments

        rated = (await standin.command(ana, "leaderboard", game="highcard", by="rating")).final()
        assert rated is not None and "High Card ratings (all time)" in rated.text(), rated.text()
        mine = (await standin.command(ana, "stats", game="highcard")).final()
        assert mine is not None and "High Card" in mine.text() and "Rating: " in mine.text()
    finally:
        await stop(bot)
    db = tmp_path / "bot.sqlite3"
    match = await replay_match(db)
    assert match.game == "highcard" and match.ai == [False, False, True]
    assert match.revealed  # showdowns turned cards face up (`Event.face_up`)
    scan_public(standin, match)
    for user in (ana, bo):
        assert seen_privately(standin, user) & set().union(*match.held.values()), user.name
    shown = await check_ledger(standin, db, match)
    assert shown.results() == [1, 2, 3]
    assert check_pictures(standin) > 0
    boards = [m for m in standin.public_messages() if m.attachments]
    alts = [d for m in boards for v in m.history for d in v.get("descriptions") or []]
    assert any(a.startswith("High Card · deal ") and "chips" in a for a in alts), alts
