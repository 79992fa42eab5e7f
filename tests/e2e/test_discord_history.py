"""`/history` through the stand-in: the caller gets their recent deals as an ephemeral file
(JSON or PHH), translated, with only the cards they saw."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pokerkit import HandHistory

from bot.history.build import build_match_history, load_match
from bot.history.model import HistoryFile
from deucebot_dev.discord_standin import FakeDiscord
from storage import SqliteStorage
from tests.bot.history.helpers import played
from tests.e2e.conftest import bot_running

CARD = re.compile(r"\b[2-9TJQKA][DCHS]\b")


def cards(text: str) -> set[str]:
    return set(CARD.findall(text))


async def test_history_sends_the_callers_recent_deals_as_a_private_file(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "db.sqlite3"
    ana = standin.owner
    guild = str(standin.guild_id)
    store = SqliteStorage(str(db))
    await store.open()
    try:
        holdem = await played(store, "holdem", "h", 3, guild=guild, player=str(ana.id))
        bigtwo = await played(store, "bigtwo", "b", 4, guild=guild, player=str(ana.id))
        elsewhere = await played(store, "duel", "d", 5, guild="other", player=str(ana.id))
        full = [build_match_history(await load_match(store, m)) for m in (holdem, bigtwo)]
    finally:
        await store.close()
    standin.keep_files = True
    bo = standin.add_user("Bo", locale="fr")
    async with bot_running(standin, db):
        sent = await standin.command(ana, "history", deals=3)
        final = sent.final()
        assert final is not None and final.ephemeral and final.attachments
        assert final.content.startswith("Your last 3 deals")
        name, data = standin.files[-1]
        assert name == final.attachments[-1] == "deucebot-history.json"
        history = HistoryFile.model_validate_json(data)
        assert [(m.match_id, len(m.deals)) for m in history.matches] == [(bigtwo, 2), (holdem, 1)]
        assert all(m.viewer.seat == 0 and not m.viewer.omniscient for m in history.matches)
        # Every hold'em deal (Big Two shows every card in the end): Ana's file holds her own
        # cards and what was shown, no other card.
        everything = await standin.command(ana, "history", deals=50)
        assert everything.final() is not None
        sent_file = HistoryFile.model_validate_json(standin.files[-1][1])
        holdem_text = next(m for m in sent_file.matches if m.match_id == holdem).model_dump_json()
        events = [e.event for d in full[0].deals for e in d.events]
        told = cards(json.dumps([e for e in events if e.get("to") in (None, 0)]))
        unseen = cards(json.dumps(events)) - told
        assert unseen and not unseen & cards(holdem_text)
        assert cards(json.dumps([e for e in events if e.get("to") == 0])) <= cards(holdem_text)

        phh = await standin.command(ana, "history", deals=50, format="phh")
        final = phh.final()
        assert final is not None and final.ephemeral
        name, data = standin.files[-1]
        assert name == "deucebot-history.phhs"
        hands = list(HandHistory.loads_all(data.decode("utf-8")))
        assert hands and all(h.table == "h" for h in hands)

        nothing = await standin.command(bo, "history")
        final = nothing.final()
        assert final is not None and final.ephemeral and not final.attachments
        assert "aucune donne terminée" in final.content
    assert {m.match_id for m in sent_file.matches} == {holdem, bigtwo} and elsewhere > bigtwo
