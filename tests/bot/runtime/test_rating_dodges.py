"""Ratings cannot be dodged: a seat's rating result counts for the member who held it when
the match started, however it was finished (they left, their turns timed out, the AI
played on); a restart or stop of a match with a deal played settles it for the ratings
on the deals played, in the transaction of the restart or stop, exactly once; a match
with no deal played is not rated. A rebuild from the stored results agrees every time."""

from __future__ import annotations

from typing import Any

import pytest

from bot.runtime import Player, Table
from storage.base import MatchRecord
from storage.ratings import MU

ANA = Player("u-ana", "Ana")
BO = Player("u-bo", "Bo")


def rating_rows(env: Any, match_id: int) -> dict[tuple[str, str], tuple[int, float, float]]:
    """Per (track, player): (rank, mu before, mu after) of a match's rating rows."""
    rows = env.rows(
        "SELECT season, player_id, rank, mu_before, mu FROM rating_updates"
        f" WHERE match_id = {int(match_id)}"
    )
    return {(season, pid): (rank, before, after) for season, pid, rank, before, after in rows}


def all_time(env: Any, match_id: int) -> dict[str, tuple[int, float, float]]:
    return {pid: v for (season, pid), v in rating_rows(env, match_id).items() if season == ""}


async def rebuild_agrees(env: Any) -> None:
    assert await env.storage.rebuild_ratings() == await env.storage.current_ratings()


def human_move(table: Table, index: int) -> Any:
    """Pass when the game allows it, else the last legal action: a player who loses."""
    assert table.state is not None
    legal = [str(a) for a in table.state.legal_actions(index)]
    for weak in ("pass", "fold", "check"):
        if weak in legal:
            return weak
    return legal[-1]


async def play_turn(table: Table, strong: frozenset[str] = frozenset()) -> None:
    """The member to act plays (see `human_move`; the members in `strong` play the game's
    default AI's move, the Hint button's), then the AI plays on."""
    index = table.to_act
    assert index is not None
    owner = table.seats[index].owner
    assert owner is not None and not table.seats[index].ai_plays
    move = await table.hint(owner.id) if owner.id in strong else human_move(table, index)
    await table.act(owner.id, move, table.turn)
    await table.idle()


async def play_out(table: Table, strong: frozenset[str] = frozenset()) -> None:
    """Play every member's turn until the match ends."""
    while True:
        await table.idle()
        if table.finished:
            return
        await play_turn(table, strong)


async def play_until(table: Table, done: Any, strong: frozenset[str] = frozenset()) -> None:
    await table.idle()
    while not done():
        assert not table.finished
        await play_turn(table, strong)


def ledger_sums(env: Any, sql: str, match_id: int) -> dict[int, int]:
    rows = env.rows(f"{sql} WHERE match_id = {int(match_id)} GROUP BY seat")
    return {int(seat): int(total) for seat, total in rows}


def penalties(env: Any, match_id: int) -> dict[int, int]:
    return ledger_sums(env, "SELECT seat, sum(penalty) FROM penalty_ledger", match_id)


def chips(env: Any, match_id: int) -> dict[int, int]:
    return ledger_sums(env, "SELECT seat, sum(delta) FROM chip_ledger", match_id)


async def bigtwo_after_a_deal(env: Any) -> tuple[Table, MatchRecord]:
    """A three-deal Big Two match of Ana's against the AI, played until a deal settled;
    returns the table and the match."""
    table: Table = await env.manager.create(
        guild="g1", place="c", game="bigtwo", settings={"deals": 3}, owner=ANA
    )
    match = await table.start(seed=7)
    await play_until(table, lambda: penalties(env, match.id))
    return table, match


async def test_a_duel_loser_who_left_is_rated_and_the_winner_too(env: Any) -> None:
    table: Table = await env.manager.create(
        guild="g1",
        place="c",
        game="duel",
        settings={"starting_chips": 6},
        options={"ai_policy": "random"},
        owner=ANA,
    )
    await table.join(BO)
    match = await table.start(seed=1)
    # Ana gives chips away until she is behind, then leaves: the AI plays her seat to the
    # end, against Bo playing the strong AI's moves.
    bo = frozenset({BO.id})
    await play_until(table, lambda: chips(env, match.id)[0] < chips(env, match.id)[1], bo)
    await table.leave(ANA.id)
    await play_out(table, bo)
    assert table.match is not None and table.match.totals is not None
    assert env.rows("SELECT count(*) FROM actions WHERE seat = 0 AND actor = 'ai'")[0][0] > 0
    assert table.match.totals[0] < table.match.totals[1]  # Ana's seat lost
    rated = all_time(env, table.match.id)
    assert set(rated) == {ANA.id, BO.id}
    assert rated[ANA.id][0] == 2 and rated[ANA.id][2] < MU
    assert rated[BO.id][0] == 1 and rated[BO.id][2] > MU
    await rebuild_agrees(env)


async def test_a_member_whose_turns_timed_out_is_rated_for_the_seat(env: Any) -> None:
    table: Table = await env.manager.create(
        guild="g1",
        place="c",
        game="bigtwo",
        settings={"deals": 1},
        options={"ai_policy": "greedy", "turn_seconds": 60},
        owner=ANA,
    )
    await table.join(BO)
    await table.start(seed=7)
    await table.idle()
    while not table.seats[1].away:  # Bo lets his turns time out until the AI plays his seat
        if table.to_act == 1:
            await env.clock.advance(61)
            await table.idle()
        else:
            await play_turn(table)
    await play_out(table)
    assert table.match is not None and table.match.totals is not None
    totals = table.match.totals
    rated = all_time(env, table.match.id)
    assert set(rated) == {ANA.id, BO.id}
    for seat, who in ((0, ANA), (1, BO)):
        assert rated[who.id][0] == 1 + sum(t < totals[seat] for t in totals)
    await rebuild_agrees(env)


