"""The storage on both backends (SQLite and PostgreSQL, see conftest.py): one transaction
per commit, append-only logs, group commit, and leaderboards as queries over the ledgers
(periods, minimum deals, AI apart)."""

from __future__ import annotations

import asyncio
import datetime as dt
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from storage import (
    ActionCommit,
    ActionRecord,
    ChipEntry,
    DealRecord,
    MatchPlayer,
    MatchResult,
    PenaltyEntry,
    PlaceTaken,
    SeatRecord,
    StaleWrite,
    is_postgres_url,
)
from storage.backend import AnyStorage, make_storage
from storage.base import Actor, period_start
from storage.sqlite import SqliteStorage

NOW = dt.datetime(2026, 11, 26, 12, 0, tzinfo=dt.UTC).timestamp()  # a Thursday
DAY = 86400.0


async def new_match(
    store: AnyStorage,
    place: str,
    players: Sequence[tuple[str, bool]],
    game: str = "bigtwo",
    guild: str = "g",
    config: dict[str, Any] | None = None,
) -> tuple[int, int]:
    seats = [
        SeatRecord(i, None if ai else pid, pid, "greedy") for i, (pid, ai) in enumerate(players)
    ]
    table = await store.create_table(
        guild=guild, place=place, game=game, settings={}, options={}, seats=seats, now=NOW
    )
    match = await store.start_match(
        table_id=table.id,
        number=1,
        seed=2**70,
        config=config or {},
        first_seq=0,
        players=[MatchPlayer(i, pid, pid.upper(), ai) for i, (pid, ai) in enumerate(players)],
        seats=seats,
        deals=[],
        chips=[],
        deadline=None,
        deadline_turn=None,
        now=NOW,
    )
    return table.id, match.id


def commit(
    table_id: int,
    match_id: int,
    seq: int,
    *,
    seat: int | None = None,
    actor: Actor = "human",
    **extra: object,
) -> ActionCommit:
    """The commit of action `seq` (by seat `seq % 4` unless `seat`, made by `actor`)."""
    action = ActionRecord(match_id, seq, 1, seq % 4 if seat is None else seat, "pass", actor, NOW)
    return ActionCommit(table_id=table_id, action=action, **extra)  # type: ignore[arg-type]


async def test_place_is_unique_among_live_tables(store: AnyStorage) -> None:
    table_id, _ = await new_match(store, "p", [("a", False)])
    with pytest.raises(PlaceTaken):
        await new_match(store, "p", [("b", False)])
    await store.set_status(table_id, "stopped")
    await new_match(store, "p", [("b", False)])


async def test_big_seeds_round_trip(store: AnyStorage) -> None:
    table_id, _ = await new_match(store, "p", [("a", False)])
    match = await store.current_match(table_id)
    assert match is not None and match.seed == 2**70


async def test_a_turn_cannot_be_logged_twice(store: AnyStorage) -> None:
    table_id, match_id = await new_match(store, "p", [("a", False)])
    await store.commit_action(commit(table_id, match_id, 0))
    entry = PenaltyEntry("g", "bigtwo", match_id, 1, 0, "a", False, 5, NOW)
    with pytest.raises(StaleWrite):
        await store.commit_action(commit(table_id, match_id, 0, penalties=[entry]))
    # The whole commit was refused: no ledger row from it.
    assert await store.penalty_entries(match_id) == []
    assert len(await store.actions(match_id)) == 1


async def test_an_action_is_queued_for_its_commit_without_a_task_of_its_own(
    store: AnyStorage,
) -> None:
    """`begin_commit`, the table's hot path: an action that ends no match is queued as it
    is (no task per commit; PostgreSQL's one writer task aside), and its future answers as
    `commit_action` would: done once committed, or failed with the same error."""
    table_id, match_id = await new_match(store, "p", [("a", False)])
    tasks = len(asyncio.all_tasks())
    first = store.begin_commit(commit(table_id, match_id, 0))
    again = store.begin_commit(commit(table_id, match_id, 0))
    created = len(asyncio.all_tasks()) - tasks
    assert created <= (0 if isinstance(store, SqliteStorage) else 1)
    await first
    with pytest.raises(StaleWrite):
        await again
    assert [a.seq for a in await store.actions(match_id)] == [0]


