"""`deucebot backup`: a copy of a database the runtime writes, verified; refusals in one
line (exit 2), a copy of a damaged database named as such (exit 1)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.commands.verify import check_database
from storage import open_storage
from tests.bot.runtime.test_fair_log import play, tamper


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(["backup", *argv])
    return status, capsys.readouterr().out


async def test_a_database_with_a_live_table_is_copied_and_verified(
    env: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    await play(env, "draw", "p-1")
    out = tmp_path / "copy.sqlite3"
    status, text = await asyncio.to_thread(run, capsys, "--db", str(env.path), str(out))
    assert status == 0, text
    assert "verify: every check passed" in text and str(out) in text
    assert not Path(f"{out}.partial").exists() and not Path(f"{out}-wal").exists()
    assert await check_database(str(out)) == []
    copy = await open_storage(str(out))
    try:
        assert [t.place for t in await copy.live_tables()] == ["p-1"]
    finally:
        await copy.close()
    with sqlite3.connect(out) as db, sqlite3.connect(env.path) as source:
        query = "SELECT match_id, seq, action, hash FROM actions ORDER BY match_id, seq"
        assert db.execute(query).fetchall() == source.execute(query).fetchall()


async def test_a_copy_of_a_damaged_database_says_what_verify_found(
    env: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    await play(env, "duel", "p-1")
    await env.storage.close()
    tamper(
        env.path, "UPDATE actions SET action = 'fold' WHERE seq = (SELECT max(seq) FROM actions)"
    )
    out = tmp_path / "copy.sqlite3"
    status, text = await asyncio.to_thread(run, capsys, "--db", str(env.path), str(out))
    assert status == 1 and "with problems" in text and "match 1" in text, text
    assert out.exists()  # kept: as good as the original, which is damaged too


def test_refusals(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = tmp_path / "none.sqlite3"
    out = tmp_path / "out.sqlite3"
    assert run(capsys, "--db", str(missing), str(out)) == (
        2,
        f"deucebot backup: there is no database at {missing}\n",
    )
    status, text = run(capsys, "--db", "postgresql://u@localhost/db", str(out))
    assert status == 2 and "pg_dump" in text
    source = tmp_path / "db.sqlite3"
    sqlite3.connect(source).close()
    out.write_text("mine")
    status, text = run(capsys, "--db", str(source), str(out))
    assert status == 2 and "already exists" in text and out.read_text() == "mine"
    status, text = run(capsys, "--db", str(source), str(tmp_path / "no" / "out.sqlite3"))
    assert status == 2 and "does not exist" in text
