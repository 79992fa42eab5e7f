"""`AiPool`: AI decisions in worker processes, identical to in-process ones, robust to a
worker dying, and leaving no process behind."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.runtime import NullFront, RuntimeConfig, TableManager
from bot.runtime.ai_pool import AiPool, AiWorkerLost
from engines.registry import get_game
from storage import SqliteStorage
from tests.processes import watchdog

# Policies whose choices depend on their seed only (the strong AIs also stop on a time
# budget, so their choices depend on the machine's speed).
DETERMINISTIC = [
    ("bigtwo", "random"),
    ("bigtwo", "greedy"),
    ("bigtwo", "heuristic"),
    ("holdem", "random"),
    ("draw", "random"),
    ("duel", "random"),
]


@pytest.fixture(scope="module")
def pool() -> Iterator[AiPool]:
    shared = AiPool(2)
    yield shared
    shared.close()


def _gone(pid: int) -> bool:
    """The process has exited (a zombie counts: where nobody reaps orphans, an exited
    process stays in the table until its adopter waits for it)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    status = Path(f"/proc/{pid}/status")
    with contextlib.suppress(OSError):
        return "\nState:\tZ" in status.read_text()
    return False


async def test_decisions_are_legal_and_identical_to_in_process(pool: AiPool) -> None:
    for table_id, (game, name) in enumerate(DETERMINISTIC, start=100):
        spec = get_game(game)
        state = spec.new_state(spec.make_config(), random.Random(table_id))
        seeds = {seat: table_id * 10 + seat for seat in range(8)}
        local = {seat: spec.make_policy(name, random.Random(s)) for seat, s in seeds.items()}
        for _ in range(120):
            seat = state.to_act
            if state.finished or seat is None:
                break
            view = state.view(seat)
            remote = await pool.decide(table_id, seat, game, name, seeds[seat], view)
            assert remote == local[seat].decide(state.view(seat)), (game, name)
            state.apply(seat, remote)  # legal, or the engine raises
        pool.forget(table_id)


async def test_a_policy_keeps_its_state_and_a_new_seed_starts_afresh(pool: AiPool) -> None:
    spec = get_game("bigtwo")
    state = spec.new_state(spec.make_config(), random.Random(4))  # a hand with choices
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    local = spec.make_policy("random", random.Random(42))
    # The same view over and over: only the policy's own RNG (its memory) changes the choice.
    expected = [local.decide(view) for _ in range(12)]
    got = [await pool.decide(7, seat, "bigtwo", "random", 42, view) for _ in range(12)]
    assert got == expected
    assert len(set(map(str, got))) > 1
    assert (7, seat, "random") in await pool.stored(pool.slot_of(7, seat))
    # A new match (new seed) builds a fresh policy.
    fresh = spec.make_policy("random", random.Random(43))
    assert await pool.decide(7, seat, "bigtwo", "random", 43, view) == fresh.decide(view)
    pool.forget(7)
    for slot in range(pool.workers):
        assert all(key[0] != 7 for key in await pool.stored(slot))


def test_a_seat_always_goes_to_the_same_worker(pool: AiPool) -> None:
    slots = {pool.slot_of(table, seat) for table in range(50) for seat in range(4)}
    assert slots == {0, 1}
    assert all(pool.slot_of(9, s) == pool.slot_of(9, s) for s in range(4))


async def test_a_killed_worker_is_replaced(caplog: pytest.LogCaptureFixture) -> None:
    spec = get_game("bigtwo")
    state = spec.new_state(spec.make_config(), random.Random(5))
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    pool = AiPool(1, preload=["bigtwo"])
    try:
        [pid] = await pool.pids()
        os.kill(pid, signal.SIGKILL)
        with caplog.at_level(logging.ERROR), pytest.raises(AiWorkerLost):
            await pool.decide(1, seat, "bigtwo", "greedy", 1, view)
        assert pool.restarts == 1
        assert "AI worker 0 died" in caplog.text
        action = await pool.decide(1, seat, "bigtwo", "greedy", 1, view)
        state.apply(seat, action)
        [new_pid] = await pool.pids()
        assert new_pid != pid
    finally:
        await pool.aclose()


async def test_decisions_take_no_thread_of_the_bot_process() -> None:
    """Requests and answers go through the event loop itself: no feeder or manager thread
    takes the GIL from it."""
    threads = set(threading.enumerate())
    spec = get_game("duel")
    state = spec.new_state(spec.make_config(), random.Random(3))
    pool = AiPool(1, preload=["duel"])
    try:
        for _ in range(5):
            seat = state.to_act
            if state.finished or seat is None:
                break
            state.apply(seat, await pool.decide(1, seat, "duel", "random", 5, state.view(seat)))
        assert set(threading.enumerate()) == threads
    finally:
        await pool.aclose()


async def test_shutdown_leaves_no_process() -> None:
    pool = AiPool(2, preload=["duel"])
    pids = await pool.pids()
    await pool.aclose()
    assert pool.closed
    assert all(_gone(pid) for pid in pids)
    await pool.aclose()  # twice is fine


