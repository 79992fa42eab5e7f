"""Helpers for the poker games' e2e tests: whose turn, the hand's buttons, the amount form."""

from __future__ import annotations

from typing import Any

from bot.discord.client import Deucebot
from bot.runtime import Table
from deucebot_dev.discord_standin import FakeDiscord, Message, Response, User
from tests.e2e.conftest import settle
from tests.e2e.helpers import mentioned


async def wait_turn(
    fake: FakeDiscord, bot: Deucebot, table: Table, users: list[User]
) -> User | None:
    """Let the AI play until one of `users` is to act (the board mentions them); None once the
    match is over."""
    for _ in range(200):
        await settle(bot)
        if table.status != "playing":
            return None
        who = mentioned(fake)
        for user in users:
            if who == user.id and table.seat_of(str(user.id)) == table.to_act:
                return user
    raise AssertionError("nobody's turn came")


def buttons(hand: Message) -> dict[str, str]:
    """Label -> custom id of the hand's action buttons."""
    found = {}
    for row in hand.components:
        for comp in row.get("components", []):
            if comp.get("type") == 2 and str(comp.get("custom_id", "")).startswith(
                ("db:act:", "db:raise:")
            ):
                found[str(comp.get("label"))] = str(comp["custom_id"])
    return found


def form_input(opened: Response) -> dict[str, Any]:
    """The text input of the form a "Raise..." click opened."""
    assert opened.kind == 9 and opened.modal is not None, opened
    for row in opened.modal["components"]:
        for comp in row.get("components", [row.get("component")]):
            if comp and comp.get("type") == 4:
                return dict(comp)
    raise AssertionError(f"no text input in {opened.modal}")


async def started_table(fake: FakeDiscord, bot: Deucebot, user: User, **options: Any) -> Table:
    """`user` creates a table with `options` in the first channel and starts it (the AI takes
    the empty seats); the live table."""
    await fake.command(user, "table create", **options)
    await fake.command(user, "table start")
    table = bot.tables.find(str(fake.channel_id))
    assert table is not None
    return table
