"""After an own play, the answer to the command shows the new hand (taken at a committed
turn) and no DM is sent: the DM would repeat it at the cost of two REST requests."""

from __future__ import annotations

from pathlib import Path

from deucebot_dev.discord_standin import FakeDiscord
from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import cards_in_text, mentioned


async def test_a_play_answers_with_the_hand_without_the_cards_played_and_sends_no_dm(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        # Three deals: in about one deal of 300 the AI seats play it out while Ana never
        # has a card that beats the table; the next deal then gives her one.
        await standin.command(ana, "table create", game="bigtwo", deals=3)
        await standin.command(ana, "table start")
        await settle(bot)
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        seat = table.seat_of(str(ana.id))
        play = None
        for _ in range(200):  # until it is Ana's turn with a card she can play
            if mentioned(standin) == ana.id and table.to_act == seat:
                view = table.view(seat)
                play = next((str(a) for a in view.legal if str(a) != "pass"), None)
                if play is not None:
                    break
                await standin.command(ana, "pass")  # nothing beats the table: pass
            await settle(bot)
        assert play is not None, "Ana never had a card to play"
        dealt = len(standin.dms(ana))
        assert dealt >= 1, "the hand is DMed at the deal"
        answer = await standin.command(ana, "play", cards=play.removeprefix("play "))
        await settle(bot)
        shown_message = answer.message  # the AI seats' boards may ride after it
        assert shown_message is not None and shown_message.ephemeral
        assert shown_message.content.startswith("✅")
        # The hand as shown (the note above it names the cards played).
        shown = cards_in_text(shown_message.text().replace(shown_message.content, ""))
        played = cards_in_text(" ".join(play.split()[1:]))
        assert shown and not shown & played, (shown, played)
        assert shown == {*table.view(seat).hand}
        assert len(standin.dms(ana)) == dealt, "no DM after an own play"
