"""Choosing the backend from one string: a file path (SQLite) or a `postgresql://` URL.

Every entry point (`deucebot play`, `leaderboard`, `bench runtime`, the bot's `DEUCEBOT_DB`)
goes through `open_storage`, so a PostgreSQL URL works wherever a path does. asyncpg is only
imported when a URL asks for it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, TypeAlias

from storage.base import CannotOpenDatabase
from storage.sqlite import SqliteStorage, Synchronous
from storage.targets import is_postgres_url

if TYPE_CHECKING:
    from storage.postgres import PostgresStorage

__all__ = [
    "AnyStorage",
    "UnsupportedDatabase",
    "is_postgres_url",
    "make_storage",
    "open_storage",
]

AnyStorage: TypeAlias = "SqliteStorage | PostgresStorage"
"""Either backend (both implement `storage.base.Storage`)."""

_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


class UnsupportedDatabase(CannotOpenDatabase):
    """A `scheme://` target that is not PostgreSQL (files are given as plain paths)."""


def make_storage(
    target: str, *, synchronous: Synchronous = "FULL", read_only: bool = False
) -> AnyStorage:
    """The storage for `target`, not yet opened: `PostgresStorage` for a `postgresql://` (or
    `postgres://`) URL, `SqliteStorage` for a path; `UnsupportedDatabase` for another URL.
    `read_only`: never migrated nor written (the leaderboard); `synchronous`: SQLite's
    (PostgreSQL follows its server's `synchronous_commit`)."""
    if is_postgres_url(target):
        from storage.postgres import PostgresStorage

        return PostgresStorage(target, read_only=read_only)
    if _URL.match(target):
        scheme = target.split("://", 1)[0]
        raise UnsupportedDatabase(
            f"unsupported database URL scheme {scheme!r}: give a SQLite file path "
            "or a postgresql:// URL"
        )
    return SqliteStorage(target, synchronous=synchronous, read_only=read_only)


async def open_storage(
    target: str, *, synchronous: Synchronous = "FULL", read_only: bool = False
) -> AnyStorage:
    """`make_storage(target, ...)`, opened (connected and migrated, unless `read_only`);
    `CannotOpenDatabase` with one line to show if it cannot be."""
    storage = make_storage(target, synchronous=synchronous, read_only=read_only)
    await storage.open()
    return storage
