"""Helpers for the sharding tests: several guilds, one table per channel, played by a
person through slash commands (the legal move read from the table the bot drives)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.runtime import Table
from deucebot_dev.discord_standin import FakeDiscord, Message, User
from tests.e2e.helpers import MENTION


async def create_and_start(fake: FakeDiscord, user: User, channel: int) -> None:
    """`user` creates a one-deal Big Two table in `channel` and starts it (AI seats fill)."""
    made = await fake.command(user, "table create", channel_id=channel, game="bigtwo", deals=1)
    assert made.final() is not None
    started = await fake.command(user, "table start", channel_id=channel)
    assert started.final() is not None


async def play_own_turn(
    fake: FakeDiscord, user: User, channel: int, table: Callable[[], Table | None]
) -> bool:
    """If it is `user`'s turn at the table in `channel`, play it with `/play` (the first
    legal play) or `/pass`; True when a move was acknowledged. `table()` finds the live
    table in whichever process drives it now."""
    live = table()
    if live is None or live.status != "playing":
        return False
    seat = live.seat_of(str(user.id))
    if seat is None or live.to_act != seat:
        return False
    view = live.view(seat)
    move = next((str(a) for a in view.legal if str(a) != "pass"), "pass")
    if move == "pass":
        answer = await fake.command(user, "pass", channel_id=channel)
    else:
        answer = await fake.command(
            user, "play", channel_id=channel, cards=move.removeprefix("play ")
        )
    final = answer.message
    assert final is not None and final.ephemeral
    if final.content.startswith("⛔"):  # the table moved on meanwhile (stale): try again
        await asyncio.sleep(0.05)
        return False
    assert final.content.startswith("✅"), final.content
    return True


def channel_boards(fake: FakeDiscord, channel: int) -> list[Message]:
    """The boards (messages with a "My hand" button) posted in `channel`, oldest first."""
    return [
        m
        for m in fake.public_messages(channel)
        if any(c.startswith("db:hand:") for c in m.custom_ids())
    ]


def whose_turn(fake: FakeDiscord, channel: int) -> int | None:
    """The user the newest board in `channel` asks to play (None: an AI, or no board)."""
    found = channel_boards(fake, channel)
    match = MENTION.search(found[-1].content) if found else None
    return int(match.group(1)) if match else None


async def take_turn(fake: FakeDiscord, user: User, channel: int) -> str | None:
    """If the newest board in `channel` asks `user` to play, play the first move `/play`'s
    autocomplete offers, or pass when that does not beat the table; the move text when
    the bot acknowledged it (✅), else None (not their turn, or the board lagged)."""
    if whose_turn(fake, channel) != user.id:
        return None
    choices = await fake.autocomplete(user, "play", "cards", channel_id=channel, cards="")
    if choices:
        answer = await fake.command(user, "play", channel_id=channel, cards=choices[0]["value"])
        final = answer.message
        if final is not None and final.content.startswith("✅"):
            return f"play {choices[0]['value']}"
    answer = await fake.command(user, "pass", channel_id=channel)
    final = answer.message
    if final is not None and final.content.startswith("✅"):
        return "pass"
    return None
