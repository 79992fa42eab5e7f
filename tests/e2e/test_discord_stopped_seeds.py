"""A match stopped or restarted mid-way is over: its seeds are public (issue 40, item 1).
Through the real bot and the Discord stand-in: once `/table stop` or `/table restart` is
committed, the channel says that the match's seeds are revealed (the line a match's end
shows, in the server's language), once; `/history` then carries every dealt deal's seed,
each matching its commitment, and `deucebot verify` passes on the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.commands.verify import verify_export
from bot.history.model import HistoryFile
from bot.i18n import t
from deucebot_dev.discord_standin import FakeDiscord
from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import board
from tests.e2e.test_discord_seed_privacy import advance, assert_seeds_committed, history_upload


def said(fake: FakeDiscord, line: str) -> int:
    """How many public messages of the channel show `line` now."""
    return sum(line in m.text() for m in fake.public_messages())


@pytest.mark.parametrize("how", ["stop", "restart"])
async def test_a_stopped_or_restarted_match_reveals_its_seeds(
    how: str, standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    ben = standin.add_user("Ben", locale="uk")
    revealed = t("fair.revealed", "fr")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "config language", language="fr")
        await standin.command(ana, "table create", game="holdem", seats=3, deals=12)
        await standin.command(ben, "table join")
        await standin.command(ana, "table start")
        await advance(standin, bot, [ana, ben], standin.channel_id)  # hand 2 began
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.match is not None and table.status == "playing"
        match, dealt = table.match, table.deal
        assert said(standin, revealed) == 0, "seeds said revealed while the match is played"

        await standin.command(ana, f"table {how}")
        await settle(bot)
        assert said(standin, revealed) == 1, [m.text() for m in standin.public_messages()]
        shown = board(standin).text()  # the board after the stop, or the new match's board
        assert revealed in shown, shown
        after = t("discord.event.table_stopped", "fr")
        if how == "restart":
            after = t("discord.event.match_started", "fr", number=match.number + 1)
        assert after in shown, shown
        if how == "restart":  # said of the abandoned match, before the new one begins
            assert shown.index(revealed) < shown.index(after), shown
        for lang in ("en", "uk"):  # the server's language, whoever asked
            assert t("fair.revealed", lang) not in shown

        standin.keep_files = True
        answer = await standin.command(ben, "history", values={"deals": 50})
        final = answer.final()
        assert final is not None and final.ephemeral and final.attachments
        data = history_upload(standin)
        history = HistoryFile.model_validate_json(data)
        over = next(m for m in history.matches if m.match_id == match.id)
        # A member's history holds the deals that ended (hand 2 was only dealt).
        assert [d.deal for d in over.deals] == list(range(1, dealt)), over.deals
        assert_seeds_committed(over.deals, table.id, match.number)
        for live in (m for m in history.matches if m.match_id != match.id):
            assert all(d.seed is None for d in live.deals)  # the new match is being played
        path = tmp_path / "history.json"
        path.write_bytes(data)
        assert verify_export(str(path)) == []
