"""A French and a Ukrainian member play the duel and draw poker in their own words: the
hand's menus and buttons translated, typed moves read in their language, confirmations and
refusals in it too."""

from __future__ import annotations

from pathlib import Path

from bot.devtools.discord_standin import FakeDiscord
from bot.render import get_renderer
from tests.e2e.conftest import bot_running
from tests.e2e.helpers import open_hand
from tests.e2e.poker_helpers import buttons, wait_turn


async def test_explore(standin: FakeDiscord, tmp_path: Path) -> None:
    fr = standin.add_user("Anaïs", locale="fr")
    uk = standin.add_user("Оксана", locale="uk")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(fr, "duel challenge", member=uk)
        challenge = next(m for m in standin.public_messages() if "db:duel:yes:" in str(m.custom_ids()))
        print("CH", challenge.text())
        await standin.click(uk, challenge, "db:duel:yes:")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        for i in range(6):
            who = await wait_turn(standin, bot, table, [fr, uk])
            if who is None:
                break
            hand = await open_hand(standin, who)
            print(who.name, "HAND", hand.text())
            view = table.view(table.seat_of(str(who.id)))
            if i < 2:
                opts = [o["value"] for o in hand.component("db:sel:")["options"]]
                await standin.select(who, hand, "db:sel:", [opts[0]])
                await standin.click(who, hand, "db:pick:")
                print("->", hand.content)
            else:
                word = {fr.id: "parole", uk.id: "чек"}[who.id] if view.to_call == 0 else {fr.id: "suivre", uk.id: "колл"}[who.id]
                ans = (await standin.command(who, "act", action=word)).final()
                print("->", ans.content)
                ans = (await standin.command(who, "act", action={fr.id: "verrouiller 1", uk.id: "зафіксувати 1"}[who.id])).final()
                print("-> lock again", ans.content)
