"""Shared by the benchmarks: the machine line, timing helpers and docs/benchmarks.md."""

from __future__ import annotations

import datetime as dt
import os
import platform
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar

from engines.base import Event, GameState, Policy
from engines.play import play_out

A = TypeVar("A")
V = TypeVar("V")
R = TypeVar("R")

DOC = Path(__file__).resolve().parents[2] / "docs" / "benchmarks.md"


def machine() -> str:
    """One line naming the machine: CPU model, cores, Python, OS."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    system = f"{platform.system()} {platform.release()}"
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {system}"


def today() -> str:
    """The date in ISO form (UTC)."""
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def rate(work: Callable[[], int], seconds: float) -> tuple[float, int, float]:
    """Call `work` (which returns how many items it did) until `seconds` pass;
    (items/s, items, elapsed)."""
    done = 0
    start = time.perf_counter()
    while True:
        done += work()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed, done, elapsed


def run_each(
    runs: Sequence[R],
    run: Callable[[R], dict[str, Any]],
    describe: Callable[[R], str] = str,
) -> tuple[list[dict[str, Any]], list[str]]:
    """`run(r)` for every configuration of `runs`: the results, and a line for each that
    failed (`describe(r)` and the end of its error, where a traceback says what broke);
    one that breaks does not stop the others."""
    results: list[dict[str, Any]] = []
    failed: list[str] = []
    for one in runs:
        try:
            results.append(run(one))
        except RuntimeError as error:
            failed.append(f"{describe(one)}: ...{str(error)[-900:]}")
    return results, failed


def publish(title: str, body: str, write: bool) -> None:
    """Print a section and, with `write`, replace (or append) it in docs/benchmarks.md."""
    section = f"## {title}\n\n_{today()} on {machine()}_\n\n{body.strip()}\n"
    print(section)
    if not write:
        return
    text = (
        DOC.read_text(encoding="utf-8")
        if DOC.exists()
        else "# Benchmarks\n\nWritten by `deucebot bench TARGET --write`.\n"
    )
    marker = f"## {title}\n"
    if marker in text:
        head, _, rest = text.partition(marker)
        nxt = rest.find("\n## ")
        text = head + section + ("\n" + rest[nxt + 1 :] if nxt >= 0 else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    DOC.parent.mkdir(exist_ok=True)
    DOC.write_text(text, encoding="utf-8")


class EngineClock(Generic[A, V]):
    """A game state that adds the time spent in its `view` and in `check` + `apply` to
    `seconds`: the engine's own share of a play-out, without the policies' decisions."""

    def __init__(self, state: GameState[A, V]) -> None:
        """Time the engine calls made on `state`."""
        self.state = state
        self.seconds = 0.0

    @property
    def to_act(self) -> int | None:
        """The wrapped state's seat to act."""
        return self.state.to_act

    @property
    def finished(self) -> bool:
        """True once the wrapped match is over."""
        return self.state.finished

    def legal_actions(self, seat: int) -> Sequence[A]:
        """The wrapped state's legal actions (not timed)."""
        return self.state.legal_actions(seat)

    def check(self, seat: int, action: A) -> None:
        """The wrapped state's check (not timed: `apply` times check + apply)."""
        self.state.check(seat, action)

    def apply(self, seat: int, action: A) -> list[Event]:
        """`check` then `apply` on the wrapped state, timed together."""
        tick = time.perf_counter()
        self.state.check(seat, action)
        events = self.state.apply(seat, action)
        self.seconds += time.perf_counter() - tick
        return events

    def view(self, seat: int | None) -> V:
        """The wrapped state's view, timed."""
        tick = time.perf_counter()
        view = self.state.view(seat)
        self.seconds += time.perf_counter() - tick
        return view

    def snapshot(self) -> dict[str, Any]:
        """The wrapped state's snapshot."""
        return self.state.snapshot()


def engine_rate(
    new_state: Callable[[random.Random], GameState[Any, Any]],
    players: Sequence[Policy[Any, Any]],
    seconds: float,
) -> tuple[float, float]:
    """Whole matches `new_state(Random(seed))` (seeds 0, 1, ...) played by `players` until
    `seconds` pass: (actions/s, decisions included; mean µs per view + check + apply)."""
    actions = 0
    engine_s = 0.0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = EngineClock(new_state(random.Random(seed)))
        seed += 1
        actions += play_out(state, players).actions
        engine_s += state.seconds
    elapsed = time.perf_counter() - start
    return actions / elapsed, engine_s / actions * 1e6
