"""What `/history` reads (`recent_deals`): only the member's matches with an ended deal
of theirs, at most as many as the deals asked for, however many matches they played."""

from __future__ import annotations

from typing import Any

from bot.history.build import recent_deals
from storage import MatchPlayer, SeatRecord, SqliteStorage
from tests.bot.history.helpers import played


class Counting:
    """`store`, counting the matches whose log is read (the actions of each)."""

    def __init__(self, store: SqliteStorage) -> None:
        self.store = store
        self.loaded: list[int] = []

    async def actions(self, match_id: int) -> Any:
        self.loaded.append(match_id)
        return await self.store.actions(match_id)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


async def never_ended(store: SqliteStorage, place: str, player: str = "u1") -> int:
    """A match where `player` holds seat 0 and no deal ever ended (a restart at once)."""
    seats = [SeatRecord(0, player, "Ana", "random"), SeatRecord(1, None, "ai", "random")]
    table = await store.create_table(
        guild="g1", place=place, game="bigtwo", settings={}, options={}, seats=seats, now=0.0
    )
    match = await store.start_match(
        table_id=table.id,
        number=1,
        seed=7,
        config={},
        first_seq=0,
        players=[MatchPlayer(0, player, "Ana", False), MatchPlayer(1, "ai:random", "AI", True)],
        seats=seats,
        deals=[],
        chips=[],
        deadline=None,
        deadline_turn=None,
        now=0.0,
    )
    await store.set_status(table.id, "stopped")
    return match.id


async def test_three_hundred_matches_without_an_ended_deal_are_never_read(
    store: SqliteStorage,
) -> None:
    old = await played(store, "bigtwo", "old", 1)
    for number in range(300):
        await never_ended(store, f"p{number}")
    counting = Counting(store)
    found = await recent_deals(counting, "u1", deals=5)  # type: ignore[arg-type]
    assert [m.match_id for m in found.matches] == [old] and found.matches[0].deals
    assert counting.loaded == [old]


async def test_no_more_matches_are_read_than_deals_asked_for(store: SqliteStorage) -> None:
    ids = [await played(store, "bigtwo", f"t{n}", n) for n in range(4)]
    counting = Counting(store)
    found = await recent_deals(counting, "u1", deals=2)  # type: ignore[arg-type]
    assert sum(len(m.deals) for m in found.matches) == 2
    assert counting.loaded == [ids[-1]]  # the newest match has both deals
    counting.loaded.clear()
    everything = await recent_deals(counting, "u1", deals=50)  # type: ignore[arg-type]
    assert [m.match_id for m in everything.matches] == ids[::-1]
    assert counting.loaded == ids[::-1]
