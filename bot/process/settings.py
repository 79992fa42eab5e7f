"""Settings from the environment and `.env` (pydantic-settings). `.env.example` lists them all.

Every setting is checked when it is read: a bad value (`DEUCEBOT_AI_DELAY=abc`,
`DEUCEBOT_TURN_SECONDS=-3`, `DEUCEBOT_LOG_LEVEL=LOUD`) is a `pydantic.ValidationError`,
which the entry points turn into one line naming the setting and what it allows
(`describe_error`). The bounded types (`AiDelay`, `TurnSeconds`) also check the CLI's
`--ai-delay` and `--turn-seconds` (`cli_type`), so a flag and its setting accept the same.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, TypeAdapter, ValidationError, model_validator
from pydantic_core import PydanticUndefined
from pydantic_settings import BaseSettings, SettingsConfigDict


def _upper(value: object) -> object:
    return value.strip().upper() if isinstance(value, str) else value


def _lower(value: object) -> object:
    return value.strip().lower() if isinstance(value, str) else value


def _ids(text: str) -> tuple[int, ...]:
    """The shard ids of a checked DEUCEBOT_SHARD_IDS value ("0,2-3" -> (0, 2, 3))."""
    out: set[int] = set()
    for part in text.split(","):
        low, _, high = part.partition("-")
        out.update(range(int(low), int(high or low) + 1))
    return tuple(sorted(out))


def _shard_list(value: object) -> object:
    """Check a shard id list ("0,1", "2-3", "0, 4-5"); returns it without spaces."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    text = str(value).replace(" ", "")
    if not re.fullmatch(r"\d+(-\d+)?(,\d+(-\d+)?)*", text):
        raise ValueError("use shard ids like 0,1 or 2-3")
    for part in text.split(","):
        low, _, high = part.partition("-")
        if high and int(high) < int(low):
            raise ValueError(f"the range {part} runs backwards")
    return text


def _public_url(value: object) -> object:
    """Check a public base URL (http or https, a host, no query); returns it without a
    trailing slash; empty is unset."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    text = str(value).strip().rstrip("/")
    if not re.fullmatch(r"https?://[^/?#\s]+(/[^?#\s]*)?", text):
        raise ValueError("use a base URL like https://deucebot.example.org")
    return text


LINK_SECRET_LENGTH = 32
"""The fewest characters of `DEUCEBOT_LINK_SECRET` (a shorter key could be found by trying)."""
SECRET_SETTINGS = frozenset(
    {"DISCORD_TOKEN", "DEUCEBOT_LINK_SECRET", "DEUCEBOT_ACTIVITY_CLIENT_SECRET"}
)
"""Settings whose values are never shown: not in a refusal line, not in a repr."""


def _link_secret(value: object) -> object:
    """Check the link-signing key: at least `LINK_SECRET_LENGTH` characters once trimmed;
    empty is unset."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    text = str(value).strip()
    if len(text) < LINK_SECRET_LENGTH:
        raise ValueError("too short")
    return text


