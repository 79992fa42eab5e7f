"""A board does not wait for a late picture (`bot.discord.board_pictures.PICTURE_WAIT`): past what
the picture worker can draw, the move goes out at once with the last picture kept, and
its picture follows by another edit; an AI plays on only once its move's picture shows.
In process, through the stand-in, the picture held back by a slow `draw_ahead`."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

import bot.discord.board_pictures as board_pictures
from deucebot_dev.discord_standin import FakeDiscord
from tests.e2e.conftest import bot_running, settle
from tests.e2e.deliveries import check_match
from tests.e2e.helpers import board, version_image

PICTURE_LATE = 0.6
"""Seconds each board picture takes here (a busy worker)."""


def _turn(version: dict[str, Any]) -> int:
    return int(re.findall(r"\d+", version["embeds"][0]["footer"]["text"])[2])


async def test_a_late_picture_does_not_hold_the_board_and_follows_it(
    standin: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ana = standin.owner
    drawn_ahead = board_pictures.draw_ahead

    delayed: set[int] = set()

    async def slow_draw_ahead(shown: Any, *args: Any) -> None:
        if shown.turn not in delayed:  # drawn once: a picture drawn is cached
            delayed.add(shown.turn)
            await asyncio.sleep(PICTURE_LATE)
        await drawn_ahead(shown, *args)

    async with bot_running(standin, tmp_path / "db.sqlite3", ai_delay=0.02) as bot:
        await standin.command(ana, "table create", game="bigtwo", deals=1)
        await standin.command(ana, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.match is not None
        await standin.wait_for(lambda: "table-" in version_image(board(standin).history[-1]), 10)
        monkeypatch.setattr(board_pictures, "PICTURE_WAIT", 0.1)
        monkeypatch.setattr(board_pictures, "draw_ahead", slow_draw_ahead)
        await standin.command(ana, "table leave")  # the AI plays every seat from now on
        first = board(standin)
        start = _turn(first.history[-1])
        await standin.wait_for(lambda: _turn(first.history[-1]) >= start + 6, 30)
        versions = [v for v in first.history if v["embeds"] and _turn(v) > start]
        turns = sorted({_turn(v) for v in versions})
        assert turns == list(range(start + 1, turns[-1] + 1)), turns  # no move skipped
        late = 0
        for turn in turns[:-1]:
            at_turn = [v for v in versions if _turn(v) == turn]
            before = [v for v in first.history if v["embeds"] and _turn(v) < turn][-1]
            # Each move went out at once with the last picture; when the move changed the
            # picture, its own followed, and only then did the next AI move.
            assert version_image(at_turn[0]) == version_image(before), turn
            if len(at_turn) > 1:
                late += 1
                assert version_image(at_turn[-1]) != version_image(before), turn
                name = version_image(at_turn[-1]).removeprefix("attachment://")
                assert at_turn[-1]["attachments"] == [name], turn
        assert late >= 2, turns
        monkeypatch.setattr(board_pictures, "draw_ahead", drawn_ahead)
        await standin.wait_for(lambda: table.status == "finished", 60)
        await settle(bot)
        await check_match(standin, bot.storage, table.match.id, table.names)
        assert not standin.errors, standin.errors
        final = board(standin).history[-1]
        assert "table-" in version_image(final)
