"""After a play, its player gets their new hand by DM, taken at a committed turn (at the
first turn where she can play cards, whatever the match's random seed deals her)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.devtools.discord_standin import FakeDiscord
from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import cards_in_text, mentioned


async def first_play(standin: FakeDiscord, bot: Any, table: Any, ana: Any) -> str:
    """Wait for Ana's turns (the match's seed is random), passing those where she has only
    "pass", until one where she can play cards; that play."""
    for _ in range(400):
        await settle(bot)
        if mentioned(standin) != ana.id:
            continue
        assert table.to_act == table.seat_of(str(ana.id))
        plays = [str(a) for a in table.view(table.to_act).legal if str(a) != "pass"]
        if plays:
            return plays[0]
        await standin.command(ana, "pass")
    raise AssertionError(f"Ana had no play in time; finished: {table.finished}")


async def test_the_dm_after_a_play_holds_the_hand_without_the_cards_played(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game="bigtwo", deals=2)
        await standin.command(ana, "table start")
        await settle(bot)
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        play = await first_play(standin, bot, table, ana)
        before = len(standin.dms(ana))
        await standin.command(ana, "play", cards=play.removeprefix("play "))
        await settle(bot)
        dms = standin.dms(ana)
        assert len(dms) > before, "no DM after the play"
        shown = cards_in_text(dms[-1].text())
        played = cards_in_text(" ".join(play.split()[1:]))
        assert shown and not shown & played, (shown, played)
        assert shown <= {*table.view(table.seat_of(str(ana.id))).hand}
