"""Storage: the action log, the ledgers and the leaderboards behind a small interface.

`storage.base.Storage` is what the runtime uses; `storage.sqlite.SqliteStorage` implements
it on SQLite (aiosqlite, WAL, numbered migrations in `storage/migrations/`) and
`storage.postgres.PostgresStorage` on PostgreSQL (asyncpg, `storage/migrations_pg/`).
`open_storage(path_or_url)` picks one: a path is SQLite, a `postgresql://` URL PostgreSQL.
"""

from storage.backend import is_postgres_url, make_storage, open_storage
from storage.base import (
    ActionCommit,
    ActionRecord,
    BuyInLedger,
    CannotOpenDatabase,
    ChipEntry,
    ChipRow,
    DealRecord,
    Leaderboard,
    MatchPlayer,
    MatchRecord,
    MatchResult,
    PenaltyEntry,
    PenaltyRow,
    PlaceTaken,
    SeatRecord,
    SettingChange,
    Settlement,
    StaleWrite,
    Storage,
    StorageError,
    TableRecord,
)
from storage.sqlite import SqliteStorage

__all__ = [
    "ActionCommit",
    "ActionRecord",
    "BuyInLedger",
    "CannotOpenDatabase",
    "ChipEntry",
    "ChipRow",
    "DealRecord",
    "Leaderboard",
    "MatchPlayer",
    "MatchRecord",
    "MatchResult",
    "PenaltyEntry",
    "PenaltyRow",
    "PlaceTaken",
    "SeatRecord",
    "SettingChange",
    "Settlement",
    "SqliteStorage",
    "StaleWrite",
    "Storage",
    "StorageError",
    "TableRecord",
    "is_postgres_url",
    "make_storage",
    "open_storage",
]
