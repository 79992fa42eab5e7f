"""Hostile pages: one member opening page after page is stopped at a cap, in their words,
and a page closed frees its place under the cap."""

from __future__ import annotations

from pathlib import Path

import pytest
from aiohttp import WSServerHandshakeError

from bot.i18n import t
from bot.web.server import MAX_PAGES
from tests.bot.web.harness import TOKEN, web_table


async def test_one_member_holds_at_most_max_pages_open(tmp_path: Path) -> None:
    async with web_table(tmp_path, "duel", 3) as web:
        pages = [await web.open() for _ in range(MAX_PAGES)]
        with pytest.raises(WSServerHandshakeError) as refused:
            await web.session.ws_connect(web.url("/ws", token=TOKEN))
        assert refused.value.status == 429
        said = await web.session.get(web.url("/ws", token=TOKEN, lang="fr"))
        assert said.status == 429
        assert await said.text() == t("web.too_many_pages", "fr", n=MAX_PAGES)
        # Spectators are not this member's pages: they still get in.
        watcher = await web.open(watch="1")
        await watcher.until("state")
        # The open pages still play on; one closed frees its place.
        await pages[0].until("state")
        await pages.pop().ws.close()
        again = await web.open()
        assert (await again.until("state"))["seat"] == 0


async def test_a_deeply_nested_message_is_refused_in_words_and_nothing_changes(
    tmp_path: Path,
) -> None:
    async with web_table(tmp_path, "duel", 2) as web:
        page = await web.open(lang="fr")
        state = await page.until("state")
        turn = web.table.turn
        # Under the 4 KB limit, but deeper than the JSON decoder recurses.
        await page.ws.send_str("[" * 2040 + "]" * 2040)
        refused = await page.until("refused")
        assert refused["text"] == "⛔ " + t("error.web.bad_message", "fr")
        assert web.table.turn == turn
        # The same page is still open and answered.
        await page.ws.send_json({"t": "raise", "verb": "raise", "amount": "lots", "turn": 0})
        assert "lots" in (await page.until("refused"))["text"]
        assert state["n"] == web.table.turn == turn


async def test_a_since_thousands_of_digits_long_still_opens_the_table(tmp_path: Path) -> None:
    async with web_table(tmp_path, "duel", 2) as web:
        page = await web.open(since="9" * 5000)
        state = await page.until("state")
        assert state["n"] == web.table.turn
