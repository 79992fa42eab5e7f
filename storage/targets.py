"""What a database target names: a SQLite file path or a PostgreSQL URL.

Its own module so that both backends and the chooser (`storage.backend`) read it without
importing each other.
"""

from __future__ import annotations

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
"""The URL schemes that name a PostgreSQL database."""


def is_postgres_url(target: str) -> bool:
    """Whether `target` names a PostgreSQL database rather than a SQLite file."""
    return target.startswith(POSTGRES_SCHEMES)
