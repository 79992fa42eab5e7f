"""Turn timers with an injected clock (no sleeping): the safe default on timeout, away after
two timeouts in a row, and a stored deadline that survives a restart."""

from __future__ import annotations

from typing import Any

from bot.runtime import Player, Table

ANA = Player("u-ana", "Ana")
BO = Player("u-bo", "Bo")
OPTIONS = {"ai_policy": "greedy", "turn_seconds": 60}


async def ana_table(env: Any, deals: int = 3) -> Table:
    table = await env.manager.create(
        guild="g1",
        place="chan-t",
        game="bigtwo",
        settings={"deals": deals},
        options=OPTIONS,
        owner=ANA,
    )
    await table.start(seed=21)
    await table.idle()
    assert table.to_act == 0
    made: Table = table
    return made


def stored_timer(env: Any) -> tuple[Any, Any]:
    row: tuple[Any, Any] = env.rows("SELECT deadline, deadline_turn FROM tables")[0]
    return row


async def test_deadline_is_stored_for_the_human_turn_only(env: Any) -> None:
    table = await ana_table(env)
    assert table.deadline == env.clock.now() + 60
    assert stored_timer(env) == (table.deadline, table.turn)
    action = str(table.state.legal_actions(0)[-1])  # type: ignore[union-attr]
    await table.act(ANA.id, action, table.turn)
    await table.idle()
    if table.to_act == 0:
        assert stored_timer(env) == (table.deadline, table.turn)


async def test_timeout_plays_the_safe_default(env: Any) -> None:
    table = await ana_table(env)
    turn = table.turn
    expected = str(table.spec.timeout_action(table.view(0)))
    await env.clock.advance(59)
    await table.idle()
    assert table.turn == turn, "the timer fired early"
    await env.clock.advance(2)
    await table.idle()
    assert env.rows(f"SELECT seat, action, actor FROM actions WHERE seq = {turn}") == [
        (0, expected, "timeout")
    ]
    timed_out = env.front.events("turn_timed_out")
    assert [(e.seat, e.action, e.in_a_row) for e in timed_out] == [(0, expected, 1)]
    assert table.seats[0].timeouts == 1 and not table.seats[0].away
    assert env.rows("SELECT timeouts, away FROM seats WHERE seat = 0") == [(1, 0)]


async def test_two_timeouts_in_a_row_mark_the_seat_away(env: Any) -> None:
    table = await ana_table(env)
    await env.clock.advance(61)
    await table.idle()
    assert table.to_act == 0 or table.finished
    await env.clock.advance(61)
    await table.idle()
    assert table.seats[0].away and table.seats[0].timeouts == 2
    assert [e.reason for e in env.front.events("seat_away")] == ["timeouts"]
    # The AI now plays Ana's seat, with no timer, to the end of the match.
    assert table.finished
    actors = {a for (a,) in env.rows("SELECT actor FROM actions WHERE seat = 0")}
    assert actors == {"timeout", "ai"}
    assert stored_timer(env) == (None, None)


async def test_acting_resets_the_timeout_count(env: Any) -> None:
    table = await ana_table(env)
    await env.clock.advance(61)
    await table.idle()
    assert table.seats[0].timeouts == 1 and table.to_act == 0
    await table.act(ANA.id, str(table.state.legal_actions(0)[-1]), table.turn)  # type: ignore[union-attr]
    await table.idle()
    assert table.seats[0].timeouts == 0
    assert env.rows("SELECT timeouts FROM seats WHERE seat = 0") == [(0,)]


async def test_back_after_timeouts_restarts_the_timer(env: Any) -> None:
    table = await ana_table(env, deals=5)
    await table.leave(ANA.id)
    assert table.deadline is None or table.to_act != 0
    await table.back(ANA.id)
    await table.idle()
    if table.to_act == 0:
        assert table.deadline == env.clock.now() + 60


