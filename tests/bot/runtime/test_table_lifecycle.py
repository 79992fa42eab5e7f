"""The table runtime on real Big Two and a real SQLite file: lifecycle, order of work,
bad input (specific error, nothing written), concurrency, restart and restore."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from bot.errors import REFUSALS
from bot.i18n import explain
from bot.runtime import Player, RecordingFront, Table, TableError, TableManager, replay
from bot.runtime.options import TableOptions
from engines.base import DealSettled, MatchEnded
from engines.bigtwo import Play, penalty

ANA = Player("u-ana", "Ana")
BO = Player("u-bo", "Bo")
FAST = {"ai_policy": "greedy"}


async def human_table(env: Any, deals: int = 2, seed: int = 7, **options: Any) -> Table:
    """A Big Two table with Ana in seat 0 and greedy AI elsewhere, started, at Ana's turn."""
    manager = env.manager
    table = await manager.create(
        guild="g1",
        place="chan-1",
        game="bigtwo",
        settings={"deals": deals},
        options={**FAST, **options},
        owner=ANA,
    )
    await table.start(seed=seed)
    await table.idle()
    return table


def snapshot(table: Table) -> dict[str, Any]:
    assert table.state is not None
    return table.state.snapshot()


async def play_turn(table: Table, player: str = ANA.id) -> list[Any]:
    seat = table.seat_of(player)
    assert seat is not None and table.to_act == seat
    action = table.state.legal_actions(seat)[-1]  # type: ignore[union-attr]
    events = await table.act(player, str(action), turn=table.turn)
    await table.idle()
    return events


async def test_all_ai_match_finishes_with_balanced_ledgers(env: Any) -> None:
    table = await env.manager.create(
        guild="g1", place="chan-ai", game="bigtwo", settings={"deals": 3}, options=FAST
    )
    await table.start(seed=11)
    await table.idle()
    assert table.status == "finished" and table.to_act is None
    assert env.rows("SELECT status FROM tables") == [("finished",)]
    seqs = [r[0] for r in env.rows("SELECT seq FROM actions ORDER BY seq")]
    assert seqs == list(range(table.turn))
    penalties = env.rows("SELECT deal, seat, penalty FROM penalty_ledger ORDER BY deal, seat")
    assert len(penalties) == 3 * 4
    for deal in (1, 2, 3):
        row = [p for d, _, p in penalties if d == deal]
        assert row.count(0) == 1
    ended = env.front.events("match_ended")
    assert len(ended) == 1 and isinstance(ended[0], MatchEnded)
    totals = [sum(p for _, s, p in penalties if s == seat) for seat in range(4)]
    assert list(ended[0].totals) == totals
    (winners,) = env.rows("SELECT winners FROM matches")[0]
    assert json.loads(winners) == list(ended[0].winners)
    assert list(ended[0].winners) == [s for s in range(4) if totals[s] == min(totals)]
    assert len(env.rows("SELECT * FROM deals")) == 3
    # The stored log replays to exactly the live state.
    actions = [r[0] for r in env.rows("SELECT action FROM actions ORDER BY seq")]
    assert table.match is not None
    rebuilt, _ = replay(table.spec, table.match, actions)
    assert rebuilt.snapshot() == snapshot(table)


async def test_penalties_match_cards_left(env: Any) -> None:
    table = await env.manager.create(
        guild="g1", place="chan-ai", game="bigtwo", settings={"deals": 2}, options=FAST
    )
    await table.start(seed=3)
    await table.idle()
    won = env.front.events("bigtwo.deal_won")
    settled = [e for e in env.front.events("deal_settled") if isinstance(e, DealSettled)]
    assert len(won) == len(settled) == 2
    for w, s in zip(won, settled, strict=True):
        assert s.penalties == tuple(penalty(n) for n in w.cards_left)  # type: ignore[attr-defined]


async def test_events_reach_the_front_only_after_the_commit(env: Any) -> None:
    seen: list[tuple[int, int]] = []
    front = env.front

    async def checking_public(table: Table, events: Any) -> None:
        committed = env.rows("SELECT count(*) FROM actions")[0][0]
        seen.append((committed, table.turn))
        await type(front).public(front, table, events)

    front.public = checking_public
    table = await human_table(env)
    await play_turn(table)
    after_start = [(c, t) for c, t in seen if t > 0]
    assert after_start and all(committed == turn for committed, turn in after_start)


