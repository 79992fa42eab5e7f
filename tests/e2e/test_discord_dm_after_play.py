"""After a play, its player gets their new hand by DM, taken at a committed turn."""

from __future__ import annotations

from pathlib import Path

from bot.devtools.discord_standin import FakeDiscord
from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import cards_in_text, mentioned


async def test_the_dm_after_a_play_holds_the_hand_without_the_cards_played(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game="bigtwo", deals=1)
        await standin.command(ana, "table start")
        await settle(bot)
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        for _ in range(60):  # the AI plays until it is Ana's turn
            if mentioned(standin) == ana.id:
                break
            await settle(bot)
        assert table.to_act == table.seat_of(str(ana.id))
        view = table.view(table.to_act)
        play = next(str(a) for a in view.legal if str(a) != "pass")
        before = len(standin.dms(ana))
        await standin.command(ana, "play", cards=play.removeprefix("play "))
        await settle(bot)
        dms = standin.dms(ana)
        assert len(dms) > before, "no DM after the play"
        shown = cards_in_text(dms[-1].text())
        played = cards_in_text(" ".join(play.split()[1:]))
        assert shown and not shown & played, (shown, played)
        assert shown <= {*table.view(table.seat_of(str(ana.id))).hand}
