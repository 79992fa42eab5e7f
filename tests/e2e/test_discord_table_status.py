"""`/table status` (issue 44, item 15): the private board shows every seat's figures, by the
board's picture and its alt text, to a seated member and to a watcher, in every game.
Played through the bot's real process and the stand-in."""

from __future__ import annotations

from pathlib import Path

import pytest

import bot.discord.board as board
from bot.discord.board import picture_facts
from bot.pictures import board_model
from deucebot_dev.discord_standin import FakeDiscord
from tests.e2e.conftest import bot_running

GAMES = {
    "bigtwo": {"deals": 2},
    "holdem": {"seats": 3},
    "draw": {"seats": 3, "deals": 2},
    "duel": {},
}


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_the_status_shows_each_seats_figures_to_a_player_and_a_watcher(
    standin: FakeDiscord, tmp_path: Path, game: str
) -> None:
    ana = standin.owner
    watcher = standin.add_user("Wes", locale="fr")
    async with bot_running(standin, tmp_path / "db.sqlite3", ai_delay=30.0) as bot:
        await standin.command(ana, "table create", game=game, **GAMES[game])
        await standin.command(ana, "table start")
        await bot.front.settle()
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.view(None) is not None
        for user, lang in ((ana, "en"), (watcher, "fr")):
            answer = (await standin.command(user, "table status")).final()
            assert answer is not None and answer.ephemeral
            shown = table.snapshot()
            model = board_model(game, shown.view(None), picture_facts(shown), lang)
            assert model is not None
            # The board's picture goes with it, described by the picture's alt text,
            # which names every seat with its figures.
            assert len(answer.attachments) == 1, answer.attachments
            name = answer.attachments[0]
            assert answer.embeds[0]["image"]["url"] == f"attachment://{name}"
            assert answer.descriptions == [model.alt()[:1024]], (answer.descriptions, lang)
            for seat in shown.seats:
                assert seat.name in answer.descriptions[0], (seat.name, answer.descriptions)
        assert not standin.errors, standin.errors


async def test_the_status_without_a_picture_carries_the_seat_lines(
    standin: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3", ai_delay=30.0) as bot:
        await standin.command(ana, "table create", game="holdem", seats=3)
        await standin.command(ana, "table start")
        await bot.front.settle()
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None

        # The picture cannot be drawn (a broken drawer): the text says each seat instead.
        def broken(*args: object) -> None:
            raise RuntimeError("no picture")

        monkeypatch.setattr(board, "board_model", broken)
        monkeypatch.setattr(board, "table_picture", broken)
        standin.errors.clear()
        answer = (await standin.command(ana, "table status")).final()
        assert answer is not None and answer.ephemeral
        assert answer.attachments == []
        text = answer.embeds[0]["description"]
        for seat in table.snapshot().seats:
            assert seat.name in text, text
        standin.errors.clear()  # the broken drawer was logged, as it must be