def _snowflake(value: object) -> object:
    """Check a Discord id (digits); empty is unset."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    text = str(value).strip()
    if not text.isdigit() or not text.isascii() or int(text) <= 0:
        raise ValueError("use the application id, a positive whole number")
    return text


def _bounds(whole: bool, low: int, high: int, unit: str, zero: str, note: str) -> str:
    """What a bounded setting allows, in words: "a whole number of seconds from 0 (off) to 3600"."""
    return (
        f"{'a whole number' if whole else 'a number'}{f' of {unit}' if unit else ''}"
        f" from {low}{f' ({zero})' if zero else ''} to {high}{f' ({note})' if note else ''}"
    )


def bounded(
    kind: type[float],
    low: int,
    high: int,
    *,
    unit: str = "",
    zero: str = "",
    note: str = "",
    default: Any = PydanticUndefined,
    env: str | None = None,
) -> Any:
    """The pydantic `Field` of a number from `low` to `high` (`kind` int: whole; float: finite),
    described in words for refusals (`unit`: what it counts; `zero`: what 0 means; `note`:
    a last remark). With `env`, a setting read from that variable, `default` when unset."""
    return Field(
        default=default,
        ge=low,
        le=high,
        allow_inf_nan=None if kind is int else False,
        validation_alias=env,
        description=_bounds(kind is int, low, high, unit, zero, note),
    )


AiDelay = Annotated[float, bounded(float, 0, 60, unit="seconds")]
"""Seconds an AI player waits before it plays."""

TurnSeconds = Annotated[int, bounded(int, 0, 3600, unit="seconds", zero="off")]
"""A turn timer in seconds; 0 is off (the same range as `/table create turn_seconds`)."""

LogLevel = Annotated[
    Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"],
    BeforeValidator(_upper),
    Field(description="one of DEBUG, INFO, WARNING, ERROR, CRITICAL"),
]
LogFormat = Annotated[
    Literal["text", "json"],
    BeforeValidator(_lower),
    Field(description="text (one readable line per event) or json (one JSON object per line)"),
]
EventLoop = Annotated[
    Literal["uvloop", "asyncio"],
    BeforeValidator(_lower),
    Field(description="uvloop (faster; where installed) or asyncio (the standard loop)"),
]
Synchronous = Annotated[
    Literal["NORMAL", "FULL"],
    BeforeValidator(_upper),
    Field(description="full (nothing acknowledged is ever lost) or normal (faster)"),
]


class Settings(BaseSettings):
    """Every setting of the bot and the terminal front, with its default."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: str | None = Field(default=None, validation_alias="DISCORD_TOKEN", repr=False)
    dev_guild_id: int | None = Field(
        default=None,
        gt=0,
        validation_alias="DEV_GUILD_ID",
        description="a Discord server id (a positive whole number)",
    )
    discord_api_base: str | None = Field(default=None, validation_alias="DISCORD_API_BASE")
    discord_gateway_url: str | None = Field(default=None, validation_alias="DISCORD_GATEWAY_URL")
    db: str = Field(default="deucebot.sqlite3", validation_alias="DEUCEBOT_DB")
    """A SQLite file path or a postgresql:// URL (`storage.open_storage`)."""
    db_synchronous: Synchronous = Field(default="FULL", validation_alias="DEUCEBOT_DB_SYNCHRONOUS")
    """SQLite's synchronous mode: FULL loses nothing acknowledged even on a power cut
    (PostgreSQL follows its server's `synchronous_commit`)."""
    language: str = Field(default="en", validation_alias="DEUCEBOT_LANGUAGE")
    ai_delay: AiDelay = Field(default=1.0, validation_alias="DEUCEBOT_AI_DELAY")
    turn_seconds: TurnSeconds = Field(default=60, validation_alias="DEUCEBOT_TURN_SECONDS")
    log_level: LogLevel = Field(default="INFO", validation_alias="DEUCEBOT_LOG_LEVEL")
    log_format: LogFormat = Field(default="text", validation_alias="DEUCEBOT_LOG_FORMAT")
    """Logs as readable text or as JSON lines with guild, table and match ids
    (`bot.process.jsonlog`)."""
    event_loop: EventLoop = Field(default="uvloop", validation_alias="DEUCEBOT_EVENT_LOOP")
    """The bot process's event loop (`bot.process.event_loop`): uvloop unless not installed."""
    board_edit_seconds: float = bounded(
        float, 0, 60, unit="seconds", default=1.0, env="DEUCEBOT_BOARD_EDIT_SECONDS"
    )
    """Discord: least seconds between two edits of a board (bursts are coalesced)."""
    rest_per_second: int = bounded(int, 1, 50, default=45, env="DEUCEBOT_REST_PER_SECOND")
    """Discord: REST requests per second the bot allows itself (Discord's global limit is 50;
    interaction answers are not counted)."""
    ai_processes: int = bounded(int, 0, 64, zero="threads", default=1, env="DEUCEBOT_AI_PROCESSES")
    """Worker processes for AI decisions (0: threads in the bot process)."""
    picture_processes: int = bounded(
        int, 0, 1, zero="threads", default=1, env="DEUCEBOT_PICTURE_PROCESSES"
    )
    """A worker process drawing the pictures (1, the default) or threads of the bot (0)."""
    max_tables_per_server: int = bounded(
        int, 0, 10_000, zero="no cap", default=20, env="DEUCEBOT_MAX_TABLES_PER_SERVER"
    )
    """Live (not stopped) tables one Discord server may have at once; 0: no cap."""
    stats_cooldown: float = bounded(
        float, 0, 3600, unit="seconds", default=30.0, env="DEUCEBOT_STATS_COOLDOWN"
    )
    """Seconds before a member may run /stats (or /leaderboard) again; 0: no cooldown."""
    hint_cooldown: float = bounded(
        float, 0, 3600, unit="seconds", default=5.0, env="DEUCEBOT_HINT_COOLDOWN"
    )
    """Seconds before a member may ask for a hint again (/hint or the Hint button)."""
    create_cooldown: float = bounded(
        float, 0, 3600, unit="seconds", default=10.0, env="DEUCEBOT_CREATE_COOLDOWN"
    )
    """Seconds before a member may run /table create again."""
    table_commands_per_minute: int = bounded(
        int, 0, 1000, zero="no limit", default=6, env="DEUCEBOT_TABLE_COMMANDS_PER_MINUTE"
    )
    """Uses per minute a member may make of the commands that start or stop matches
    (/table create, start, restart, stop, /duel challenge), and apart of those that change
    seats (/table join, leave, /back); a table takes twice as many from all its members."""
    http_port: int | None = bounded(
        int, 0, 65535, zero="any free port", default=None, env="DEUCEBOT_HTTP_PORT"
    )
    """The health and metrics endpoint's port on 127.0.0.1 (`/healthz`, `/metrics`); unset:
    no endpoint."""
    public_url: Annotated[
        str | None,
        BeforeValidator(_public_url),
        Field(description="the bot's public base URL, like https://deucebot.example.org"),
    ] = Field(default=None, validation_alias="DEUCEBOT_PUBLIC_URL")
    """The web front's public base URL (the Activity's URL mapping target and the base of
    `/hand` browser links); unset: no Activity, no browser links."""
    web_port: int | None = bounded(
        int, 0, 65535, zero="any free port", default=None, env="DEUCEBOT_WEB_PORT"
    )
    """The port the web front (Activity and browser links) listens on behind the public URL."""
    web_host: str = Field(default="127.0.0.1", validation_alias="DEUCEBOT_WEB_HOST")
    """The address the web front listens on: 127.0.0.1 (a reverse proxy on this machine in
    front), or another of this machine's addresses for a proxy elsewhere."""
    activity_client_id: Annotated[
        str | None,
        BeforeValidator(_snowflake),
        Field(description="the application id (a positive whole number)"),
    ] = Field(default=None, validation_alias="DEUCEBOT_ACTIVITY_CLIENT_ID")
    """The Discord application's id (OAuth2 client id) for the Activity's sign-in."""
    activity_client_secret: str | None = Field(
        default=None, validation_alias="DEUCEBOT_ACTIVITY_CLIENT_SECRET", repr=False
    )
    """The application's OAuth2 client secret (never logged, never sent to a page)."""
    oauth_base: str = Field(
        default="https://discord.com/api", validation_alias="DEUCEBOT_OAUTH_BASE"
    )
    """Where the Activity's code is exchanged (`/oauth2/token`), its user read (`/users/@me`)
    and its instance read (`/v10/applications/<id>/activity-instances/<instance>`): Discord's
    API, or a local stand-in in tests."""
    link_secret: Annotated[
        str | None,
        BeforeValidator(_link_secret),
        Field(
            description=f"{LINK_SECRET_LENGTH} or more random characters, e.g. from"
            ' python3 -c "import secrets; print(secrets.token_urlsafe(32))"'
        ),
    ] = Field(default=None, validation_alias="DEUCEBOT_LINK_SECRET", repr=False)
    """The HMAC key signing browser links and Activity sessions (32+ random characters)."""
    health_max_lag: float = bounded(
        float, 1, 3600, unit="seconds", default=60.0, env="DEUCEBOT_HEALTH_MAX_LAG"
    )
    """`/healthz` answers 503 when a table's oldest undelivered channel message waited longer."""
    shard_count: int | None = bounded(
        int,
        1,
        4096,
        unit="shards",
        note="the same in every process",
        default=None,
        env="DEUCEBOT_SHARD_COUNT",
    )
    """Discord: the bot's shard count; unset, one process runs every guild unsharded."""
    shard_ids: Annotated[
        str | None,
        BeforeValidator(_shard_list),
        Field(description="shard ids like 0,1 or 2-3, each below DEUCEBOT_SHARD_COUNT"),
    ] = Field(default=None, validation_alias="DEUCEBOT_SHARD_IDS")
    """Discord: the shards this process runs (`shards`), e.g. "0,1" or "2-3"; unset with a
    shard count: all of them."""
    shard_lease_seconds: float = bounded(
        float, 2, 3600, unit="seconds", default=30.0, env="DEUCEBOT_SHARD_LEASE_SECONDS"
    )
    """Seconds a process's claim on its shards lasts without renewal (renewed every third of
    it): how long a crashed process's shards wait before another process may take them,
    unless the crashed process is proven dead (same host, no such process)."""

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids is not None:
            count = self.shard_count
            if count is None:
                raise ValueError("DEUCEBOT_SHARD_IDS needs DEUCEBOT_SHARD_COUNT")
            too_big = [i for i in _ids(self.shard_ids) if i >= count]
            if too_big:
                raise ValueError(
                    f"DEUCEBOT_SHARD_IDS={self.shard_ids} names shard {too_big[0]}, "
                    f"but DEUCEBOT_SHARD_COUNT={count} allows 0 to {count - 1}"
                )
        return self

    @property
    def activity_ready(self) -> bool:
        """Whether the Activity is configured: client id and secret, the public URL, the
        signing secret and the bot token (which reads the Activity's instance, where it runs
        and who is in it); the board then offers "Open table"."""
        return bool(
            self.discord_token
            and self.activity_client_id
            and self.activity_client_secret
            and self.public_url
            and self.link_secret
        )

    @property
    def links_ready(self) -> bool:
        """Whether `/hand` offers signed browser links: the public URL and the secret."""
        return bool(self.public_url and self.link_secret)

    @property
    def shards(self) -> tuple[int, ...] | None:
        """The shard ids this process runs (sorted), or None when the bot is not sharded."""
        if self.shard_count is None:
            return None
        if self.shard_ids is None:
            return tuple(range(self.shard_count))
        return _ids(self.shard_ids)


