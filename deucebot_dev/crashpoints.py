"""A test hook: make the bot SIGKILL itself at a named point of delivery (the front's
`bot.discord.delivery_hooks.DeliveryHooks`, injected by the process entry when
`DEUCEBOT_KILL_AT` is set; production runs without it).

`DEUCEBOT_KILL_AT=result@2` kills the process (SIGKILL: no clean-up at all) the second
time the front is about to post a deal result. Points: `board` (a new board), `edit` (a
board edit), `result` (a deal's result), `match_result`. Unset (as in production), the
check is never made: the front runs `NO_HOOKS`. Crash tests use it to stop the bot exactly between a
commit and the post that announces it.

The `_answer` points (`board_answer`, `result_answer`, `match_result_answer`) stop it in
the other window: Discord has stored the post and answered, and the bot dies before it
reads the answer (so before it records the delivery). They are reached from an aiohttp
trace hook (`CrashPoints.watch`, on discord.py's `http_trace`) when the answer's status line
and headers have arrived, for a message post made inside `CrashPoints.posting(kind)`.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import os
import re
import signal
from collections.abc import Iterator
from contextvars import ContextVar
from types import SimpleNamespace

import aiohttp

log = logging.getLogger("deucebot.discord")

POSTS = ("board", "result", "match_result")
POINTS = (*POSTS, "edit", *(f"{kind}_answer" for kind in POSTS))
ENV = "DEUCEBOT_KILL_AT"

_posting: ContextVar[tuple[CrashPoints, str] | None] = ContextVar(
    "deucebot_crash_posting", default=None
)


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

    def watch(self, trace: aiohttp.TraceConfig) -> None:
        """Reach the `_answer` points from `trace` (`watch_answers`)."""
        watch_answers(trace)

    def reached(self, point: str) -> None:
        """The front is about to do `point`: die here if this is the configured arrival."""
        if self.point != point:
            return
        self.seen[point] += 1
        if self.seen[point] == self.at:
            log.warning("%s=%s%s: killing the process", ENV, point, f"@{self.at}")
            os.kill(os.getpid(), signal.SIGKILL)

    @contextlib.contextmanager
    def posting(self, kind: str) -> Iterator[None]:
        """Inside the block (in this task), the answer to a message post reaches
        `<kind>_answer` (see the module docstring)."""
        if self.point != f"{kind}_answer":
            yield
            return
        token = _posting.set((self, kind))
        try:
            yield
        finally:
            _posting.reset(token)


_FOLLOW_UP = re.compile(r"/webhooks/\d+/[^/]+$")
"""A follow-up through an interaction's webhook (what the front posts boards by)."""


def _a_post(path: str) -> bool:
    """Whether `path` creates a message: in a channel, or as an interaction's follow-up."""
    return path.endswith("/messages") or _FOLLOW_UP.search(path) is not None


def watch_answers(trace: aiohttp.TraceConfig) -> None:
    """Add to `trace` the hook that reaches the `_answer` points: a successful answer to a
    message post (`POST .../messages`, or a follow-up `POST /webhooks/{app}/{token}`) made
    inside `CrashPoints.posting`."""

    async def end(
        session: aiohttp.ClientSession, ctx: SimpleNamespace, params: aiohttp.TraceRequestEndParams
    ) -> None:
        marked = _posting.get()
        if marked is None or params.method != "POST" or not _a_post(params.url.path):
            return
        if params.response.status < 300:
            crash, kind = marked
            crash.reached(f"{kind}_answer")

    trace.on_request_end.append(end)
