"""A person at the terminal, for tests: `deucebot play ...` in a child process with pipes,
its output read as it comes, lines typed when the test decides (after a prompt, or while
the AI is still playing), every wait bounded."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class Terminal:
    """`deucebot play ARGS` running; `read_until` and `type` drive it like a person."""

    def __init__(self, *args: str, lang: str = "en") -> None:
        """Start the child (no colour: stdout is a pipe)."""
        env = {**os.environ, "PYTHONPATH": str(ROOT), "DEUCEBOT_LANGUAGE": lang}
        self.child = subprocess.Popen(
            [sys.executable, "-m", "bot.cli", "play", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=ROOT,
            env=env,
            bufsize=1,
        )
        self.lines: list[str] = []
        self._new: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.child.stdout is not None
        for line in self.child.stdout:
            self._new.put(line.rstrip("\n"))
        self._new.put(None)

    def read_until(self, wanted: Callable[[str], bool], seconds: float = 60) -> list[str]:
        """The lines printed until one satisfies `wanted` (included); fails after `seconds`
        or if the child ends first."""
        until = time.monotonic() + seconds
        seen: list[str] = []
        while True:
            left = until - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out; last lines: {seen[-15:]}")
            try:
                line = self._new.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise AssertionError(f"the program ended; last lines: {seen[-15:]}")
            self.lines.append(line)
            seen.append(line)
            if wanted(line):
                return seen

    def type(self, text: str) -> None:
        """Type `text` and Enter."""
        assert self.child.stdin is not None
        self.child.stdin.write(text + "\n")
        self.child.stdin.flush()

    def rest(self, seconds: float = 30) -> list[str]:
        """Every line until the child ends (within `seconds`), and its exit code checked 0."""
        seen: list[str] = []
        until = time.monotonic() + seconds
        while (line := self._next(until)) is not None:
            self.lines.append(line)
            seen.append(line)
        assert self.child.wait(timeout=max(0.1, until - time.monotonic())) == 0, seen[-15:]
        return seen

    def play_hints(self, rest: float = 10) -> None:
        """Play the match to its end as the hints say (ask `hint` at each prompt, type the
        move it gives), then read the rest of the output (`rest` seconds at the most)."""
        while True:
            seen = self.read_until(lambda s: is_prompt(s) or s.startswith("Run the same"), 60)
            if seen[-1].startswith("Run the same"):
                break
            self.type("hint")
            hint = self.read_until(lambda s: s.startswith("Hint: "), 30)[-1]
            self.read_until(is_prompt, 10)
            self.type(hint.removeprefix("Hint: "))
        self.rest(rest)

    def _next(self, until: float) -> str | None:
        try:
            return self._new.get(timeout=max(0.01, until - time.monotonic()))
        except queue.Empty:
            raise AssertionError(f"still running; last lines: {self.lines[-15:]}") from None

    def close(self) -> None:
        """Kill the child if it still runs."""
        if self.child.poll() is None:
            self.child.kill()
        self.child.wait(timeout=10)


def is_prompt(line: str) -> bool:
    """The prompt line (on a pipe, "> " on a line of its own)."""
    return line.startswith(">")
