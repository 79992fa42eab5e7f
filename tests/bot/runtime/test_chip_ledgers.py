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


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_eliminated_seats_play_no_more_hands(env: Any, seed: int) -> None:
    """A seat out of chips is not dealt in: the ledger counts no hand for it, and the
    leaderboard's hands played are the hands each seat was really dealt."""
    table = await env.manager.create(
        guild="g1", place="elimination", game="holdem", options={"ai_policy": "random"}
    )
    await table.start(seed=seed)
    await table.idle()
    assert table.finished and table.match is not None
    rows = env.rows("SELECT hand, seat, delta, reason FROM chip_ledger WHERE reason = 'hand'")
    total_hands = len({hand for hand, _, _, _ in rows})
    played = {seat: sum(1 for r in rows if r[1] == seat) for seat in range(len(table.seats))}
    (winner,) = [s for s, total in enumerate(table.match.totals) if total > 0]
    assert played[winner] == total_hands
    assert min(played.values()) < total_hands  # the first seat out stopped playing
    everything = env.rows("SELECT hand, seat, delta FROM chip_ledger")
    for seat in range(len(table.seats)):
        if seat == winner:
            continue
        # A loser's rows (buy-in, then one per hand dealt) end at zero chips: it was left
        # out of exactly the hands after it went broke.
        last = max(hand for hand, s, _, _ in rows if s == seat)
        assert sum(d for hand, s, d in everything if s == seat and hand <= last) == 0
        assert not any(s == seat and hand > last for hand, s, _ in everything)
