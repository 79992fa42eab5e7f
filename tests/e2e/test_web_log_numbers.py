"""The page's log ("What happened") in a real browser (headless Chromium) against `deucebot
play GAME --web`: its lines are numbered 1, 2, 3... over the lines the page shows, and a
line keeps its number while older lines leave the list, and after a reload."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_web_page import my_turn, past, phone
from tests.e2e.web_browser import need_chromium

pytestmark = pytest.mark.slow

LOG_KEPT = 30
"""The lines the page keeps (`LOG_KEPT` of bot/web/static/app.js)."""

NUMBERED = """() => {
    // Each item's number as the list shows it (HTML's ordinal: the list's start, an item's
    // own value, else one more than the item before).
    const list = document.getElementById('log');
    let n = list.start;
    return [...list.children].map((item) => {
        if (item.hasAttribute('value')) n = item.value;
        return [n++, item.textContent];
    });
}"""


@pytest.fixture(autouse=True)
def _chromium_present() -> None:
    need_chromium()


async def numbered(page: Any) -> list[tuple[int, str]]:
    """The log's lines as the page numbers them."""
    return [(n, text) for n, text in await page.evaluate(NUMBERED)]


class Numbers:
    """Every line number a page showed, and the line it stood for."""

    def __init__(self) -> None:
        self.seen: dict[int, str] = {}

    def check(self, shown: list[tuple[int, str]]) -> None:
        """`shown` numbered without a gap, each number the line it numbered before."""
        numbers = [n for n, _ in shown]
        assert numbers == list(range(numbers[0], numbers[0] + len(numbers))), numbers
        for n, text in shown:
            assert self.seen.setdefault(n, text) == text, (n, text, self.seen[n])


async def test_the_logs_lines_keep_their_numbers_as_lines_come_and_after_a_reload(
    tmp_path: Path,
) -> None:
    async with phone(tmp_path, "holdem", "--seed", "3") as page:
        numbers = Numbers()
        await my_turn(page)
        first = await numbered(page)
        assert first[0] == (1, "— Match 1 starts —")
        numbers.check(first)
        fold = page.locator("#moves").locator("[data-action=fold], [data-action=check]").first
        for _ in range(6):  # hands folded at once: a dozen lines each
            turn = await my_turn(page)
            await fold.click()
            await past(page, turn)
            numbers.check(await numbered(page))
        await my_turn(page)  # the table waits for the player: no line comes meanwhile
        shown = await numbered(page)
        numbers.check(shown)
        assert len(shown) == LOG_KEPT and shown[0][0] > 1  # the oldest lines left the list
        assert shown[-1][0] == max(numbers.seen)
        # A reload shows the recent lines again, each with the number it had.
        await page.reload()
        await my_turn(page)
        again = await numbered(page)
        assert again[-1] == shown[-1]
        numbers.check(again)
        # The list is still a list of its lines, named by its heading.
        box = page.get_by_role("region", name="What happened")
        assert await box.get_by_role("listitem").count() == len(again)
