"""Overlong and odd input on the commands that take text: a private, specific refusal in
time, never past Discord's limits, and the table exactly as before."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from deucebot_dev.discord_standin import FakeDiscord
from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import mentioned

ODD = [
    "3♠ " * 700,  # 2,100 characters of cards
    "raise " + "9" * 1900,
    "@everyone " * 250,
    "```" * 700,
    "\u202e" * 2100,  # right-to-left override
    "\x00\x07\x1b[2J",
    "🂡" * 1500,
    "<@123> <#456> <t:0:R>",
    "​",  # a zero-width space
]


@pytest.mark.parametrize(
    ("game", "command", "option"), [("bigtwo", "play", "cards"), ("holdem", "act", "action")]
)
async def test_odd_input_is_refused_privately_within_the_window_and_changes_nothing(
    standin: FakeDiscord, tmp_path: Path, game: str, command: str, option: str
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3", ai_delay=0.5) as bot:
        await standin.command(ana, "table create", game=game)
        await standin.command(ana, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        await settle(bot)
        await standin.wait_for(lambda: mentioned(standin) == ana.id, 20)
        before, turn = table.state.snapshot(), table.turn
        public = len(standin.public_messages())
        for text in ODD:
            started = time.perf_counter()
            response = await standin.command(ana, command, **{option: text})
            final = response.final()
            assert time.perf_counter() - started < 3.0
            assert final is not None and final.ephemeral, (text[:20], final)
            assert final.content.startswith("⛔"), final.content[:200]
            assert len(final.content) <= 2000
            assert text not in final.content or len(text) <= 100  # echoed only shortened
            assert len(final.content) <= 400  # the reason, and at most a short line of input
            assert table.turn == turn and table.state.snapshot() == before
        assert len(standin.public_messages()) == public  # nothing public was said
        assert standin.errors == []
