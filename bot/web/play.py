"""`deucebot play GAME --web`: you against AI players in the browser.

The same table as the terminal's (the place ``terminal:<game>``, the same options, `--db` to
keep and resume it), served on 127.0.0.1 by `bot.web.server` with one sign-in: a random token
in the URL printed on a line of its own. With a SQLite `--db` the token is kept beside the
file (``<db>.web-token``), so a page left open signs in again after a restart and resumes at
the committed state. A browser is opened when one can be (a display, not under tests).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys
import webbrowser
from pathlib import Path
from typing import TextIO

from aiohttp import web

from bot.i18n import normalise_language, t
from bot.process.settings import load_settings
from bot.runtime import TableManager
from bot.terminal.opening import (
    HUMAN_ID,
    open_table,
    place_of,
    play_config,
    play_database,
    player_name,
)
from bot.web.front import WebFront
from bot.web.local import TOKEN_PARAM, LocalAuthenticator, kept_token, new_token
from bot.web.redact import RedactingAccessLogger
from bot.web.server import build_web_app
from engines.registry import get_game
from storage import is_postgres_url, open_storage
from storage.opening import is_memory

GUILD = "terminal"
NO_BROWSER = "DEUCEBOT_NO_BROWSER"
"""Set (to anything) in the environment: never open a browser (tests, servers)."""


def can_open_browser() -> bool:
    """Whether a browser may be opened here: not asked not to, not under tests, and a
    display to show it on (always on macOS and Windows)."""
    env = os.environ
    if env.get(NO_BROWSER) or env.get("PYTEST_CURRENT_TEST") or env.get("CI"):
        return False
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))


def token_for(db: str | None) -> str:
    """The sign-in token: kept beside a SQLite `db` file, else a fresh one."""
    if db and not is_memory(db) and not is_postgres_url(db):
        return kept_token(Path(db + ".web-token"))
    return new_token()


async def serve(args: argparse.Namespace, out: TextIO, err: TextIO = sys.stderr) -> int:
    """Serve the table until SIGINT or SIGTERM; returns the exit code (2: the port could
    not be had, said on `err`)."""
    settings = load_settings()
    lang = normalise_language(getattr(args, "lang", None) or settings.language)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(number, stop.set)
    with play_database(args.db) as path:
        storage = await open_storage(path, synchronous=settings.db_synchronous)
        front = WebFront()
        manager = TableManager(storage, front, config=play_config(args, settings))
        runner: web.AppRunner | None = None
        try:
            place = place_of(get_game(args.game).name)
            await manager.restore(places={place})
            opened = await open_table(manager, args, lang)
            for line in (opened.kept, opened.news(lang)):
                if line:
                    print(line, file=out)
            token = token_for(args.db)
            name = opened.name or player_name(args, lang)  # a saved seat keeps its name
            # The page speaks the terminal's language (a saved table's may be another).
            authenticator = LocalAuthenticator(place, HUMAN_ID, name, token, lang)
            runner = web.AppRunner(
                build_web_app(manager, front, [authenticator], restarts=True),
                access_log_class=RedactingAccessLogger,
            )
            await runner.setup()
            try:
                await web.TCPSite(runner, "127.0.0.1", args.port).start()
            except OSError as error:
                print(t("web.port_taken", lang, port=args.port, reason=error.strerror), file=err)
                return 2
            port = runner.addresses[0][1]
            url = f"http://127.0.0.1:{port}/?{TOKEN_PARAM}={token}"
            print(t("web.serving", lang), file=out)
            print(url, file=out, flush=True)
            if can_open_browser():
                with contextlib.suppress(webbrowser.Error):
                    webbrowser.open(url)
            await stop.wait()
        finally:
            if runner is not None:
                await runner.cleanup()
            await manager.close()
            await storage.close()
            for number in (signal.SIGINT, signal.SIGTERM):
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                    loop.remove_signal_handler(number)
    saved = bool(args.db) and not is_memory(args.db)
    print(t("console.saved" if saved else "console.unsaved", lang), file=out, flush=True)
    return 0


def run_web(args: argparse.Namespace) -> int:
    """`deucebot play GAME --web`."""
    return asyncio.run(serve(args, sys.stdout))
