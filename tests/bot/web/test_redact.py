"""Access-log lines without tokens (`bot.web.redact`): a link's token in the path, a link or
session in the query, none of them reaches the log; aiohttp's own access log would write
them all."""

from __future__ import annotations

import logging
import string

import aiohttp
import pytest
from aiohttp import web
from hypothesis import given
from hypothesis import strategies as st

from bot.web.links import LinkAuthenticator, LinkSigner, add_routes
from bot.web.redact import HIDDEN, RedactingAccessLogger, redact

TOKEN_CHARS = string.ascii_letters + string.digits + "-_."


async def _generation(player_id: str) -> int:
    return 0


async def _table(request: web.Request) -> web.Response:
    return web.Response(text="table")


class Lines(logging.Handler):
    """The log lines a logger writes."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


async def _logged(paths: list[str], **runner: object) -> list[str]:
    """The access-log lines of requests to `paths` on a server with the link routes."""
    signer = LinkSigner("k" * 32)
    app = web.Application()
    add_routes(app, LinkAuthenticator(signer, _generation, {"77": 3}.get))
    app.router.add_get("/s/{shard}/table/{place}", _table)
    logger = logging.getLogger(f"test.access.{id(paths)}")
    logger.setLevel(logging.INFO)
    logger.propagate = False
    lines = Lines()
    logger.addHandler(lines)
    run = web.AppRunner(app, access_log=logger, **runner)  # type: ignore[arg-type]
    await run.setup()
    site = web.TCPSite(run, "127.0.0.1", 0)
    await site.start()
    port = run.addresses[0][1]
    try:
        async with aiohttp.ClientSession() as http:
            for path in paths:
                async with http.get(f"http://127.0.0.1:{port}{path}", allow_redirects=False):
                    pass
    finally:
        await run.cleanup()
    return lines.lines


async def test_no_token_reaches_the_access_log() -> None:
    token = LinkSigner("k" * 32).make(
        place="77", table_id=3, player_id="1001", name="Ada", locale="en", generation=0
    )
    session = "eyJzZXNzaW9uIjoxfQ.c2lnbmF0dXJl"
    paths = [
        f"/s/0/link/{token}",
        f"/s/0/table/77?session={session}&x=1",
        f"/s/0/table/77?link={token}",
    ]
    # aiohttp's own access log writes every token: the hole this logger closes.
    plain = await _logged(paths)
    assert any(token in line for line in plain) and any(session in line for line in plain)
    lines = await _logged(paths, access_log_class=RedactingAccessLogger)
    assert len(lines) == 3
    assert all(token not in line and session not in line for line in lines)
    assert '"GET /s/0/link/(hidden)" 303' in lines[0]
    assert '"GET /s/0/table/77?session=(hidden)&x=1" 200' in lines[1]
    assert "/s/0/table/77?link=(hidden)" in lines[2]


@pytest.mark.parametrize(
    ("path", "shown"),
    [
        ("/s/0/table/77", "/s/0/table/77"),
        ("/s/1/link/abc.def", "/s/1/link/(hidden)"),
        (
            "/activity/.proxy/s/1/table/77?session=s.t&lang=fr",
            "/activity/.proxy/s/1/table/77?session=(hidden)&lang=fr",
        ),
        ("/x?CODE=c", "/x?CODE=(hidden)"),
    ],
)
def test_redact(path: str, shown: str) -> None:
    assert redact(path) == shown


@given(
    st.text(TOKEN_CHARS, min_size=8, max_size=80),
    st.sampled_from(["/link/{t}", "/table/1?link={t}", "/table/1?a=b&session={t}", "/x?code={t}"]),
)
def test_a_token_is_never_in_a_redacted_path(token: str, shape: str) -> None:
    shown = redact(shape.format(t=token))
    assert token not in shown and HIDDEN in shown
