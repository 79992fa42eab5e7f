"""Both backends behind one interface: `open_storage` picks by target, the runtime plays
the same matches on PostgreSQL as on SQLite (same logs, ledgers, restore), and the
leaderboards agree on any history (hypothesis)."""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import os
import tempfile
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cli import main
from bot.runtime import FakeClock, NullFront, Player, RuntimeConfig, TableManager
from deucebot_dev.pg_server import TempPostgres, free_port
from storage import (
    ActionCommit,
    ActionRecord,
    CannotOpenDatabase,
    ChipEntry,
    MatchPlayer,
    MatchResult,
    PenaltyEntry,
    SeatRecord,
    SqliteStorage,
    StorageError,
    make_storage,
    open_storage,
)
from storage.backend import AnyStorage, UnsupportedDatabase
from storage.postgres import PostgresStorage, _by_table, pg_sql

NOW = dt.datetime(2026, 11, 26, 12, 0, tzinfo=dt.UTC).timestamp()
DAY = 86400.0
_databases = itertools.count(1)


def test_open_storage_dispatches_on_the_target(tmp_path: Path) -> None:
    assert type(make_storage(str(tmp_path / "x.sqlite3"))) is SqliteStorage
    assert type(make_storage("postgresql://u@localhost/db")) is PostgresStorage
    assert type(make_storage("postgres://u@localhost:5433/db")) is PostgresStorage
    with pytest.raises(UnsupportedDatabase, match=r"'mysql'.*postgresql://"):
        make_storage("mysql://u@localhost/db")


async def test_an_unreachable_server_is_a_clear_error_without_the_password() -> None:
    url = f"postgresql://bot:s3cret@127.0.0.1:{free_port()}/deucebot"
    with pytest.raises(StorageError, match="cannot connect to PostgreSQL") as caught:
        await open_storage(url)
    assert "s3cret" not in str(caught.value) and "bot:***@127.0.0.1" in str(caught.value)


def test_missing_server_binaries_are_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the PostgreSQL tests print when they skip (and what CI fails with)."""
    import deucebot_dev.pg_server as pg_server

    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(pg_server, "SEARCH", (str(tmp_path / "*" / "bin"),))
    with pytest.raises(pg_server.NoPostgres, match=r"initdb, pg_ctl.*apt-get install postgresql"):
        pg_server.TempPostgres()
    (tmp_path / "16" / "bin").mkdir(parents=True)
    for name in ("initdb", "pg_ctl"):
        (tmp_path / "16" / "bin" / name).touch()
    assert pg_server.find_binaries() == tmp_path / "16" / "bin"


# ------------------------------------------------------------- the runtime on both


async def play_history(storage: AnyStorage, clock: FakeClock) -> TableManager:
    """All-AI Big Two and hold'em matches to the end, plus a table waiting for a human."""
    config = RuntimeConfig(ai_delay=0.0, ai_in_thread=False, timers=False)
    manager = TableManager(storage, NullFront(), clock=clock, config=config)
    for place, game, seed in (("b1", "bigtwo", 3), ("h1", "holdem", 4)):
        table = await manager.create(
            guild="g",
            place=place,
            game=game,
            settings={"deals": 2} if game == "bigtwo" else {},
            options={"ai_policy": "random"},
        )
        await table.start(seed=seed)
        await table.idle()
        assert table.finished
    waiting = await manager.create(
        guild="g",
        place="human",
        game="bigtwo",
        settings={"deals": 1},
        options={"ai_policy": "greedy"},
        owner=Player("u-ana", "Ana"),
    )
    await waiting.start(seed=5)
    await waiting.idle()
    return manager


async def dump(storage: AnyStorage) -> dict[str, Any]:
    """Everything a backend can be asked about the tables it holds."""
    out: dict[str, Any] = {}
    for table_id in (1, 2, 3):
        match = await storage.current_match(table_id)
        assert match is not None
        out[f"{table_id}"] = (
            match,
            await storage.seats(table_id),
            await storage.match_players(match.id),
            await storage.actions(match.id),
            await storage.deals(match.id),
            await storage.chip_entries(match.id),
            await storage.penalty_entries(match.id),
        )
    out["live"] = await storage.live_tables()
    for game, scoring in (("bigtwo", "penalty"), ("holdem", "chips")):
        out[game] = await storage.leaderboard(
            guild="g", game=game, scoring=scoring, period="all", now=NOW, min_deals=1
        )
    return out