async def test_group_commit_isolates_a_faulty_commit(store: AnyStorage) -> None:
    table_id, match_id = await new_match(store, "p", [("a", False)])
    await store.commit_action(commit(table_id, match_id, 0))
    results = await asyncio.gather(
        *(store.commit_action(commit(table_id, match_id, seq)) for seq in (1, 2, 0, 3)),
        return_exceptions=True,
    )
    assert [type(r).__name__ for r in results] == ["NoneType", "NoneType", "StaleWrite", "NoneType"]
    assert [a.seq for a in await store.actions(match_id)] == [0, 1, 2, 3]


async def test_many_commits_share_few_transactions(store: AnyStorage) -> None:
    table_id, match_id = await new_match(store, "p", [("a", False)])
    before = store.batches
    await asyncio.gather(*(store.commit_action(commit(table_id, match_id, s)) for s in range(50)))
    assert len(await store.actions(match_id)) == 50
    assert store.batches - before < 50


async def test_reads_between_group_commits_see_whole_transactions(store: AnyStorage) -> None:
    table_id, match_id = await new_match(store, "p", [("a", False)])
    seen: list[list[int]] = []

    async def read() -> None:
        for _ in range(30):
            seen.append([a.seq for a in await store.actions(match_id)])
            await asyncio.sleep(0)

    await asyncio.gather(
        *(store.commit_action(commit(table_id, match_id, s)) for s in range(80)), read()
    )
    assert all(seqs == list(range(len(seqs))) for seqs in seen)  # a prefix, never a gap
    assert len(await store.actions(match_id)) == 80


def _commit_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name.startswith("sqlite-commit")}


async def test_close_ends_the_commit_thread_and_later_writes_are_refused(tmp_path: Path) -> None:
    before = _commit_threads()
    storage = SqliteStorage(str(tmp_path / "c.sqlite3"))
    await storage.open()
    table_id, match_id = await new_match(storage, "p", [("a", False)])
    await storage.commit_action(commit(table_id, match_id, 0))
    assert _commit_threads() - before
    await storage.close()
    assert not _commit_threads() - before
    with pytest.raises(RuntimeError, match="storage is not open"):
        await storage.commit_action(commit(table_id, match_id, 1))


async def test_writes_and_reads_after_close_are_refused(target: str) -> None:
    storage = make_storage(target)
    await storage.open()
    table_id, match_id = await new_match(storage, "p", [("a", False)])
    await storage.close()
    with pytest.raises(RuntimeError, match="storage is not open"):
        await storage.commit_action(commit(table_id, match_id, 0))
    with pytest.raises(RuntimeError, match="storage is not open"):
        await storage.actions(match_id)


async def raw(target: str, sql: str) -> list[tuple[Any, ...]]:
    """Run `sql` on the database behind `target` with a connection of its own (as any
    client of the database could), bypassing the storage; its rows."""
    if is_postgres_url(target):
        conn = await asyncpg.connect(target)
        try:
            return [tuple(r) for r in await conn.fetch(sql)]
        finally:
            await conn.close()
    with sqlite3.connect(target) as db:
        return db.execute(sql).fetchall()


APPEND_ONLY = {
    # table: (a column to change, the columns of a full row, its key columns)
    "actions": ("action", "match_id, seq, deal, seat, action, actor, at", "match_id, seq"),
    "deals": ("commitment", "match_id, deal, dealer, commitment, first_seq", "match_id, deal"),
    "chip_ledger": (
        "delta",
        "id, guild, game, match_id, hand, seat, player_id, is_ai, delta, reason, at",
        "id",
    ),
    "penalty_ledger": (
        "penalty",
        "id, guild, game, match_id, deal, seat, player_id, is_ai, penalty, at",
        "id",
    ),
}


def rewrites(table: str, *, postgres: bool) -> list[tuple[str, str]]:
    """Every way a client of the database could change or remove a row of `table`, with
    the error each must fail with. PostgreSQL has no REPLACE; its upsert runs the UPDATE
    trigger, and a plain duplicate meets the key."""
    column, columns, key = APPEND_ONLY[table]
    same_row = f"SELECT {columns} FROM {table} LIMIT 1"
    same_key_new_row = (
        f"SELECT {columns.replace(column, '0 AS ' + column, 1)} FROM {table} WHERE true LIMIT 1"
    )
    common = [
        (f"UPDATE {table} SET {column} = {column}", "append-only"),
        (f"DELETE FROM {table}", "append-only"),
        (
            f"INSERT INTO {table} ({columns}) {same_key_new_row}"
            f" ON CONFLICT ({key}) DO UPDATE SET {column} = 0",
            "append-only",
        ),
    ]
    if postgres:
        return [
            *common,
            (f"TRUNCATE {table} CASCADE", "append-only"),
            (f"INSERT INTO {table} ({columns}) {same_key_new_row}", "duplicate key"),
        ]
    return [
        *common,
        (f"UPDATE OR REPLACE {table} SET {column} = 0", "append-only"),
        (f"REPLACE INTO {table} ({columns}) {same_row}", "append-only"),
        (f"REPLACE INTO {table} ({columns}) {same_key_new_row}", "append-only"),
        (f"INSERT OR REPLACE INTO {table} ({columns}) {same_key_new_row}", "append-only"),
        (f"INSERT INTO {table} ({columns}) {same_key_new_row}", "append-only"),
    ]


