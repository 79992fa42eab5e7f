"""An AI standing in for an away person plays their cards but never spends their chips."""

from __future__ import annotations

from typing import Any

from bot.runtime import Player

ANA = Player("u-ana", "Ana")
SHORT_CAVES = {"seats": 2, "cave_unit": 8, "blind_unit": 2, "pot_unit": 2, "deals": 40}


async def _away_draw_match(env: Any, seed: int) -> Any:
    table = await env.manager.create(
        guild="g1",
        place=f"draw-{seed}",
        game="draw",
        settings=SHORT_CAVES,
        options={"ai_policy": "random", "turn_seconds": 0},
        owner=ANA,
    )
    await table.start(seed=seed)
    await table.leave(ANA.id)  # away: an AI plays her seat from now on
    await table.idle()
    assert table.finished
    return table


async def test_the_stand_in_sits_out_instead_of_buying_chips(env: Any) -> None:
    broke_seeds = 0
    for seed in range(1, 9):
        table = await _away_draw_match(env, seed)
        rows = env.rows(
            "SELECT a.seat, a.action FROM actions a JOIN matches m ON m.id = a.match_id"
            f" WHERE m.table_id = {table.id} ORDER BY a.seq"
        )
        ana = [action for seat, action in rows if seat == 0]
        other = [action for seat, action in rows if seat == 1]
        assert not any(a.startswith("rebuy") for a in ana), ana
        if "sitout" in ana:
            broke_seeds += 1
        # The AI in its own seat still buys back in when it goes broke.
        assert all(a.startswith("rebuy") for a in other if a.startswith(("rebuy", "sitout")))
    assert broke_seeds > 0, "no seed sent Ana's seat broke: the test proved nothing"
