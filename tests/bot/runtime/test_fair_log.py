"""The tamper-evident log and `deucebot verify` on real SQLite files written by the runtime:
played matches verify; a row edited, removed, inserted or moved outside the program is
named; start-up keeps serving the intact tables and refuses only the damaged one."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main as cli_main
from bot.commands.verify import check_database, export_match, verify_export
from engines.fair import DealSource

SETTINGS: dict[str, dict[str, Any]] = {
    "bigtwo": {"deals": 2},
    "holdem": {"seats": 3, "max_hands": 4},
    "draw": {"seats": 3, "deals": 3},
    "duel": {"starting_chips": 6},
}


async def play(env: Any, game: str, place: str, seed: int = 1) -> Any:
    """Create a table of AI players in `place`, play a whole match, return the table."""
    table = await env.manager.create(
        guild="g", place=place, game=game, settings=SETTINGS[game], options={"ai_policy": "random"}
    )
    await table.start(seed=seed)
    await table.idle()
    assert table.finished and table.match is not None
    return table


def tamper(path: Path, *statements: str) -> None:
    """Edit the file as someone outside the program would: drop the append-only triggers."""
    with sqlite3.connect(path) as db:
        triggers = db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall()
        for (trigger,) in triggers:
            db.execute(f"DROP TRIGGER {trigger}")
        for statement in statements:
            db.execute(statement)


def plain_action(env: Any, match_id: int) -> int:
    """A mid-match action seq that wrote no other row, and whose next action wrote none."""
    writers = {r[0] for r in env.rows(f"SELECT seq FROM chip_ledger WHERE match_id = {match_id}")}
    writers |= {r[0] for r in env.rows(f"SELECT seq FROM deals WHERE match_id = {match_id}")}
    writers |= {
        r[0] for r in env.rows(f"SELECT seq FROM penalty_ledger WHERE match_id = {match_id}")
    }
    seqs = [r[0] for r in env.rows(f"SELECT seq FROM actions WHERE match_id = {match_id}")]
    return int(next(s for s in seqs[2:-2] if s not in writers and s - 1 not in writers))


async def first_problem(env: Any, table: Any) -> str:
    """The first line `verify --db` prints, which must be about `table`'s match, without
    that prefix."""
    problems = await check_database(str(env.path))
    prefix = f"match {table.match.id} (table {table.id}): "
    assert problems and problems[0].startswith(prefix), problems
    return problems[0][len(prefix) :]


@pytest.mark.parametrize("game", list(SETTINGS))
async def test_played_matches_verify(env: Any, game: str, tmp_path: Path) -> None:
    table = await play(env, game, f"p-{game}")
    assert await check_database(str(env.path)) == []
    assert env.rows("SELECT count(*) FROM actions WHERE hash IS NULL") == [(0,)]
    assert env.rows("SELECT seed FROM match_secrets") == [(str(1),)]
    assert "seed" not in [r[1] for r in env.rows("PRAGMA table_info(matches)")]
    export = tmp_path / "match.json"
    await export_match(str(env.path), table.match.id, str(export))
    data = json.loads(export.read_text())
    assert "secret" not in export.read_text() and data["rng_seed"] == DealSource.rng_seed(1)
    assert all(d["seed"] for d in data["deals"])  # a finished match: every seed revealed
    assert verify_export(str(export)) == []


async def test_a_changed_seed_commitment_or_card_in_an_export_fails(
    env: Any, tmp_path: Path
) -> None:
    table = await play(env, "holdem", "export")
    export = tmp_path / "match.json"
    await export_match(str(env.path), table.match.id, str(export))
    data = json.loads(export.read_text())

    def problems(change: Any) -> list[str]:
        copy = json.loads(json.dumps(data))
        change(copy)
        export.write_text(json.dumps(copy))
        return verify_export(str(export))

    def seed(d: dict[str, Any]) -> None:
        d["deals"][1]["seed"] = "00" * 32

    def commitment(d: dict[str, Any]) -> None:
        d["deals"][0]["commitment"] = "ab" * 32

    def card(d: dict[str, Any]) -> None:
        hole = next(e for e in d["events"] if e["kind"] == "hole_cards")
        hole["cards"][0] = "AS" if hole["cards"][0] != "AS" else "AH"

    assert any("deal 2: the seed does not hash" in line for line in problems(seed))
    assert any("deal 1: the seed does not hash" in line for line in problems(commitment))
    found = problems(card)
    assert len(found) == 1 and "is not what the seed deals" in found[0], found


async def test_verify_names_an_edited_action(env: Any) -> None:
    table = await play(env, "bigtwo", "edit")
    seq = plain_action(env, table.match.id)
    tamper(env.path, f"UPDATE actions SET at = at + 1 WHERE seq = {seq}")
    assert await check_database(str(env.path)) == [
        f"match {table.match.id} (table {table.id}): action seq {seq}: does not match its hash:"
        " changed, or a row before it was removed, inserted or moved"
    ]  # the chain names it, and the replay (which ignores times) finds nothing else


async def test_verify_names_the_row_after_a_removed_one(env: Any) -> None:
    table = await play(env, "bigtwo", "delete")
    seq = plain_action(env, table.match.id)
    tamper(env.path, f"DELETE FROM actions WHERE seq = {seq}")
    assert (await first_problem(env, table)).startswith(f"action seq {seq + 1}: does not match")


async def test_verify_names_a_removed_last_row(env: Any) -> None:
    table = await play(env, "holdem", "tail")
    last = env.rows("SELECT max(seq) FROM actions")[0][0]
    tamper(
        env.path,
        f"DELETE FROM chip_ledger WHERE seq = {last}",
        f"DELETE FROM deals WHERE seq = {last}",
        f"DELETE FROM actions WHERE seq = {last}",
    )
    assert (
        await first_problem(env, table) == "the chain head: the last rows of the match were removed"
    )


async def test_verify_names_an_inserted_row(env: Any) -> None:
    table = await play(env, "holdem", "insert")
    seq = plain_action(env, table.match.id)
    tamper(
        env.path,
        "INSERT INTO chip_ledger (guild, game, match_id, hand, seat, player_id, is_ai, delta,"
        f" reason, at, seq, hash) VALUES ('g', 'holdem', {table.match.id}, 1, 0, 'ai:random', 1,"
        f" 500, 'hand', 0.0, {seq}, NULL)",
    )
    row = env.rows("SELECT max(id) FROM chip_ledger")[0][0]
    assert await first_problem(env, table) == (
        f"chip_ledger row {row}: has no hash: inserted outside the program"
    )


async def test_verify_names_reordered_actions(env: Any) -> None:
    table = await play(env, "bigtwo", "reorder")
    seq = plain_action(env, table.match.id)
    tamper(
        env.path,
        f"UPDATE actions SET seq = -1 WHERE seq = {seq}",
        f"UPDATE actions SET seq = {seq} WHERE seq = {seq + 1}",
        f"UPDATE actions SET seq = {seq + 1} WHERE seq = -1",
    )
    assert (await first_problem(env, table)).startswith(f"action seq {seq}: does not match")


async def test_verify_names_an_edited_ledger_row_and_the_cli_exits_1(
    env: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    table = await play(env, "duel", "ledger")
    row = env.rows("SELECT max(id) FROM chip_ledger WHERE reason = 'hand'")[0][0]
    assert await asyncio.to_thread(cli_main, ["verify", "--db", str(env.path)]) == 0
    assert capsys.readouterr().out == "verify: every check passed\n"
    tamper(env.path, f"UPDATE chip_ledger SET delta = delta + 1 WHERE id = {row}")
    assert await asyncio.to_thread(cli_main, ["verify", "--db", str(env.path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"match {table.match.id} (table {table.id}): chip_ledger row {row}:")
    assert any("ledger row" in line and "the deals give" in line for line in out[1:]), out


async def test_a_forged_chain_is_still_caught_by_the_replay(env: Any) -> None:
    """Someone who rewrites the action and recomputes every hash passes the chain, not the
    replay: the action is illegal, or the ledgers no longer match the deals."""
    table = await play(env, "bigtwo", "forged")
    match_id = table.match.id
    tamper(env.path)
    with sqlite3.connect(env.path) as db:
        seq, text = db.execute(
            "SELECT seq, action FROM actions WHERE match_id = ? AND action LIKE 'play %'"
            " ORDER BY seq LIMIT 1",
            (match_id,),
        ).fetchone()
        db.execute("UPDATE actions SET action = 'pass' WHERE seq = ?", (seq,))
        rehash(db, match_id)
    problems = await check_database(str(env.path))
    assert problems and all("chain" not in p for p in problems)
    assert f"action seq {seq} ('pass') is illegal" in problems[0], (text, problems)


def rehash(db: sqlite3.Connection, match_id: int) -> None:
    """Recompute a match's whole chain, as a careful forger would."""
    from storage import chain

    found: list[tuple[chain.Kind, Any]] = []
    for kind, sql in chain.ROW_QUERIES.items():
        found += [(kind, tuple(r)) for r in db.execute(sql, (match_id,))]
    hashes, head = chain.rechain(match_id, found)
    for (kind, key), digest in hashes.items():
        column = {"action": "seq", "deal": "deal"}.get(kind, "id")
        db.execute(
            f"UPDATE {chain.TABLES[kind]} SET hash = ? WHERE match_id = ? AND {column} = ?",
            (digest, match_id, key),
        )
    db.execute("UPDATE matches SET head_hash = ? WHERE id = ?", (head, match_id))


