"""`deucebot play --web`'s own parts: the local sign-in, its kept token, when a browser opens."""

from __future__ import annotations

import io
import socket
import stat
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import make_mocked_request

from bot.cli import build_parser
from bot.i18n import t
from bot.web import play
from bot.web.identity import Viewer, WebAuthError
from bot.web.local import LocalAuthenticator, kept_token
from bot.web.server import sign_in


async def test_the_local_sign_in_knows_only_its_token() -> None:
    local = LocalAuthenticator("terminal:duel", "terminal", "Ann", "secret")
    viewer = await local.authenticate(make_mocked_request("GET", "/?token=secret"))
    assert viewer is not None and viewer.player_id == "terminal" and viewer.place == "terminal:duel"
    assert await local.authenticate(make_mocked_request("GET", "/?other=1")) is None
    with pytest.raises(WebAuthError) as refused:
        await local.authenticate(make_mocked_request("GET", "/?token=secreT"))
    assert refused.value.code == "wrong_token"


def test_a_saved_match_keeps_its_token_for_its_owner_only(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    first = play.token_for(str(db))
    assert play.token_for(str(db)) == first == kept_token(tmp_path / "games.sqlite3.web-token")
    mode = stat.S_IMODE((tmp_path / "games.sqlite3.web-token").stat().st_mode)
    assert mode == 0o600
    # Without a file to keep it beside, every run has a fresh one.
    assert play.token_for(None) != play.token_for(None)
    assert play.token_for("postgresql://u@h/db") != first


def test_no_browser_is_opened_under_tests_or_without_a_display(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(play.sys, "platform", "linux")
    for name in ("CI", play.NO_BROWSER, "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    assert not play.can_open_browser()  # under pytest
    monkeypatch.delenv("PYTEST_CURRENT_TEST")
    assert not play.can_open_browser()  # no display
    monkeypatch.setenv("DISPLAY", ":0")
    assert play.can_open_browser()
    monkeypatch.setenv(play.NO_BROWSER, "1")
    assert not play.can_open_browser()


class _Refusing:
    def __init__(self, code: str) -> None:
        self.code = code

    async def authenticate(self, request: web.Request) -> Viewer | None:
        raise WebAuthError(self.code)


async def test_sign_ins_are_asked_in_turn_and_a_refusal_is_worded() -> None:
    local = LocalAuthenticator("terminal:duel", "terminal", "Ann", "secret")
    request = make_mocked_request("GET", "/?token=secret&lang=fr")
    assert (await sign_in(request, [local, _Refusing("expired")])).name == "Ann"
    for code, key in (("expired", "web.auth.expired"), ("kaput", "web.auth.refused")):
        with pytest.raises(web.HTTPForbidden) as refused:
            await sign_in(request, [_Refusing(code), local])
        assert refused.value.text == t(key, "fr")
    with pytest.raises(web.HTTPForbidden) as nobody:
        await sign_in(make_mocked_request("GET", "/"), [local])
    assert nobody.value.text == t("web.auth.none", "en")


async def test_a_port_in_use_is_refused_in_words(tmp_path: Path) -> None:
    args = build_parser().parse_args(["play", "duel", "--web", "--db", str(tmp_path / "d.db")])
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        args.port = taken.getsockname()[1]
        out, err = io.StringIO(), io.StringIO()
        assert await play.serve(args, out, err) == 2
    assert err.getvalue().startswith(f"Cannot serve the table on 127.0.0.1:{args.port} (")
    assert "http://" not in out.getvalue()
