"""A paced AI seat plays on only once the front has shown the last move (`Front.caught_up`),
so that a display that falls behind slows the AI down instead of hiding its moves."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.runtime import RecordingFront, RuntimeConfig, Table, TableManager
from bot.runtime.table import CAUGHT_UP_WITHIN
from storage import SqliteStorage


class BehindFront(RecordingFront):
    """A front whose display is behind until `release` is set; records every wait."""

    def __init__(self) -> None:
        super().__init__()
        self.release = asyncio.Event()
        self.waits: list[tuple[int, int, float]] = []

    async def caught_up(self, table_id: int, turn: int, within: float) -> None:
        self.waits.append((table_id, turn, within))
        await self.release.wait()


async def _manager(tmp_path: Path, front: RecordingFront, delay: float) -> TableManager:
    storage = SqliteStorage(str(tmp_path / "pacing.sqlite3"))
    await storage.open()
    config = RuntimeConfig(ai_delay=delay, ai_in_thread=False, timers=False)
    return TableManager(storage, front, config=config)


async def _all_ai_table(manager: TableManager) -> Table:
    table = await manager.create(
        guild="g", place="p", game="bigtwo", settings={"deals": 1}, options={"ai_policy": "greedy"}
    )
    await table.start(seed=3)
    return table


async def test_a_paced_ai_waits_for_the_front_to_show_the_last_move(tmp_path: Path) -> None:
    front = BehindFront()
    manager = await _manager(tmp_path, front, delay=0.01)
    try:
        table = await _all_ai_table(manager)
        await asyncio.sleep(0.3)  # many AI delays: still no move while the front is behind
        assert table.turn == 0
        assert front.waits == [(table.id, 0, CAUGHT_UP_WITHIN)]
        front.release.set()
        await asyncio.wait_for(table.idle(), 30)
        assert table.status == "finished"
        # One wait before every AI move, each for the turn the move follows.
        turns = [turn for _, turn, _ in front.waits]
        assert turns == list(range(len(turns))) and len(turns) == table.turn
    finally:
        await manager.close()


async def test_an_unpaced_ai_does_not_wait_for_the_front(tmp_path: Path) -> None:
    front = BehindFront()  # never released
    manager = await _manager(tmp_path, front, delay=0.0)
    try:
        table = await _all_ai_table(manager)
        await asyncio.wait_for(table.idle(), 30)
        assert table.status == "finished" and front.waits == []
    finally:
        await manager.close()