async def test_start_up_refuses_only_the_damaged_table(
    env: Any, caplog: pytest.LogCaptureFixture
) -> None:
    intact = await env.manager.create(guild="g", place="intact", game="holdem")
    damaged = await env.manager.create(guild="g", place="damaged", game="holdem")
    for table in (intact, damaged):
        await table.join(_player(table.place))
        await table.start(seed=3)
        await table.idle()  # the AI plays up to the human's turn
    assert intact.match is not None and damaged.match is not None
    tamper(
        env.path,
        f"UPDATE chip_ledger SET delta = delta + 1 WHERE match_id = {damaged.match.id} AND id = "
        f"(SELECT min(id) FROM chip_ledger WHERE match_id = {damaged.match.id})",
    )
    with caplog.at_level(logging.WARNING):
        manager = await env.reopen()
    assert manager.find("intact") is not None and manager.find("damaged") is None
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any(f"match {damaged.match.id} (table {damaged.id})" in m for m in warned), warned
    refused = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert any(f"table {damaged.id} in damaged is not resumed" in m for m in refused), refused


def _player(place: str) -> Any:
    from bot.runtime import Player

    return Player(f"human-{place}", "Ann")


@pytest.mark.parametrize("game", ["holdem", "duel"])
async def test_verify_reads_the_hand_histories_of_deucebot_history(
    env: Any, tmp_path: Path, game: str
) -> None:
    """An omniscient history (an ended match: it carries the match seed) is replayed
    end to end; a seat's history has its revealed seeds checked. A changed card or seed
    fails."""
    from bot.history.build import export_matches

    table = await env.manager.create(
        guild="g", place=f"h-{game}", game=game, settings=SETTINGS[game],
        options={"ai_policy": "random"}, owner=_player("u1"),
    )  # fmt: skip
    await table.start(seed=2)
    await table.leave(_player("u1").id)  # the AI plays the seat out
    await table.idle()
    assert table.finished and table.match is not None
    path = tmp_path / "history.json"
    history = await export_matches(env.storage, match_id=table.match.id)
    path.write_text(history.model_dump_json())
    assert verify_export(str(path)) == []
    data = json.loads(path.read_text())
    deal = data["matches"][0]["deals"][0]
    private = next(e for e in deal["events"] if e["event"].get("to") is not None)
    cards = private["event"].get("cards") or private["event"]["new"]
    cards[0] = "AS" if cards[0] != "AS" else "AH"
    path.write_text(json.dumps(data))
    problems = verify_export(str(path))
    assert len(problems) == 1 and "is not what the seed deals" in problems[0], problems

    seat = await export_matches(env.storage, match_id=table.match.id, player_id="human-u1")
    path.write_text(seat.model_dump_json())
    assert verify_export(str(path)) == []
    data = json.loads(path.read_text())
    first = data["matches"][0]["deals"][0]
    assert first["seed"] is not None  # the match is over: its seeds are in every history
    first["seed"] = "00" * 32
    path.write_text(json.dumps(data))
    problems = verify_export(str(path))
    assert problems and "deal 1: the seed does not hash to the commitment" in problems[0], problems