async def test_private_events_go_only_to_the_seat_owner(env: Any) -> None:
    await human_table(env)
    private = [(seat, e) for what, _, seat, e in env.front.log if what == "private"]
    assert private, "Ana's dealt cards were not sent to her"
    assert {seat for seat, _ in private} == {0}
    assert all(e.to == 0 for _, e in private)
    public = [e for what, _, _, e in env.front.log if what == "public"]
    assert all(e.to is None for e in public)


async def test_human_action_is_logged_with_its_turn(env: Any) -> None:
    table = await human_table(env)
    turn = table.turn
    events = await table.act(ANA.id, str(table.state.legal_actions(0)[0]), turn=turn)  # type: ignore[union-attr]
    assert events and all(e.to in (None, 0) for e in events)
    assert env.rows(f"SELECT seat, actor FROM actions WHERE seq = {turn}") == [(0, "human")]


@pytest.mark.parametrize(
    ("case", "code"),
    [
        ("not_seated", "not_seated"),
        ("stale", "stale_turn"),
        ("future", "stale_turn"),
        ("malformed", "malformed_action"),
        ("empty", "malformed_action"),
        ("engine", "bigtwo"),
    ],
)
async def test_bad_input_writes_nothing(env: Any, case: str, code: str) -> None:
    table = await human_table(env)
    before_db, before_state, turn = env.counts(), snapshot(table), table.turn
    hand = table.view(0).hand
    other = next(c for c in table.view(1).hand)
    attempts = {
        "not_seated": lambda: table.act(BO.id, "pass", turn),
        "stale": lambda: table.act(ANA.id, "pass", turn - 1),
        "future": lambda: table.act(ANA.id, "pass", turn + 1),
        "malformed": lambda: table.act(ANA.id, "play 3x 4y", turn),
        "empty": lambda: table.act(ANA.id, "   ", turn),
        "engine": lambda: table.act(ANA.id, Play((hand[0], other)), turn),
    }
    with pytest.raises(REFUSALS) as caught:
        await attempts[case]()
    assert caught.value.code.startswith(code)
    assert str(caught.value) and explain(caught.value, "fr")
    assert env.counts() == before_db
    assert snapshot(table) == before_state and table.turn == turn


async def test_not_your_turn_and_finished_match(env: Any) -> None:
    table = await human_table(env, deals=1)
    await table.act(ANA.id, str(table.state.legal_actions(0)[0]), turn=table.turn)  # type: ignore[union-attr]
    # Right after Ana's action the next seat (an AI) is to act, until the AI task runs.
    if table.to_act != 0 and table.to_act is not None:
        with pytest.raises(TableError) as caught:
            await table.act(ANA.id, "pass", turn=table.turn)
        assert caught.value.code == "not_your_turn"
    await table.idle()
    while not table.finished:
        await play_turn(table)
    before = env.counts()
    with pytest.raises(TableError) as caught:
        await table.act(ANA.id, "pass", turn=table.turn)
    assert caught.value.code == "match_finished"
    assert env.counts() == before


async def test_unknown_table_and_duplicate_place(env: Any) -> None:
    with pytest.raises(TableError) as caught:
        env.manager.get("nowhere")
    assert caught.value.code == "unknown_table"
    await env.manager.create(guild="g1", place="chan-1", game="bigtwo", options=FAST)
    before = env.counts()
    with pytest.raises(TableError) as caught:
        await env.manager.create(guild="g1", place="chan-1", game="bigtwo")
    assert caught.value.code == "table_exists"
    assert env.counts() == before


