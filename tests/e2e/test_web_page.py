"""The web page as a player who knows Poker Night and Poker Now uses it, in a real browser
(headless Chromium, 360x740) against `deucebot play GAME --web`: the page stays where the
player put it, the keyboard keeps its place, the raise and the rebuy say their amounts, the
title is in the viewer's words, results are named by their deal, the seats show the duel's
locked card, cards face down, winners and draw's net, and only new cards are animated.
Controls are found by role and name."""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t
from tests.e2e.web_browser import WAIT_MS, chromium, need_chromium, start_table

pytestmark = pytest.mark.slow

PHONE = {"width": 360, "height": 740}


@pytest.fixture(autouse=True)
def _chromium_present() -> None:
    need_chromium()


@contextlib.asynccontextmanager
async def phone(
    tmp: Path,
    game: str,
    *flags: str,
    lang: str | None = "en",
    table: str | None = None,
    browser_lang: str = "en-US",
) -> AsyncIterator[Any]:
    """`deucebot play GAME --web FLAGS` (in the language `table`, else the default) and a
    phone-sized page of it asking for `lang` (None: the page's own choice) in a browser
    set to `browser_lang`."""
    child = await start_table(tmp, game, *flags, lang=table)
    try:
        url = await child.url()
        async with chromium() as browser:
            page = await browser.new_page(viewport=PHONE, locale=browser_lang)
            await page.goto(url if lang is None else f"{url}&lang={lang}")
            yield page
    finally:
        await child.stop()


async def my_turn(page: Any, lang: str = "en") -> int:
    """Wait until the page says it is the player's turn; the turn it shows."""
    await (
        page.get_by_role("status")
        .filter(has_text=t("web.turn.yours", lang))
        .wait_for(timeout=WAIT_MS)
    )
    return int(await page.evaluate("Number(document.body.dataset.turn)"))


async def past(page: Any, turn: int) -> None:
    """Wait until the page shows a state after `turn`."""
    await page.wait_for_function(
        "([n]) => Number(document.body.dataset.turn) > n", arg=[turn], timeout=WAIT_MS
    )


async def focused(page: Any) -> dict[str, Any]:
    """The focused element: its id, its text, its aria-pressed and its outline."""
    found: dict[str, Any] = await page.evaluate(
        """() => {
            const el = document.activeElement;
            const style = getComputedStyle(el);
            return {id: el.id, text: el.textContent, pressed: el.getAttribute('aria-pressed'),
                    outline: style.outlineStyle, width: parseFloat(style.outlineWidth)};
        }"""
    )
    return found


async def test_the_tables_events_never_scroll_a_phones_page(tmp_path: Path) -> None:
    async with phone(tmp_path, "holdem", "--seed", "3") as page:
        turn = await my_turn(page)
        top = await page.evaluate("scrollY")
        await page.locator("#moves").get_by_role("button", name=re.compile(r"^Call ")).click()
        await past(page, turn)
        # The AI seats' moves that follow arrive as log lines while the player reads.
        await page.locator("#log li").filter(has_text="You call").wait_for(timeout=WAIT_MS)
        await page.locator("#log li").filter(has_text="AI 2 raises").wait_for(timeout=WAIT_MS)
        assert await page.evaluate("scrollY") == top
        # The log scrolls inside its own box, to its newest line.
        assert await page.evaluate(
            "(() => { const l = document.getElementById('log');"
            " return l.scrollTop + l.clientHeight >= l.scrollHeight - 1; })()"
        )


async def test_the_keyboard_keeps_its_place_and_shows_it(tmp_path: Path) -> None:
    async with phone(tmp_path, "bigtwo", "--seed", "3") as page:
        await my_turn(page)
        hand = page.locator("#hand")
        first = hand.get_by_role("button").first
        name = await first.text_content()
        await first.focus()
        await page.keyboard.press("Space")
        # The chosen card is the focused one, and the ring around it can be seen.
        now = await focused(page)
        assert (now["text"], now["pressed"]) == (name, "true")
        assert now["outline"] == "solid" and now["width"] >= 3
        await page.keyboard.press("Space")
        assert (await focused(page))["pressed"] == "false"
        sort = page.get_by_role("button", name=t("web.sort", "en"))
        await sort.focus()
        await page.keyboard.press("Enter")
        now = await focused(page)
        assert (now["text"], now["pressed"]) == (t("web.sort", "en"), "true")
        # A move made from the keyboard leaves the focus in the hand's section, where
        # the next turn's controls come back.
        turn = int(await page.evaluate("Number(document.body.dataset.turn)"))
        await page.get_by_role("button", name="Pass", exact=True).focus()
        await page.keyboard.press("Enter")
        await past(page, turn)
        assert (await focused(page))["id"] == "you-h"


