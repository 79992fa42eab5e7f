"""Settings of the runtime: per table (`TableOptions`, stored with it) and per process
(`RuntimeConfig`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class TableOptions(BaseModel):
    """Runtime options of one table (stored with it). The game's own settings are separate."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seats: int | None = Field(default=None, ge=1, description="players; None: the game's default")
    turn_seconds: int = Field(default=60, ge=0, description="turn timer for humans; 0: off")
    ai_policy: str | None = Field(
        default=None, description="AI policy for empty seats; None: the one of `ai_level`"
    )
    ai_level: Literal["easy", "normal", "hard"] = Field(
        default="normal",
        description="AI level for empty seats (`GameSpec.level_policy`); tables stored before "
        "the levels read as normal",
    )
    lang: str = "en"
    creator: str | None = Field(
        default=None, description="player id of who created the table (may stop/restart it)"
    )


@dataclass(frozen=True)
class RuntimeConfig:
    """Process-wide runtime settings (not stored with tables)."""

    ai_delay: float = 0.0
    """Seconds an AI waits before acting (readability); 0 in tests and benchmarks."""
    ai_in_thread: bool = True
    """Run AI decisions in a worker thread so a slow policy never blocks the event loop."""
    timers: bool = True
    """Schedule turn timers; tests may drive `Table.expire` by hand instead."""
    ai_concurrency: int = 32
    """AI turns in progress at once across all tables of the manager. Bounding them keeps
    the event loop's ready queue short, so human actions stay fast when many AI tables
    play at full speed."""
    latency_sink: Callable[[float], None] | None = None
    """Called with seconds from engine accept to front hand-off, for every action (bench)."""
    max_tables_per_guild: int = 0
    """Live (not stopped) tables one guild may have at once (`TableManager.create` refuses
    more with `too_many_tables`); 0: no cap."""
    guild_table_cap: Callable[[str], int | None] | None = None
    """A guild's own cap (its server settings), used instead of `max_tables_per_guild` when
    it gives one (the front keeps it within the process's)."""
    ai_processes: int = 0
    """AI worker processes (`bot.runtime.ai_pool.AiPool`, owned by `AiSeats`); 0: decide
    in this process (a thread or inline, per `ai_in_thread`). Processes keep pure-Python AI
    CPU from holding the GIL the event loop needs to answer humans."""
