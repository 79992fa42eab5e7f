"""Settings from the environment and `.env` (pydantic-settings). `.env.example` lists them all."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Every setting of the bot and the terminal front, with its default."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: str | None = Field(default=None, validation_alias="DISCORD_TOKEN")
    dev_guild_id: int | None = Field(default=None, validation_alias="DEV_GUILD_ID")
    discord_api_base: str | None = Field(default=None, validation_alias="DISCORD_API_BASE")
    discord_gateway_url: str | None = Field(default=None, validation_alias="DISCORD_GATEWAY_URL")
    db: str = Field(default="deucebot.sqlite3", validation_alias="DEUCEBOT_DB")
    """A SQLite file path or a postgresql:// URL (`storage.open_storage`)."""
    language: str = Field(default="en", validation_alias="DEUCEBOT_LANGUAGE")
    ai_delay: float = Field(default=1.0, ge=0, validation_alias="DEUCEBOT_AI_DELAY")
    turn_seconds: int = Field(default=60, ge=0, validation_alias="DEUCEBOT_TURN_SECONDS")
    log_level: str = Field(default="INFO", validation_alias="DEUCEBOT_LOG_LEVEL")
    board_edit_seconds: float = Field(
        default=1.0, ge=0, validation_alias="DEUCEBOT_BOARD_EDIT_SECONDS"
    )
    """Discord: least seconds between two edits of a board (bursts are coalesced)."""
    ai_processes: int = Field(default=1, ge=0, validation_alias="DEUCEBOT_AI_PROCESSES")
    """Worker processes for AI decisions (0: threads in the bot process)."""


def load_settings(**overrides: object) -> Settings:
    """Settings from the environment and .env, with `overrides` on top (tests, CLI flags)."""
    return Settings(**overrides)  # type: ignore[arg-type]