async def test_the_raise_says_its_amount_and_the_title_the_viewers_language(tmp_path: Path) -> None:
    async with phone(tmp_path, "holdem", "--seed", "3", lang="fr") as page:
        turn = await my_turn(page, "fr")
        title = t("discord.game.holdem", "fr")
        assert await page.get_by_role("heading", level=1, name=title).count() == 1
        assert await page.title() == f"{title} · Deucebot"
        field = page.get_by_role(
            "spinbutton", name=t("discord.bet.form.label", "fr", low=40, high=1000)
        )
        await field.fill("300")
        word = t("discord.bet.form.raise", "fr")
        assert await page.get_by_role("button", name=f"{word} 300", exact=True).count()
        # The player calls instead; at their next turn the field starts again at that
        # turn's least raise (AI 2 raised to 80: at least 140), not at a stale 300.
        await page.get_by_role("button", name=t("discord.bet.call", "fr", n=20)).click()
        turn = await my_turn(page, "fr")
        field = page.get_by_role(
            "spinbutton", name=t("discord.bet.form.label", "fr", low=140, high=1000)
        )
        assert await field.input_value() == "140"
        assert await page.get_by_role("button", name=f"{word} 140", exact=True).count()
        await field.fill("300")
        await page.get_by_role("button", name=f"{word} 300", exact=True).click()
        await past(page, turn)
        # The amount the button named is the amount played.
        mine = page.locator("#log li").filter(has_text=re.compile(r"^Vous .* 300\.$"))
        await mine.wait_for(timeout=WAIT_MS)


async def test_a_deals_result_is_named_by_its_deal(tmp_path: Path) -> None:
    async with phone(tmp_path, "holdem", "--seed", "3") as page:
        await my_turn(page)
        await page.get_by_role("button", name=t("discord.bet.fold", "en")).click()
        named = t("web.result.deal", "en", unit="Hand", deal=1)
        result = page.get_by_role("region", name=named)
        await result.wait_for(timeout=WAIT_MS)
        # The next deal is played with the last one's result still on show, named so.
        await page.wait_for_function(
            "() => /^Hand 2 /.test(document.getElementById('summary').textContent)",
            timeout=WAIT_MS,
        )
        assert await result.is_visible()
        assert "AI 2" in (await result.text_content() or "")


async def test_the_duel_locks_the_card_tapped_once_and_marks_it(tmp_path: Path) -> None:
    async with phone(tmp_path, "duel", "--seed", "3") as page:
        turn = await my_turn(page)
        cards = page.locator("#hand").get_by_role("button")
        names = [await card.text_content() or "" for card in await cards.all()]
        assert len(names) == 2
        # The hand's words say to tap a card, above the cards and the moves.
        words = page.locator("#hand-text")
        assert t("web.hand.lock", "en") in (await words.text_content() or "")
        said, hand = await words.bounding_box(), await page.locator("#hand").bounding_box()
        moves = await page.locator("#moves").bounding_box()
        assert said and hand and moves
        assert said["y"] + said["height"] <= min(hand["y"], moves["y"])
        # Each card is named as the game writes it, and described by what a tap does.
        first = page.locator("#hand").get_by_role("button", name=names[0], exact=True)
        assert await first.get_attribute("aria-description") == f"Lock {names[0]}"
        assert (
            not await page.locator("#moves").get_by_role("button", name=re.compile("^Lock")).count()
        )
        # A double tap locks the card once, with no refusal shown for the second tap.
        await first.dblclick()
        await past(page, turn)
        mine = page.locator("#log li").filter(has_text=f"You locked {names[0]}.")
        await mine.first.wait_for(timeout=WAIT_MS)
        await my_turn(page)  # the next decision: a second lock's answer would be in by now
        assert await mine.count() == 1
        assert await page.evaluate("document.body.dataset.refusals ?? '0'") == "0"
        assert await page.locator("#notice").text_content() == ""
        locked = page.locator("#hand").get_by_role("button", name=names[0], exact=True)
        other = page.locator("#hand").get_by_role("button", name=names[1], exact=True)
        await page.wait_for_function(
            "() => document.querySelector('#hand .locked') !== null", timeout=WAIT_MS
        )
        assert await locked.get_attribute("title") == t("web.card.locked", "en")
        assert await other.get_attribute("title") is None


