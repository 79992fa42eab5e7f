"""A progress bar on a terminal, for long commands (`deucebot simulate`).

Drawn on one line of stderr, redrawn in place (carriage return) each time the whole
percentage changes, so a run of any length writes at most about a hundred updates; only
when that stream is a terminal, so pipes, files and `--json` output never carry one.
"""

from __future__ import annotations

from typing import TextIO

WIDTH = 30
"""The bar's width in characters."""


class ProgressBar:
    """``[#########.....................]  30%  deal 600/2000`` on `stream`, redrawn in
    place; `finish` ends its line."""

    def __init__(self, stream: TextIO, total: int, unit: str) -> None:
        """A bar counting to `total` of `unit` (what is counted, e.g. "deal")."""
        self.stream = stream
        self.total = max(1, total)
        self.unit = unit
        self._shown = -1

    def update(self, done: int) -> None:
        """Show `done` of the total (redrawn only when its whole percentage changed)."""
        done = min(max(done, 0), self.total)
        percent = done * 100 // self.total
        if percent == self._shown:
            return
        self._shown = percent
        filled = WIDTH * done // self.total
        bar = "#" * filled + "." * (WIDTH - filled)
        self.stream.write(f"\r[{bar}] {percent:3d}%  {self.unit} {done}/{self.total}")
        self.stream.flush()

    def finish(self) -> None:
        """End the bar's line (the result is printed below it)."""
        if self._shown >= 0:
            self.stream.write("\n")
            self.stream.flush()


def terminal_bar(
    stream: TextIO, total: int, unit: str, *, wanted: bool = True
) -> ProgressBar | None:
    """A bar on `stream` when it is a terminal and one is `wanted` (not with --json); None
    otherwise."""
    isatty = getattr(stream, "isatty", None)
    if not wanted or isatty is None or not isatty():
        return None
    return ProgressBar(stream, total, unit)
