"""Deuce Duel against the `hard` AI on Discord: the solved player (`cfr`) sits in the AI
seat, reads its tables and answers every move, a human's odd raise included, legally."""

from __future__ import annotations

from pathlib import Path

from deucebot_dev.discord_standin import FakeDiscord
from engines.duel import parse_action
from engines.poker.actions import Bet, Raise
from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import board, open_hand
from tests.e2e.poker_helpers import buttons, wait_turn


async def test_a_duel_against_the_hard_ai_is_played_by_the_solved_tables(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game="duel", stack=6, ai="hard")
        await standin.command(ana, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.match is not None
        assert [seat.policy for seat in table.seats[1:]] == ["cfr"]
        await settle(bot)  # the board is posted after the command's answer, not before it
        assert "AI: hard" in board(standin).text()
        odd = 0
        while await wait_turn(standin, bot, table, [ana]) is not None:
            seat = table.seat_of(str(ana.id))
            view = table.view(seat)
            turn = table.turn
            if view.phase == "lock":
                answer = await standin.command(ana, "act", action=f"lock {view.hand[0]}")
            elif view.can_raise and view.max_total - max(view.bets) > 3 and odd < 3:
                # An odd size the abstraction lacks: min raise + 1 (or bet 3 when opening).
                top = max(view.bets)
                total = view.min_raise_to + 1 if top else 3
                word = "raise" if top else "bet"
                answer = await standin.command(ana, "act", action=f"{word} {total}")
                odd += 1
            else:
                hand = await open_hand(standin, ana)
                labels = buttons(hand)
                label = next(lab for lab in labels if lab.startswith(("Check", "Call")))
                answer = await standin.command(ana, "act", action=label.split()[0].lower())
            final = answer.message
            assert final is not None and not final.content.startswith("⛔"), final.content
            assert table.turn > turn
        assert table.status == "finished"
        logged = await bot.storage.actions(table.match.id)
        ai_seat = 1 - table.seat_of(str(ana.id))
        ai_moves = [parse_action(a.action) for a in logged if a.seat == ai_seat]
        assert ai_moves and odd >= 1
        assert any(not isinstance(m, Bet | Raise) for m in ai_moves)
