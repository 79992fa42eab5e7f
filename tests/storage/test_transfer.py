"""`deucebot migrate-db`: a SQLite database copied into PostgreSQL with its whole history,
checked on both sides; a non-empty target refused unless told (`--append`), and nothing
kept from a copy that fails."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.cli import main
from bot.runtime import FakeClock, NullFront, RuntimeConfig, TableManager
from deucebot_dev.pg_server import TempPostgres
from storage import SeatRecord, open_storage
from storage.transfer import COPY_ORDER, CopyRefused, copy_sqlite_to_postgres


async def sqlite_history(path: Path, prefix: str = "") -> None:
    """Real matches in a SQLite file: finished Big Two and hold'em, a stopped table."""
    storage = await open_storage(str(path))
    config = RuntimeConfig(ai_delay=0.0, ai_in_thread=False, timers=False)
    manager = TableManager(storage, NullFront(), clock=FakeClock(), config=config)
    for place, game, seed in (("b", "bigtwo", 1), ("h", "holdem", 2), ("d", "duel", 3)):
        table = await manager.create(
            guild="g", place=prefix + place, game=game, options={"ai_policy": "random"}
        )
        await table.start(seed=seed)
        await table.idle()
        assert table.finished
    await manager.close()
    stopped = await storage.create_table(
        guild="g",
        place=prefix + "s",
        game="bigtwo",
        settings={},
        options={},
        seats=[SeatRecord(0, "u", "U", "greedy")],
        now=1.0,
    )
    await storage.set_status(stopped.id, "stopped")
    await storage.close()