async def test_only_new_cards_are_dealt_with_an_animation(tmp_path: Path) -> None:
    animations = (
        "(sel) => [...document.querySelectorAll(sel)].map(c => getComputedStyle(c).animationName)"
    )
    async with phone(tmp_path, "bigtwo", "--seed", "3") as page:
        await my_turn(page)
        assert set(await page.evaluate(animations, "#table-cards .card")) == {"deal"}
        # Choosing a card redraws the hand: the cards already there are not dealt again.
        await page.locator("#hand").get_by_role("button").first.click()
        await page.locator("#hand button[aria-pressed=true]").wait_for()
        assert set(await page.evaluate(animations, "#hand .card")) == {"none"}
        # A player who asks for less motion gets none, not even the first deal's.
        calm = await page.context.browser.new_page(viewport=PHONE, reduced_motion="reduce")
        await calm.goto(page.url)
        await my_turn(calm)
        assert set(await calm.evaluate(animations, "#table-cards .card, #seats li")) == {"none"}


async def test_draws_match_end_shows_each_seats_net_and_the_winner(tmp_path: Path) -> None:
    async with phone(tmp_path, "draw", "--seed", "8", "--deals", "1") as page:
        over = page.get_by_role("status").filter(has_text=t("web.turn.over", "en"))
        for _ in range(20):  # the player folds (or declines the surblind) at each turn
            turn = await my_turn_or_over(page)
            if turn is None:
                break
            moves = page.locator("#moves button:not([disabled])")
            fold = page.locator("#moves").get_by_role("button", name="Fold", exact=True)
            await (fold if await fold.count() else moves.last).click()
            await past(page, turn)
        await over.wait_for(timeout=WAIT_MS)
        said = await page.locator("#result-lines li").all_text_contents()
        found = next(filter(None, (re.search(r"Chips minus buy-ins: (.*)\.$", s) for s in said)))
        assert found, said
        nets = dict(part.rsplit(" ", 1) for part in found.group(1).split(", "))
        assert len(nets) == 4
        for name, net in nets.items():
            plate = page.locator("#seats li").filter(
                has=page.locator("strong", has_text=re.compile(f"^{name}$"))
            )
            assert f"net {net}" in (await plate.text_content() or "")
        winner = page.locator("#seats li.winner")
        assert await winner.count() >= 1
        assert "winner" in (await winner.first.text_content() or "")


async def my_turn_or_over(page: Any) -> int | None:
    """Wait until it is the player's turn (its turn number) or the match is over (None)."""
    yours, over = t("web.turn.yours", "en"), t("web.turn.over", "en")
    await page.wait_for_function(
        "([a, b]) => [a, b].includes(document.getElementById('turn').textContent)",
        arg=[yours, over],
        timeout=WAIT_MS,
    )
    if await page.locator("#turn").text_content() == over:
        return None
    return int(await page.evaluate("Number(document.body.dataset.turn)"))


async def test_a_rebuy_offers_caves_in_words(tmp_path: Path) -> None:
    async with phone(tmp_path, "draw", "--seed", "11", "--deals", "6") as page:
        rebuy = page.get_by_role("button", name=t("discord.rebuy.button", "en"), exact=True)
        for _ in range(40):  # all in at every chance, until the player is out of chips
            turn = await my_turn(page)
            if await rebuy.is_visible():
                break
            moves = page.locator("#moves button:not([disabled])")
            for name in (re.compile(r"^All-in "), "Check", re.compile(r"^Call ")):
                chosen = page.locator("#moves").get_by_role("button", name=name)
                if await chosen.count():
                    break
            await (chosen if await chosen.count() else moves.last).click()
            await past(page, turn)
        caves = page.get_by_role("combobox", name=t("discord.rebuy.choose", "en"))
        options = await caves.locator("option").all_text_contents()
        one, two = (t("discord.rebuy.caves", "en", n=n, chips=200 * n) for n in (1, 2))
        assert options[:2] == [one, two]
        await caves.select_option(label=two)
        await rebuy.click()
        line = page.locator("#log li").filter(has_text="You buy back in for 400")
        await line.wait_for(timeout=WAIT_MS)


