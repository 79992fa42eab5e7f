"""The totals leaderboards summed in SQL (`storage.board`: running sums per player and
day) equal the boards the previous Python aggregation gave (kept here as the oracle,
unchanged), over random histories on SQLite and PostgreSQL: kept with every commit,
rebuilt from the raw rows (migration 011, `migrate-db`), and summed from the raw rows
for a database read at an older schema."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deucebot_dev.pg_server import TempPostgres
from storage import (
    ActionCommit,
    ActionRecord,
    ChipEntry,
    ChipRow,
    Leaderboard,
    MatchPlayer,
    MatchResult,
    PenaltyEntry,
    PenaltyRow,
    SeatRecord,
)
from storage.backend import AnyStorage, open_storage
from storage.base import period_start
from storage.board import rebuild_statements
from storage.migrate import latest_version

NOW = 1_790_000_000.0  # 2026-09-21, a Monday
DAY = 86400.0
_databases = itertools.count()


# ------------------------------------------------- the previous Python totals (oracle)


def _display_name(key: tuple[str, bool], name: str) -> str:
    player_id, is_ai = key
    if is_ai and player_id.startswith("ai:"):
        return f"AI ({player_id[3:]})"
    return name


def _only(column: str, player_id: str | None) -> tuple[str, tuple[str, ...]]:
    return ("", ()) if player_id is None else (f"AND {column} = ?", (player_id,))


async def _match_stats(
    store: AnyStorage, guild: str, game: str, since: float, player_id: str | None
) -> dict[tuple[str, bool], dict[str, Any]]:
    only, who = _only("mp.player_id", player_id)
    rows = await store._all(
        f"""
        SELECT mp.player_id, mp.is_ai, mp.name, mp.seat, m.id AS match_id, m.winners, m.totals
        FROM match_players mp
        JOIN matches m ON m.id = mp.match_id
        JOIN tables t ON t.id = m.table_id
        WHERE t.guild = ? AND t.game = ? AND m.finished_at IS NOT NULL AND m.finished_at >= ?
          AND (mp.is_ai = 1 OR NOT EXISTS (
              SELECT 1 FROM actions a
              WHERE a.match_id = m.id AND a.seat = mp.seat AND a.actor = 'ai'))
          {only}
        ORDER BY m.id, mp.seat
        """,
        (guild, game, since, *who),
    )
    stats: dict[tuple[str, bool], dict[str, Any]] = {}
    for r in rows:
        entry = stats.setdefault(
            (r["player_id"], bool(r["is_ai"])),
            {"name": r["name"], "matches": 0, "wins": 0, "best": None},
        )
        entry["name"] = r["name"]
        entry["matches"] += 1
        seat = r["seat"]
        winners = json.loads(r["winners"] or "[]")
        totals = json.loads(r["totals"] or "[]")
        entry["wins"] += int(seat in winners)
        total = totals[seat] if 0 <= seat < len(totals) else None
        if total is not None:
            entry["best"] = total if entry["best"] is None else min(entry["best"], total)
    return stats


async def _names(
    store: AnyStorage, guild: str, game: str, player_id: str | None
) -> dict[tuple[str, bool], str]:
    only, who = _only("mp2.player_id", player_id)
    rows = await store._all(
        f"""
        SELECT mp.player_id, mp.is_ai, mp.name FROM match_players mp
        JOIN (SELECT mp2.player_id, mp2.is_ai, max(mp2.match_id * 64 + mp2.seat) AS last
              FROM match_players mp2
              JOIN matches m ON m.id = mp2.match_id JOIN tables t ON t.id = m.table_id
              WHERE t.guild = ? AND t.game = ? {only}
              GROUP BY mp2.player_id, mp2.is_ai) l
          ON l.player_id = mp.player_id AND l.is_ai = mp.is_ai
         AND mp.match_id * 64 + mp.seat = l.last
        """,
        (guild, game, *who),
    )
    return {(r["player_id"], bool(r["is_ai"])): r["name"] for r in rows}


async def python_leaderboard(
    store: AnyStorage,
    *,
    guild: str,
    game: str,
    scoring: str,
    period: Any,
    now: float,
    min_deals: int = 10,
    player_id: str | None = None,
) -> Leaderboard:
    """`Storage.leaderboard` as it was before the sums moved into SQL."""
    start = period_start(period, now)
    since = -1e18 if start is None else start
    stats = await _match_stats(store, guild, game, since, player_id)
    names = await _names(store, guild, game, player_id)
    only, who = _only("player_id", player_id)
    board = Leaderboard(guild, game, period, scoring, min_deals=min_deals)  # type: ignore[arg-type]
    if scoring == "penalty":
        rows = await store._all(
            "SELECT player_id, is_ai, count(*) AS deals, sum(penalty) AS total"
            " FROM penalty_ledger WHERE guild = ? AND game = ? AND at >= ?"
            f" {only} GROUP BY player_id, is_ai",
            (guild, game, since, *who),
        )
        per = {(r["player_id"], bool(r["is_ai"])): r for r in rows}
        lines: list[PenaltyRow] = []
        for key in sorted(set(per) | set(stats)):
            s = stats.get(key, {})
            p = per.get(key)
            lines.append(
                PenaltyRow(
                    player_id=key[0],
                    name=_display_name(key, s.get("name") or names.get(key, key[0])),
                    is_ai=key[1],
                    matches=s.get("matches", 0),
                    wins=s.get("wins", 0),
                    deals=int(p["deals"]) if p else 0,
                    average_penalty=round(int(p["total"]) / int(p["deals"]), 3) if p else 0.0,
                    best_match=s.get("best"),
                )
            )
        lines.sort(key=lambda r: (r.average_penalty, -r.wins, r.name))
        for line in lines:
            if line.is_ai:
                board.ai.append(line)
            elif line.deals >= min_deals:
                board.humans.append(line)
            else:
                board.unranked.append(line)
        return board
    rows = await store._all(
        "SELECT player_id, is_ai, sum(delta) AS net,"
        " sum(CASE WHEN reason = 'hand' THEN 1 ELSE 0 END) AS hands"
        " FROM chip_ledger WHERE guild = ? AND game = ? AND at >= ?"
        f" AND reason IN ('hand', 'returned') {only} GROUP BY player_id, is_ai",
        (guild, game, since, *who),
    )
    per = {(r["player_id"], bool(r["is_ai"])): r for r in rows}
    chip_lines: list[ChipRow] = []
    for key in sorted(set(per) | set(stats)):
        s = stats.get(key, {})
        p = per.get(key)
        chip_lines.append(
            ChipRow(
                player_id=key[0],
                name=_display_name(key, s.get("name") or names.get(key, key[0])),
                is_ai=key[1],
                matches=s.get("matches", 0),
                wins=s.get("wins", 0),
                net_chips=int(p["net"]) if p else 0,
                hands=int(p["hands"]) if p else 0,
            )
        )
    chip_lines.sort(key=lambda r: (-r.wins, -r.net_chips, r.name))
    for chip_line in chip_lines:
        (board.ai if chip_line.is_ai else board.humans).append(chip_line)
    return board


# --------------------------------------------------------------- random histories

PEOPLE = ["a", "b", "c", "ai:random", "ai:strong"]
GAMES = {"bigtwo": "penalty", "holdem": "chips"}

deal_strategy = st.lists(st.integers(0, 13), min_size=4, max_size=4)
match_strategy = st.fixed_dictionaries(
    {
        "guild": st.sampled_from(["g", "g", "h"]),
        "game": st.sampled_from(list(GAMES)),
        "seats": st.lists(st.sampled_from(PEOPLE), min_size=2, max_size=4),
        "names": st.lists(st.sampled_from(["Ann", "Bo", "Ann 2"]), min_size=4, max_size=4),
        "deals": st.lists(deal_strategy, min_size=0, max_size=3),
        "reasons": st.lists(
            st.sampled_from(["hand", "hand", "returned", "rebuy"]), min_size=4, max_size=4
        ),
        "ai_moved": st.lists(st.booleans(), min_size=4, max_size=4),
        "swap": st.one_of(st.none(), st.tuples(st.integers(0, 3), st.sampled_from(PEOPLE))),
        "finished": st.booleans(),
        "winners": st.lists(st.integers(0, 3), max_size=2, unique=True),
        "gap": st.sampled_from([0.0, 60.0, 0.4 * DAY, DAY, 6 * DAY, 31 * DAY]),
    }
)


async def write_history(store: AnyStorage, history: list[dict[str, Any]]) -> float:
    """Write the matches (deals with ledger rows, moves by people or the AI, a seat taken
    over mid-match, finished or not); returns the time of the last one."""
    at = NOW
    for n, m in enumerate(history):
        at += m["gap"]
        game, guild = m["game"], m["guild"]
        seats = m["seats"]
        players = [
            MatchPlayer(i, p, m["names"][i], p.startswith("ai:")) for i, p in enumerate(seats)
        ]
        rows = [SeatRecord(i, None if p.is_ai else p.player_id, p.name, "greedy") for i, p in
                enumerate(players)]  # fmt: skip
        table = await store.create_table(
            guild=guild, place=f"p{n}", game=game, settings={}, options={}, seats=rows, now=at
        )
        match = await store.start_match(
            table_id=table.id, number=1, seed=n, config={}, first_seq=0, players=players,
            seats=rows, deals=[], chips=[], deadline=None, deadline_turn=None, now=at,
        )  # fmt: skip
        seq = 0
        for d, figures in enumerate(m["deals"] or [[0] * 4], start=1):
            when = at + d
            for i, p in enumerate(players):
                penalties = chips = ()
                if i == len(players) - 1 and m["deals"]:
                    if GAMES[game] == "penalty":
                        penalties = tuple(
                            PenaltyEntry(guild, game, match.id, d, s, q.player_id, q.is_ai,
                                         figures[s], when)
                            for s, q in enumerate(players)
                        )  # fmt: skip
                    else:
                        chips = tuple(
                            ChipEntry(guild, game, match.id, d, s, q.player_id, q.is_ai,
                                      figures[s] - 6, m["reasons"][s], when)
                            for s, q in enumerate(players)
                        )  # fmt: skip
                actor = "ai" if p.is_ai or (m["ai_moved"][i] and d == 1) else "human"
                await store.commit_action(
                    ActionCommit(
                        table_id=table.id,
                        action=ActionRecord(match.id, seq, d, i, "pass", actor, when),  # type: ignore[arg-type]
                        chips=chips,
                        penalties=penalties,
                    )
                )
                seq += 1
        if m["swap"] is not None and m["swap"][0] < len(players):
            s, who = m["swap"]
            taken = MatchPlayer(s, who, who.upper(), who.startswith("ai:"))
            await store.save_seats(table.id, [], match_id=match.id, players=[taken])
        if m["finished"]:
            totals = tuple(sum(deal[s] for deal in m["deals"]) for s in range(len(players)))
            winners = tuple(w for w in m["winners"] if w < len(players))
            end = at + len(m["deals"]) + 1
            await store.commit_action(
                ActionCommit(
                    table_id=table.id,
                    action=ActionRecord(match.id, seq, 1, 0, "pass", "human", end),
                    result=MatchResult(match.id, end, winners, totals),
                    status="finished",
                )
            )
        at += len(m["deals"]) + 2
    return at


async def boards(store: AnyStorage, now: float, *, python: bool) -> list[Leaderboard]:
    read = python_leaderboard if python else None
    out = []
    for guild, (game, scoring), period, pid in itertools.product(
        ["g", "h"], GAMES.items(), ["all", "week", "month"], [None, "a", "ai:random", "zed"]
    ):
        args = dict(guild=guild, game=game, scoring=scoring, period=period, now=now,
                    min_deals=2, player_id=pid)  # fmt: skip
        out.append(await (read(store, **args) if read else store.leaderboard(**args)))  # type: ignore[arg-type]
    return out


def lines(found: list[Leaderboard]) -> list[Any]:
    return [(b.humans, b.unranked, b.ai) for b in found]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(history=st.lists(match_strategy, min_size=1, max_size=7))
def test_the_sql_totals_equal_the_previous_python_totals_on_both_backends(
    pg_server: TempPostgres, history: list[dict[str, Any]]
) -> None:
    url = pg_server.create_database(f"bd_{os.getpid()}_{next(_databases)}")

    async def both() -> list[list[Any]]:
        out = []
        with tempfile.TemporaryDirectory() as tmp:
            for target in (str(Path(tmp) / "b.sqlite3"), url):
                store = await open_storage(target)
                try:
                    last = await write_history(store, history)
                    assert await store.board_problems() == []
                    for now in (NOW, last, last + 40 * DAY):
                        expected = lines(await boards(store, now, python=True))
                        assert lines(await boards(store, now, python=False)) == expected
                        # Rebuilt from the raw rows (migration 011, migrate-db): the same.
                        dialect = store.dialect
                        await store._group.submit(
                            [("INSERT INTO board_days_rebuild VALUES (1)", ())]
                        )
                        await store._group.submit(rebuild_statements(dialect))
                        assert lines(await boards(store, now, python=False)) == expected
                        # A database read at an older schema sums its raw rows.
                        store.schema = 10
                        assert lines(await boards(store, now, python=False)) == expected
                        store.schema = 11
                        out.append(expected)
                finally:
                    await store.close()
        return out

    found = asyncio.run(both())
    lite, pg = found[:3], found[3:]
    assert lite == pg
    # Not trivially equal: a person credited with a finished match is on a board.

    def credited(m: dict[str, Any]) -> bool:
        final = list(m["seats"])
        if m["swap"] is not None and m["swap"][0] < len(final):
            final[m["swap"][0]] = m["swap"][1]
        # A match with no deal puts nobody on a board: nothing was played.
        return (
            m["finished"]
            and bool(m["deals"])
            and any(not p.startswith("ai:") and not m["ai_moved"][i] for i, p in enumerate(final))
        )

    assert any(map(credited, history)) <= any(b[0] or b[1] for b in lite[1])


async def test_migration_011_sums_the_matches_played_before_it(target: str) -> None:
    """A database at schema 10 with history: upgraded, its boards are its raw rows' (the
    rebuild migration 011 asks for runs when the storage opens)."""
    import aiosqlite
    import asyncpg

    history = [
        dict(guild="g", game="bigtwo", seats=["a", "b", "ai:random"], names=["A", "B", "R", "-"],
             deals=[[3, 0, 7, 1], [0, 5, 2, 2]], reasons=["hand"] * 4, ai_moved=[False] * 4,
             swap=None, finished=True, winners=[1], gap=0.0),
        dict(guild="g", game="holdem", seats=["b", "c"], names=["B", "C", "-", "-"],
             deals=[[9, 3, 0, 0]], reasons=["hand", "returned", "hand", "hand"],
             ai_moved=[False, True, False, False], swap=None, finished=True, winners=[0],
             gap=DAY),
    ]  # fmt: skip
    store = await open_storage(target)
    try:
        last = await write_history(store, history)
        expected = lines(await boards(store, last, python=True))
    finally:
        await store.close()
    assert any(b[0] or b[1] for b in expected)
    drop = "DROP TABLE board_days; DROP TABLE board_days_rebuild; DROP INDEX match_players_latest"
    # ... and what the later migrations added (012: who held each seat, settled matches).
    drop += "; ALTER TABLE match_players DROP COLUMN held_by"
    drop += "; ALTER TABLE match_players DROP COLUMN held_ai"
    drop += "; ALTER TABLE matches DROP COLUMN settled_at"
    drop += "; DROP VIEW buy_in_ledger; DROP TABLE web_links"  # 013 and 014
    if target.startswith("postgresql://"):
        conn = await asyncpg.connect(target)
        try:
            await conn.execute(drop + "; UPDATE schema_version SET version = 10")
        finally:
            await conn.close()
    else:
        async with aiosqlite.connect(target) as db:
            await db.executescript(drop + "; PRAGMA user_version = 10;")
            await db.commit()
    store = await open_storage(target)
    try:
        assert store.schema == latest_version()
        assert not await store._all("SELECT * FROM board_days_rebuild")
        assert lines(await boards(store, last, python=False)) == expected
        assert await store.board_problems() == []
    finally:
        await store.close()


async def test_verify_names_running_sums_that_differ_from_their_rows(store: AnyStorage) -> None:
    history = [
        dict(guild="g", game="bigtwo", seats=["a", "b"], names=["A", "B", "-", "-"],
             deals=[[3, 0, 0, 0]], reasons=["hand"] * 4, ai_moved=[False] * 4, swap=None,
             finished=True, winners=[1], gap=0.0),
    ]  # fmt: skip
    await write_history(store, history)
    assert await store.board_problems() == []
    await store._group.submit(
        [("UPDATE board_days SET penalty = penalty + 1, wins = 5 WHERE player_id = 'a'", ())]
    )
    problems = await store.board_problems()
    assert len(problems) == 1 and "g bigtwo a, day" in problems[0], problems
    assert "wins 5 instead of 0" in problems[0] and "penalty 4 instead of 3" in problems[0]


async def test_deucebot_verify_reports_the_running_sums(tmp_path: Path) -> None:
    from bot.commands.verify import check_database

    path = str(tmp_path / "v.sqlite3")
    store = await open_storage(path)
    try:
        await write_history(store, [dict(guild="g", game="holdem", seats=["a", "b"],
            names=["A", "B", "-", "-"], deals=[[9, 2, 0, 0]], reasons=["hand"] * 4,
            ai_moved=[False] * 4, swap=None, finished=True, winners=[0], gap=0.0)])  # fmt: skip

        def sums(found: list[str]) -> list[str]:
            return [p for p in found if p.startswith("leaderboard sums")]

        assert sums(await check_database(path)) == []
        await store._group.submit([("DELETE FROM board_days WHERE player_id = 'b'", ())])
    finally:
        await store.close()
    found = sums(await check_database(path))
    assert len(found) == 1 and "g holdem b" in found[0] and "matches None instead of 1" in found[0]
