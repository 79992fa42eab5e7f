"""The note on a member's ephemeral hand (issue 44, item 16): "✅ Done: call." answers the
turn it was clicked at; when the table comes back to the member (a later turn, a later
deal) and the hand is edited through their interaction, the new decision is not headed by
the old confirmation. Played through the bot's real process and the stand-in."""

from __future__ import annotations

from pathlib import Path

from deucebot_dev.discord_standin import INTERACTION, FakeDiscord, Message
from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import open_hand
from tests.e2e.poker_helpers import buttons, started_table, wait_turn


def _turn_on(hand: Message) -> int | None:
    """The turn the hand's betting buttons were made for (None: it has none)."""
    turns = {int(c.split(":")[3]) for c in hand.custom_ids() if c.startswith("db:act:")}
    assert len(turns) <= 1, turns
    return turns.pop() if turns else None


async def test_a_confirmation_never_heads_a_later_turn_or_deal(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3", ai_delay=0.02) as bot:
        table = await started_table(standin, bot, ana, game="holdem", seats=2, stack=4000)
        seat = table.seat_of(str(ana.id))
        assert await wait_turn(standin, bot, table, [ana]) is ana
        hand = await open_hand(standin, ana)
        first_deal = table.deal
        later_turns = later_deals = 0
        answered: tuple[int, int] | None = None
        """The deal and turn of the hand the last click was answered with."""
        while table.status == "playing" and (later_turns < 3 or later_deals < 1):
            assert answered is None or table.deal < first_deal + 12, "no later deal came"
            shown = _turn_on(hand)
            assert shown == table.turn and table.to_act == seat, (shown, table.turn)
            if answered is not None and (table.deal, shown) != answered:
                # Edited through Ana's interaction for her next decision: no stale note.
                assert hand.via == INTERACTION
                assert "✅" not in hand.content, hand.content
                later_turns += 1
                later_deals += table.deal != answered[0]
            labels = buttons(hand)
            move = next(label for label in labels if label.startswith(("Check", "Call", "All-in")))
            edits = hand.edits
            clicked = await standin.click(ana, hand, labels[move])
            assert clicked.kind in (6, 7), clicked
            await standin.wait_for(lambda e=edits: hand.edits > e and "✅" in hand.content, 10)
            answered = (table.deal, _turn_on(hand) or -1)
            await settle(bot)
            if table.status == "playing" and table.to_act == seat:
                await standin.wait_for(lambda: _turn_on(hand) == table.turn, 10)
        assert later_turns >= 3 and later_deals >= 1, (later_turns, later_deals)
        assert not standin.errors, standin.errors