async def test_the_seats_in_the_hand_show_their_cards_face_down(tmp_path: Path) -> None:
    async with phone(tmp_path, "holdem", "--seed", "3") as page:
        await my_turn(page)
        plates = page.locator("#seats li")
        backs = [await plate.locator(".backs i").count() for plate in await plates.all()]
        folded = [
            t("pictures.tag.fold", "en") in (await plate.text_content() or "")
            for plate in await plates.all()
        ]
        assert folded == [False, False, False, True]  # AI 4 folded before the player
        assert backs == [0 if out else 2 for out in folded]
        # The blinds are the pot before the flop, said where the screen reader hears it.
        assert "pot 30" in (await page.locator("#live").text_content() or "")


@pytest.mark.parametrize(
    ("game", "lang", "pots"),
    [
        ("bigtwo", "en", 0),
        ("holdem", "en", 1),
        ("draw", "en", 1),
        ("duel", "en", 1),
        ("holdem", "uk", 1),
        ("draw", "uk", 1),
    ],
)
async def test_the_live_line_says_the_pot_once(
    tmp_path: Path, game: str, lang: str, pots: int
) -> None:
    async with phone(tmp_path, game, "--seed", "3", lang=lang) as page:
        await my_turn(page, lang)
        live = await page.locator("#live").text_content() or ""
        # The deal line names the pot in hold'em and the duel; the page adds it for draw.
        word = t("pictures.pot.main", lang)
        assert len(re.findall(rf"\b{word}\b", live, re.IGNORECASE)) == pots, live


async def test_a_knocked_out_player_chooses_to_watch_or_start_a_new_match(tmp_path: Path) -> None:
    async with phone(tmp_path, "holdem", "--seed", "2") as page:
        line = page.get_by_role("status").filter(has_text=t("web.out.line", "en"))
        for _ in range(40):  # all in at every turn until the player is out
            turn = await my_turn_or_out(page)
            if turn is None:
                break
            moves = page.locator("#moves")
            for name in (re.compile(r"^All-in "), re.compile(r"^Call "), "Check"):
                chosen = moves.get_by_role("button", name=name)
                if await chosen.count():
                    break
            await chosen.click()
            await past(page, turn)
        await line.wait_for(timeout=WAIT_MS)
        watch = page.get_by_role("button", name=t("web.out.watch", "en"), exact=True)
        new = page.get_by_role("button", name=t("web.out.new", "en"), exact=True)
        await watch.click()
        watching = page.get_by_role("status").filter(has_text=t("web.out.watching", "en"))
        await watching.wait_for(timeout=WAIT_MS)
        assert not await watch.is_visible() and await new.is_visible()
        await new.click()
        # A new match at the same address: the player is dealt in again and plays.
        await page.locator("#out").wait_for(state="hidden", timeout=WAIT_MS)
        await my_turn(page)
        assert await page.locator("#moves").get_by_role("button").count()


async def my_turn_or_out(page: Any) -> int | None:
    """Wait until it is the player's turn (its turn number) or they are out (None)."""
    yours = t("web.turn.yours", "en")
    await page.wait_for_function(
        "([a]) => document.getElementById('turn').textContent === a"
        " || !document.getElementById('out').hidden",
        arg=[yours],
        timeout=WAIT_MS,
    )
    if await page.locator("#out").is_visible():
        return None
    return int(await page.evaluate("Number(document.body.dataset.turn)"))


@pytest.mark.parametrize("table", ["fr", "uk"])
async def test_the_page_speaks_the_tables_language_in_an_english_browser(
    tmp_path: Path, table: str
) -> None:
    async with phone(tmp_path, "holdem", "--seed", "3", lang=None, table=table) as page:
        await my_turn(page, table)
        assert await page.evaluate("document.documentElement.lang") == table
        you = t("console.default_name", table)
        assert await page.locator("#seats strong").filter(has_text=you).count() == 1
        # Every word of the page is the table's: its headings and its moves too.
        for key in ("web.table", "web.your_hand", "web.log"):
            assert await page.get_by_role("heading", name=t(key, table), exact=True).count() == 1
        fold = t("discord.bet.fold", table)
        assert await page.locator("#moves").get_by_role("button", name=fold).count() == 1


async def test_the_viewers_own_choice_of_language_wins_and_names_them_in_it(
    tmp_path: Path,
) -> None:
    async with phone(tmp_path, "holdem", "--seed", "3", lang="en", table="fr") as page:
        await my_turn(page, "en")
        assert await page.evaluate("document.documentElement.lang") == "en"
        # The player's default name is said in the page's language, not the table's.
        names = await page.locator("#seats strong").all_text_contents()
        assert "You" in names and "Vous" not in names, names
        assert "Vous" not in (await page.locator("main").text_content() or "")
