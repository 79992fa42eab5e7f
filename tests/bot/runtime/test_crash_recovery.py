"""A table killed with SIGKILL at random moments, again and again, on the same database:
no acknowledged action is lost or applied twice, every restart resumes the exact state
the log replays to, the match finishes and the ledgers balance."""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from bot.runtime import replay
from bot.runtime.replay import match_state
from engines.bigtwo import penalty
from engines.registry import get_game
from storage.base import MatchRecord
from tests.processes import watchdog

CHILD = Path(__file__).with_name("crash_child.py")
ROOT = Path(__file__).resolve().parents[3]
KILLS = 22
DEALS = 12


def spawn(db: Path) -> subprocess.Popen[str]:
    """The child, with its errors in a file beside the database (a pipe nobody reads could
    fill up and block it)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with db.with_suffix(".err").open("a") as errors:
        return subprocess.Popen(
            [sys.executable, str(CHILD), str(db), str(DEALS), "4242"],
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
            env=env,
            cwd=ROOT,
        )


def digest(snapshot: dict[str, object]) -> str:
    return hashlib.sha1(json.dumps(snapshot, sort_keys=True).encode()).hexdigest()[:16]


def test_sigkill_at_random_moments_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "crash.sqlite3"
    rng = random.Random(20261129)
    acked: dict[int, str] = {}
    starts: list[tuple[int, str]] = []
    kills = 0
    finished = False
    while not finished:
        child = spawn(db)
        assert child.stdout is not None
        budget = rng.randint(0, 12) if kills < KILLS else None
        seen = 0
        with watchdog(child, 120):
            for line in child.stdout:
                kind, turn, *rest = line.split()
                if kind == "start":
                    starts.append((int(turn), rest[0]))
                    assert int(turn) >= max(acked, default=0), "an acknowledged action was lost"
                elif kind == "ack":
                    assert int(turn) not in acked or acked[int(turn)] == rest[0]
                    acked[int(turn)] = rest[0]
                    seen += 1
                elif kind == "done":
                    finished = True
                if budget is not None and seen >= budget and kind in ("start", "ack"):
                    time.sleep(rng.random() * 0.004)  # a random moment, not just right after an ack
                    child.send_signal(signal.SIGKILL)
                    kills += 1
                    break
        child.wait(timeout=30)
        if not finished and budget is None:
            errors = db.with_suffix(".err").read_text()
            raise AssertionError(f"child exited without finishing: {errors}")
        if child.stdout:
            child.stdout.close()
    assert kills >= KILLS

    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        (match_row,) = conn.execute(
            "SELECT m.*, s.seed FROM matches m JOIN match_secrets s ON s.match_id = m.id"
        ).fetchall()
        actions = conn.execute("SELECT seq, action FROM actions ORDER BY seq").fetchall()
        penalties = conn.execute(
            "SELECT deal, seat, penalty FROM penalty_ledger ORDER BY deal, seat"
        ).fetchall()
        status = conn.execute("SELECT status FROM tables").fetchone()[0]
    assert status == "finished" and match_row["finished_at"] is not None
    seqs = [r["seq"] for r in actions]
    assert seqs == list(range(len(seqs))), "the log has a gap or a duplicate"

    spec = get_game("bigtwo")
    match = MatchRecord(
        match_row["id"],
        match_row["table_id"],
        match_row["number"],
        int(match_row["seed"]),
        json.loads(match_row["config"]),
        match_row["first_seq"],
        match_row["started_at"],
    )
    texts = [r["action"] for r in actions]
    # Every acknowledged state and every restored state is the replay of the log's prefix.
    checkpoints = dict(acked)
    for turn, h in starts:
        if turn > 0:
            assert checkpoints.setdefault(turn, h) == h
    state = match_state(spec, match)
    cards_left_at_settle: list[tuple[int, ...]] = []
    for turn, text in enumerate(texts, start=1):
        seat = state.to_act
        assert seat is not None
        for event in state.apply(seat, spec.parse_action(text)):
            if event.kind == "bigtwo.deal_won":
                cards_left_at_settle.append(event.cards_left)  # type: ignore[attr-defined]
        if turn in checkpoints:
            assert digest(state.snapshot()) == checkpoints[turn], f"state differs at turn {turn}"
    assert state.finished
    final, _ = replay(spec, match, texts)
    assert final.snapshot() == state.snapshot()

    # Ledgers balance: one zero per deal, penalties equal the cards left.
    assert len(cards_left_at_settle) == DEALS
    for deal in range(1, DEALS + 1):
        row = [p["penalty"] for p in penalties if p["deal"] == deal]
        assert len(row) == 4 and row.count(0) == 1
        assert row == [penalty(n) for n in cards_left_at_settle[deal - 1]]
    totals = json.loads(match_row["totals"])
    assert totals == [sum(p["penalty"] for p in penalties if p["seat"] == s) for s in range(4)]
