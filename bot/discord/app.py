"""Starting the Discord bot: `run()` behind `python -m bot` and `deucebot bot`.

`run()` reads the settings, refuses politely without a token or with a wrong
one (one line each, never a traceback), points discord.py at another API and
gateway when `DISCORD_API_BASE` / `DISCORD_GATEWAY_URL` are set (the local
stand-in of the end-to-end tests), and runs the bot until it is stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import aiohttp
import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.discord.delivery_hooks import NO_HOOKS, DeliveryHooks
from bot.process import event_loop
from bot.process.jsonlog import JsonLines
from bot.process.settings import Settings, load_settings
from bot.runtime.shard_lease import ShardsTaken
from storage.base import CannotOpenDatabase

log = logging.getLogger("deucebot.discord")

KILL_AT = "DEUCEBOT_KILL_AT"
"""Set (crash tests only), the bot kills itself at the point it names
(`deucebot_dev.crashpoints`)."""

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
    """Masks the token in any log record, whatever logged it: its message, its exception
    text (traceback, chained exceptions) and its stack, so no formatter can print it."""

    def __init__(self, token: str) -> None:
        """A filter masking `token` (an empty token masks nothing)."""
        super().__init__()
        self.token = token

    def _mask(self, text: str) -> str:
        return text.replace(self.token, "[token]")

    def filter(self, record: logging.LogRecord) -> bool:
        """Mask the record in place; never drops it."""
        if not self.token:
            return True
        message = record.getMessage()
        if self.token in message:
            record.msg, record.args = self._mask(message), ()
        if record.exc_info and not record.exc_text:
            # Formatters reuse `exc_text` once it is set: set it, masked.
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self._mask(record.exc_text)
        if record.stack_info:
            record.stack_info = self._mask(record.stack_info)
        return True


def setup_logging(settings: Settings) -> None:
    """Log to stderr at the configured level and format, never showing the token."""
    handler = logging.StreamHandler(sys.stderr)
    if settings.log_format == "json":
        handler.setFormatter(JsonLines())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    if settings.discord_token:
        handler.addFilter(_TokenFilter(settings.discord_token))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(settings.log_level.upper())
    logging.getLogger("discord").setLevel(max(logging.INFO, root.level))


SHUTDOWN_LIMIT = 20.0
"""Seconds the process may spend shutting down once it was told to stop (Ctrl+C)."""


def exit_after(seconds: float) -> None:
    """Make sure the process ends within `seconds`: a daemon thread exits it then if it is
    still shutting down. Safe because every accepted action is already committed; a wait
    in a library's shutdown (a websocket close handshake, a worker pool's threads) must
    not keep a stopped bot alive."""

    def watchdog() -> None:
        time.sleep(seconds)
        sys.stderr.write(
            f"deucebot: shutdown took over {seconds:.0f} s; exiting now "
            "(every accepted action was already saved)\n"
        )
        sys.stderr.flush()
        os._exit(1)

    threading.Thread(target=watchdog, name="exit-after", daemon=True).start()


def stop_on_signals(stop: Callable[[], None], limit: float) -> None:
    """SIGINT (Ctrl+C) and SIGTERM (systemd, docker stop) stop the bot gracefully: `stop`
    is called, so the bot closes its tables, database and connection, and the process
    ends within `limit` seconds whatever happens (`exit_after`). Installed on the loop,
    so it works even where the process was started with SIGINT ignored (a background
    job); a second signal exits at once."""
    loop = asyncio.get_running_loop()
    stopping = False

    def on_signal(name: str) -> None:
        nonlocal stopping
        if stopping:
            sys.stderr.write(f"deucebot: second {name}: exiting now\n")
            os._exit(1)
        stopping = True
        log.info("%s received: shutting down", name)
        exit_after(limit)
        stop()

    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # no such API on Windows
            loop.add_signal_handler(sig, on_signal, sig.name)


CANCEL_GRACE = 2.0
"""Seconds a cancelled `bot.start` gets to end before the bot is closed instead."""


async def run_until(
    start: Coroutine[Any, Any, None], stop: asyncio.Event, close: Callable[[], Awaitable[None]]
) -> None:
    """Run `start` (the bot's login and gateway loop) until it ends or `stop` is set; then
    cancel it, and if it is still running `CANCEL_GRACE` s later, `close` it.

    A single cancel is not enough: on Python 3.11, `asyncio.wait_for` swallows a cancel
    that arrives as its inner future completes (discord.py waits for the gateway's
    handshake that way), and the bot then runs on as if never told to stop. `close` ends
    discord.py's gateway loop whatever it was doing."""
    task = asyncio.ensure_future(start)
    stopped = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({task, stopped}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopped.cancel()
        if not task.done():
            task.cancel()
            done, _ = await asyncio.wait({task}, timeout=CANCEL_GRACE)
            if not done:
                await close()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def delivery_hooks_from_env() -> DeliveryHooks:
    """The crash tests' kill points when `DEUCEBOT_KILL_AT` names one (from the development
    package, `deucebot_dev`), else none."""
    if not os.environ.get(KILL_AT):
        return NO_HOOKS
    from deucebot_dev.crashpoints import CrashPoints

    return CrashPoints.from_env()


async def serve(settings: Settings, shutdown_limit: float | None = None) -> None:
    """Log in and run the bot until it is closed (raises `discord.LoginFailure` on a bad
    token). With `shutdown_limit` (the process entry point), SIGINT and SIGTERM stop it
    and the process ends at most that many seconds later (`stop_on_signals`)."""
    from bot.discord.client import create_bot

    point_at(settings)
    log.info("event loop: %s", event_loop.name(asyncio.get_running_loop()))
    bot = create_bot(settings, delivery_hooks=delivery_hooks_from_env())
    stop = asyncio.Event()
    if shutdown_limit is not None:
        stop_on_signals(stop.set, shutdown_limit)
    async with bot:
        await run_until(bot.start(settings.discord_token or ""), stop, bot.close)


def run(settings: Settings | None = None, shutdown_limit: float | None = None) -> int:
    """Run the bot from the settings; returns the process exit code. `shutdown_limit`: see
    `serve` (the process entry point passes `SHUTDOWN_LIMIT`)."""
    settings = settings or load_settings()
    if not settings.discord_token or not settings.discord_token.strip():
        print(NO_TOKEN, file=sys.stderr)
        return 2
    setup_logging(settings)
    try:
        event_loop.run(serve(settings, shutdown_limit), settings.event_loop)
    except discord.LoginFailure:
        print(BAD_TOKEN, file=sys.stderr)
        return 2
    except CannotOpenDatabase as error:  # DEUCEBOT_DB, opened by the bot's setup
        print(f"deucebot: {error}", file=sys.stderr)
        return 2
    except ShardsTaken as error:  # another live process drives these shards (fencing)
        print(f"deucebot: {error}", file=sys.stderr)
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
    except asyncio.CancelledError:  # cancelled from outside (asyncio.Runner on a Ctrl+C)
        return 0
    return 0
