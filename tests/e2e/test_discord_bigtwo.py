"""Big Two end to end through the Discord stand-in: commands, boards, hands, DMs, refusals."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import board, boards, open_hand, play_until, privacy_hook
from tests.e2e.standin import FakeDiscord


async def test_four_members_play_a_whole_deal_with_commands_and_the_menu(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    bo = standin.add_user("Bo", locale="fr")
    cy = standin.add_user("Cy", locale="uk")
    di = standin.add_user("Di")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        standin.public_hook = privacy_hook(bot)
        created = await standin.command(ana, "table create", game="bigtwo", deals=1)
        assert not created.ephemeral and "Big Two" in created.message.content
        again = await standin.command(bo, "table create", game="bigtwo")
        assert again.ephemeral and "existe déjà" in again.message.content
        for user in (bo, cy, di):
            joined = await standin.command(user, "table join")
            assert joined.ephemeral
        french = (await standin.command(bo, "table join")).message
        assert french.ephemeral and "déjà" in french.content  # refused in Bo's language
        started = await standin.command(ana, "table start")
        assert started.ephemeral
        await settle(bot)
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.status == "playing"
        # Every player got their 13 cards by DM, as text and as an image.
        for user in (ana, bo, cy, di):
            dms = standin.dms(user)
            assert dms and dms[0].attachments == ["hand.png"], user.name
            seat = table.seat_of(str(user.id))
            assert {str(c) for c in table.view(seat).hand} <= {
                str(c) for c in _cards(dms[-1].text())
            }
        styles = {
            ana.id: (ana, "menu"),
            bo.id: (bo, "command"),
            cy.id: (cy, "pass"),
            di.id: (di, "menu"),
        }
        turns = await play_until(standin, bot, styles, done=lambda: table.status == "finished")
        assert turns > 4
        results = [m for m in standin.public_messages() if m.embeds and not m.components]
        texts = "\n".join(m.text() for m in results)
        assert results, "no result message was posted"
        winners = [i for i, total in enumerate(table.state.view(None).totals) if total == 0]
        assert any(table.names[w] in texts for w in winners)
        # Bo's ephemeral hand speaks French; the board speaks the guild's English.
        hand = await open_hand(standin, bo)
        assert hand.component("db:play:")["label"] == "Jouer"
        assert board(standin).component("db:hand:")["label"] == "My hand"
    assert len(boards(standin)) >= 1


def _cards(text: str) -> set:
    from tests.e2e.helpers import cards_in_text

    return cards_in_text(text)
