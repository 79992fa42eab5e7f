"""The matches `/history` reads (`Storage.matches(ended_deals=True)`), on both backends:
only a member's matches with an ended deal credited to them, newest first, with a LIMIT."""

from __future__ import annotations

from storage import ChipEntry, PenaltyEntry
from storage.backend import AnyStorage
from tests.storage.test_storage import NOW, commit, new_match


async def test_only_matches_with_a_member_s_ended_deal_newest_first_with_a_limit(
    store: AnyStorage,
) -> None:
    async def match(place: str, game: str = "bigtwo", guild: str = "g") -> tuple[int, int]:
        return await new_match(store, place, [("ana", False), ("bo", False)], game, guild)

    def penalties(match_id: int, who: str) -> list[PenaltyEntry]:
        return [PenaltyEntry("g", "bigtwo", match_id, 1, 0, who, False, 3, NOW)]

    def chips(match_id: int, reason: str, who: str = "ana") -> list[ChipEntry]:
        return [ChipEntry("g", "holdem", match_id, 1, 0, who, False, 10, reason, NOW)]

    table, bigtwo = await match("a")
    await store.commit_action(commit(table, bigtwo, 0, penalties=penalties(bigtwo, "ana")))
    _, nothing = await match("b")  # dealt, never ended
    table, bought = await match("c", "holdem")
    await store.commit_action(commit(table, bought, 0, chips=chips(bought, "buy-in")))
    table, holdem = await match("d", "holdem")
    await store.commit_action(commit(table, holdem, 0, chips=chips(holdem, "hand")))
    table, bos = await match("e")  # the deal that ended is credited to Bo
    await store.commit_action(commit(table, bos, 0, penalties=penalties(bos, "bo")))
    table, elsewhere = await match("f", guild="other")
    await store.commit_action(commit(table, elsewhere, 0, penalties=penalties(elsewhere, "ana")))

    def ids(found: list[object]) -> list[int]:
        return [m.id for m in found]  # type: ignore[attr-defined]

    assert ids(await store.matches(player_id="ana", guild="g", ended_deals=True)) == [
        holdem,
        bigtwo,
    ]
    one = await store.matches(player_id="ana", guild="g", ended_deals=True, limit=1)
    assert ids(one) == [holdem]
    assert ids(await store.matches(player_id="ana", ended_deals=True)) == [
        elsewhere,
        holdem,
        bigtwo,
    ]
    assert ids(await store.matches(player_id="bo", ended_deals=True)) == [bos]
    assert ids(await store.matches(ended_deals=True)) == [elsewhere, bos, holdem, bigtwo]
    assert await store.matches(player_id="cy", ended_deals=True) == []
    assert nothing in ids(await store.matches(player_id="ana"))  # without the filter
    assert len(await store.matches(player_id="ana")) == 6
