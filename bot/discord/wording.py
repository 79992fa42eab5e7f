"""How a Discord channel words the runtime's events and results (`bot.render`'s shared
functions, with the channel's catalog keys and its member-chosen names made safe)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.discord.safe_text import safe_name
from bot.render.runtime_events import RuntimeWording
from bot.runtime import (
    MatchStarted,
    PlayerJoined,
    PlayerLeft,
    SeatAway,
    SeatBack,
    TableStopped,
    TurnTimedOut,
)


def _joiner(names: Sequence[str], seat: int, name: str) -> str:
    """The name a seat event carries, made safe for Discord text."""
    return safe_name(name)


CHANNEL = RuntimeWording(
    keys={
        kind.kind: f"discord.event.{kind.kind}"
        for kind in (
            PlayerJoined,
            PlayerLeft,
            SeatAway,
            SeatBack,
            TurnTimedOut,
            MatchStarted,
            TableStopped,
        )
    },
    seat_name=_joiner,
    public=True,
)
"""The runtime's events as a table's channel says them."""
