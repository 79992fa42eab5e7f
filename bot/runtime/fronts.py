"""`Fronts`: one `Front` that hands every delivery to several (Discord and the browser).

The runtime takes a single front; a process that shows its tables in more than one way
(the Discord bot with its web table) gives it a `Fronts`. Each delivery is awaited in each
front in the order given, under the table's lock as before, so each must stay quick (both
the Discord and the web front only queue or flag and return). `caught_up` waits for the
first front only: the one whose display paces the AI seats (the web front is never behind).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.runtime.front import Front

if TYPE_CHECKING:
    from bot.runtime.seats import Player
    from bot.runtime.snapshot import TableSnapshot
    from engines.base import Event


class Fronts:
    """The fronts `first, *others`, each given every delivery in that order."""

    def __init__(self, first: Front, *others: Front) -> None:
        """Deliver to `first`, then to each of `others`."""
        self.first = first
        self.all: tuple[Front, ...] = (first, *others)

    async def public(self, table: TableSnapshot, events: Sequence[Event]) -> None:
        """Public events, to every front."""
        for front in self.all:
            await front.public(table, events)

    async def private(
        self, table: TableSnapshot, seat: int, player: Player, events: Sequence[Event]
    ) -> None:
        """`seat`'s private events, to every front."""
        for front in self.all:
            await front.private(table, seat, player, events)

    async def refresh(self, table: TableSnapshot) -> None:
        """The table changed: every front redraws."""
        for front in self.all:
            await front.refresh(table)

    async def caught_up(self, table_id: int, turn: int, within: float) -> None:
        """Once the first front has caught up with `turn` (or after `within` seconds)."""
        await self.first.caught_up(table_id, turn, within)
