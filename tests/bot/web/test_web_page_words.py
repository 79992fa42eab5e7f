"""The page's own words where Discord's speak of Discord: a hand's text names no card menu
(draw's discards, the duel's lock) and says the duel's signals in the viewer's language,
while Discord keeps its wording; hold'em's pot is on the table from the blinds on. Played
through the real server over its WebSocket."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t
from bot.render import get_renderer
from tests.bot.web.harness import Page, play_turn, web_table


async def state_with_pick(page: Page, verb: str) -> dict[str, Any]:
    """Play the page's seat by the AI's hints until its turn asks for a `verb` pick."""
    for _ in range(200):
        frame = await page.until("state")
        if frame["to_act"] != frame["seat"] or frame["status"] != "playing":
            continue
        pick = frame["controls"]["pick"]
        if pick is not None and pick["verb"] == verb:
            return frame
        await play_turn(page, frame)
    raise AssertionError(f"no {verb} turn came")


@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
async def test_the_duels_hand_says_tap_and_its_signals_in_the_viewers_words(
    tmp_path: Path, lang: str
) -> None:
    async with web_table(tmp_path, "duel", 3) as web:
        page = await web.open(lang=lang)
        state = await state_with_pick(page, "lock")
        text = state["hand_text"]
        view = web.table.snapshot(state["seat"]).view(state["seat"])
        up, down = view.signals[state["seat"]]
    assert t("web.hand.lock", lang) in text, text
    assert t("duel.hand.lock_menu", lang) not in text, text
    assert t("web.hand.signal", lang, up=up, down=down) in text, text
    assert "UP" not in text and "DOWN" not in text, text
    # Discord's hand keeps its own words (its menu is below its text).
    discord = get_renderer("duel").hand(view, lang, menu=True)
    assert t("duel.hand.lock_menu", lang) in discord
    assert t("duel.signal", lang, up=up, down=down) in discord


@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
async def test_draws_hand_names_the_pages_buttons_not_a_menu(tmp_path: Path, lang: str) -> None:
    async with web_table(tmp_path, "draw", 3) as web:
        page = await web.open(lang=lang)
        state = await state_with_pick(page, "draw")
        view = web.table.snapshot(state["seat"]).view(state["seat"])
    text = state["hand_text"]
    assert t("web.hand.draw", lang) in text, text
    assert t("draw.hand.draw_menu", lang) not in text, text
    # The words name the page's own buttons: the pick's and Stand pat's labels.
    labels = [state["controls"]["pick"]["label"], *(m["label"] for m in state["controls"]["moves"])]
    assert all(label in text for label in labels), (labels, text)
    assert t("draw.hand.draw_menu", lang) in get_renderer("draw").hand(view, lang, menu=True)


@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
async def test_holdems_pot_shows_before_the_flop(tmp_path: Path, lang: str) -> None:
    async with web_table(tmp_path, "holdem", 3) as web:
        page = await web.open(lang=lang)
        state = await page.until("state")
        view = web.table.snapshot(None).view(None)
    assert not view.board and not view.pots  # before the flop: only the blinds are in
    blinds = sum(seat.bet for seat in view.seats)
    assert blinds == 30
    pot = {"label": t("pictures.pot.main", lang), "amount": blinds, "names": []}
    assert state["picture"]["pots"] == [pot]