async def test_a_restart_after_deals_settles_the_lost_match_and_a_stop_before_any_deal_does_not(
    env: Any,
) -> None:
    table: Table = await env.manager.create(
        guild="g1",
        place="c",
        game="bigtwo",
        settings={"deals": 4},
        options={"ai_policy": "strong"},
        owner=ANA,
    )
    first = await table.start(seed=11)
    await play_until(table, lambda: penalties(env, first.id))
    await play_until(table, lambda: table.to_act == 0)
    lost = penalties(env, first.id)
    assert lost[0] == max(lost.values())  # Ana is losing after the deal played
    restarted_at = env.clock.now()
    second = await table.restart(seed=12)
    rated = all_time(env, first.id)
    assert set(rated) == {ANA.id}
    assert rated[ANA.id][0] == 1 + sum(t < lost[0] for t in lost.values())
    assert rated[ANA.id][2] < MU  # the loss counts
    assert env.rows(f"SELECT finished_at, settled_at FROM matches WHERE id = {first.id}") == [
        (None, restarted_at)
    ]
    # Not a finished match: the totals board does not count it.
    board = await env.storage.leaderboard(
        guild="g1", game="bigtwo", scoring="penalty", period="all", now=env.clock.now(), min_deals=0
    )
    assert [(r.player_id, r.matches) for r in board.humans + board.unranked] == [(ANA.id, 0)]
    # The new match: a few moves, no deal played, then a stop: nothing is rated.
    await play_until(
        table,
        lambda: env.rows(f"SELECT count(*) FROM actions WHERE match_id = {second.id}")[0][0] > 3,
    )
    await table.stop()
    assert rating_rows(env, second.id) == {}
    assert env.rows(f"SELECT settled_at FROM matches WHERE id = {second.id}") == [(None,)]
    await rebuild_agrees(env)
    # A restart of the bot neither rates it again nor loses it.
    before = env.rows("SELECT * FROM rating_updates ORDER BY id")
    await env.reopen()
    assert env.rows("SELECT * FROM rating_updates ORDER BY id") == before
    await rebuild_agrees(env)
    assert await env.storage.verify_chain() == []


async def test_a_stop_after_hands_settles_a_chip_match_on_the_chips(env: Any) -> None:
    table: Table = await env.manager.create(
        guild="g1",
        place="c",
        game="holdem",
        settings={"seats": 2},
        options={"ai_policy": "calling"},
        owner=ANA,
    )
    match = await table.start(seed=5)
    hands = f"SELECT count(*) FROM chip_ledger WHERE match_id = {match.id} AND reason = 'hand'"
    await play_until(table, lambda: env.rows(hands)[0][0] >= 6)  # three hands, Ana folding
    stacks = chips(env, match.id)
    assert stacks[0] < stacks[1]
    await table.stop()
    rated = all_time(env, match.id)
    assert set(rated) == {ANA.id} and rated[ANA.id][0] == 2 and rated[ANA.id][2] < MU
    assert env.rows(f"SELECT finished_at FROM matches WHERE id = {match.id}") == [(None,)]
    await rebuild_agrees(env)


async def test_a_stop_that_fails_rates_nothing_and_the_next_one_rates_once(env: Any) -> None:
    table, match = await bigtwo_after_a_deal(env)
    env.rows(
        "CREATE TRIGGER no_stop BEFORE UPDATE OF status ON tables WHEN NEW.status = 'stopped'"
        " BEGIN SELECT RAISE(ABORT, 'the disk is full'); END"
    )
    with pytest.raises(Exception, match="the disk is full"):
        await table.stop()
    assert rating_rows(env, match.id) == {}
    assert env.rows(f"SELECT settled_at FROM matches WHERE id = {match.id}") == [(None,)]
    env.rows("DROP TRIGGER no_stop")
    manager = await env.reopen()  # the process restarts: the match is still in play
    restored = manager.by_id(table.id)
    assert restored is not None and restored.status == "playing"
    await restored.stop()
    rated = all_time(env, match.id)
    assert set(rated) == {ANA.id}
    assert len(rating_rows(env, match.id)) == 2  # all time and the month, once each
    await rebuild_agrees(env)


async def test_a_restart_that_fails_rates_nothing_and_the_next_one_rates_once(env: Any) -> None:
    table, match = await bigtwo_after_a_deal(env)
    # The new match cannot be written: the settlement in its transaction is undone too.
    env.rows(
        "CREATE TRIGGER no_match BEFORE INSERT ON matches"
        " BEGIN SELECT RAISE(ABORT, 'the disk is full'); END"
    )
    with pytest.raises(Exception, match="the disk is full"):
        await table.restart(seed=8)
    assert rating_rows(env, match.id) == {}
    assert env.rows(f"SELECT settled_at FROM matches WHERE id = {match.id}") == [(None,)]
    assert await env.storage.verify_chain() == []
    env.rows("DROP TRIGGER no_match")
    await table.restart(seed=8)
    assert set(all_time(env, match.id)) == {ANA.id}
    assert len(rating_rows(env, match.id)) == 2  # all time and the month, once each
    assert await env.storage.verify_chain() == []
    await rebuild_agrees(env)
