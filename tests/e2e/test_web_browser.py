"""The web table in a real browser (headless Chromium), against `deucebot play GAME --web`
as its own process: a whole deal of each game played by clicks on controls found by role
and name, a kill and restart mid-deal, a stale click and a double click, the French and
Ukrainian pages, and no card the player was not shown in any frame or the DOM."""

from __future__ import annotations

import re
import signal
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import explain, t
from bot.runtime import errors
from tests.e2e.web_browser import (
    WAIT_MS,
    Watched,
    chromium,
    free_port,
    need_chromium,
    seen_cards,
    start_table,
)

pytestmark = pytest.mark.slow

BETS = re.compile(r"^(Check|Call \d+)$")
"""A poker room's passive move (its words come from `discord.bet.check` and `.call`)."""


@pytest.fixture(autouse=True)
def _chromium_present() -> None:
    need_chromium()


async def turn_of(page: Any) -> int:
    return int(await page.evaluate("Number(document.body.dataset.turn ?? -1)"))


async def wait_for_mine_or_result(page: Any, after: int) -> bool:
    """Wait until the page shows a state past `after` that is the player's turn, or a
    deal's result; True when it is the player's turn."""
    yours = t("web.turn.yours", "en")
    await page.wait_for_function(
        """([yours, after]) => {
            const turn = Number(document.body.dataset.turn ?? -1);
            const result = !document.getElementById('result').hidden;
            const mine = document.getElementById('turn').textContent === yours;
            return result || (turn > after && mine);
        }""",
        arg=[yours, after],
        timeout=WAIT_MS,
    )
    return not await page.locator("#result").is_visible()


async def click_a_move(page: Any, game: str) -> None:
    """Make one move with the page's controls: Big Two plays the hinted cards or passes;
    poker games check or call, else the first move offered; a choice of one card (the
    duel's lock) is a tap on the first card."""
    moves = page.locator("#moves")
    if game == "bigtwo":
        await page.get_by_role("button", name=t("discord.button.hint", "en")).click()
        await page.locator("#notice").filter(has_text="Hint").wait_for(timeout=WAIT_MS)
        chosen = page.locator("#hand button[aria-pressed=true]")
        if await chosen.count():
            await moves.get_by_role("button", name=re.compile(r"^Play ")).click()
        else:
            await moves.get_by_role("button", name="Pass").click()
        return
    passive = moves.get_by_role("button", name=BETS)
    if await passive.count():
        await passive.first.click()
        return
    pick_enabled = page.locator("#hand button:not([disabled])")
    if await pick_enabled.count() and not await moves.locator("button:not([disabled])").count():
        await pick_enabled.first.click()
        return
    await moves.locator("button:not([disabled])").first.click()


async def play_one_deal(page: Any, game: str, watched: Watched, limit: int = 200) -> int:
    """Click through the player's turns until the first deal's result shows; the moves."""
    after = -1
    for made in range(limit):
        if not await wait_for_mine_or_result(page, after):
            return made
        after = await turn_of(page)
        await click_a_move(page, game)
        await page.wait_for_function(
            "([after]) => Number(document.body.dataset.turn) > after"
            " || Number(document.body.dataset.refusals ?? 0) > 0",
            arg=[after],
            timeout=WAIT_MS,
        )
        await watched.snap(page)
        refusals = await page.evaluate("document.body.dataset.refusals ?? '0'")
        assert refusals == "0", await page.locator("#notice").text_content()
    raise AssertionError("the deal did not end")


@pytest.mark.parametrize("game", ["bigtwo", "holdem", "draw", "duel"])
async def test_a_whole_deal_played_by_clicks_shows_no_hidden_card(
    tmp_path: Path, game: str
) -> None:
    db = tmp_path / "play.sqlite3"
    child = await start_table(tmp_path, game, "--seed", "21", "--db", str(db))
    try:
        url = await child.url()
        async with chromium() as browser:
            page = await browser.new_page(viewport={"width": 360, "height": 740})
            watched = Watched()
            watched.attach(page)
            errors_seen: list[str] = []
            page.on("pageerror", lambda error: errors_seen.append(str(error)))
            await page.goto(url)
            made = await play_one_deal(page, game, watched)
            await watched.snap(page)
            assert made > 0
            result = await page.locator("#result-lines").text_content()
            assert result  # the deal's result, apart from the log
            # Every control is a button with a name; cards are named as the game writes them.
            for card in await page.locator("#hand button").all():
                assert re.fullmatch(r"(10|[2-9JQKA])[♦♣♥♠]", await card.text_content() or "")
            # Usable at 360 px: nothing wider than the screen.
            width = await page.evaluate("document.documentElement.scrollWidth")
            assert width <= 360
            assert not errors_seen
    finally:
        assert await child.stop() == 0
    shown = await seen_cards(db, 0)
    leaked = watched.cards() - shown
    assert not leaked, f"the page was sent or showed {leaked}"
    assert len(watched.frames) > made and watched.cards()


