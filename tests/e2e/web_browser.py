"""Helpers of the browser tests: Debian's Chromium driven by playwright, and the
`deucebot play GAME --web` child process whose table it plays.

Chromium is found at /usr/bin/chromium; without it the browser tests skip, except under CI
(`CI` set), where they fail: CI installs it (`.ci/run`)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.render.words import say_move
from bot.runtime.replay import match_state, opening_events
from engines.base import Event
from engines.bigtwo import Played
from engines.cards import Card
from engines.registry import get_game
from storage.sqlite import SqliteStorage
from tests.e2e.bot_process import ROOT
from tests.e2e.helpers import cards_in_text
from tests.e2e.process_play import private_cards, revealed_cards

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT_MS = 20_000
"""How long a page may take to show what a test waits for (a hang fails; nothing is timed)."""


def need_chromium() -> None:
    """Skip without Chromium, but fail under CI, which must run these tests."""
    if CHROMIUM.exists():
        return
    if os.environ.get("CI"):
        pytest.fail(f"{CHROMIUM} is missing: CI must install chromium (.ci/run)")
    pytest.skip(f"no {CHROMIUM} here")


@contextlib.asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    """A headless Chromium (playwright's `Browser`)."""
    need_chromium()
    from playwright.async_api import async_playwright

    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            await browser.close()


def free_port() -> int:
    """A port free on loopback now (for a child that must keep it across a restart)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class WebChild:
    """A `deucebot play GAME --web` child process, its output in a file."""

    proc: asyncio.subprocess.Process
    out: Path

    async def url(self) -> str:
        """The table's URL, printed on a line of its own."""
        for _ in range(600):
            text = self.out.read_text()
            found = re.search(r"^(http://127\.0\.0\.1:\d+/\?token=\S+)$", text, re.MULTILINE)
            if found:
                return found.group(1)
            if self.proc.returncode is not None:
                raise AssertionError(f"the table exited: {text}")
            await asyncio.sleep(0.05)
        raise AssertionError(f"no URL printed: {self.out.read_text()}")

    async def stop(self, sig: int = signal.SIGTERM) -> int:
        """Signal the child and wait for it."""
        if self.proc.returncode is None:
            self.proc.send_signal(sig)
        return await asyncio.wait_for(self.proc.wait(), 30)


async def start_table(
    tmp: Path, game: str, *flags: str, name: str = "web", lang: str | None = None
) -> WebChild:
    """Start `deucebot play GAME --web FLAGS` (no AI delay, no browser opened; `lang`: the
    table's language, DEUCEBOT_LANGUAGE)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEUCEBOT_"))}
    env.update(PYTHONPATH=str(ROOT), DEUCEBOT_NO_BROWSER="1", DEUCEBOT_AI_DELAY="0")
    if lang is not None:
        env["DEUCEBOT_LANGUAGE"] = lang
    out = tmp / f"{name}.out"
    with out.open("wb") as sink:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.cli",
            "play",
            game,
            "--web",
            "--ai-delay",
            "0",
            *flags,
            stdout=sink,
            stderr=asyncio.subprocess.STDOUT,
            env=env,
            cwd=tmp,
        )
    return WebChild(proc, out)


@dataclass
class Watched:
    """Every WebSocket frame a page received and its DOM text after each action."""

    frames: list[str] = field(default_factory=list)
    doms: list[str] = field(default_factory=list)

    def attach(self, page: Any) -> None:
        page.on(
            "websocket",
            lambda ws: ws.on("framereceived", lambda frame: self.frames.append(frame)),
        )

    async def snap(self, page: Any) -> None:
        self.doms.append(await page.evaluate("document.documentElement.outerHTML"))

    def cards(self) -> set[Card]:
        found: set[Card] = set()
        for text in (*self.frames, *self.doms):
            found |= cards_in_text(text if isinstance(text, str) else "")
        return found


async def seen_cards(db: Path, seat: int) -> set[Card]:
    """The cards `seat` was shown in its table's current match (its own cards in every view,
    and every card turned face up), replayed from the database log."""
    storage = SqliteStorage(str(db))
    await storage.open()
    try:
        (table,) = await storage.live_tables()
        match = await storage.current_match(table.id)
        assert match is not None
        actions = [a.action for a in await storage.actions(match.id)]
    finally:
        await storage.close()
    spec = get_game(table.game)
    state = match_state(spec, match)
    known: set[Card] = set()

    def learn(events: list[Event]) -> None:
        known.update(private_cards(table.game, state.view(seat)))
        for event in events:
            known.update(revealed_cards(event))
            if isinstance(event, Played):
                known.update(event.cards)

    learn(list(opening_events(state)))
    for text in actions:
        who = state.to_act
        assert who is not None
        learn(list(state.apply(who, spec.parse_action(text))))
    return known


def move_name(game: str, text: str, lang: str = "en") -> str:
    """A move's button name as the page shows it (the server's words)."""
    from bot.render import get_renderer

    said = say_move(text, get_renderer(game).move_areas, lang)
    return said[:1].upper() + said[1:]
