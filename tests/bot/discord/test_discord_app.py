"""The entry point's pieces: the URL settings hook, the token-masking log filter and the
shutdown on a signal."""

from __future__ import annotations

import asyncio
import io
import logging
import socket
from collections.abc import Iterator

import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.discord import app
from bot.discord.app import NO_TOKEN, _TokenFilter, point_at, run, run_until, setup_logging
from bot.process.settings import load_settings


def test_point_at_moves_the_rest_base_and_the_gateway(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Route, "BASE", Route.BASE)
    monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", DiscordWebSocket.DEFAULT_GATEWAY)
    point_at(
        load_settings(
            DISCORD_API_BASE="http://127.0.0.1:9/api/v10/",
            DISCORD_GATEWAY_URL="ws://127.0.0.1:9/gw",
        )
    )
    assert Route.BASE == "http://127.0.0.1:9/api/v10"
    assert yarl.URL("ws://127.0.0.1:9/gw") == DiscordWebSocket.DEFAULT_GATEWAY


def test_unset_urls_leave_discord_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Route, "BASE", "https://discord.com/api/v10")
    point_at(load_settings(DISCORD_API_BASE=None, DISCORD_GATEWAY_URL=None))
    assert Route.BASE == "https://discord.com/api/v10"


def test_the_token_never_reaches_a_log_line() -> None:
    record = logging.LogRecord(
        "x", logging.INFO, __file__, 1, "sent %s to %s", ("abc.SECRET", "y"), None
    )
    assert _TokenFilter("abc.SECRET").filter(record)
    assert record.getMessage() == "sent [token] to y"


def test_the_token_never_reaches_exception_text_or_stacks() -> None:
    token = "abc.SECRET"
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    handler.addFilter(_TokenFilter(token))
    logger = logging.getLogger("tests.token-mask")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        try:
            try:
                raise KeyError(f"header Authorization: Bot {token}")
            except KeyError as cause:
                raise RuntimeError(f"login with {token} failed") from cause
        except RuntimeError:
            logger.exception("request failed")
        logger.warning("where %s came from", "here", stack_info=True)
        logger.error(f"plain {token}")
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
    text = stream.getvalue()
    assert token not in text
    assert "login with [token] failed" in text and "Bot [token]" in text
    assert "Traceback" in text and "Stack (most recent call last)" in text
    assert "plain [token]" in text


def test_setup_logging_masks_exceptions_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    try:
        setup_logging(load_settings(DISCORD_TOKEN="xyz.TOKEN", DEUCEBOT_LOG_LEVEL="INFO"))
        try:
            raise ValueError("bad token xyz.TOKEN")
        except ValueError:
            logging.getLogger("tests.setup").exception("failed")
    finally:
        root.handlers[:], root.level = saved
    err = capsys.readouterr().err
    assert "ValueError: bad token [token]" in err and "xyz.TOKEN" not in err


def test_run_without_a_token_prints_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(load_settings(DISCORD_TOKEN="  ")) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [NO_TOKEN]


@pytest.fixture
def refused_port() -> Iterator[int]:
    """A loopback port that refuses connections: bound by us (so nobody else listens on
    it) but never listening."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield int(sock.getsockname()[1])


def test_an_unreachable_discord_gives_one_line(
    capsys: pytest.CaptureFixture[str], refused_port: int
) -> None:
    settings = load_settings(
        DISCORD_TOKEN="x",
        DISCORD_API_BASE=f"http://127.0.0.1:{refused_port}/api/v10",
        DISCORD_GATEWAY_URL=f"ws://127.0.0.1:{refused_port}/gateway",
        DEUCEBOT_DB=":memory:",
    )
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        assert run(settings) == 1
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
        Route.BASE = "https://discord.com/api/v10"
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL("wss://gateway.discord.gg/")
    err = capsys.readouterr().err
    assert "cannot reach Discord" in err and "Traceback" not in err


def test_a_shutdown_that_hangs_still_ends_the_process() -> None:
    import subprocess
    import sys
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    hang = "from bot.discord.app import exit_after; exit_after(0.5); import time; time.sleep(60)"
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", hang],
        capture_output=True,
        text=True,
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": ""},
        timeout=30,
    )
    assert done.returncode == 1
    assert time.monotonic() - started < 20
    assert "every accepted action was already saved" in done.stderr


class _Gateway:
    """A stand-in for `bot.start`: runs until `close`; `swallow` cancels are lost the way
    Python 3.11's `asyncio.wait_for` loses one that arrives as the handshake completes."""

    def __init__(self, swallow: int) -> None:
        self.swallow = swallow
        self.closed = asyncio.Event()
        self.closes = 0
        self.cancels = 0

    async def start(self) -> None:
        while True:
            try:
                await self.closed.wait()
                return
            except asyncio.CancelledError:
                self.cancels += 1
                if self.cancels > self.swallow:
                    raise
                current = asyncio.current_task()
                assert current is not None
                current.uncancel()

    async def close(self) -> None:
        self.closes += 1
        self.closed.set()


@pytest.mark.parametrize("swallow", [0, 1])
async def test_a_stop_ends_the_bot_even_when_its_cancel_is_swallowed(
    monkeypatch: pytest.MonkeyPatch, swallow: int
) -> None:
    monkeypatch.setattr(app, "CANCEL_GRACE", 0.05)
    gateway, stop = _Gateway(swallow), asyncio.Event()
    running = asyncio.ensure_future(run_until(gateway.start(), stop, gateway.close))
    await asyncio.sleep(0.01)
    assert not running.done()
    stop.set()
    await asyncio.wait_for(running, 2)
    assert gateway.cancels == 1
    # A cancel that worked leaves the closing to the caller (`async with bot`); a lost one
    # is made up for by closing the bot here.
    assert gateway.closes == swallow


async def test_a_bot_that_ends_by_itself_is_neither_cancelled_nor_closed() -> None:
    gateway, stop = _Gateway(0), asyncio.Event()
    running = asyncio.ensure_future(run_until(gateway.start(), stop, gateway.close))
    gateway.closed.set()
    await asyncio.wait_for(running, 2)
    assert (gateway.cancels, gateway.closes) == (0, 0)
