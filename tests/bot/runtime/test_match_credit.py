"""Who a match result is credited to when people take seats mid-match: only someone who
made every move of their seat (the AI made none for it) gets the match's win or loss and
total; per-deal ledger rows stay with whoever held the seat when the deal settled."""

from __future__ import annotations

from typing import Any

from bot.runtime import Player, Table

ANA = Player("u-ana", "Ana")
BO = Player("u-bo", "Bo")
CY = Player("u-cy", "Cy")


async def play_out(table: Table) -> None:
    """Play every human turn (the last legal action) until the match ends."""
    while True:
        await table.idle()
        if table.finished:
            return
        index = table.to_act
        assert index is not None and table.state is not None
        owner = table.seats[index].owner
        assert owner is not None and not table.seats[index].ai_plays
        action = table.state.legal_actions(index)[-1]
        await table.act(owner.id, str(action), table.turn)


async def one_deal_table(env: Any) -> Table:
    """A one-deal Big Two match, Ana in seat 0 and greedy AI elsewhere, just started."""
    table: Table = await env.manager.create(
        guild="g1",
        place="c",
        game="bigtwo",
        settings={"deals": 1},
        options={"ai_policy": "greedy"},
        owner=ANA,
    )
    await table.start(seed=7)
    return table


async def rows_by_player(env: Any) -> dict[str, Any]:
    board = await env.storage.leaderboard(
        guild="g1",
        game="bigtwo",
        scoring="penalty",
        period="all",
        now=env.clock.now(),
        min_deals=0,
    )
    return {r.player_id: r for r in board.humans + board.unranked + board.ai}


async def test_taking_over_after_the_ai_played_the_seat_earns_no_match_result(env: Any) -> None:
    table = await one_deal_table(env)
    await table.idle()
    while not env.rows("SELECT 1 FROM actions WHERE seat = 1 AND actor = 'ai'"):
        await play_out_one(table)
    await table.join(BO, seat=1)
    await play_out(table)
    assert table.match is not None and table.match.totals is not None
    by = await rows_by_player(env)
    assert (by[BO.id].matches, by[BO.id].wins, by[BO.id].best_match) == (0, 0, None)
    assert by[BO.id].deals == 1  # the deal settled while Bo held the seat: his penalty row
    assert by[ANA.id].matches == 1 and by[ANA.id].best_match == table.match.totals[0]


async def test_taking_a_seat_before_the_ai_moved_for_it_earns_the_result(env: Any) -> None:
    table = await one_deal_table(env)
    await table.join(CY, seat=2)  # before the AI turns scheduled by the start have run
    await play_out(table)
    assert env.rows("SELECT count(*) FROM actions WHERE seat = 2 AND actor = 'ai'") == [(0,)]
    assert table.match is not None and table.match.totals is not None
    by = await rows_by_player(env)
    assert by[CY.id].matches == 1 and by[CY.id].best_match == table.match.totals[2]
    assert by[CY.id].wins == int(2 in (table.match.winners or ()))


async def play_out_one(table: Table) -> None:
    """Play one human turn, then let the AI play."""
    index = table.to_act
    assert index is not None and table.state is not None
    owner = table.seats[index].owner
    assert owner is not None
    await table.act(owner.id, str(table.state.legal_actions(index)[-1]), table.turn)
    await table.idle()
