"""Delivery records: which public effects of a match a front has announced, and what was
said once per person (migration 005).

A front derives its public effects (the board of deal d, each deal's result, the match
result) from the committed action log; `Deliveries` remembers which of them reached the
channel and the message that shows them, so after a crash the next process delivers
exactly the missing ones, in order. Records are written after the message was sent,
through the storage's group commit (they never hold up an action).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from storage.base import ActionRecord, MatchRecord
from storage.sqlite import SqliteStorage


@dataclass(frozen=True, slots=True)
class DeliveryRecord:
    """One delivered effect of a match: its key (`board:3`, `result:3`, `match_result`),
    the turn its events were committed up to, and the message that shows it."""

    match_id: int
    effect: str
    upto: int
    message_id: int | None


class Deliveries(Protocol):
    """What the Discord front needs from storage to deliver every effect exactly once."""

    async def delivered(self, match_id: int) -> list[DeliveryRecord]:
        """The match's delivered effects, in the order they were recorded."""
        ...

    async def mark_delivered(
        self, match_id: int, effect: str, upto: int, message_id: int | None
    ) -> None:
        """Record that `effect` of `match_id` was delivered as `message_id` (idempotent:
        a second record of the same effect keeps the first)."""
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


class SqliteDeliveries:
    """`Deliveries` on the SQLite storage (its reads and its group-committed writes)."""

    def __init__(self, storage: SqliteStorage) -> None:
        """Records kept in `storage`'s database (open, migrated to 005 or later)."""
        self.storage = storage

    async def delivered(self, match_id: int) -> list[DeliveryRecord]:
        """The match's delivered effects, in the order they were recorded."""
        rows = await self.storage._all(
            "SELECT effect, upto, message_id FROM deliveries "
            "WHERE match_id = ? AND delivered = 1 ORDER BY rowid",
            (match_id,),
        )
        return [
            DeliveryRecord(
                match_id,
                str(r["effect"]),
                int(r["upto"]),
                int(r["message_id"]) if r["message_id"] else None,
            )
            for r in rows
        ]

    async def mark_delivered(
        self, match_id: int, effect: str, upto: int, message_id: int | None
    ) -> None:
        """Record a delivered effect (the first record of an effect wins)."""
        at = time.time()
        text = None if message_id is None else str(message_id)

        def job(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO deliveries (match_id, effect, upto, message_id, delivered, at) "
                "VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (match_id, effect) DO NOTHING",
                (match_id, effect, upto, text, at),
            )

        await self.storage._write(job)

    async def match(self, match_id: int) -> MatchRecord | None:
        """A match by id."""
        return await self.storage.match(match_id)

    async def actions(self, match_id: int) -> Sequence[ActionRecord]:
        """The match's action log in order."""
        return await self.storage.actions(match_id)

    async def said(self, player_id: str, notice: str) -> bool:
        """True if `notice` was already said to `player_id`."""
        rows = await self.storage._all(
            "SELECT 1 FROM notices_said WHERE player_id = ? AND notice = ?", (player_id, notice)
        )
        return bool(rows)

    async def remember_said(self, player_id: str, notice: str, said: bool) -> None:
        """Remember (or forget) that `notice` was said to `player_id`."""
        at = time.time()

        def job(db: sqlite3.Connection) -> None:
            if said:
                db.execute(
                    "INSERT INTO notices_said (player_id, notice, at) VALUES (?, ?, ?) "
                    "ON CONFLICT (player_id, notice) DO NOTHING",
                    (player_id, notice, at),
                )
            else:
                db.execute(
                    "DELETE FROM notices_said WHERE player_id = ? AND notice = ?",
                    (player_id, notice),
                )

        await self.storage._write(job)