async def test_a_restart_mid_deal_and_the_page_plays_on(tmp_path: Path) -> None:
    db = tmp_path / "kept.sqlite3"
    flags = ("--seed", "5", "--db", str(db), "--port", str(free_port()))
    child = await start_table(tmp_path, "holdem", *flags, name="first")
    url = await child.url()
    async with chromium() as browser:
        page = await browser.new_page()
        await page.goto(url)
        assert await wait_for_mine_or_result(page, -1)
        before = await turn_of(page)
        await click_a_move(page, "holdem")
        await page.wait_for_function(
            "([n]) => Number(document.body.dataset.turn) > n", arg=[before], timeout=WAIT_MS
        )
        await child.stop(signal.SIGKILL)
        await (
            page.get_by_role("status")
            .filter(has_text=t("web.reconnecting", "en"))
            .wait_for(timeout=WAIT_MS)
        )
        shown = await turn_of(page)
        child = await start_table(tmp_path, "holdem", *flags, name="second")
        try:
            assert await child.url() == url  # the same address signs the page in again
            await (
                page.locator("#conn")
                .filter(has_text=re.compile("^$"))
                .wait_for(state="attached", timeout=WAIT_MS)
            )
            mine = await wait_for_mine_or_result(page, shown - 1)
            assert await turn_of(page) >= shown
            if mine:
                now = await turn_of(page)
                await click_a_move(page, "holdem")
                await page.wait_for_function(
                    "([n]) => Number(document.body.dataset.turn) > n", arg=[now], timeout=WAIT_MS
                )
        finally:
            assert await child.stop() == 0


async def test_a_double_click_plays_once_and_a_stale_click_is_refused(tmp_path: Path) -> None:
    child = await start_table(tmp_path, "holdem", "--seed", "4")
    try:
        url = await child.url()
        async with chromium() as browser:
            context = await browser.new_context()
            first = await context.new_page()
            second = await context.new_page()
            held: list[bool] = [False]

            def relay(ws: Any) -> None:
                server = ws.connect_to_server()
                ws.on_message(lambda message: server.send(message))
                server.on_message(
                    lambda message: (
                        ws.send(message) if not held[0] or '"t":"refused"' in str(message) else None
                    )
                )

            # The second tab's frames from the table (refusals aside) can be held back: it
            # keeps showing an earlier turn, as a tab does on a slow connection.
            await second.route_web_socket(re.compile(r"/ws\b"), relay)
            await first.goto(url)
            await second.goto(url)
            for page in (first, second):
                assert await wait_for_mine_or_result(page, -1)
            turn = await turn_of(first)
            assert await turn_of(second) == turn
            held[0] = True
            call = first.locator("#moves").get_by_role("button", name=BETS).first
            await call.dblclick()
            await first.wait_for_function(
                "([n]) => Number(document.body.dataset.turn) > n", arg=[turn], timeout=WAIT_MS
            )
            log = await first.locator("#log").text_content() or ""
            assert log.count("You call") + log.count("You check") == 1
            # The second tab still shows the old turn; its click is refused in Discord's words.
            stale = errors.stale_turn(turn, turn + 1)
            await second.locator("#moves").get_by_role("button", name=BETS).first.click()
            await (
                second.get_by_role("alert")
                .filter(has_text="⛔ " + explain(stale, "en"))
                .wait_for(timeout=WAIT_MS)
            )
    finally:
        await child.stop()


async def test_the_page_speaks_the_players_language(tmp_path: Path) -> None:
    child = await start_table(tmp_path, "holdem", "--seed", "3")
    try:
        url = await child.url()
        async with chromium() as browser:
            for lang in ("fr", "uk"):
                page = await browser.new_page()
                await page.goto(url + f"&lang={lang}")
                yours = t("web.turn.yours", lang)
                await page.get_by_role("status").filter(has_text=yours).wait_for(timeout=WAIT_MS)
                assert await page.evaluate("document.documentElement.lang") == lang
                await page.get_by_role("button", name=t("discord.bet.fold", lang)).wait_for()
                call = t("discord.bet.call", lang, n=20)
                assert await page.get_by_role("button", name=call).count() == 1
                region = page.get_by_role("region", name=t("web.table", lang))
                assert await region.count() == 1
                assert await page.get_by_role("heading", name=t("web.your_hand", lang)).count()
            # The four-colour deck is the player's own choice, kept by the browser.
            deck = page.get_by_role("button", name=t("web.deck.four", "uk"))
            await deck.click()
            assert await deck.get_attribute("aria-pressed") == "true"
            assert await page.evaluate("document.body.classList.contains('four-colour')")
            await page.reload()
            await page.wait_for_function(
                "() => document.getElementById('deck').getAttribute('aria-pressed') === 'true'"
                " && document.body.classList.contains('four-colour')",
                timeout=WAIT_MS,
            )
    finally:
        await child.stop()
