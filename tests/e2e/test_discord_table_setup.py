"""`/table create` takes each game's own options, checked with plain messages; the board and
`/table status` say which options are in force."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from deucebot_dev.discord_standin import FakeDiscord
from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import board


async def test_holdem_options_reach_the_engine_and_show_on_the_board(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        created = await standin.command(
            ana,
            "table create",
            game="holdem",
            seats=6,
            stack=500,
            small_blind=5,
            big_blind=10,
            deals=3,
            turn_seconds=45,
        )
        assert not created.ephemeral
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and len(table.seats) == 6
        assert table.options.turn_seconds == 45
        await settle(bot)
        for text in (created.message.content, board(standin).text()):
            for shown in ("6 seats", "stack 500", "small blind 5", "big blind 10", "3 hands"):
                assert shown in text, (shown, text)
        await standin.command(ana, "table start")
        view = table.view(None)
        assert (view.small_blind, view.big_blind) == (5, 10)
        assert sum(s.stack + s.bet for s in view.seats) == 6 * 500
        status = (await standin.command(ana, "table status")).final()
        assert status is not None and status.ephemeral and "45 s per turn" in status.text()


@pytest.mark.parametrize(
    ("game", "options", "locale", "says"),
    [
        ("duel", {"deals": 3}, "fr", "Deuce Duel n'a pas d'option donnes"),
        ("holdem", {"blind": 3}, "en", "has no blind option. Its options are: seats, stack"),
        ("holdem", {"seats": 10}, "en", "seats for No-limit Texas hold'em must be from 2 to 9"),
        ("draw", {"seats": 7}, "uk", "має бути від 2 до 6, а не 7"),
        ("bigtwo", {"seats": 3}, "en", "must be from 4 to 4, not 3"),
        ("holdem", {"small_blind": 50}, "en", "big_blind (20) must be at least 50"),
        ("draw", {"stack": 10, "blind": 5}, "fr", "tapis (10) doit valoir au moins 20"),
        ("duel", {"stack": 2, "ante": 2}, "en", "stack (2) must be at least 3 because of ante"),
        ("bigtwo", {"stack": 100}, "uk", "немає опції стек"),
    ],
)
async def test_an_option_a_game_lacks_or_a_value_out_of_range_is_refused_plainly(
    standin: FakeDiscord,
    tmp_path: Path,
    game: str,
    options: dict[str, int],
    locale: str,
    says: str,
) -> None:
    member = standin.add_user("Member", locale=locale)
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        refused = (await standin.command(member, "table create", game=game, **options)).final()
        assert refused is not None and refused.ephemeral
        assert refused.content.startswith("⛔") and says in refused.content, refused.content
        assert "Extra inputs" not in refused.content and "validation" not in refused.content
        assert bot.tables.find(str(standin.channel_id)) is None
        assert not standin.public_messages()


async def test_the_ai_level_is_chosen_at_creation_and_shown_on_the_board(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    member = standin.add_user("Membre", locale="fr")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        created = await standin.command(member, "table create", game="bigtwo", ai="hard")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.options.ai_level == "hard"
        assert [seat.policy for seat in table.seats[1:]] == ["hard"] * 3
        await settle(bot)
        assert "AI: hard" in board(standin).text()  # the channel's language: English
        # The announcement is the channel's too, whatever the creator's language.
        assert "AI: hard" in created.message.content and "IA" not in created.message.content


async def test_a_draw_table_at_the_hard_level_is_played_by_draw_pokers_own_hard_ai(
    standin: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    ana = standin.add_user("Ana")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game="draw", seats=3, deals=2, ai="hard")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.options.ai_level == "hard"
        assert [seat.policy for seat in table.seats[1:]] == ["hard"] * 2
        await settle(bot)
        assert "AI: hard" in board(standin).text()
        await standin.command(ana, "table start")
        await standin.command(ana, "table leave")  # the AI plays every seat to the end
        async with asyncio.timeout(120):
            while table.status != "finished":
                await settle(bot)
                await asyncio.sleep(0.05)
    # Every AI turn was the hard player's own decision: none fell back to the safe default.
    assert "playing the safe default" not in caplog.text
