"""Big Two auto-pass on Discord: a toggle on the member's hand, off until they turn it on;
once on, the member is never asked to click Pass when nothing they hold beats the table."""

from __future__ import annotations

from pathlib import Path

from deucebot_dev.discord_standin import FakeDiscord
from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import mentioned, open_hand
from tests.e2e.poker_helpers import started_table


def toggle_label(hand: object) -> str:
    button = hand.component("db:autopass:")  # type: ignore[attr-defined]
    return str(button["label"])


async def test_the_hand_toggles_auto_pass_and_passes_only_when_nothing_beats(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        table = await started_table(standin, bot, ana, game="bigtwo", deals=1)
        await settle(bot)
        hand = await open_hand(standin, ana)
        assert toggle_label(hand) == "Auto-pass: off"  # never on by default
        await standin.click(ana, hand, "db:autopass:")
        assert toggle_label(hand) == "Auto-pass: on"
        assert "Auto-pass is on" in hand.content
        assert table.autopasses(str(ana.id))
        await settle(bot)
        while table.status == "playing":
            # Whenever the board waits for Ana, she has a real choice (never a lone pass).
            assert mentioned(standin) == ana.id
            legal = [str(a) for a in table.state.legal_actions(0)]  # type: ignore[union-attr]
            assert legal != ["pass"], legal
            # She always plays (never passes herself): every pass of hers is auto-pass's.
            response = await standin.command(ana, "play", cards=legal[0].removeprefix("play "))
            final = response.message
            assert final is not None and final.content.startswith("✅"), final.content
            await settle(bot)
        auto = [
            row
            for row in await bot.storage.actions(table.match.id)  # type: ignore[union-attr]
            if row.seat == 0 and row.action == "pass"
        ]
        assert auto, "nothing came up for auto-pass in this deal"
        # And off again: the label says so.
        hand = await open_hand(standin, ana)
        await standin.click(ana, hand, "db:autopass:")
        assert toggle_label(hand) == "Auto-pass: off"