def load_settings(**overrides: object) -> Settings:
    """Settings from the environment and .env, with `overrides` on top (tests, CLI flags).
    A bad value raises `pydantic.ValidationError` (see `describe_error`)."""
    return Settings(**overrides)  # type: ignore[arg-type]


def _allowed(name: str) -> str | None:
    for field in Settings.model_fields.values():
        if field.validation_alias == name:
            return field.description
    return None


def describe_error(error: ValidationError) -> str:
    """One line for a refused setting: its name, the value given and the values allowed."""
    problem = error.errors()[0]
    if not problem["loc"]:  # a check across settings (the shard ids against the count)
        return str(problem["msg"]).removeprefix("Value error, ")
    name = ".".join(str(part) for part in problem["loc"])
    allowed = _allowed(name) or problem["msg"]
    given = "(not shown)" if name in SECRET_SETTINGS else str(problem.get("input"))
    return f"{name}={given} is not allowed: use {allowed}"


def cli_type(kind: Any) -> Callable[[str], Any]:
    """An argparse `type=` that checks a flag's value against the setting type `kind` and
    says, on refusal, what the flag allows (the type's description)."""
    adapter: TypeAdapter[Any] = TypeAdapter(kind)
    allowed = next(
        (
            m.description
            for m in getattr(kind, "__metadata__", ())
            if getattr(m, "description", None)
        ),
        "another value",
    )

    def parse(text: str) -> Any:
        try:
            return adapter.validate_python(text, strict=False)
        except ValidationError:
            raise argparse.ArgumentTypeError(f"{text} is not allowed: use {allowed}") from None

    return parse
