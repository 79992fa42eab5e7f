"""`deucebot play GAME --web` reads its flags as the terminal does (one table opening,
`bot.terminal.opening`): `--deals` ends the match after that many deals (hold'em: hands),
and a saved match resumed with `--db` keeps its own settings and says so. Each table is the
real process; its page's state is read over the WebSocket, without a browser."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession

from bot.i18n import t
from tests.bot.web.harness import Page, play_deal
from tests.e2e.web_browser import WebChild, start_table


async def play_the_match(child: WebChild, most: int) -> list[dict[str, Any]]:
    """Play the player's seat, as the page does, until the match ends or a deal past `most`
    starts; returns the states read after each deal's result."""
    url = await child.url()
    async with ClientSession() as session:
        ws = await session.ws_connect(url.replace("/?", "/ws?", 1))
        page = Page(ws)
        await page.until("hello")
        state = await page.until("state")
        after: list[dict[str, Any]] = []
        while state["status"] == "playing" and state["deal"] <= most:
            state = await play_deal(page, state)
            after.append(state)
        await ws.close()
    return after


async def test_deals_ends_a_holdem_match_after_that_many_hands(tmp_path: Path) -> None:
    child = await start_table(tmp_path, "holdem", "--seed", "8", "--deals", "2")
    try:
        after = await play_the_match(child, 2)
    finally:
        assert await child.stop() == 0
    assert after[-1]["status"] == "finished", after[-1]["status"]
    assert max(s["deal"] for s in after) == 2, [s["deal"] for s in after]


async def test_a_resumed_draw_match_keeps_its_deals_and_says_so(tmp_path: Path) -> None:
    db = tmp_path / "draw.sqlite3"
    first = await start_table(tmp_path, "draw", "--seed", "3", "--db", str(db), "--deals", "2")
    await first.url()
    assert await first.stop() == 0
    again = await start_table(tmp_path, "draw", "--db", str(db), "--deals", "5", name="again")
    try:
        after = await play_the_match(again, 5)
        said = again.out.read_text()
    finally:
        assert await again.stop() == 0
    kept = t("console.kept_setting", "en", flag="--deals", saved=2, asked=5)
    assert t("console.kept_settings", "en", settings=kept) in said, said
    assert t("console.resumed", "en", turn="@").split("@")[0] in said, said
    assert after[-1]["status"] == "finished" and after[-1]["deal"] == 2, after[-1]


async def first_state(child: WebChild, lang: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The hello frame and the first state of the table's page in `lang` (None: the page's
    own choice)."""
    url = await child.url()
    asked = "" if lang is None else f"&lang={lang}"
    async with ClientSession() as session:
        ws = await session.ws_connect(url.replace("/?", "/ws?", 1) + asked)
        page = Page(ws)
        hello = await page.until("hello")
        state = await page.until("state")
        await ws.close()
    return hello, state


@pytest.mark.parametrize(("lang", "word"), [("fr", "Vous"), ("uk", "Ви")])
async def test_the_default_name_is_you_in_the_tables_language(
    tmp_path: Path, lang: str, word: str
) -> None:
    child = await start_table(tmp_path, "holdem", "--seed", "3", lang=lang)
    try:
        hello, state = await first_state(child, lang)
    finally:
        assert await child.stop() == 0
    assert hello["name"] == word
    assert state["seats"][state["seat"]]["name"] == word
    # The table in words (the picture's alt text) names the player in the page's language.
    assert word in state["alt"] and "You" not in state["alt"], state["alt"]


async def test_a_resumed_match_keeps_its_name_and_an_explicit_name_stays(tmp_path: Path) -> None:
    db = tmp_path / "holdem.sqlite3"
    first = await start_table(tmp_path, "holdem", "--seed", "3", "--db", str(db), lang="uk")
    await first.url()
    assert await first.stop() == 0
    # Resumed in another language: the seat keeps the name it was stored with.
    again = await start_table(tmp_path, "holdem", "--db", str(db), name="again", lang="fr")
    try:
        hello, state = await first_state(again, None)
    finally:
        assert await again.stop() == 0
    # The page speaks the terminal's language, French, the saved table's default name too.
    assert (hello["lang"], hello["name"]) == ("fr", "Ви")
    assert state["seats"][state["seat"]]["name"] == "Vous"
    named = await start_table(tmp_path, "holdem", "--name", "You", name="named", lang="fr")
    try:
        hello, state = await first_state(named, "fr")
    finally:
        assert await named.stop() == 0
    assert state["seats"][state["seat"]]["name"] == "You"