async def test_deadline_survives_a_restart(env: Any) -> None:
    table = await ana_table(env)
    turn, deadline = table.turn, table.deadline
    await env.close()
    # The process was down past the deadline: the timeout fires as soon as it is back.
    await env.clock.advance(30)
    manager = await env.reopen()
    restored = manager.get("chan-t")
    assert restored.deadline == deadline and restored.turn == turn
    await restored.idle()
    assert restored.turn == turn, "fired before the deadline"
    await env.clock.advance(31)
    await restored.idle()
    assert env.rows(f"SELECT actor FROM actions WHERE seq = {turn}") == [("timeout",)]


async def test_a_deadline_missed_while_down_fires_at_start_up(env: Any) -> None:
    table = await ana_table(env)
    turn = table.turn
    await env.close()
    await env.clock.advance(3600)
    manager = await env.reopen()
    await manager.idle()
    assert env.rows(f"SELECT actor FROM actions WHERE seq = {turn}") == [("timeout",)]


async def test_the_timer_defaults_to_60_seconds(env: Any) -> None:
    table = await env.manager.create(
        guild="g1", place="chan-d", game="bigtwo", options={"ai_policy": "greedy"}, owner=ANA
    )
    await table.start(seed=21)
    await table.idle()
    assert table.options.turn_seconds == 60 and table.deadline == env.clock.now() + 60


async def test_no_timer_when_the_table_has_none(env: Any) -> None:
    table = await env.manager.create(
        guild="g1",
        place="chan-n",
        game="bigtwo",
        options={"ai_policy": "greedy", "turn_seconds": 0},
        owner=ANA,
    )
    await table.start(seed=21)
    await table.idle()
    turn = table.turn
    await env.clock.advance(10_000)
    await table.idle()
    assert table.turn == turn and table.deadline is None and stored_timer(env) == (None, None)


async def test_joining_an_ai_seat_on_its_turn_arms_the_timer(env: Any) -> None:
    # The AI waits before it plays ("AI is thinking..."); a member takes its seat meanwhile.
    manager = await env.reopen(ai_delay=0.05)
    table = await manager.create(
        guild="g1", place="chan-j", game="bigtwo", settings={"deals": 3}, options=OPTIONS, owner=ANA
    )
    await table.start(seed=21)
    await table.idle()
    await table.act(ANA.id, str(table.state.legal_actions(0)[-1]), table.turn)
    thinking = table.to_act
    assert thinking is not None and thinking != 0 and table.seats[thinking].ai_plays
    assert table.deadline is None
    await table.join(BO, seat=thinking)
    turn = table.turn
    assert table.deadline == env.clock.now() + 60 and table.deadline_turn == turn
    assert stored_timer(env) == (table.deadline, turn)
    await table.idle()
    assert table.turn == turn and table.to_act == thinking, "the AI played Bo's seat"
    await env.clock.advance(61)
    await table.idle()
    assert env.rows(f"SELECT seat, actor FROM actions WHERE seq = {turn}") == [
        (thinking, "timeout")
    ]


async def test_a_human_turn_stored_without_a_deadline_gets_one_at_start_up(env: Any) -> None:
    table = await ana_table(env)
    turn = table.turn
    env.rows("UPDATE tables SET deadline = NULL, deadline_turn = NULL")  # a database from before
    manager = await env.reopen()
    restored = manager.get("chan-t")
    assert restored.deadline == env.clock.now() + 60 and restored.deadline_turn == turn
    assert stored_timer(env) == (restored.deadline, turn)
    await env.clock.advance(61)
    await restored.idle()
    assert env.rows(f"SELECT actor FROM actions WHERE seq = {turn}") == [("timeout",)]


async def test_someone_else_joining_gives_the_player_to_act_no_extra_time(env: Any) -> None:
    table = await ana_table(env)
    deadline = table.deadline
    await env.clock.advance(30)
    await table.join(BO)
    await table.leave(BO.id)
    await table.join(Player("u-cy", "Cy"))
    assert table.deadline == deadline and stored_timer(env) == (deadline, table.turn)
