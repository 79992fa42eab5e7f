"""A member knocked out of a hold'em match that goes on is told once, privately, what they
can do: watch, restart when it ends, leave. Once: not again later in the match, and not
again after the bot restarts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from deucebot_dev.discord_standin import FakeDiscord
from engines.holdem import Eliminated
from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import open_hand
from tests.e2e.poker_helpers import buttons, wait_turn

NOTICE = {
    "en": "You are out of chips in the match at",
    "fr": "Vous n'avez plus de jetons dans la partie de",
}


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_knocked_out_member_is_told_once_what_they_can_do(
    standin: FakeDiscord, tmp_path: Path, lang: str
) -> None:
    ana = standin.owner if lang == "en" else standin.add_user("Anaïs", locale=lang)
    db = tmp_path / "db.sqlite3"
    async with bot_running(standin, db) as bot:
        knocked: list[bool] = []  # per Eliminated of the member: did the match go on?
        original = bot.front.public

        async def record(table: Any, events: Any) -> None:
            seat = table.seat_of(str(ana.id))
            knocked.extend(
                not table.finished for e in events if isinstance(e, Eliminated) and e.seat == seat
            )
            await original(table, events)

        bot.front.public = record  # type: ignore[method-assign]
        await standin.command(
            ana, "table create", game="holdem", seats=6, stack=100, small_blind=10, big_blind=20
        )
        await standin.command(ana, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        # All-in at every turn: out early (while others play on) in most matches; a match
        # the member survives to its end is restarted.
        for _ in range(8):
            while (who := await wait_turn(standin, bot, table, [ana])) is not None:
                hand = await open_hand(standin, who)
                ids = list(buttons(hand).values())
                shove = [i for end in (":allin", ":call", ":check") for i in ids if i.endswith(end)]
                await standin.click(who, hand, shove[0])
            await settle(bot)
            if any(knocked):
                break
            await standin.command(ana, "table restart")
        assert any(knocked), knocked
        told = [m for m in standin.dms(ana) if NOTICE[lang] in (m.content or "")]
    assert len(told) == 1, [m.content for m in standin.dms(ana)]
    assert f"<#{standin.channel_id}>" in (told[0].content or "")
    async with bot_running(standin, db) as bot:
        await settle(bot)
    again = [m for m in standin.dms(ana) if NOTICE[lang] in (m.content or "")]
    assert len(again) == 1