async def test_a_place_taken_by_another_process_is_refused_naming_the_table_there(
    env: Any,
) -> None:
    await env.manager.create(guild="g1", place="chan-1", game="holdem")
    # Another process (its own manager, the same database) has not loaded that table.
    other = TableManager(env.storage, RecordingFront(), clock=env.clock)
    before = env.counts()
    with pytest.raises(TableError) as caught:
        await other.create(guild="g1", place="chan-1", game="duel")
    assert caught.value.code == "table_exists"
    assert caught.value.params["game"] == "holdem"
    assert caught.value.params["title"] == "No-limit Texas hold'em"
    assert explain(caught.value, "fr").startswith("Une table de No-limit Texas hold'em existe")
    assert env.counts() == before
    assert other.find("chan-1") is None
    await other.close()


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"game": "chess"}, "chess"),
        ({"game": "bigtwo", "settings": {"deals": 0}}, "deals"),
        ({"game": "bigtwo", "settings": {"colour": "red"}}, "colour"),
        ({"game": "bigtwo", "options": {"ai_policy": "genius"}}, "genius"),
        ({"game": "bigtwo", "options": {"turn_seconds": -5}}, "turn_seconds"),
    ],
)
async def test_bad_table_settings_are_named(env: Any, kwargs: dict[str, Any], needle: str) -> None:
    with pytest.raises(TableError) as caught:
        await env.manager.create(guild="g1", place="chan-x", **kwargs)
    assert needle in str(caught.value)
    assert caught.value.code in {"unknown_game", "bad_settings"}
    assert env.counts()["tables"] == 0


@pytest.mark.parametrize(
    ("game", "where", "count", "seats"),
    [
        ("holdem", "settings", 100, "2-9"),  # above what the engine itself accepts
        ("holdem", "settings", 10, "2-9"),  # the engine accepts 10; tables seat 9 at most
        ("holdem", "settings", -5, "2-9"),
        ("holdem", "options", 1, "2-9"),
        ("draw", "settings", 7, "2-6"),
        ("bigtwo", "options", 3, "4"),
        ("duel", "options", 0, "2"),
    ],
)
async def test_a_seat_count_out_of_range_gets_one_message(
    env: Any, game: str, where: str, count: int, seats: str
) -> None:
    with pytest.raises(TableError) as caught:
        await env.manager.create(guild="g1", place="chan-x", game=game, **{where: {"seats": count}})
    assert caught.value.code == "bad_seats"
    assert caught.value.message == f"{game} takes {seats} players, not {count}"
    assert explain(caught.value, "fr") == f"{game} se joue à {seats} joueurs, pas {count}."
    assert env.counts()["tables"] == 0


async def test_two_actions_for_the_same_turn_apply_once(env: Any) -> None:
    table = await human_table(env)
    turn = table.turn
    action = str(table.state.legal_actions(0)[0])  # type: ignore[union-attr]
    results = await asyncio.gather(
        table.act(ANA.id, action, turn), table.act(ANA.id, action, turn), return_exceptions=True
    )
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(refused) == 1 and isinstance(refused[0], TableError)
    assert refused[0].code == "stale_turn"
    assert env.rows(f"SELECT count(*) FROM actions WHERE seq = {turn}") == [(1,)]


async def test_join_leave_back(env: Any) -> None:
    manager = env.manager
    table = await manager.create(guild="g1", place="chan-1", game="bigtwo", options=FAST)
    assert await table.join(ANA) == 0
    with pytest.raises(TableError) as caught:
        await table.join(ANA)
    assert caught.value.code == "already_seated"
    with pytest.raises(TableError) as caught:
        await table.join(BO, seat=0)
    assert caught.value.code == "seat_taken"
    with pytest.raises(TableError) as caught:
        await table.join(BO, seat=9)
    assert caught.value.code == "no_such_seat"
    assert await table.join(BO, seat=2) == 2
    # Leaving in the lobby frees the seat.
    await table.leave(BO.id)
    assert table.seats[2].owner is None
    assert env.rows("SELECT player_id FROM seats WHERE seat = 2") == [(None,)]
    await table.start(seed=5)
    await table.idle()
    assert table.to_act == 0
    # Leaving during a match: the AI plays the seat, which stays Ana's.
    await table.leave(ANA.id)
    await table.idle()
    assert table.seats[0].owner == ANA and table.seats[0].away
    assert table.to_act != 0 or table.finished
    assert env.rows("SELECT away FROM seats WHERE seat = 0") == [(1,)]
    assert env.rows("SELECT count(*) FROM actions WHERE seat = 0 AND actor = 'ai'")[0][0] > 0
    with pytest.raises(TableError):
        await table.act(ANA.id, "pass", table.turn)
    assert [e.kind for e in env.front.events("seat_away")] == ["seat_away"]