async def test_the_runtime_plays_the_same_on_postgresql(pg_url: str, tmp_path: Path) -> None:
    results = []
    for target in (str(tmp_path / "r.sqlite3"), pg_url):
        storage = await open_storage(target)
        clock = FakeClock()
        manager = await play_history(storage, clock)
        before = manager.find("human")
        assert before is not None and before.to_act == 0
        await manager.close()
        await storage.close()
        # A restart: the waiting table comes back at the same turn from the log.
        storage = await open_storage(target)
        manager = TableManager(storage, NullFront(), clock=clock, config=RuntimeConfig())
        await manager.restore()
        after = manager.find("human")
        assert after is not None and after.turn == before.turn and after.to_act == 0
        assert after.state is not None and before.state is not None
        assert after.state.snapshot() == before.state.snapshot()
        await manager.close()
        results.append(await dump(storage))
        await storage.close()
    lite, pg = results
    assert pg == lite
    assert len(pg["1"][3]) > 20 and pg["holdem"].ai  # real matches, not empty ones


# ------------------------------------------------------ leaderboards from any history

PLAYERS = [("ana", False), ("bo", False), ("cy", False), ("ai:greedy", True), ("ai:strong", True)]

match_strategy = st.fixed_dictionaries(
    {
        "guild": st.sampled_from(["g", "h"]),
        "game": st.sampled_from(["bigtwo", "holdem"]),
        "seats": st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=4),
        "deals": st.integers(min_value=0, max_value=4),
        "values": st.lists(st.integers(min_value=-500, max_value=500), min_size=16, max_size=16),
        "days_ago": st.floats(min_value=0, max_value=70, allow_nan=False),
        "finished": st.booleans(),
    }
)


async def write_history(storage: AnyStorage, history: list[dict[str, Any]]) -> None:
    """Write generated matches through the Storage interface (the same calls the runtime
    makes): ledger rows per deal, a result when finished."""
    for number, m in enumerate(history):
        seats = m["seats"]
        at = NOW - m["days_ago"] * DAY
        table = await storage.create_table(
            guild=m["guild"],
            place=f"p{number}",
            game=m["game"],
            settings={},
            options={},
            seats=[
                SeatRecord(s, None if ai else pid, pid, "greedy")
                for s, (pid, ai) in enumerate(seats)
            ],
            now=at,
        )
        match = await storage.start_match(
            table_id=table.id,
            number=1,
            seed=number,
            config={},
            first_seq=0,
            players=[MatchPlayer(s, pid, pid.title(), ai) for s, (pid, ai) in enumerate(seats)],
            seats=[],
            deals=[],
            chips=[],
            deadline=None,
            deadline_turn=None,
            now=at,
        )
        values = itertools.cycle(m["values"])
        totals = [0] * len(seats)
        for deal in range(1, m["deals"] + 1):
            chips: list[ChipEntry] = []
            penalties: list[PenaltyEntry] = []
            for s, (pid, ai) in enumerate(seats):
                value = next(values)
                totals[s] += abs(value) if m["game"] == "bigtwo" else value
                if m["game"] == "bigtwo":
                    penalties.append(
                        PenaltyEntry(
                            m["guild"], "bigtwo", match.id, deal, s, pid, ai, abs(value), at
                        )
                    )
                else:
                    reason = "returned" if value % 7 == 0 else "hand"
                    chips.append(
                        ChipEntry(
                            m["guild"], "holdem", match.id, deal, s, pid, ai, value, reason, at
                        )
                    )
            last = deal == m["deals"]
            best = min(totals) if m["game"] == "bigtwo" else max(totals)
            result = None
            if last and m["finished"]:
                winners = tuple(s for s, t in enumerate(totals) if t == best)
                result = MatchResult(match.id, at, winners, tuple(totals))
            action = ActionRecord(match.id, deal - 1, deal, 0, "pass", "ai", at)
            await storage.commit_action(
                ActionCommit(
                    table_id=table.id,
                    action=action,
                    chips=chips,
                    penalties=penalties,
                    result=result,
                    status="finished" if result else None,
                )
            )


async def boards(storage: AnyStorage) -> list[Any]:
    out = []
    for guild, period, min_deals in itertools.product(("g", "h"), ("all", "week", "month"), (0, 3)):
        for game, scoring in (("bigtwo", "penalty"), ("holdem", "chips")):
            out.append(
                await storage.leaderboard(
                    guild=guild,
                    game=game,
                    scoring=scoring,  # type: ignore[arg-type]
                    period=period,  # type: ignore[arg-type]
                    now=NOW,
                    min_deals=min_deals,
                )
            )
    return out


