"""Big Two auto-pass, a member's own choice: off by default; once on, the seat passes by
itself exactly when passing is its only move, never when it leads or has a play."""

from __future__ import annotations

from typing import Any

from bot.runtime import Player, Table

ANA = Player("u-ana", "Ana")


async def table_with_ana(env: Any, seed: int) -> Table:
    table = await env.manager.create(
        guild="g1",
        place="chan-1",
        game="bigtwo",
        settings={"deals": 1},
        options={"ai_policy": "greedy"},
        owner=ANA,
    )
    await table.start(seed=seed)
    await table.idle()
    return table


def human_passes(env: Any) -> int:
    rows = env.rows("SELECT action FROM actions WHERE seat = 0 AND actor = 'human'")
    return sum(action == "pass" for (action,) in rows)


async def test_auto_pass_is_off_by_default(env: Any) -> None:
    table = await table_with_ana(env, seed=3)
    assert not table.autopasses(ANA.id)
    # Ana's turn waits for her even when passing is all she can do.
    for _ in range(40):
        if table.finished:
            break
        assert table.to_act == 0
        legal = [str(a) for a in table.state.legal_actions(0)]  # type: ignore[union-attr]
        if legal == ["pass"]:
            return  # she was left to pass herself: nothing played for her
        await table.act(ANA.id, legal[0], turn=table.turn)
        await table.idle()
    raise AssertionError("no turn with nothing to beat came up")


async def test_once_on_the_seat_passes_only_when_nothing_beats_the_table(env: Any) -> None:
    played_for_her = 0
    for seed in range(1, 8):
        table = await table_with_ana(env, seed=seed)
        table.set_autopass(ANA.id, True)
        await table.idle()
        before = human_passes(env)
        typed_passes = 0
        while not table.finished:
            # Whenever the table waits for Ana, she has a real choice: a play, or she leads.
            assert table.to_act == 0
            legal = [str(a) for a in table.state.legal_actions(0)]  # type: ignore[union-attr]
            assert legal != ["pass"] and any(a != "pass" for a in legal)
            if table.view(0).table is None:
                assert "pass" not in legal  # leading: passing is no move, nothing is auto
            move = legal[-1] if len(legal) > 1 and seed % 2 else legal[0]
            typed_passes += move == "pass"
            await table.act(ANA.id, move, turn=table.turn)
            await table.idle()
        played_for_her += human_passes(env) - before - typed_passes
        await table.stop()
        if played_for_her > 0:
            break
    assert played_for_her > 0, "auto-pass never had to pass"


async def test_turning_it_off_waits_for_the_member_again(env: Any) -> None:
    table = await table_with_ana(env, seed=3)
    table.set_autopass(ANA.id, True)
    table.set_autopass(ANA.id, False)
    assert not table.autopasses(ANA.id)
    assert not table.will_autopass(0)
