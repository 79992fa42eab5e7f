"""A seat's private lines belong to the player who held it then, and a place's journal to
one table: a seat that changes hands, or a new table at the same place, never replays
another player's cards."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import cast

from aiohttp.test_utils import TestServer

from bot.runtime import Player
from bot.runtime.snapshot import TableSnapshot
from bot.terminal.console import place_of
from bot.web.front import WebFront
from bot.web.local import LocalAuthenticator
from bot.web.server import build_web_app
from engines.cards import parse_cards
from engines.holdem import HoleCards
from tests.bot.web.harness import Page, frame_cards, web_table


async def test_a_seats_new_owner_never_gets_its_earlier_owners_cards(tmp_path: Path) -> None:
    async with web_table(tmp_path, "holdem", 7) as web:
        table = web.table
        place = place_of("holdem")
        # Carol held seat 1 earlier: her hole cards (here seat 2's, which nobody at seat 1
        # may ever see) were journalled for seat 1's owner then.
        secret = tuple(table.view(2).hole)
        carol = Player("carol", "Carol")
        hole = HoleCards(to=1, seat=1, cards=secret)
        await web.front.private(table.snapshot(1), 1, carol, [hole])
        # Bob takes the seat over (an AI plays it now) and opens his page.
        await table.join(Player("bob", "Bob"), seat=1)
        auth = [LocalAuthenticator(place, "bob", "Bob", "bob-token")]
        server = TestServer(build_web_app(web.manager, web.front, auth), host="127.0.0.1")
        await server.start_server()
        try:
            url = str(server.make_url("/ws")) + "?token=bob-token"
            page = Page(await web.session.ws_connect(url))
            await page.until("hello")
            state = await page.until("state")
            assert state["seat"] == 1
            shown = set().union(*(frame_cards(f) for f in page.frames))
            assert not shown & set(secret), [f for f in page.frames if f["t"] == "log"]
            # Carol herself, were she back at seat 1, is the one the line was for.
            got = web.front.since(place, -1, state["n"], 1, "carol", table.id)
            assert got is not None and any(e.owner == "carol" for e in got)
            await page.ws.close()
        finally:
            await server.close()


def _snapshot(table_id: int, turn: int) -> TableSnapshot:
    fake = SimpleNamespace(place="p", id=table_id, turn=turn, game="holdem", names=["a", "b"])
    return cast(TableSnapshot, fake)


async def test_a_new_table_at_the_place_never_replays_the_old_tables_lines() -> None:
    front = WebFront()
    ann = Player("ann", "Ann")
    hole = HoleCards(to=0, seat=0, cards=tuple(parse_cards("As Kd")))
    await front.private(_snapshot(1, 5), 0, ann, [hole])
    assert [e.owner for e in front.since("p", 4, 9, 0, "ann", 1) or []] == ["ann"]
    # Table 2 opens at the same place: its turns count from 0 again.
    await front.refresh(_snapshot(2, 0))
    for since in (-1, 0, 3):
        assert not front.since("p", since, 9, 0, "ann", 2)
    # A page still naming the old table gets a fresh state, not the new table's entries.
    assert front.since("p", 3, 9, 0, "ann", 1) is None
