"""CPU seconds a bot process spent, read from outside it (Linux `/proc`): a figure the
machine's load changes far less than wall-clock latencies (not at all by waiting for a
core; somewhat by a busy sibling core slowing each instruction, so compare two versions
back to back, in alternating order).

The bench process reads the bot's main thread (the asyncio loop: its thread id is the
process id), the whole process (every thread: the loop, SQLite's commit thread, picture
threads) and its worker processes (AI, pictures: the bot's direct children) at the start
of the play and again before stopping the bot; the difference, divided by the actions
committed and the interactions answered, is what one action or interaction costs. Read
from outside, it needs nothing of the bot's code, so the same bench measures any version
of the bot (`DEUCEBOT_BENCH_BOT_ROOT`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass(frozen=True)
class Cpu:
    """CPU seconds (user + system) of a bot process so far."""

    main: float
    """The main thread: the event loop."""
    process: float
    """Every thread of the process."""
    workers: float
    """Its child processes (AI and picture workers), alive when read."""

    def __sub__(self, other: Cpu) -> Cpu:
        return Cpu(
            self.main - other.main, self.process - other.process, self.workers - other.workers
        )

    def __add__(self, other: Cpu) -> Cpu:
        return Cpu(
            self.main + other.main, self.process + other.process, self.workers + other.workers
        )


def _seconds(stat: Path) -> tuple[float, int]:
    """(CPU seconds, parent pid) from a `/proc/.../stat` file; (0, 0) if it is gone."""
    try:
        text = stat.read_text()
    except OSError:
        return 0.0, 0
    fields = text.rsplit(")", 1)[1].split()  # after "pid (comm)": state is field 3
    return (int(fields[11]) + int(fields[12])) / _TICK, int(fields[1])


def cpu_of(pid: int) -> Cpu:
    """The CPU seconds of process `pid`: its main thread, all its threads, its children."""
    proc = Path("/proc")
    main, _ = _seconds(proc / str(pid) / "task" / str(pid) / "stat")
    process, _ = _seconds(proc / str(pid) / "stat")
    workers = 0.0
    for entry in proc.iterdir():
        if entry.name.isdigit():
            seconds, parent = _seconds(entry / "stat")
            if parent == pid:
                workers += seconds
    return Cpu(main, process, workers)


def per_unit(spent: Cpu, actions: int, interactions: int) -> dict[str, float]:
    """Milliseconds of CPU per action and per interaction, and the main thread's seconds."""
    return {
        "cpu_main_action": 1000 * spent.main / max(actions, 1),
        "cpu_process_action": 1000 * spent.process / max(actions, 1),
        "cpu_workers_action": 1000 * spent.workers / max(actions, 1),
        "cpu_main_interaction": 1000 * spent.main / max(interactions, 1),
        "cpu_main_s": spent.main,
    }