async def test_logs_and_ledgers_are_append_only(store: AnyStorage, target: str) -> None:
    table_id, match_id = await new_match(store, "p", [("a", False)])
    deals = [DealRecord(match_id, 1, 0, "ab" * 32, 0)]
    chips = [ChipEntry("g", "holdem", match_id, 1, 0, "a", False, 10, "hand", NOW)]
    penalties = [PenaltyEntry("g", "bigtwo", match_id, 1, 0, "a", False, 3, NOW)]
    await store.commit_action(
        commit(table_id, match_id, 0, deals=deals, chips=chips, penalties=penalties)
    )
    refused = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)
    before = {t: await raw(target, f"SELECT * FROM {t}") for t in APPEND_ONLY}
    for table in APPEND_ONLY:
        assert before[table], table
        for sql, message in rewrites(table, postgres=is_postgres_url(target)):
            with pytest.raises(refused, match=message):
                await raw(target, sql)
    assert {t: await raw(target, f"SELECT * FROM {t}") for t in APPEND_ONLY} == before
    # Appending still works, and the log keeps refusing a turn twice as StaleWrite.
    await store.commit_action(commit(table_id, match_id, 1))
    with pytest.raises(StaleWrite):
        await store.commit_action(commit(table_id, match_id, 1))


def test_period_starts() -> None:
    assert period_start("all", NOW) is None
    week = dt.datetime.fromtimestamp(period_start("week", NOW) or 0, dt.UTC)
    month = dt.datetime.fromtimestamp(period_start("month", NOW) or 0, dt.UTC)
    assert (week.year, week.month, week.day, week.hour, week.weekday()) == (2026, 11, 23, 0, 0)
    assert (month.month, month.day, month.hour) == (11, 1, 0)


async def finish_bigtwo(store: AnyStorage, place: str, rows: list[list[int]], at: float) -> None:
    """A finished Big Two match between ana, bo, cy and one AI, deal penalties `rows`."""
    players = [("ana", False), ("bo", False), ("cy", False), ("ai:greedy", True)]
    table_id, match_id = await new_match(store, place, players)
    totals = [sum(r[s] for r in rows) for s in range(4)]
    winners = tuple(s for s in range(4) if totals[s] == min(totals))
    for deal, row in enumerate(rows, start=1):
        penalties = [
            PenaltyEntry("g", "bigtwo", match_id, deal, s, players[s][0], players[s][1], p, at)
            for s, p in enumerate(row)
        ]
        last = deal == len(rows)
        await store.commit_action(
            commit(
                table_id,
                match_id,
                deal - 1,
                penalties=penalties,
                result=MatchResult(match_id, at, winners, tuple(totals)) if last else None,
                status="finished" if last else None,
            )
        )


