"""The front-agnostic table runtime: tables, seats, turns, AI turns, timers, event fan-out.

    manager = TableManager(storage, front, config=RuntimeConfig(ai_delay=1.0))
    await manager.restore()                       # start-up: rebuild unfinished tables
    table = await manager.create(guild="123", place="chan-9", game="bigtwo",
                                 settings={"deals": 4}, owner=Player("42", "Ana"))
    await table.join(Player("43", "Bo"))
    await table.start()                           # empty seats become AI seats
    await table.act("42", "3d 3s", turn=table.turn)   # stale/double clicks are refused

Refusals raise `TableError` (a `bot.errors.Refusal` with a stable `code`; translate it,
and the engine's `IllegalAction`, with `bot.i18n.explain`). Events reach the front
(`Front`: `public`, `private`, `refresh`) only after they are committed to storage, each
with a frozen `TableSnapshot` of the table (never the live `Table`). See
docs/architecture.md for the layout and the seams.
"""

from bot.runtime.clock import Clock, FakeClock, SystemClock
from bot.runtime.errors import TableError
from bot.runtime.front import (
    Front,
    MatchStarted,
    NullFront,
    PlayerJoined,
    PlayerLeft,
    RecordingFront,
    SeatAway,
    SeatBack,
    SeedsRevealed,
    TableStopped,
    TurnTimedOut,
)
from bot.runtime.manager import TableManager, tune_gc
from bot.runtime.options import RuntimeConfig, TableOptions
from bot.runtime.replay import replay
from bot.runtime.seats import Player, Seat
from bot.runtime.snapshot import TableSnapshot
from bot.runtime.table import Table

__all__ = [
    "Clock",
    "FakeClock",
    "Front",
    "MatchStarted",
    "NullFront",
    "Player",
    "PlayerJoined",
    "PlayerLeft",
    "RecordingFront",
    "RuntimeConfig",
    "Seat",
    "SeatAway",
    "SeatBack",
    "SeedsRevealed",
    "SystemClock",
    "Table",
    "TableError",
    "TableManager",
    "TableOptions",
    "TableSnapshot",
    "TableStopped",
    "TurnTimedOut",
    "replay",
    "tune_gc",
]
