"""Starting the Discord bot: `run()` behind `python -m bot` and `deucebot bot`.

`run()` reads the settings, refuses politely without a token or with a wrong
one (one line each, never a traceback), points discord.py at another API and
gateway when `DISCORD_API_BASE` / `DISCORD_GATEWAY_URL` are set (the local
stand-in of the end-to-end tests), and runs the bot until it is stopped.
"""

from __future__ import annotations

import asyncio
import logging
import sys

import aiohttp
import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.settings import Settings, load_settings

log = logging.getLogger("deucebot.discord")

NO_TOKEN = (
    "deucebot: no Discord token. Put DISCORD_TOKEN=... in .env (see .env.example) "
    "or the environment; `deucebot play bigtwo` plays in the terminal without one."
)
BAD_TOKEN = (
    "deucebot: Discord refused the token in DISCORD_TOKEN. Copy the bot token again from the "
    "developer portal (Bot > Reset Token) into .env."
)


def point_at(settings: Settings) -> None:
    """Use the API base and gateway URL of `settings` (both unset in production)."""
    if settings.discord_api_base:
        Route.BASE = settings.discord_api_base.rstrip("/")
    if settings.discord_gateway_url:
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


class _TokenFilter(logging.Filter):
    """Masks the token in any log record, whatever logged it."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        if self.token and self.token in record.getMessage():
            record.msg = record.getMessage().replace(self.token, "[token]")
            record.args = ()
        return True


def setup_logging(settings: Settings) -> None:
    """Log to stderr at the configured level, never showing the token."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    if settings.discord_token:
        handler.addFilter(_TokenFilter(settings.discord_token))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(settings.log_level.upper())
    logging.getLogger("discord").setLevel(max(logging.INFO, root.level))


async def serve(settings: Settings) -> None:
    """Log in and run the bot until it is closed (raises `discord.LoginFailure` on a bad token)."""
    from bot.discord.client import create_bot

    point_at(settings)
    bot = create_bot(settings)
    async with bot:
        await bot.start(settings.discord_token or "")


def run(settings: Settings | None = None) -> int:
    """Run the bot from the settings; returns the process exit code."""
    settings = settings or load_settings()
    if not settings.discord_token or not settings.discord_token.strip():
        print(NO_TOKEN, file=sys.stderr)
        return 2
    setup_logging(settings)
    try:
        asyncio.run(serve(settings))
    except discord.LoginFailure:
        print(BAD_TOKEN, file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print(
            "deucebot: Discord refused an intent the bot asked for; Deucebot needs none "
            "of the privileged ones, so check the code that built the intents.",
            file=sys.stderr,
        )
        return 2
    except (aiohttp.ClientConnectionError, OSError) as error:
        print(
            f"deucebot: cannot reach Discord ({error.__class__.__name__}); check the network.",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:
        return 130
    return 0
