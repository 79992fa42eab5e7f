"""The web table served by the Discord bot's own process (`python -m bot`) with the Discord
stand-in: four members at one Big Two table, each opening their own signed `/hand` link in
their own browser context (headless Chromium), play a whole deal by clicks while the
stand-in shows the same table's board; after every action the pages and the Discord board
agree (the turn, whose turn it is, the cards left), and no frame or DOM of a member ever
holds a card they were not shown."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from bot.i18n import t
from deucebot_dev.discord_standin import FakeDiscord, User
from tests.e2e.bot_process import bot_env, spawn_bot
from tests.e2e.conftest import running_standin
from tests.e2e.helpers import board, boards, mentioned
from tests.e2e.process_play import stop
from tests.e2e.test_web_browser import click_a_move
from tests.e2e.web_browser import WAIT_MS, Watched, chromium, free_port, need_chromium, seen_cards

pytestmark = pytest.mark.slow

SECRET = "a-link-secret-of-the-tests-32-characters-or-more"
PUBLIC = "https://deucebot.example.org"
TURN = re.compile(r"turn (\d+)$")
SECONDS_LEFT = re.compile(r", \d+ s left")
MAX_ACTIONS = 120


@pytest.fixture(autouse=True)
def _chromium_present() -> None:
    need_chromium()


async def _link(fake: FakeDiscord, user: User, port: int) -> str:
    """`user`'s browser link from their hand's "Open in browser", at the bot's web port
    (the public URL's reverse proxy stands aside in this test)."""
    hand = (await fake.click(user, board(fake), "db:hand:")).message
    assert hand is not None
    offer = (await fake.click(user, hand, "db:browser:")).message
    assert offer is not None
    [url] = [u for u in offer.link_urls() if u.startswith(PUBLIC)]
    return f"http://127.0.0.1:{port}{urlparse(url).path}"


async def _shown(page: Any) -> dict[str, Any]:
    """What a page shows: its turn, whose turn, the cards left per seat, the result."""
    found: dict[str, Any] = await page.evaluate(
        """() => ({
            turn: Number(document.body.dataset.turn ?? -1),
            whose: document.getElementById('turn').textContent,
            seats: [...document.querySelectorAll('#seats li')].map((li) => li.textContent),
            over: !document.getElementById('result').hidden,
            alt: document.getElementById('alt').textContent,
            hand: document.querySelectorAll('#hand button').length,
            moves: document.querySelectorAll('#moves button:not([disabled])').length,
        })"""
    )
    return found


def _discord(fake: FakeDiscord) -> tuple[int, str, str]:
    """What the Discord board shows: its turn (the footer), whose turn (the description's
    last line) and its picture's description (seats, cards left, the last play)."""
    shown = board(fake)
    embed = shown.embeds[0]
    found = TURN.search(str(embed["footer"]["text"]))
    assert found, embed["footer"]
    whose = str(embed["description"]).splitlines()[-1]
    return int(found.group(1)), whose, untimed(shown.descriptions[0])


def _caught_up(fake: FakeDiscord, turn: int) -> bool:
    return _discord(fake)[0] >= turn


def untimed(text: str) -> str:
    """A table's description without its clock (read at another instant on each side)."""
    return SECONDS_LEFT.sub("", text)


async def _play_the_deal(
    fake: FakeDiscord, members: list[User], pages: list[Any], watched: list[Watched]
) -> None:
    """Click through the deal, whoever's turn it is, checking after every action that the
    four pages and the Discord board agree."""
    yours = t("web.turn.yours", "en")
    for _ in range(MAX_ACTIONS):
        shown = [await _shown(page) for page in pages]
        turn = shown[0]["turn"]
        assert all(s["turn"] == turn for s in shown), shown
        if all(s["over"] for s in shown):
            return
        # The Discord board catches up with the pages' committed turn, then says the same.
        await fake.wait_for(functools.partial(_caught_up, fake, turn), 20)
        discord_turn, whose, described = _discord(fake)
        assert discord_turn == turn
        mine = [i for i, s in enumerate(shown) if s["whose"] == yours]
        assert len(mine) == 1, shown
        [actor] = mine
        assert mentioned(fake) == members[actor].id
        for i, s in enumerate(shown):
            assert untimed(s["alt"]) == described, (members[i].name, s["alt"], described)
            if i != actor:
                assert s["whose"] == whose
                assert s["hand"] == 0 or not s["moves"], "only the actor has moves"
        await click_a_move(pages[actor], "bigtwo")
        for page, seen in zip(pages, watched, strict=True):
            await page.wait_for_function(
                "([after]) => Number(document.body.dataset.turn) > after"
                " || Number(document.body.dataset.refusals ?? 0) > 0",
                arg=[turn],
                timeout=WAIT_MS,
            )
            await seen.snap(page)
        refusals = await pages[actor].evaluate("document.body.dataset.refusals ?? '0'")
        assert refusals == "0", await pages[actor].locator("#notice").text_content()
    raise AssertionError("the deal did not end")


async def test_four_members_play_a_deal_in_their_browsers_as_discord_shows_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "bot.sqlite3"
    port = free_port()
    async with running_standin() as fake:
        members = [fake.owner, fake.add_user("Bo"), fake.add_user("Cy"), fake.add_user("Di")]
        env = {
            **fake.env(),
            "DEUCEBOT_PUBLIC_URL": PUBLIC,
            "DEUCEBOT_LINK_SECRET": SECRET,
            "DEUCEBOT_WEB_PORT": str(port),
            "DEUCEBOT_DB": str(db),
        }
        watched: list[Watched] = []
        bot = await spawn_bot(bot_env(env, tmp_path), tmp_path)
        try:
            await fake.wait_ready(60)
            await fake.command(fake.owner, "table create", game="bigtwo", deals=1)
            for member in members[1:]:
                await fake.command(member, "table join")
            await fake.command(fake.owner, "table start")
            await fake.wait_for(lambda: boards(fake) and mentioned(fake) is not None, 20)
            links = [await _link(fake, member, port) for member in members]
            async with chromium() as browser:
                pages = []
                for link in links:
                    context = await browser.new_context()
                    page = await context.new_page()
                    seen = Watched()
                    seen.attach(page)
                    await page.goto(link)
                    assert urlparse(page.url).path == f"/s/0/table/{fake.channel_id}/"
                    await page.locator("#hand button").first.wait_for(timeout=WAIT_MS)
                    pages.append(page)
                    watched.append(seen)
                await _play_the_deal(fake, members, pages, watched)
        finally:
            await stop(bot)
    # What each member's frames and DOM held, against what their seat was shown (replayed
    # from the log once the bot has let go of its database).
    for seat, seen in enumerate(watched):
        assert seen.frames and seen.doms
        leaked = seen.cards() - await seen_cards(db, seat)
        assert not leaked, (members[seat].name, leaked)
