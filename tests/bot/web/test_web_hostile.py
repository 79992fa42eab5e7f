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
