"""Per-server settings (`/config`): kept in the database, read from memory.

A server's admins (Manage Server) may set, within what the process allows:

- `language`: the language of public messages (boards, results), else the server's locale;
- `defaults.<game>`: default `/table create` options per game (checked as `/table create`
  checks them; what a member gives still wins);
- `channels`: the channels where tables may be opened (a thread counts as its parent's);
  none: anywhere;
- `max_tables`: the live-table cap, from 1 to the process's `DEUCEBOT_MAX_TABLES_PER_SERVER`;
- `cooldown.<kind>` (create, hint, stats): a member's cooldown in seconds, from the
  process's own setting (a server may be stricter, not looser) to 3600.

Every change is stored with the member who made it (`Storage.set_guild_setting`) and
logged. All settings are read once at start-up into memory, so reading them costs nothing.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from bot.i18n import LANGUAGES
from bot.process.settings import Settings
from bot.runtime.errors import TableError
from storage import SettingChange, Storage

log = logging.getLogger("deucebot.discord")

COOLDOWNS = ("create", "hint", "stats")
COOLDOWN_MAX = 3600
MAX_TABLES = 10_000
"""The cap's upper bound when the process has none."""


def config_range(option: str, value: int, low: int, high: int) -> TableError:
    """Refusal of a value outside `low..high`, naming the option (as `/table create` does)."""
    return TableError(
        f"{option} must be from {low} to {high}, not {value}",
        code="admin.config_range",
        option=option,
        value=value,
        low=low,
        high=high,
    )


class ServerConfig:
    """Every server's settings, as stored, with the checks that keep them in bounds."""

    def __init__(self, storage: Storage, settings: Settings) -> None:
        """Settings of `storage` (call `load` first) within the process's `settings`."""
        self.storage = storage
        self.settings = settings
        self._all: dict[str, dict[str, Any]] = {}

    async def load(self) -> None:
        """Read every server's settings."""
        self._all = await self.storage.guild_settings()

    def of(self, guild: str) -> Mapping[str, Any]:
        """A server's settings as stored (name -> value)."""
        return self._all.get(guild, {})

    def language(self, guild: str) -> str | None:
        """The server's language for public messages, if it set one."""
        value = self.of(guild).get("language")
        return str(value) if value in LANGUAGES else None

    def defaults(self, guild: str, game: str) -> dict[str, int]:
        """The server's default `/table create` options for `game`."""
        return dict(self.of(guild).get(f"defaults.{game}") or {})

    def channels(self, guild: str) -> list[str]:
        """The channels where the server allows tables (empty: anywhere)."""
        return [str(c) for c in self.of(guild).get("channels") or []]

    def check_channel(self, guild: str, channel: str, parent: str | None) -> None:
        """Refuse a table in `channel` (a thread: or its `parent`) if the server allows
        tables only elsewhere, naming the channels it allows."""
        allowed = self.channels(guild)
        if not allowed or channel in allowed or (parent is not None and parent in allowed):
            return
        raise TableError(
            "tables are not opened in this channel on this server",
            code="admin.channel_not_allowed",
            channels=", ".join(f"<#{c}>" for c in allowed),
        )

    def table_cap(self, guild: str) -> int | None:
        """The server's live-table cap, if it set one (a `RuntimeConfig.guild_table_cap`)."""
        value = self.of(guild).get("max_tables")
        return int(value) if value is not None else None

    def cooldown(self, guild: str, kind: str) -> float | None:
        """The server's cooldown of `kind` in seconds (a `Cooldowns.guild_seconds`); the
        leaderboard and the history share the stats one."""
        own = "stats" if kind in ("leaderboard", "history") else kind
        value = self.of(guild).get(f"cooldown.{own}")
        return float(value) if value is not None else None

    def process_cap(self) -> int:
        """The largest live-table cap a server may set."""
        return self.settings.max_tables_per_server or MAX_TABLES

    def process_cooldown(self, kind: str) -> int:
        """The least cooldown of `kind` a server may set: the process's own."""
        seconds: float = getattr(self.settings, f"{kind}_cooldown")
        return int(-(-seconds // 1))

    def check_max_tables(self, count: int) -> int:
        """`count` if it is a cap a server may set, else the refusal."""
        if not 1 <= count <= self.process_cap():
            raise config_range("max_tables", count, 1, self.process_cap())
        return count

    def check_cooldown(self, kind: str, seconds: int) -> int:
        """`seconds` if it is a cooldown of `kind` a server may set, else the refusal."""
        low = self.process_cooldown(kind)
        if not low <= seconds <= COOLDOWN_MAX:
            raise config_range(f"cooldown {kind}", seconds, low, COOLDOWN_MAX)
        return seconds

    async def set(self, guild: str, name: str, value: Any, member_id: str, member: str) -> None:
        """Store (value None: clear) a server's setting, logging who changed it."""
        await self.storage.set_guild_setting(
            SettingChange(guild, name, value, member_id, member, time.time())
        )
        mine = self._all.setdefault(guild, {})
        if value is None:
            mine.pop(name, None)
        else:
            mine[name] = value
        log.info(
            "server setting %s set to %r by %s (%s)",
            name,
            value,
            member,
            member_id,
            extra={"guild": guild},
        )
