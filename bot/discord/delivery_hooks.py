"""The seam the crash tests stop the bot at: `DeliveryHooks`, told where the front's
delivery is (about to post a board, a result, to edit a board) and when a post is in
flight. Production runs `NO_HOOKS`, which does nothing; the crash tests' implementation
(the development package's `crashpoints`) is injected by the process entry when
`DEUCEBOT_KILL_AT` is set (`bot.discord.app.delivery_hooks_from_env`)."""

from __future__ import annotations

import contextlib
from contextlib import AbstractContextManager
from typing import Protocol

import aiohttp


class DeliveryHooks(Protocol):
    """What the front tells about its delivery as it goes."""

    def reached(self, point: str) -> None:
        """The front is about to do `point` (`board`, `result`, `match_result`, `edit`)."""
        ...

    def posting(self, kind: str) -> AbstractContextManager[None]:
        """Inside the block (in this task), a message post of an effect of `kind` is made."""
        ...

    def watch(self, trace: aiohttp.TraceConfig) -> None:
        """Add what the hooks need to see of the bot's HTTP requests to `trace`."""
        ...


class NoHooks:
    """The hooks of production: nothing happens at any point."""

    def reached(self, point: str) -> None:
        """Nothing."""

    def posting(self, kind: str) -> AbstractContextManager[None]:
        """An empty block."""
        return contextlib.nullcontext()

    def watch(self, trace: aiohttp.TraceConfig) -> None:
        """Nothing."""


NO_HOOKS: DeliveryHooks = NoHooks()
"""The default: no hooks."""
