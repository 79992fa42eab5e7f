"""Every deal of every game announced in order, once: whole matches through the stand-in,
with members and with AI seats only, and through storms of 429 and 5xx answers."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bot.render import get_renderer
from deucebot_dev.discord_standin import FakeDiscord, User
from tests.e2e.conftest import bot_running, settle
from tests.e2e.deliveries import check_match
from tests.e2e.helpers import board, mentioned, open_hand, play_turn

GAMES = ["bigtwo", "holdem", "draw", "duel"]


def _short(game: str, deals: int) -> dict[str, object]:
    """Options for a short match: a deal count where the game has one (hold'em and the
    duel end when one player has every chip)."""
    return {"deals": deals} if game in ("bigtwo", "draw") else {}


async def _member_turn(fake: FakeDiscord, bot: object, user: User, game: str, n: int) -> None:
    """One turn of a member: Big Two by the card menu, the others by an action button
    (varied, so deals end by folds and by showdowns)."""
    if game == "bigtwo":
        await play_turn(fake, bot, user, "pass")  # type: ignore[arg-type]
        return
    hand = await open_hand(fake, user)
    buttons = [c for c in hand.custom_ids() if c.startswith("db:act:")]
    if not buttons:
        # A move chosen by card (the duel's lock, draw's discards: a menu, not a button) is
        # typed instead; with no move now, the board lagged a moment behind: look again.
        table = bot.tables.find(str(fake.channel_id))  # type: ignore[attr-defined]
        seat = table.seat_of(str(user.id))
        moves = get_renderer(game).legal_moves(table.view(seat)) if seat is not None else []
        if moves and table.to_act == seat:
            await fake.command(user, "act", action=moves[n % len(moves)])
        return
    # Mostly all in or a call (short matches), now and then whatever comes first (a fold).
    moves = {c.rsplit(":", 1)[1].split(" ")[0]: c for c in buttons}
    wanted = next((moves[m] for m in ("allin", "call", "check") if m in moves), buttons[0])
    choice = buttons[0] if n % 7 == 3 else wanted
    await fake.click(user, hand, choice)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
async def test_four_members_play_a_match_and_every_deal_is_announced_once_in_order(
    standin: FakeDiscord, tmp_path: Path, game: str
) -> None:
    ana = standin.owner
    others = [standin.add_user(name) for name in ("Bo", "Cy", "Di")]
    members = {u.id: u for u in (ana, *others)}
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game=game, **_short(game, 2))
        for user in others:
            await standin.command(user, "table join")
        await standin.command(ana, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.match is not None
        for n in range(600):
            await settle(bot)
            if table.status != "playing":
                break
            who = mentioned(standin)
            if who in members:
                await _member_turn(standin, bot, members[who], game, n)
        assert table.status == "finished"
        await settle(bot)
        await check_match(standin, bot.storage, table.match.id, table.names)
        assert "my turn" not in board(standin).text().lower()


@pytest.mark.parametrize("game", GAMES)
async def test_ai_seats_only_every_deal_is_announced_once_in_order(
    standin: FakeDiscord, tmp_path: Path, game: str
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game=game, **_short(game, 3))
        await standin.command(ana, "table start")
        await standin.command(ana, "table leave")  # the AI plays every seat from here
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.match is not None
        await standin.wait_for(lambda: table.status == "finished", 60)
        await settle(bot)
        await check_match(standin, bot.storage, table.match.id, table.names)


@pytest.mark.parametrize("status", [429, 503])
async def test_a_storm_on_every_post_and_edit_loses_nothing_and_the_board_converges(
    standin: FakeDiscord, tmp_path: Path, status: int
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3", ai_delay=0.05) as bot:
        await standin.command(ana, "table create", game="draw", deals=4)
        await standin.command(ana, "table start")
        await standin.command(ana, "table leave")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.match is not None
        standin.storm(3.0, status, from_first=True)  # from the next post or edit
        await standin.wait_for(lambda: table.status == "finished", 60)
        await standin.wait_for(lambda: standin.storm_until < time.monotonic(), 5)
        async with asyncio.timeout(10):  # within a few seconds of the storm
            await settle(bot)
        # The storm refused posts or edits. Who retried them depends on the route: the
        # bot's own backoff (`front.retries`) on its REST routes, or discord.py's webhook
        # adapter, which retries a 5xx itself, on a lent interaction token's edits.
        assert standin.storm_refused > 0
        await check_match(standin, bot.storage, table.match.id, table.names)
        # The board shows the table as it is: the match over, its last deal.
        last = board(standin)
        assert "The match is over" in last.content
        assert f"deal {table.deal} ·" in last.text()


async def test_a_fold_that_ends_the_deal_says_so_above_the_next_hand(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    others = [standin.add_user(name) for name in ("Bo", "Cy", "Di")]
    members = {u.id: u for u in (ana, *others)}
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game="holdem")
        for user in others:
            await standin.command(user, "table join")
        await standin.command(ana, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        notes: list[tuple[int, int, str]] = []  # (deal before, deal after, the hand's note)
        while len(notes) < 4:  # three folds end the first deal; one more in the next
            await settle(bot)
            user = members[mentioned(standin) or 0]
            hand = await open_hand(standin, user)
            fold = next(c for c in hand.custom_ids() if c.endswith(":fold"))
            deal = table.deal
            clicked = await standin.click(user, hand, fold)
            assert clicked.kind == 7
            notes.append((deal, table.deal, hand.content))
        for before, after, note in notes:
            if after == before:
                assert note == "✅ Done: fold.", note
            else:  # the fold ended the deal: the hand shown is the next deal's
                assert f"hand {after} has begun" in note, note  # hold'em deals hands
        assert [after - before for before, after, _ in notes] == [0, 0, 1, 0]