async def test_bigtwo_leaderboard(store: AnyStorage) -> None:
    await finish_bigtwo(store, "old", [[0, 5, 9, 2], [3, 0, 4, 1]], NOW - 40 * DAY)
    await finish_bigtwo(store, "new", [[4, 0, 1, 2], [2, 2, 0, 3], [0, 6, 1, 1]], NOW - DAY)
    board = await store.leaderboard(
        guild="g", game="bigtwo", scoring="penalty", period="all", now=NOW, min_deals=5
    )
    by = {r.player_id: r for r in board.humans + board.unranked + board.ai}
    assert by["ana"].deals == 5 and by["ana"].average_penalty == pytest.approx(9 / 5)
    # Totals: old match ana 3, bo 5, cy 13, AI 3 (ana and the AI share the win);
    # new match ana 6, bo 8, cy 2, AI 6.
    assert by["ana"].matches == 2 and by["ana"].wins == 1 and by["ana"].best_match == 3
    assert by["bo"].wins == 0 and by["bo"].best_match == 5
    assert by["cy"].wins == 1 and by["cy"].best_match == 2
    assert [r.player_id for r in board.ai] == ["ai:greedy"]
    assert by["ai:greedy"].wins == 1 and by["ai:greedy"].deals == 5
    assert [r.player_id for r in board.humans] == ["ana", "bo", "cy"]  # 1.8, 2.6, 3.0
    week = await store.leaderboard(
        guild="g", game="bigtwo", scoring="penalty", period="week", now=NOW, min_deals=5
    )
    assert week.humans == [] and {r.player_id for r in week.unranked} == {"ana", "bo", "cy"}
    wk = {r.player_id: r for r in week.unranked}
    assert wk["ana"].deals == 3 and wk["ana"].matches == 1 and wk["cy"].wins == 1
    other = await store.leaderboard(
        guild="elsewhere", game="bigtwo", scoring="penalty", period="all", now=NOW
    )
    assert other.humans == other.unranked == other.ai == []


async def test_chip_leaderboard(store: AnyStorage) -> None:
    players = [("ana", False), ("ai:greedy", True)]
    table_id, match_id = await new_match(store, "h", players, game="holdem")
    deltas = [(1, [50, -50]), (2, [-20, 20]), (3, [970, -970])]
    for seq, (hand, row) in enumerate(deltas):
        chips = [
            ChipEntry(
                "g", "holdem", match_id, hand, s, players[s][0], players[s][1], d, "hand", NOW
            )
            for s, d in enumerate(row)
        ]
        if seq == 0:
            chips += [ChipEntry("g", "holdem", match_id, 0, 0, "ana", False, 1000, "buy-in", NOW)]
        last = seq == len(deltas) - 1
        if last:  # chips handed back to a seat left out of the hand: net, but no hand played
            chips += [
                ChipEntry("g", "holdem", match_id, 3, 1, "ai:greedy", True, 5, "returned", NOW)
            ]
        await store.commit_action(
            commit(
                table_id,
                match_id,
                seq,
                chips=chips,
                result=MatchResult(match_id, NOW, (0,), (2000, 0)) if last else None,
            )
        )
    board = await store.leaderboard(
        guild="g", game="holdem", scoring="chips", period="month", now=NOW
    )
    (ana,) = board.humans
    assert (ana.matches, ana.wins, ana.net_chips, ana.hands) == (1, 1, 1000, 3)
    (ai,) = board.ai
    assert (ai.wins, ai.net_chips, ai.hands) == (0, -995, 3)


async def test_the_buy_in_ledger_counts_buy_ins_rebuys_and_the_net_in_chips_and_units(
    store: AnyStorage,
) -> None:
    players = [("ana", False), ("ai:greedy", True), ("bo", False)]

    def row(match: int, seat: int, delta: int, reason: str, game: str = "draw") -> ChipEntry:
        pid, ai = players[seat]
        return ChipEntry("g", game, match, 1, seat, pid, ai, delta, reason, NOW)

    # Match 1, buy-ins of 200: ana buys in (1 unit), loses it, rebuys 2 units, ends +100.
    table_id, first = await new_match(store, "d1", players, "draw", config={"cave_unit": 200})
    entries = [
        [row(first, s, 200, "buy-in") for s in range(3)],
        [row(first, 0, -200, "hand"), row(first, 1, 150, "hand"), row(first, 2, 50, "hand")],
        [row(first, 0, 400, "rebuy"), row(first, 1, 200, "rebuy")],
        [row(first, 0, 300, "hand"), row(first, 2, -300, "hand"), row(first, 0, 0, "returned")],
    ]
    for seq, chips in enumerate(entries):
        await store.commit_action(commit(table_id, first, seq, chips=chips))
    # Match 2, buy-ins of 50: one buy-in, lost half a unit back.
    table_id, second = await new_match(store, "d2", players, "draw", config={"cave_unit": 50})
    chips = [row(second, 0, 50, "buy-in"), row(second, 0, -25, "hand")]
    await store.commit_action(commit(table_id, second, 0, chips=chips))
    # Other games' rows are not draw's.
    table_id, third = await new_match(store, "h", players, "holdem")
    chips = [row(third, 0, 1000, "buy-in", "holdem"), row(third, 0, 70, "hand", "holdem")]
    await store.commit_action(commit(table_id, third, 0, chips=chips))

    ana = await store.buy_ins(guild="g", game="draw", player_id="ana")
    assert (ana.matches, ana.rebuys, ana.units, ana.chips) == (2, 1, 4, 650)
    assert (ana.net, ana.net_units) == (75, 0.0)  # +half a cave of 200, -half of 50
    bo = await store.buy_ins(guild="g", game="draw", player_id="bo")
    assert (bo.matches, bo.rebuys, bo.units, bo.chips, bo.net) == (1, 0, 1, 200, -250)
    assert bo.net_units == -1.25
    # An AI seat's rows are nobody's; nobody in another guild.
    assert (await store.buy_ins(guild="g", game="draw", player_id="ai:greedy")).matches == 0
    assert (await store.buy_ins(guild="other", game="draw", player_id="ana")).units == 0


