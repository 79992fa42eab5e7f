"""A page's language (`bot.web.server.page_language`): the viewer's choice, else their own,
else the table's, the browser's last; and the local player's default name on it
(`bot.web.frames.page_names`), said in the page's language, so a page asked in another
language than the table's does not show "Vous" among English words."""

from __future__ import annotations

import pytest
from aiohttp.test_utils import make_mocked_request
from hypothesis import given
from hypothesis import strategies as st

from bot.i18n import LANGUAGES, t
from bot.runtime.options import TableOptions
from bot.runtime.seats import Player, Seat
from bot.runtime.snapshot import TableSnapshot
from bot.terminal.opening import HUMAN_ID
from bot.web.frames import page_names
from bot.web.identity import Viewer
from bot.web.server import page_language
from engines.registry import get_game


def _table(lang: str, *seats: Seat) -> TableSnapshot:
    spec = get_game("holdem")
    options = TableOptions(lang=lang)
    return TableSnapshot(1, "g", "p", "holdem", spec, options, seats, "lobby", 0, 0, *[None] * 4)


@given(st.sampled_from(LANGUAGES), st.sampled_from(LANGUAGES))
def test_the_local_players_default_name_is_said_in_the_pages_language(
    table: str, page: str
) -> None:
    default = t("console.default_name", table)
    seats = (
        Seat(0, Player(HUMAN_ID, default), "random", default),
        # A Discord member whose name happens to be a default name keeps it.
        Seat(1, Player("4242", default), "random", default),
        Seat(2, None, "random", "AI 3"),
    )
    snapshot = _table(table, *seats)
    shown = page_names(snapshot, page)
    assert shown.names == [t("console.default_name", page), default, "AI 3"]
    assert shown._replace(seats=snapshot.seats) == snapshot  # nothing else changes


@pytest.mark.parametrize("name", ["Amélie", "You", "Ви"])
def test_a_name_the_player_chose_or_saved_is_their_name_in_every_language(name: str) -> None:
    # At a French table: `--name Amélie`, `--name You`, or a seat saved in Ukrainian.
    table = _table("fr", Seat(0, Player(HUMAN_ID, name), "random", name))
    for lang in LANGUAGES:
        assert page_names(table, lang) is table


@pytest.mark.parametrize(
    ("query", "locale", "table", "lang"),
    [
        ("", None, "fr", "fr"),  # a French table in an English browser: French
        ("", None, "uk", "uk"),
        ("?lang=en", None, "fr", "en"),  # the viewer asked
        ("", "uk", "fr", "uk"),  # a Discord member's own language, or the terminal's
        ("", None, None, "en"),  # no table yet: the browser's
    ],
)
def test_a_pages_language(query: str, locale: str | None, table: str | None, lang: str) -> None:
    request = make_mocked_request("GET", f"/ws{query}", headers={"Accept-Language": "en-US,en"})
    viewer = Viewer("p", "terminal", "Vous", locale)
    assert page_language(request, viewer, table) == lang


def test_without_a_table_the_browsers_language() -> None:
    request = make_mocked_request("GET", "/ws", headers={"Accept-Language": "uk-UA,uk;q=0.9"})
    assert page_language(request, Viewer("p", None, "Ann"), None) == "uk"
