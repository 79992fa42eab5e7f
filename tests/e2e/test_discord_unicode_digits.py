"""Digits other than ASCII (``²``, ``٣``, ``３``: `str.isdigit` accepts them, `int` cannot
read ``²``) typed in the amount form or with `/act` are refused like any other word that
is not a number, privately, in the member's language, with nothing played (issue 40,
item 6)."""

from __future__ import annotations

from pathlib import Path

from deucebot_dev.discord_standin import FakeDiscord
from tests.e2e.conftest import bot_running
from tests.e2e.helpers import open_hand
from tests.e2e.poker_helpers import buttons, form_input, started_table, wait_turn

ODD_DIGITS = ("²", "٣", "３", "1²")


async def test_odd_digits_in_the_raise_form_and_act_are_refused_and_nothing_is_played(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.add_user("Ana", locale="fr")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        # Heads-up, Ana on the button: she acts first, facing the big blind (call, raise).
        table = await started_table(standin, bot, ana, game="holdem", seats=2)
        assert await wait_turn(standin, bot, table, [ana]) is ana
        assert table.match is not None
        hand = await open_hand(standin, ana)
        labels = buttons(hand)
        more = next(cid for label, cid in labels.items() if label.startswith("Relancer"))
        assert any(label.startswith("Suivre") for label in labels), labels
        turn, log = table.turn, len(await bot.storage.actions(table.match.id))
        for typed in ODD_DIGITS:
            opened = await standin.click(ana, hand, more)
            field = form_input(opened)
            answer = (await standin.submit_modal(ana, opened, {field["custom_id"]: typed})).final()
            assert answer is not None and answer.ephemeral, typed
            assert answer.content.startswith(f"⛔ « {typed} » n'est pas un nombre entier"), (
                answer.content
            )
        for typed in ("call ²", "call ٣", "raise ３", "raise ²"):
            answer = (await standin.command(ana, "act", action=typed)).message
            assert answer is not None and answer.ephemeral, typed
            assert answer.content.startswith("⛔") and "n'est pas" in answer.content, (
                typed,
                answer.content,
            )
        assert table.turn == turn and len(await bot.storage.actions(table.match.id)) == log
