"""JSON-lines logs: one object per line with the bound guild, table and match ids, the
token masked in messages and tracebacks alike."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Iterator

import pytest

from bot.discord.app import setup_logging
from bot.process.jsonlog import bind_ids
from bot.process.settings import load_settings

TOKEN = "MTIz.secret-token.xyz"


@pytest.fixture
def stream() -> Iterator[io.StringIO]:
    """What the bot's log handler writes (set up as the bot does, JSON lines)."""
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    setup_logging(load_settings(DISCORD_TOKEN=TOKEN, DEUCEBOT_LOG_FORMAT="JSON"))
    written = io.StringIO()
    handler = root.handlers[0]
    assert isinstance(handler, logging.StreamHandler)
    handler.setStream(written)
    try:
        yield written
    finally:
        root.handlers[:], root.level = saved


log = logging.getLogger("deucebot.test")


def lines(stream: io.StringIO) -> list[dict[str, str]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_one_object_per_line_with_the_ids_of_its_task(stream: io.StringIO) -> None:
    async def outbox() -> None:
        bind_ids(guild=7, table=3, match=12)
        log.warning("could not post\nthe board")

    asyncio.run(outbox())
    log.info("no table here")
    log.info("explicit", extra={"table": 9})
    first, second, third = lines(stream)
    assert first["message"] == "could not post\nthe board" and first["level"] == "WARNING"
    assert (first["guild"], first["table"], first["match"]) == ("7", "3", "12")
    assert first["logger"] == "deucebot.test" and first["ts"].endswith("+00:00")
    assert "table" not in second and third["table"] == "9"


def test_the_token_never_appears(stream: io.StringIO) -> None:
    try:
        raise RuntimeError(f"login with {TOKEN} failed")
    except RuntimeError:
        log.exception("token %s refused", TOKEN)
    text = stream.getvalue()
    assert TOKEN not in text
    (line,) = [json.loads(x) for x in text.splitlines()]
    assert line["message"] == "token [token] refused" and "[token]" in line["exc"]
