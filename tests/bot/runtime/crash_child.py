"""Child process of the crash test: run (or resume) one all-AI Big Two table on a database.

Prints `start TURN HASH` after restoring, `ack TURN HASH` each time the front is handed an
accepted action (so after its commit), and `done TURN` when the match is over.
Usage: python crash_child.py DB_PATH DEALS SEED
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
from collections.abc import Sequence
from typing import Any

from bot.runtime import NullFront, RuntimeConfig, Table, TableManager, TableSnapshot
from engines.base import Event
from storage import SqliteStorage


def state_hash(table: Table) -> str:
    assert table.state is not None
    text = json.dumps(table.state.snapshot(), sort_keys=True)
    return hashlib.sha1(text.encode()).hexdigest()[:16]


class AckFront(NullFront):
    """Acknowledges each handed-over action with the live table's state (a front only gets a
    snapshot, so this test front reads the table it was given by the manager)."""

    def __init__(self) -> None:
        self.manager: TableManager | None = None

    async def public(self, table: TableSnapshot, events: Sequence[Event]) -> None:
        live = self.manager.by_id(table.id) if self.manager is not None else None
        if live is not None and live.state is not None and table.turn > 0:
            print(f"ack {table.turn} {state_hash(live)}", flush=True)


async def main(path: str, deals: int, seed: int) -> None:
    storage = SqliteStorage(path)
    await storage.open()
    config = RuntimeConfig(ai_delay=0.0, ai_in_thread=False)
    front = AckFront()
    manager = TableManager(storage, front, config=config)
    front.manager = manager
    await manager.restore()
    table = manager.find("crash")
    if table is None:
        options: dict[str, Any] = {"ai_policy": "greedy"}
        table = await manager.create(
            guild="g", place="crash", game="bigtwo", settings={"deals": deals}, options=options
        )
        await table.start(seed=seed)
    print(f"start {table.turn} {state_hash(table)}", flush=True)
    await table.idle()
    print(f"done {table.turn}", flush=True)
    await storage.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
