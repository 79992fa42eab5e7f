"""A test hook: make the bot SIGKILL itself at a named point of delivery.

`DEUCEBOT_KILL_AT=result@2` kills the process (SIGKILL: no clean-up at all) the second
time the front is about to post a deal result. Points: `board` (a new board), `edit` (a
board edit), `result` (a deal's result), `match_result`. Unset (as in production), the
check costs one dictionary lookup. Crash tests use it to stop the bot exactly between a
commit and the post that announces it.
"""

from __future__ import annotations

import collections
import logging
import os
import signal

log = logging.getLogger("deucebot.discord")

POINTS = ("board", "edit", "result", "match_result")
ENV = "DEUCEBOT_KILL_AT"


class CrashPoints:
    """Counts arrivals at each point and kills the process at the configured one."""

    def __init__(self, spec: str | None) -> None:
        """`spec` is `point` or `point@n` (n >= 1); None or empty: never kill."""
        self.point: str | None = None
        self.at = 1
        self.seen: collections.Counter[str] = collections.Counter()
        if not spec:
            return
        point, _, count = spec.partition("@")
        if point not in POINTS or (count and not (count.isdigit() and int(count) >= 1)):
            raise ValueError(f"{ENV}={spec!r}: expected one of {', '.join(POINTS)}, then @n")
        self.point, self.at = point, int(count or 1)

    @classmethod
    def from_env(cls) -> CrashPoints:
        """The crash points set by `DEUCEBOT_KILL_AT` (none if unset)."""
        return cls(os.environ.get(ENV))

    def reached(self, point: str) -> None:
        """The front is about to do `point`: die here if this is the configured arrival."""
        if self.point != point:
            return
        self.seen[point] += 1
        if self.seen[point] == self.at:
            log.warning("%s=%s%s: killing the process", ENV, point, f"@{self.at}")
            os.kill(os.getpid(), signal.SIGKILL)