async def _play_all_ai(path: Path, processes: int, kill: bool = False) -> tuple[list[str], Any]:
    """A one-deal Big Two match of four random AIs; its action log and its first view.
    `kill`: the worker dies while the first decision waits on it (it is stopped first, so
    the decision is sure to be waiting, then killed)."""
    storage = SqliteStorage(str(path))
    await storage.open()
    manager = TableManager(
        storage,
        NullFront(),
        config=RuntimeConfig(ai_delay=0.0, timers=False, ai_processes=processes),
    )
    pool = manager.ai_pool
    pids: list[int] = []
    try:
        pid = 0
        if pool is not None and kill:
            [pid] = await pool.pids()
            os.kill(pid, signal.SIGSTOP)
        table = await manager.create(
            guild="g",
            place="p",
            game="bigtwo",
            settings={"deals": 1},
            options={"ai_policy": "random"},
        )
        match = await table.start(seed=11)
        assert table.state is not None and table.state.to_act is not None
        first_view = table.state.view(table.state.to_act)
        if pool is not None and kill:
            async with asyncio.timeout(30):
                while pool.waiting == 0:
                    await asyncio.sleep(0.01)
            os.kill(pid, signal.SIGKILL)
        async with asyncio.timeout(30):
            await manager.idle()
        assert table.status == "finished"
        actions = [a.action for a in await storage.actions(match.id)]
        if pool is not None:
            pids = await pool.pids()
            assert await pool.stored() == []  # the finished table's policies are forgotten
    finally:
        await manager.close()
        await storage.close()
    if pool is not None:
        assert pool.closed
        assert all(_gone(pid) for pid in pids)
    return actions, first_view


async def test_the_runtime_plays_the_same_match_in_a_process_as_inline(tmp_path: Path) -> None:
    inline, _ = await _play_all_ai(tmp_path / "inline.sqlite3", 0)
    pooled, _ = await _play_all_ai(tmp_path / "pooled.sqlite3", 1)
    assert pooled == inline
    assert len(inline) > 10


async def test_a_dead_worker_turn_plays_the_safe_default(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    started = time.perf_counter()
    with caplog.at_level(logging.ERROR):
        actions, first_view = await _play_all_ai(tmp_path / "dead.sqlite3", 1, kill=True)
    spec = get_game("bigtwo")
    assert actions[0] == str(spec.timeout_action(first_view))
    assert "AI worker 0 died" in caplog.text
    assert time.perf_counter() - started < 30


_OWNER = """
import asyncio, sys, time
from bot.runtime.ai_pool import AiPool

async def main(started: bool) -> None:
    pool = AiPool(1, preload=None)
    if started:
        [pid] = await pool.pids()
    else:  # the process exists but is still importing: it has not run its start-up yet
        pid = pool._slots[0].pid
    print(pid, flush=True)
    time.sleep(60)

if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] == "started"))
"""


@pytest.mark.parametrize("when", ["started", "starting"])
def test_a_worker_exits_when_its_parent_is_killed(tmp_path: Path, when: str) -> None:
    script = tmp_path / "owner.py"
    script.write_text(_OWNER)
    root = Path(__file__).resolve().parents[3]
    owner = subprocess.Popen(
        [sys.executable, str(script), when],
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    pid = 0
    try:
        assert owner.stdout is not None
        with watchdog(owner, 60):
            pid = int(owner.stdout.readline())
        owner.kill()
        owner.wait()
        deadline = time.monotonic() + 15
        while not _gone(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _gone(pid), f"the AI worker {pid} outlived its parent"
    finally:
        if owner.poll() is None:
            owner.kill()
            owner.wait()
        if pid and not _gone(pid):  # do not leave it behind if the test failed
            os.kill(pid, signal.SIGKILL)


async def test_a_decision_cut_by_shutdown_plays_nothing_for_the_seat(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The pool shut down while an AI seat's decision waits on it: no move is made for the
    seat (not even the safe default), nothing is logged as a failure; the seat decides
    for itself after the restart."""
    storage = SqliteStorage(str(tmp_path / "db.sqlite3"))
    await storage.open()
    manager = TableManager(
        storage, NullFront(), config=RuntimeConfig(ai_delay=0.0, timers=False, ai_processes=1)
    )
    pool = manager.ai_pool
    assert pool is not None
    try:
        [pid] = await pool.pids()
        os.kill(pid, signal.SIGSTOP)  # the first decision is sure to wait on it
        table = await manager.create(
            guild="g", place="p", game="bigtwo", settings={"deals": 1}, options={}
        )
        match = await table.start(seed=11)
        async with asyncio.timeout(30):
            while pool.waiting == 0:
                await asyncio.sleep(0.01)
        with caplog.at_level(logging.ERROR):
            await pool.aclose()
            async with asyncio.timeout(30):
                await manager.idle()
        assert await storage.actions(match.id) == []
        assert table.turn == 0
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    finally:
        await manager.close()
        await storage.close()
