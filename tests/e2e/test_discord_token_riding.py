"""Which interaction a board rides on (issue 40, item 6): on Discord a follow-up can show
which command or click it answers, so a table's boards and results go out as follow-ups
only of interactions at that table, by members seated there or clicking its controls;
never of another member's refused `/table create`, of a command in another channel, of an
unseated member's command or refused click. Lent tokens expire and go with the table.
Through the real bot and the stand-in, which records which interaction each follow-up
answers (`Message.answers`)."""

from __future__ import annotations

from pathlib import Path

from bot.discord.tokens import LIFETIME
from deucebot_dev.discord_standin import FakeDiscord, Message
from tests.e2e.conftest import ai_warm, bot_running, running_standin, settle
from tests.e2e.helpers import boards
from tests.e2e.poker_helpers import started_table

RESULT_COLOUR = 0xF1C40F
"""The colour of a result's embed (bot.discord.front.RESULT_COLOUR, gold)."""


def _boards_in(fake: FakeDiscord, channel: int) -> list[Message]:
    return [m for m in boards(fake) if m.channel_id == channel]


def _posts_in(fake: FakeDiscord, channel: int) -> list[Message]:
    """The boards and results posted in `channel`, oldest first."""
    return [
        m
        for m in fake.public_messages(channel)
        if m.embeds and m.embeds[0].get("color") in (0x155E38, RESULT_COLOUR)
    ]


async def test_a_lobby_board_rides_only_on_its_own_tables_command(tmp_path: Path) -> None:
    """Bob's `/table create` in Ana's channel, sent while hers is under way, is refused (a
    seat count Big Two does not have): the lobby of her table rides on her command, never
    on his refusal, newer though it is; Carl's table in the next channel rides on his own
    command, and Ana's never on it."""
    async with running_standin(channels=2) as fake:
        here, there = fake.channel_ids
        ana, bob, carl = fake.owner, fake.add_user("Bob"), fake.add_user("Carl")
        async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
            hers = await fake.command(
                ana, "table create", channel_id=here, game="bigtwo", wait=False
            )
            refused = await fake.command(
                bob, "table create", channel_id=here, game="bigtwo", seats=3
            )
            final = refused.final()
            assert final is not None and final.ephemeral and final.content.startswith("⛔")
            his = await fake.command(carl, "table create", channel_id=there, game="bigtwo")
            await fake.wait_for(lambda: _boards_in(fake, here) and _boards_in(fake, there), 10)
            await settle(bot)
            (lobby,) = _boards_in(fake, here)
            (other,) = _boards_in(fake, there)
            assert lobby.answers == hers.interaction_id, (lobby.answers, refused.interaction_id)
            assert other.answers == his.interaction_id
            assert not lobby.ephemeral and not other.ephemeral
        assert not fake.errors, fake.errors


async def test_no_board_rides_on_an_unseated_members_command_or_refused_click(
    tmp_path: Path,
) -> None:
    """Ana deals, then leaves her seat to the AI; Carl, who never sat, looks at the table
    (`/table status`, `/rules`) and clicks its "My hand" (refused). The next deal's board
    and the results go through the bot's own routes: nobody at the table is left to carry
    them, and no answer of theirs may read as one."""
    async with running_standin() as fake:
        ana, carl = fake.owner, fake.add_user("Carl")
        channel = fake.channel_id
        async with bot_running(fake, tmp_path / "db.sqlite3", ai_delay=0.05) as bot:
            await ai_warm(bot)  # the AI moves before Ana's are timed, not the workers' start
            table = await started_table(fake, bot, ana, game="bigtwo", deals=2)
            ana_seat = table.seat_of(str(ana.id))
            await fake.wait_for(lambda: table.deal == 1 and table.to_act == ana_seat, 10)
            await settle(bot)
            first = _boards_in(fake, channel)[-1]
            looked = await fake.command(carl, "table status")
            shown = looked.final()
            assert shown is not None and shown.ephemeral and not shown.content.startswith("⛔")
            clicked = await fake.click(carl, first, "db:hand:")
            refusal = clicked.final()
            assert refusal is not None and refusal.content.startswith("⛔"), refusal
            left = await fake.command(ana, "table leave")
            ruled = await fake.command(carl, "rules", game="bigtwo")
            assert ruled.ephemeral
            await fake.wait_for(lambda: table.status == "finished", 120)
            await settle(bot)
            later = [m for m in _posts_in(fake, channel) if m.id > first.id]
            assert len(later) >= 3, later  # the first deal's result, the second's board...
            unseated = {left.interaction_id, looked.interaction_id, clicked.interaction_id}
            unseated.add(ruled.interaction_id)
            assert not [m.answers for m in later if m.answers in unseated]
            assert all(m.answers is None and m.via == "rest" for m in later), [
                (m.answers, m.via) for m in later
            ]
        assert not fake.errors, fake.errors


async def test_a_token_near_its_end_is_not_kept_and_the_board_goes_through_rest(
    tmp_path: Path,
) -> None:
    """An interaction with less than the front's margin (two minutes) left to live could
    post nothing more: it is not kept, and the lobby goes through the bot's routes."""
    async with running_standin() as fake:
        fake.interaction_age = LIFETIME.total_seconds() - 60
        async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
            await fake.command(fake.owner, "table create", game="bigtwo")
            await fake.wait_for(lambda: bool(boards(fake)), 10)
            await settle(bot)
            lobby = boards(fake)[-1]
            assert lobby.answers is None and lobby.via == "rest"
            assert bot.front.held()["tokens"] == 0
            fake.interaction_age = 0.0
            await fake.command(fake.owner, "table status")  # a fresh one, at the table
            assert bot.front.held()["tokens"] == 1
            await fake.command(fake.owner, "table stop")
            assert bot.front.held()["tokens"] == 0  # gone with the table
        assert not fake.errors, fake.errors
