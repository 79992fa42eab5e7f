"""Delivery records: which public effects of a match a front has announced, and what was
said once per person (migration 005).

A front derives its public effects (the board of deal d, each deal's result, the match
result) from the committed action log; `Deliveries` remembers which of them reached the
channel and the message that shows them, so after a crash the next process delivers
exactly the missing ones, in order. Records are written after the message was sent,
through the storage's group commit (they never hold up an action). Before each post the
front also records its intent (a row not yet delivered, migration 005's `delivered` 0,
whose `message_id` is the newest message the front knew in the channel before it): a
process that died after Discord stored the post and before its record finds the intent at
start-up and looks for that message instead of posting it again. Both SQL backends
implement it (`storage.sql_storage.SqlStorage`; statements in `storage.statements`,
reads in `storage.queries`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from storage.base import ActionRecord, MatchRecord


@dataclass(frozen=True, slots=True)
class DeliveryRecord:
    """One delivered effect of a match: its key (`board:3`, `result:3`, `match_result`),
    the turn its events were committed up to, and the message that shows it."""

    match_id: int
    effect: str
    upto: int
    message_id: int | None


@dataclass(frozen=True, slots=True)
class PostIntent:
    """A post a front was about to make and never recorded as delivered: the effect, the
    newest message the front knew in the channel before it (None: none known), and when
    the intent was recorded (`time.time()`)."""

    match_id: int
    effect: str
    after: int | None
    at: float


class Deliveries(Protocol):
    """What the Discord front needs from storage to deliver every effect exactly once."""

    async def delivered(self, match_id: int) -> list[DeliveryRecord]:
        """The match's delivered effects, by the turn they were committed up to."""
        ...

    async def mark_delivered(
        self, match_id: int, effect: str, upto: int, message_id: int | None
    ) -> None:
        """Record that `effect` of `match_id` was delivered as `message_id` (idempotent:
        a second record of the same effect keeps the first; it replaces an intent)."""
        ...

    async def intend(self, match_id: int, effect: str, upto: int, after: int | None) -> None:
        """Record, before posting it, that `effect` of `match_id` is about to be posted after
        message `after` (kept if the effect has a record already, delivered or intended)."""
        ...

    async def intents(self, match_id: int) -> list[PostIntent]:
        """The match's intended posts that were never recorded as delivered."""
        ...

    async def match(self, match_id: int) -> MatchRecord | None:
        """A match by id (seed and config, to replay its log)."""
        ...

    async def actions(self, match_id: int) -> Sequence[ActionRecord]:
        """The match's action log in order."""
        ...

    async def said(self, player_id: str, notice: str) -> bool:
        """True if `notice` was already said to `player_id`."""
        ...

    async def remember_said(self, player_id: str, notice: str, said: bool) -> None:
        """Remember that `notice` was said to `player_id` (or forget it: `said` False)."""
        ...
