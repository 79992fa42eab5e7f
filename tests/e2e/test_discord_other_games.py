"""The generic front serves the button-played games: one button per legal action, and /act."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.render import get_renderer
from deucebot_dev.discord_standin import FakeDiscord
from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import board, mentioned, open_hand


@pytest.mark.parametrize("game", ["duel", "holdem", "draw"])
async def test_a_member_plays_turns_with_the_action_buttons(
    standin: FakeDiscord, tmp_path: Path, game: str
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        created = await standin.command(ana, "table create", game=game)
        assert not created.ephemeral, created.message.content
        await standin.command(ana, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.status == "playing"
        played = 0
        for _ in range(30):
            await settle(bot)
            if table.status != "playing" or played == 6:
                break
            if mentioned(standin) != ana.id:
                continue
            hand = await open_hand(standin, ana)
            seat = table.seat_of(str(ana.id))
            if get_renderer(game).card_pick(table.view(seat)) is not None:
                # A choice of cards (draw's discards, the duel's lock): the menu, then the move.
                turn = table.turn
                menu = hand.component("db:sel:")
                first = menu["options"][0]["value"]
                await standin.select(ana, hand, "db:sel:", [first])
                await standin.click(ana, hand, "db:pick:")
                assert hand.content.startswith("✅"), hand.content
                assert table.turn > turn
                played += 1
                continue
            buttons = [c for c in hand.custom_ids() if c.startswith("db:act:")]
            assert buttons, hand.custom_ids()
            legal = [str(a) for a in table.view(table.seat_of(str(ana.id))).legal]
            offered = [b.split(":", 5)[5] for b in buttons]
            if get_renderer(game).bet_spot(table.view(table.seat_of(str(ana.id)))) is None:
                assert offered == legal[: len(offered)]
            else:  # a betting decision: every legal action, and sized raises
                assert set(legal) <= set(offered), (legal, offered)
            turn = table.turn
            if played == 1:  # once by typing it, the rest by clicking
                typed = await standin.command(ana, "act", action=buttons[0].split(":", 5)[5])
                final = typed.message
                assert final is not None and final.ephemeral and final.content.startswith("✅")
            else:
                clicked = await standin.click(ana, hand, buttons[0])
                assert clicked.kind == 7 and hand.content.startswith("✅"), hand.content
            assert table.turn > turn
            played += 1
        assert played >= 1
        assert "db:pass:" not in " ".join(board(standin).custom_ids())