@settings(max_examples=15)
@given(history=st.lists(match_strategy, min_size=1, max_size=6))
def test_leaderboards_agree_on_any_history(
    pg_server: TempPostgres, history: list[dict[str, Any]]
) -> None:
    url = pg_server.create_database(f"lb_{os.getpid()}_{next(_databases)}")

    async def both() -> tuple[list[Any], list[Any]]:
        with tempfile.TemporaryDirectory() as tmp:
            results = []
            for target in (str(Path(tmp) / "lb.sqlite3"), url):
                storage = await open_storage(target)
                try:
                    await write_history(storage, history)
                    results.append(await boards(storage))
                finally:
                    await storage.close()
        return results[0], results[1]

    lite, pg = asyncio.run(both())
    assert pg == lite
    # The boards are not trivially equal: finished matches put players on them.
    if any(m["finished"] and m["deals"] for m in history):
        assert any(b.humans or b.ai or b.unranked for b in lite)


def test_batched_statements_keep_the_order_of_writes_to_each_table() -> None:
    """PostgreSQL's executor sends a batch as few `executemany` calls as it can: rows for
    different tables may be regrouped, but writes to one table keep their order (a stop
    between two timer updates of one table must stay between them)."""
    act = "INSERT INTO actions (match_id, seq) VALUES (?, ?)"
    timer = "UPDATE tables SET deadline = ?, deadline_turn = ? WHERE id = ?"
    stop = "UPDATE tables SET deadline = ?, deadline_turn = ?, status = ? WHERE id = ?"
    batch = [
        (act, (1, 0)),
        (timer, (5.0, 1, 1)),
        (act, (2, 0)),
        (timer, (6.0, 1, 2)),
        (stop, (None, None, "stopped", 1)),
        (act, (1, 1)),
        (timer, (7.0, 2, 1)),
    ]
    assert _by_table(batch) == [
        (act, [(1, 0), (2, 0), (1, 1)]),
        (timer, [(5.0, 1, 1), (6.0, 1, 2)]),
        (stop, [(None, None, "stopped", 1)]),
        (timer, [(7.0, 2, 1)]),
    ]
    assert pg_sql(stop) == (
        "UPDATE tables SET deadline = $1, deadline_turn = $2, status = $3 WHERE id = $4"
    )


def test_the_leaderboard_command_reads_postgresql(
    pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    history = {
        "guild": "terminal",
        "game": "bigtwo",
        "seats": PLAYERS[:4],
        "deals": 3,
        "values": list(range(16)),
        "days_ago": 1.0,
        "finished": True,
    }

    async def write() -> None:
        storage = await open_storage(pg_url)
        await write_history(storage, [history])
        await storage.close()

    asyncio.run(write())
    assert main(["leaderboard", "bigtwo", "--db", pg_url]) == 0
    text = capsys.readouterr().out
    assert "Ana" in text and "Bo" in text and "AI (greedy)" in text


async def test_another_programs_postgresql_database_is_refused_unchanged(pg_url: str) -> None:
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("CREATE TABLE tables (legs INTEGER)")
        with pytest.raises(CannotOpenDatabase, match="another program's PostgreSQL database"):
            await open_storage(pg_url)
        names = {r[0] for r in await conn.fetch("SELECT tablename FROM pg_tables")}
    finally:
        await conn.close()
    assert "schema_version" not in names and "actions" not in names


async def test_a_read_only_postgresql_storage_reads_and_never_writes(pg_url: str) -> None:
    with pytest.raises(CannotOpenDatabase, match="holds no Deucebot data yet"):
        await open_storage(pg_url, read_only=True)
    conn = await asyncpg.connect(pg_url)
    try:  # refusing created nothing
        tables = "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
        assert await conn.fetchval(tables) == 0
    finally:
        await conn.close()
    writer = await open_storage(pg_url)
    await writer.create_table(
        guild="g", place="p", game="bigtwo", settings={}, options={}, seats=[], now=NOW
    )
    reader = await open_storage(pg_url, read_only=True)
    try:
        assert [t.place for t in await reader.live_tables()] == ["p"]
        with pytest.raises(asyncpg.ReadOnlySQLTransactionError):
            await reader.create_table(
                guild="g", place="q", game="bigtwo", settings={}, options={}, seats=[], now=NOW
            )
    finally:
        await reader.close()
        await writer.close()