async def test_back_gives_the_seat_back(env: Any) -> None:
    table = await human_table(env, deals=3)
    await table.leave(ANA.id)
    # The AI plays Ana's seat through at least one of her turns, then she comes back.
    ai_turns = 0
    while ai_turns == 0 and not table.finished:
        await asyncio.sleep(0)
        ai_turns = env.rows("SELECT count(*) FROM actions WHERE seat = 0 AND actor = 'ai'")[0][0]
    await table.back(ANA.id)
    await table.idle()
    if not table.finished:
        assert table.to_act == 0
        await play_turn(table)
    with pytest.raises(TableError) as caught:
        await table.back(ANA.id)
    assert caught.value.code == "not_away"


async def test_restart_begins_a_fresh_match_and_refuses_old_clicks(env: Any) -> None:
    table = await human_table(env)
    old_turn = table.turn
    old_match = table.match
    await table.restart(seed=99)
    await table.idle()
    assert table.match is not None and old_match is not None
    assert table.match.number == 2 and table.match.first_seq == old_turn + 1
    assert table.state is not None and table.state.snapshot()["totals"] == [0, 0, 0, 0]
    with pytest.raises(TableError) as caught:
        await table.act(ANA.id, "pass", old_turn)
    assert caught.value.code == "stale_turn"
    assert len(env.rows("SELECT id FROM matches")) == 2


async def test_stop_closes_the_place_for_a_new_table(env: Any) -> None:
    table = await human_table(env)
    await env.manager.stop("chan-1")
    with pytest.raises(TableError) as caught:
        await table.act(ANA.id, "pass", table.turn)
    assert caught.value.code == "table_stopped"
    with pytest.raises(TableError):
        env.manager.get("chan-1")
    again = await env.manager.create(guild="g1", place="chan-1", game="bigtwo", options=FAST)
    assert again.id != table.id


async def test_restore_resumes_exactly(env: Any) -> None:
    table = await human_table(env, deals=2)
    await play_turn(table)
    await play_turn(table)
    state, turn, deal = snapshot(table), table.turn, table.deal
    manager = await env.reopen()
    restored = manager.get("chan-1")
    await restored.idle()
    assert restored.turn == turn and restored.deal == deal
    assert snapshot(restored) == state
    assert restored.to_act == 0 and restored.seats[0].owner == ANA
    # The board is redrawn once on start-up, and play goes on.
    assert [what for what, *_ in env.front.log] == ["refresh"]
    await play_turn(restored)
    assert restored.turn > turn


async def test_taking_an_ai_seat_mid_match_credits_the_human(env: Any) -> None:
    table = await human_table(env, deals=2)
    seat = await table.join(BO)
    assert seat == 1 and table.seats[1].owner == BO and not table.seats[1].ai_plays
    assert env.rows("SELECT player_id, is_ai FROM match_players WHERE seat = 1") == [("u-bo", 0)]
    assert env.rows("SELECT player_id FROM seats WHERE seat = 1") == [("u-bo",)]
    # Bo now plays seat 1 himself: the runtime waits for him instead of the AI.
    for _ in range(40):
        if table.finished or table.to_act == 1:
            break
        if table.to_act == 0:
            await play_turn(table)
        await table.idle()
    if not table.finished:
        assert table.to_act == 1
        turn = table.turn
        await table.idle()
        assert table.turn == turn, "the AI played Bo's seat"


@pytest.mark.parametrize(("level", "policy"), [("easy", "easy"), ("hard", "hard")])
async def test_the_ai_level_is_stored_with_the_table_and_plays_its_seats(
    env: Any, level: str, policy: str
) -> None:
    table = await env.manager.create(
        guild="g1", place="chan-1", game="bigtwo", options={"ai_level": level}, owner=ANA
    )
    assert [seat.policy for seat in table.seats[1:]] == [policy] * 3
    manager = await env.reopen()
    restored = manager.get("chan-1")
    assert restored.options.ai_level == level
    assert [seat.policy for seat in restored.seats[1:]] == [policy] * 3


async def test_a_table_stored_before_the_levels_reads_as_normal(env: Any) -> None:
    table = await env.manager.create(guild="g1", place="chan-1", game="bigtwo", owner=ANA)
    assert table.options.ai_level == "normal"
    assert [seat.policy for seat in table.seats[1:]] == ["strong"] * 3
    old = {"seats": None, "turn_seconds": 60, "ai_policy": None, "lang": "en", "creator": "u"}
    assert TableOptions(**old).ai_level == "normal"
    with pytest.raises(ValueError, match="ai_level"):
        TableOptions(ai_level="expert")  # type: ignore[arg-type]
