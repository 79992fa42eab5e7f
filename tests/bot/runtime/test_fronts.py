"""`Fronts`: every delivery reaches each front, in order; pacing follows the first."""

from __future__ import annotations

from collections.abc import Sequence

from bot.runtime.fronts import Fronts
from bot.runtime.seats import Player
from bot.runtime.snapshot import TableSnapshot
from engines.base import Event


class Log:
    """A front writing what it was handed into a shared list."""

    def __init__(self, name: str, seen: list[str]) -> None:
        self.name, self.seen = name, seen

    async def public(self, table: TableSnapshot, events: Sequence[Event]) -> None:
        self.seen.append(f"{self.name} public")

    async def private(
        self, table: TableSnapshot, seat: int, player: Player, events: Sequence[Event]
    ) -> None:
        self.seen.append(f"{self.name} private {seat}")

    async def refresh(self, table: TableSnapshot) -> None:
        self.seen.append(f"{self.name} refresh")

    async def caught_up(self, table_id: int, turn: int, within: float) -> None:
        self.seen.append(f"{self.name} caught_up {turn}")


async def test_each_delivery_goes_to_every_front_in_order() -> None:
    seen: list[str] = []
    fronts = Fronts(Log("discord", seen), Log("web", seen))
    table: TableSnapshot = None  # type: ignore[assignment]  # never read by these fronts
    await fronts.public(table, [])
    await fronts.private(table, 2, Player("1", "Ann"), [])
    await fronts.refresh(table)
    await fronts.caught_up(1, 7, 1.0)
    assert seen == [
        "discord public",
        "web public",
        "discord private 2",
        "web private 2",
        "discord refresh",
        "web refresh",
        "discord caught_up 7",
    ]