async def test_a_match_result_counts_only_for_who_made_every_move_of_the_seat(
    store: AnyStorage,
) -> None:
    players = [("ana", False), ("bo", False), ("cy", False), ("ai:greedy", True)]
    table_id, match_id = await new_match(store, "m", players)
    # Bo took seat 1 after its AI had played a move; the AI played a move for Cy while
    # she was away; Ana's only help was a timeout's safe default (her own seat's move).
    moves: list[tuple[int, Actor]] = [
        (0, "timeout"),
        (1, "ai"),
        (2, "human"),
        (3, "ai"),
        (0, "human"),
        (1, "human"),
        (2, "ai"),
        (3, "ai"),
    ]
    row = [4, 0, 0, 9]
    for seq, (seat, actor) in enumerate(moves):
        last = seq == len(moves) - 1
        penalties = [
            PenaltyEntry("g", "bigtwo", match_id, 1, s, players[s][0], players[s][1], p, NOW)
            for s, p in enumerate(row)
        ]
        await store.commit_action(
            commit(
                table_id,
                match_id,
                seq,
                seat=seat,
                actor=actor,
                penalties=penalties if last else (),
                result=MatchResult(match_id, NOW, (1, 2), tuple(row)) if last else None,
                status="finished" if last else None,
            )
        )
    board = await store.leaderboard(
        guild="g", game="bigtwo", scoring="penalty", period="all", now=NOW, min_deals=1
    )
    by = {r.player_id: r for r in board.humans + board.unranked + board.ai}
    assert (by["ana"].matches, by["ana"].wins, by["ana"].best_match) == (1, 0, 4)
    # Bo and Cy "won", but the AI played for them: the result counts for nobody...
    for who in ("bo", "cy"):
        assert (by[who].matches, by[who].wins, by[who].best_match) == (0, 0, None)
        # ...while their deal stays theirs in the ledger.
        assert (by[who].deals, by[who].average_penalty) == (1, 0.0)
    assert (by["ai:greedy"].matches, by["ai:greedy"].wins) == (1, 0)


async def test_tables_and_matches_by_id(store: AnyStorage) -> None:
    table_id, match_id = await new_match(store, "p", [("ana", False), ("ai:greedy", True)])
    await store.set_status(table_id, "stopped")
    table = await store.table(table_id)
    assert table is not None
    assert (table.place, table.status, table.game) == ("p", "stopped", "bigtwo")
    match = await store.match(match_id)
    assert match is not None and (match.table_id, match.seed) == (table_id, 2**70)
    assert await store.table(table_id + 1000) is None
    assert await store.match(match_id + 1000) is None


async def test_matches_newest_first_by_player_guild_and_limit(store: AnyStorage) -> None:
    """Hand histories list a member's matches, a server's, or all, newest first."""

    async def in_guild(guild: str, place: str, who: list[str]) -> int:
        _, match_id = await new_match(store, place, [(pid, False) for pid in who], guild=guild)
        return match_id

    first = await in_guild("g1", "a", ["ana", "bo"])
    second = await in_guild("g2", "b", ["bo", "cy"])
    third = await in_guild("g1", "c", ["cy", "ana"])

    def ids(found: list[Any]) -> list[int]:
        return [m.id for m in found]

    assert ids(await store.matches()) == [third, second, first]
    assert ids(await store.matches(player_id="ana")) == [third, first]
    assert ids(await store.matches(player_id="bo")) == [second, first]
    assert ids(await store.matches(guild="g1")) == [third, first]
    assert ids(await store.matches(player_id="bo", guild="g1")) == [first]
    assert ids(await store.matches(player_id="cy", limit=1)) == [third]
    assert await store.matches(player_id="nobody") == []
    assert await store.matches(guild="g3") == []
