"""Settings from the environment and `.env` (pydantic-settings). `.env.example` lists them all.

Every setting is checked when it is read: a bad value (`DEUCEBOT_AI_DELAY=abc`,
`DEUCEBOT_TURN_SECONDS=-3`, `DEUCEBOT_LOG_LEVEL=LOUD`) is a `pydantic.ValidationError`,
which the entry points turn into one line naming the setting and what it allows
(`describe_error`). The bounded types (`AiDelay`, `TurnSeconds`) also check the CLI's
`--ai-delay` and `--turn-seconds` (`cli_type`), so a flag and its setting accept the same.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, TypeAdapter, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict


def _upper(value: object) -> object:
    return value.strip().upper() if isinstance(value, str) else value


AiDelay = Annotated[
    float,
    Field(ge=0, le=60, allow_inf_nan=False, description="a number of seconds from 0 to 60"),
]
"""Seconds an AI player waits before it plays."""

TurnSeconds = Annotated[
    int, Field(ge=0, le=3600, description="a whole number of seconds from 0 (off) to 3600")
]
"""A turn timer in seconds; 0 is off (the same range as `/table create turn_seconds`)."""

LogLevel = Annotated[
    Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"],
    BeforeValidator(_upper),
    Field(description="one of DEBUG, INFO, WARNING, ERROR, CRITICAL"),
]
Synchronous = Annotated[
    Literal["NORMAL", "FULL"],
    BeforeValidator(_upper),
    Field(description="full (nothing acknowledged is ever lost) or normal (faster)"),
]


class Settings(BaseSettings):
    """Every setting of the bot and the terminal front, with its default."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: str | None = Field(default=None, validation_alias="DISCORD_TOKEN")
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
    board_edit_seconds: float = Field(
        default=1.0,
        ge=0,
        le=60,
        allow_inf_nan=False,
        validation_alias="DEUCEBOT_BOARD_EDIT_SECONDS",
        description="a number of seconds from 0 to 60",
    )
    """Discord: least seconds between two edits of a board (bursts are coalesced)."""
    rest_per_second: int = Field(
        default=45,
        ge=1,
        le=50,
        validation_alias="DEUCEBOT_REST_PER_SECOND",
        description="a whole number from 1 to 50",
    )
    """Discord: REST requests per second the bot allows itself (Discord's global limit is 50;
    interaction answers are not counted)."""
    ai_processes: int = Field(
        default=1,
        ge=0,
        le=64,
        validation_alias="DEUCEBOT_AI_PROCESSES",
        description="a whole number from 0 (threads) to 64",
    )
    """Worker processes for AI decisions (0: threads in the bot process)."""
    max_tables_per_server: int = Field(
        default=20,
        ge=0,
        le=10_000,
        validation_alias="DEUCEBOT_MAX_TABLES_PER_SERVER",
        description="a whole number from 0 (no cap) to 10000",
    )
    """Live (not stopped) tables one Discord server may have at once; 0: no cap."""
    stats_cooldown: float = Field(
        default=30.0,
        ge=0,
        le=3600,
        allow_inf_nan=False,
        validation_alias="DEUCEBOT_STATS_COOLDOWN",
        description="a number of seconds from 0 to 3600",
    )
    """Seconds before a member may run /stats (or /leaderboard) again; 0: no cooldown."""
    hint_cooldown: float = Field(
        default=5.0,
        ge=0,
        le=3600,
        allow_inf_nan=False,
        validation_alias="DEUCEBOT_HINT_COOLDOWN",
        description="a number of seconds from 0 to 3600",
    )
    """Seconds before a member may ask for a hint again (/hint or the Hint button)."""
    create_cooldown: float = Field(
        default=10.0,
        ge=0,
        le=3600,
        allow_inf_nan=False,
        validation_alias="DEUCEBOT_CREATE_COOLDOWN",
        description="a number of seconds from 0 to 3600",
    )
    """Seconds before a member may run /table create again."""


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
    name = ".".join(str(part) for part in problem["loc"]) or error.title
    allowed = _allowed(name) or problem["msg"]
    return f"{name}={problem.get('input')!s} is not allowed: use {allowed}"


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
