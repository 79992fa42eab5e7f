"""Chip games on the runtime: the chip ledger is written from the shared events, each hand's
deltas sum to zero (chips are conserved), and a seat's balance (the sum of its rows) is
its final stack."""

from __future__ import annotations

from typing import Any

import pytest

from engines.registry import UnknownName, get_game


def spec_or_skip(game: str) -> Any:
    try:
        return get_game(game)
    except UnknownName:
        pytest.skip(f"{game} is not available")


@pytest.mark.parametrize(("game", "seed"), [("holdem", 1), ("holdem", 2), ("duel", 1), ("duel", 5)])
async def test_chip_ledger_balances(env: Any, game: str, seed: int) -> None:
    spec = spec_or_skip(game)
    policy = "random" if "random" in spec.policies else spec.default_policy
    table = await env.manager.create(
        guild="g1", place=f"chips-{game}", game=game, options={"ai_policy": policy}
    )
    await table.start(seed=seed)
    await table.idle()
    assert table.finished and table.match is not None
    rows = env.rows("SELECT hand, seat, delta, reason, player_id, is_ai FROM chip_ledger")
    buy_ins = [r for r in rows if r[3] == "buy-in"]
    assert len(buy_ins) >= len(table.seats)
    hands: dict[int, int] = {}
    for hand, _, delta, reason, _, _ in rows:
        if reason == "hand":
            hands[hand] = hands.get(hand, 0) + delta
    assert hands and all(total == 0 for total in hands.values())
    balances = [sum(r[2] for r in rows if r[1] == seat) for seat in range(len(table.seats))]
    assert tuple(balances) == table.match.totals
    assert all(r[4] == f"ai:{policy}" and r[5] == 1 for r in rows)
    board = await env.storage.leaderboard(
        guild="g1", game=game, scoring="chips", period="all", now=env.clock.now()
    )
    assert board.humans == [] and len(board.ai) == 1
    assert board.ai[0].net_chips == 0  # every seat is the same AI: its wins and losses cancel
