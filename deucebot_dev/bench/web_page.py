"""The web table's first load in a real browser, for `deucebot bench web`.

Debian's headless Chromium (``/usr/bin/chromium``, driven by playwright) opens the page of
one all-AI table in play (`deucebot_dev.bench.web.serve`), each time in a fresh context (an
empty cache: a first visit). Measured per load:
- the bytes transferred, as served (compressed if the server compressed them, headers
  included): the sum of Chromium's ``Network.loadingFinished`` ``encodedDataLength`` over
  every request of the page except its WebSocket;
- the time to interactive: from the navigation's start to the page having applied its
  first state (the table's seats shown, its controls live), stamped in the page with
  ``performance.now()`` by a mutation observer installed before the page's own scripts.
"""

from __future__ import annotations

import asyncio
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deucebot_dev.bench.web import progress, serve

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
WAIT_MS = 30_000
"""How long one load may take before the bench gives it up (a hang, not a figure)."""
STAMP = """
new MutationObserver((changes, observer) => {
  const seats = document.getElementById("seats");
  if (seats && seats.children.length > 0) {
    window.__interactive = performance.now();
    observer.disconnect();
  }
}).observe(document, {childList: true, subtree: true});
"""
"""Notes when the page first shows the table's seats (run before the page's scripts)."""


@dataclass(frozen=True)
class Load:
    """One first visit of the page."""

    transferred: int
    """Bytes transferred for it, as served (headers included), its WebSocket aside."""
    interactive: float
    """Milliseconds from the navigation's start to the first state shown."""
    fetched: tuple[tuple[str, int | None], ...]
    """What it fetched, in order, with the bytes of each (None: never finished)."""


async def _load(browser: Any, url: str) -> Load:
    """One first visit of `url`."""
    context = await browser.new_context()
    try:
        page = await context.new_page()
        await page.add_init_script(STAMP)
        cdp = await context.new_cdp_session(page)
        await cdp.send("Network.enable")
        started: dict[str, str] = {}
        finished: dict[str, int] = {}
        cdp.on(
            "Network.requestWillBeSent",
            lambda e: started.setdefault(e["requestId"], e["request"]["url"]),
        )
        cdp.on(
            "Network.loadingFinished",
            lambda e: finished.__setitem__(e["requestId"], int(e["encodedDataLength"])),
        )
        await page.goto(url, wait_until="load", timeout=WAIT_MS)
        handle = await page.wait_for_function("() => window.__interactive", timeout=WAIT_MS)
        interactive = float(await handle.json_value())
        for _ in range(WAIT_MS // 50):  # the last requests' events may trail the load
            if started.keys() <= finished.keys():
                break
            await asyncio.sleep(0.05)
        fetched = tuple((url, finished.get(key)) for key, url in started.items())
        return Load(sum(finished.values()), interactive, fetched)
    finally:
        await context.close()


async def first_load(loads: int) -> list[Load]:
    """`loads` first visits of a table's page."""
    from playwright.async_api import async_playwright

    async with serve(1, 1.0) as served, async_playwright() as driver:
        (table,) = served.tables
        await table.start()
        browser = await driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            return [await _load(browser, f"{served.url}?place={table.place}") for _ in range(loads)]
        finally:
            await browser.close()


def first_load_figures(loads: int) -> str:
    """The first load's figures as a line of the report (or why there are none)."""
    if not CHROMIUM.exists():
        return f"First load: not measured ({CHROMIUM} is missing)."
    progress(f"first load: {loads} visits in Chromium")
    figures = asyncio.run(asyncio.wait_for(first_load(loads), loads * WAIT_MS / 1000 + 30))
    sizes = [load.transferred for load in figures]
    times = sorted(load.interactive for load in figures)
    return (
        f"First load in headless Chromium ({loads} first visits, empty cache): "
        f"{statistics.median(sizes) / 1024:.1f} KB transferred as served (headers included; "
        f"{min(sizes)}-{max(sizes)} B), time to interactive (navigation start to the first "
        f"state shown) median {statistics.median(times):.0f} ms "
        f"(min {times[0]:.0f}, max {times[-1]:.0f})."
    )
