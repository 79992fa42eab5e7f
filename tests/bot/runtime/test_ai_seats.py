"""`AiSeats`: AI turns and hints decided by one service, with policies built only where
they run (in the worker processes when there is a pool)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from bot.runtime import Player, RuntimeConfig, Seat, TableError
from bot.runtime.ai_seats import AiSeats
from engines.base import Policy
from engines.registry import GameSpec, get_game

ANA = Player("u-ana", "Ana")


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every policy built in this process."""
    built: list[str] = []
    original = GameSpec.make_policy

    def make_policy(self: GameSpec, name: str, rng: random.Random) -> Policy[Any, Any]:
        built.append(name)
        return original(self, name, rng)

    monkeypatch.setattr(GameSpec, "make_policy", make_policy)
    return built


async def test_hints_and_turns_in_a_pool_build_no_policy_here_and_match_a_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built = _counting(monkeypatch)
    spec = replace(get_game("bigtwo"), default_policy="random")
    seats = [Seat(i, None, "random", f"AI {i + 1}") for i in range(4)]
    state = spec.new_state(spec.make_config(deals=1), random.Random(5))
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    pooled = AiSeats(RuntimeConfig(ai_processes=1))
    try:
        pooled.new_match(1, seats, seed=77)
        in_pool = await pooled.hint(1, spec, seat, view, turn=3)
        turn_in_pool = await pooled.decide(1, spec, seats[seat], view)
        assert pooled.policies_of(1) == {}  # they live in the worker
    finally:
        await pooled.aclose()
    assert built == []  # decided in the worker, never built in this process
    assert in_pool in view.legal and turn_in_pool in view.legal
    local = AiSeats(RuntimeConfig(ai_processes=0, ai_in_thread=True))
    local.new_match(1, seats, seed=77)
    assert await local.hint(1, spec, seat, view, turn=3) == in_pool
    assert await local.hint(1, spec, seat, view, turn=3) == in_pool  # same position, same hint
    assert await local.decide(1, spec, seats[seat], view) == turn_in_pool
    assert built == ["random", "random", "random"]
    assert list(local.policies_of(1)) == [seat] and local.policies_of(2) == {}  # hints keep none
    local.forget(1)
    assert local.policies_of(1) == {}


async def test_a_failing_policy_plays_the_safe_default(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = get_game("bigtwo")
    seats = [Seat(i, None, "random", f"AI {i + 1}") for i in range(4)]
    state = spec.new_state(spec.make_config(deals=1), random.Random(2))
    seat = state.to_act
    assert seat is not None

    def broken(self: GameSpec, name: str, rng: random.Random) -> Policy[Any, Any]:
        raise RuntimeError("the policy is broken")

    monkeypatch.setattr(GameSpec, "make_policy", broken)
    ai = AiSeats(RuntimeConfig(ai_in_thread=False))
    ai.new_match(9, seats, seed=1)
    view = state.view(seat)
    assert await ai.decide(9, spec, seats[seat], view) == spec.timeout_action(view)


async def test_table_hint_refuses_before_deciding_and_suggests_a_legal_move(env: Any) -> None:
    table = await env.manager.create(
        guild="g1",
        place="hint",
        game="bigtwo",
        settings={"deals": 1},
        options={"ai_policy": "random", "turn_seconds": 0},
        owner=ANA,
    )
    with pytest.raises(TableError) as refused:
        table.hint("u-bo")
    assert refused.value.code == "not_seated"
    with pytest.raises(TableError) as early:
        table.hint(ANA.id)  # in the lobby nobody is to act
    assert early.value.code == "not_your_turn"
    await table.start(seed=3)
    await table.idle()
    assert table.to_act == 0
    before = env.counts()
    suggestion = await table.hint(ANA.id)
    assert suggestion in table.view(0).legal
    assert env.counts() == before and table.to_act == 0  # a hint changes nothing
    await table.act(ANA.id, suggestion, table.turn)