def sqlite_counts(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as db:
        return {n: db.execute(f"SELECT count(*) FROM {n}").fetchone()[0] for n in COPY_ORDER}


async def pg_counts(url: str) -> dict[str, int]:
    conn = await asyncpg.connect(url)
    try:
        return {n: await conn.fetchval(f"SELECT count(*) FROM {n}") for n in COPY_ORDER}
    finally:
        await conn.close()


async def pg_rows(url: str, sql: str) -> list[tuple[Any, ...]]:
    conn = await asyncpg.connect(url)
    try:
        return [tuple(r) for r in await conn.fetch(sql)]
    finally:
        await conn.close()


async def everything(target: str, shift: int = 0) -> list[Any]:
    """Every table's records and the leaderboards, read through the storage."""
    storage = await open_storage(target)
    out: list[Any] = []
    try:
        for table_id in range(1 + shift, 5 + shift):
            match = await storage.current_match(table_id)
            out.append(await storage.seats(table_id))
            if match is not None:
                out.append((match.seed, match.winners, match.totals, match.config))
                for read in (
                    storage.match_players,
                    storage.actions,
                    storage.deals,
                    storage.chip_entries,
                    storage.penalty_entries,
                ):
                    rows = await read(match.id)
                    out.append([_without_match(r) for r in rows])
        for game, scoring in (("bigtwo", "penalty"), ("holdem", "chips"), ("duel", "chips")):
            out.append(
                await storage.leaderboard(
                    guild="g", game=game, scoring=scoring, period="all", now=2e9, min_deals=1
                )
            )
    finally:
        await storage.close()
    return out


def _without_match(record: Any) -> dict[str, Any]:
    """A record's fields but its match id (which an appended copy moves)."""
    return {k: getattr(record, k) for k in record.__slots__ if k != "match_id"}


async def test_a_copy_keeps_the_whole_history(tmp_path: Path, pg_url: str) -> None:
    source = tmp_path / "old.sqlite3"
    await sqlite_history(source)
    report = await copy_sqlite_to_postgres(str(source), pg_url)
    counts = sqlite_counts(source)
    assert report.rows == counts and counts["actions"] > 50 and counts["chip_ledger"] > 0
    assert await pg_counts(pg_url) == counts
    assert set(report.sums["chip_ledger"]) == {("g", "holdem"), ("g", "duel")}
    assert await everything(pg_url) == await everything(str(source))
    # The copy is a working database: new rows get new ids, the stopped place is free.
    storage = await open_storage(pg_url)
    assert await storage.verify_chain() == []  # hashes and heads copied as they were
    assert await pg_rows(pg_url, "SELECT count(*) FROM matches WHERE head_hash IS NULL") == [(0,)]
    table = await storage.create_table(
        guild="g", place="b2", game="bigtwo", settings={}, options={}, seats=[], now=3.0
    )
    assert table.id == 5
    assert {t.place for t in await storage.live_tables()} == {"b", "h", "d", "b2"}
    await storage.close()


async def test_a_non_empty_target_is_refused_unless_appending(tmp_path: Path, pg_url: str) -> None:
    first, second = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    await sqlite_history(first)
    await sqlite_history(second, prefix="other-")
    await copy_sqlite_to_postgres(str(first), pg_url)
    once = await pg_counts(pg_url)
    with pytest.raises(CopyRefused, match=r"not empty.*--append"):
        await copy_sqlite_to_postgres(str(second), pg_url)
    assert await pg_counts(pg_url) == once
    report = await copy_sqlite_to_postgres(str(second), pg_url, append=True)
    assert report.shifted == {
        "tables": 4,
        "matches": 3,
        "chip_ledger": once["chip_ledger"],
        "penalty_ledger": once["penalty_ledger"],
        "rating_updates": once["rating_updates"],
        "seasons": once["seasons"],
    }
    added = sqlite_counts(second)
    assert await pg_counts(pg_url) == {n: once[n] + added[n] for n in COPY_ORDER}
    # The appended history is whole under its new ids, its chains rehashed for them.
    assert (await everything(pg_url, shift=4))[:-3] == (await everything(str(second)))[:-3]
    storage = await open_storage(pg_url)
    try:
        assert await storage.verify_chain() == []
    finally:
        await storage.close()


def damage(path: Path) -> None:
    """Change one chip row of the source's hold'em match (match 2) as an outsider would."""
    with sqlite3.connect(path) as db:
        db.execute("DROP TRIGGER chip_ledger_no_update")
        db.execute(
            "UPDATE chip_ledger SET delta = delta + 1"
            " WHERE id = (SELECT min(id) FROM chip_ledger WHERE match_id = 2)"
        )


async def test_a_damaged_chain_is_copied_as_damaged_and_never_rehashed(
    tmp_path: Path, pg_url: str
) -> None:
    first, second = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    await sqlite_history(first)
    await sqlite_history(second, prefix="other-")
    damage(first)
    damage(second)
    await copy_sqlite_to_postgres(str(first), pg_url)
    storage = await open_storage(pg_url)
    try:
        assert [(p.match_id, p.where) for p in await storage.verify_chain()] == [
            (2, "chip_ledger row 1")
        ]
    finally:
        await storage.close()
    once = await pg_counts(pg_url)
    with pytest.raises(CopyRefused, match=r"matches \[2\] are damaged.*would hide"):
        await copy_sqlite_to_postgres(str(second), pg_url, append=True)
    assert await pg_counts(pg_url) == once


async def test_a_failed_append_keeps_nothing(tmp_path: Path, pg_url: str) -> None:
    source = tmp_path / "a.sqlite3"
    await sqlite_history(source)
    await copy_sqlite_to_postgres(str(source), pg_url)
    once = await pg_counts(pg_url)
    # The same live places again: one live table per place refuses the copy, all of it.
    with pytest.raises(CopyRefused, match="nothing kept"):
        await copy_sqlite_to_postgres(str(source), pg_url, append=True)
    assert await pg_counts(pg_url) == once


async def test_bad_sources_are_refused(tmp_path: Path, pg_url: str) -> None:
    with pytest.raises(CopyRefused, match="no SQLite database"):
        await copy_sqlite_to_postgres(str(tmp_path / "missing.sqlite3"), pg_url)
    old = tmp_path / "old.sqlite3"
    with sqlite3.connect(old) as db:
        db.execute("PRAGMA user_version = 1")
    with pytest.raises(CopyRefused, match="schema version 1"):
        await copy_sqlite_to_postgres(str(old), pg_url)


def test_the_command(
    tmp_path: Path, pg_server: TempPostgres, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    source = tmp_path / "a.sqlite3"
    asyncio.run(sqlite_history(source))
    url = pg_server.create_database(f"cli_{os.getpid()}")
    assert main(["migrate-db", "--from", str(source), "--to", url]) == 0
    copied = {
        line.split()[0]: int(line.split()[1])
        for line in capsys.readouterr().out.splitlines()
        if "rows copied" in line
    }
    assert copied == sqlite_counts(source)
    assert main(["migrate-db", "--from", str(source), "--to", url]) == 1
    assert "not empty" in capsys.readouterr().err
    assert main(["migrate-db", "--from", str(source), "--to", str(tmp_path / "x.db")]) == 1
    assert "--to must be a postgresql:// URL" in capsys.readouterr().err


async def test_verify_checks_a_postgresql_copy(
    tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "a.sqlite3"
    await sqlite_history(source)
    await copy_sqlite_to_postgres(str(source), pg_url)
    assert await asyncio.to_thread(main, ["verify", "--db", pg_url]) == 0
    assert capsys.readouterr().out == "verify: every check passed\n"
    conn = await asyncpg.connect(pg_url)
    try:  # as a superuser would: triggers off for this session
        await conn.execute("SET session_replication_role = replica")
        await conn.execute(
            "UPDATE actions SET action = 'pass' WHERE match_id = 1 AND seq = "
            "(SELECT min(seq) FROM actions WHERE match_id = 1 AND action LIKE 'play %')"
        )
    finally:
        await conn.close()
    assert await asyncio.to_thread(main, ["verify", "--db", pg_url]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("match 1 (table 1): action seq ") and "its hash" in out[0], out
    assert any("is illegal" in line for line in out[1:]), out
