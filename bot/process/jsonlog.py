"""Logs as JSON lines (`DEUCEBOT_LOG_FORMAT=json`): one event per line, searchable by ids.

Each line is one JSON object: `ts` (ISO 8601, UTC), `level`, `logger`, `message`, and the
`guild`, `table` and `match` ids of what the event is about when known, then `exc` (the
traceback) if any. The ids come from the record's `extra` or from the context the code
runs in (`bind_ids`: a table's outbox tasks, an interaction's handler). The token filter
of `bot.discord.app` runs before the formatter, so the token never appears here either.
"""

from __future__ import annotations

import contextvars
import json
import logging
from datetime import UTC, datetime
from typing import Any

IDS = ("guild", "table", "match")
_ids: contextvars.ContextVar[dict[str, str] | None] = contextvars.ContextVar(
    "deucebot_log_ids", default=None
)


def bind_ids(**ids: object) -> None:
    """Name the guild, table and match the current task works for (None: unknown); every
    record logged from this task (and tasks it starts later) carries them."""
    _ids.set({name: str(value) for name, value in ids.items() if value is not None})


class JsonLines(logging.Formatter):
    """One JSON object per record, on one line."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as a JSON line (newlines inside strings are escaped by JSON)."""
        out: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        bound = _ids.get() or {}
        for name in IDS:
            value = getattr(record, name, None)
            if value is None:
                value = bound.get(name)
            if value is not None:
                out[name] = str(value)
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            out["exc"] = record.exc_text
        if record.stack_info:
            out["stack"] = record.stack_info
        return json.dumps(out, ensure_ascii=False)
