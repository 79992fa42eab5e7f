"""`deucebot history` and `deucebot replay`: exports from a database, refusals with their
message and exit code 2, and stepping through a deal by feeding keys on stdin."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path

import aiosqlite
import pytest
from pokerkit import HandHistory

from bot.cli import main
from bot.history.model import HistoryFile
from bot.runtime import Player
from storage import SqliteStorage
from storage.migrate import migrate
from tests.bot.history.helpers import played, runtime

ROOT = Path(__file__).resolve().parents[3]
CARD = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]")


@pytest.fixture
async def db(tmp_path: Path, store: SqliteStorage) -> Path:
    """A database with a finished hold'em match and a finished Big Two match, both with
    member u1 in seat 0, and a hold'em match still waiting for u2."""
    await played(store, "holdem", "one", 3)
    await played(store, "bigtwo", "two", 4)
    manager = runtime(store)
    table = await manager.create(
        guild="g1",
        place="three",
        game="holdem",
        owner=Player("u2", "Bo"),
        options={"ai_policy": "random"},
    )
    await table.start(seed=9)
    await table.idle()
    assert table.status == "playing" and table.to_act == 0
    await manager.close()
    return tmp_path / "h.sqlite3"


def test_a_players_export_and_the_omniscient_one(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "u1.json"
    assert main(["history", "--db", str(db), "--player", "u1", "--out", str(out)]) == 0
    mine = HistoryFile.model_validate_json(out.read_text(encoding="utf-8"))
    assert [(m.game, m.viewer.seat, m.viewer.omniscient) for m in mine.matches] == [
        ("holdem", 0, False),
        ("bigtwo", 0, False),
    ]
    assert main(["history", "--db", str(db)]) == 0
    everything = HistoryFile.model_validate_json(capsys.readouterr().out)
    # Finished matches only: the third match is still being played.
    assert [(m.match_id, m.viewer.omniscient) for m in everything.matches] == [(1, True), (2, True)]
    assert all(d.deck is not None for m in everything.matches for d in m.deals)


def test_phh_export_holds_every_ended_holdem_deal(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["history", "--db", str(db), "--match", "1", "--format", "phh"]) == 0
    hands = list(HandHistory.loads_all(capsys.readouterr().out))
    assert hands and [h.hand for h in hands] == list(range(1, len(hands) + 1))
    assert main(["history", "--db", str(db), "--match", "2", "--format", "phh"]) == 2
    assert "no finished hold'em deal" in capsys.readouterr().err


def test_refusals_say_why(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history", "--db", str(db), "--match", "3"]) == 2
    assert "still being played" in capsys.readouterr().err
    assert main(["history", "--db", str(db), "--match", "3", "--player", "u2"]) == 0
    live = HistoryFile.model_validate_json(capsys.readouterr().out).matches[0]
    assert live.viewer.seat == 0 and not live.deals[-1].ended
    assert main(["history", "--db", str(db), "--match", "1", "--player", "u2"]) == 2
    assert "u2 did not play match 1" in capsys.readouterr().err
    assert main(["history", "--db", str(db), "--match", "77"]) == 2
    assert "There is no match 77" in capsys.readouterr().err
    assert main(["history", "--db", str(db.with_name("none.sqlite3"))]) == 2


def replay(*args: str, keys: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DEUCEBOT_LANGUAGE": "en"}
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "replay", *args],
        input=keys,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
        check=False,
    )


def test_replay_steps_through_a_deal_as_its_owner_saw_it(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "u1.json"
    assert (
        main(["history", "--db", str(db), "--player", "u1", "--match", "2", "--out", str(out)]) == 0
    )
    deal = HistoryFile.model_validate_json(out.read_text(encoding="utf-8")).matches[0].deals[0]
    done = replay(str(out), keys="n\n\nb\nhello\nq\n")
    assert done.returncode == 0, done.stderr
    steps = re.findall(r"step (\d+)/(\d+)", done.stdout)
    assert [int(s) for s, _ in steps] == [0, 1, 2, 1]
    assert {int(total) for _, total in steps} == {len(deal.actions)}
    assert "“hello” is not a replay key" in done.stdout
    # Seat 0's thirteen cards are dealt in step 0, and nobody else's hand is ever shown.
    dealt = next(e.event for e in deal.events if e.event.get("to") == 0)
    first = done.stdout.split("step 1/")[0]
    assert len(set(CARD.findall(first))) == len(dealt["cards"]) == 13
    # Going back shows step 1 again, exactly as before.
    screens = re.findall(r"(Big Two — match 2, deal 1 — step .*?)\[Enter/n\]", done.stdout, re.S)
    assert len(screens) == 4 and screens[1] == screens[3] != screens[2]


def test_replay_of_an_omniscient_file_shows_the_board(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "all.json"
    assert main(["history", "--db", str(db), "--match", "1", "--out", str(out)]) == 0
    done = replay(str(out), "--seat", "2", keys="n\nq\n")
    assert done.returncode == 0, done.stderr
    assert "Board:" in done.stdout and "Your cards" in done.stdout
    refused = replay(str(out), "--seat", "9", keys="")
    assert refused.returncode == 2 and "There is no seat 9" in refused.stderr
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    broken = replay(str(bad), keys="")
    assert broken.returncode == 2 and "is not a Deucebot history file" in broken.stderr


def test_a_database_not_yet_upgraded_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "old.sqlite3"

    async def at_version_4() -> None:
        async with aiosqlite.connect(old, isolation_level=None) as conn:
            await migrate(conn, target=4)

    asyncio.run(at_version_4())
    assert main(["history", "--db", str(old)]) == 2
    assert capsys.readouterr().err == (
        f"deucebot: {old} has an old schema (version 4): run `deucebot play` or the bot on "
        "it once to upgrade it\n"
    )


@pytest.fixture
async def unfinished(tmp_path: Path, store: SqliteStorage) -> Path:
    """A database whose only match is still being played."""
    manager = runtime(store)
    table = await manager.create(
        guild="g1", place="p", game="holdem", owner=Player("u2", "Bo"), options={}
    )
    await table.start(seed=9)
    await table.idle()
    await manager.close()
    return tmp_path / "h.sqlite3"


def test_an_export_with_no_finished_match_says_why(
    unfinished: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["history", "--db", str(unfinished)]) == 0
    out, err = capsys.readouterr()
    assert HistoryFile.model_validate_json(out).matches == []  # still a valid export
    assert f"No finished match in {unfinished} yet" in err, err
    assert main(["history", "--db", str(unfinished), "--player", "nobody"]) == 0
    assert "nobody has played no match" in capsys.readouterr().err
