"""`deucebot bench web` measures something: every page gets the tables' turns, and what
does not arrive is reported, never waited on or left out."""

from __future__ import annotations

import asyncio
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.commands.simulate import percentile
from deucebot_dev.bench import web, web_page
from tests.e2e.web_browser import need_chromium

LIMIT = 120
"""A run that has not finished by then hangs (the bench's own bounds are far shorter)."""


async def test_the_bench_sees_every_page_get_the_actions() -> None:
    result = await asyncio.wait_for(web.run(tables=2, seconds=1.0, ai_delay=0.0), LIMIT)
    assert result["actions"] > 0
    assert result["samples"] == result["actions"] * web.CLIENTS
    assert result["undelivered"] == 0 and result["stalled"] == []
    assert math.isfinite(result["p50"]) and result["p99"] >= result["p50"]
    assert result["all_p99"] >= result["p99"]
    assert result["bytes"] > 0
    assert result["late_max"] >= result["late_p99"] > -1  # a sleep may wake a hair early
    raw, packed = web.page_weight()
    assert 0 < packed < raw


async def test_the_bench_serves_more_pages_than_a_client_pool_holds() -> None:
    # 104 pages: aiohttp's default pool holds 100 connections, and a page holds one for
    # the whole run, so the 101st used to wait for a free one forever.
    result = await asyncio.wait_for(web.run(tables=26, seconds=0.5, ai_delay=0.0), LIMIT)
    assert result["tables"] * result["clients"] == 104
    assert result["actions"] > 0
    assert result["samples"] == result["actions"] * web.CLIENTS
    assert result["undelivered"] == 0


async def test_a_table_that_stops_moving_is_reported_not_waited_on() -> None:
    # The AI thinks for a minute: the table deals, then nothing moves for the whole window.
    run = web.run(tables=1, seconds=3.0, ai_delay=60.0, clients=2, still=1.0)
    result = await asyncio.wait_for(run, LIMIT)
    assert result["stalled"] == ["bench:0"]
    assert result["undelivered"] == 0


async def test_the_reference_runs_the_same_tables_with_no_page() -> None:
    result = await asyncio.wait_for(web.run(tables=1, seconds=0.5, ai_delay=0.0, clients=0), LIMIT)
    assert result["actions"] > 0 and result["cpu_ms"] > 0
    assert result["samples"] == 0 and result["bytes"] == 0


@given(
    handed=st.dictionaries(st.integers(0, 30), st.floats(0, 10), max_size=15),
    frames=st.lists(
        st.lists(st.tuples(st.integers(0, 30), st.floats(0, 10)), max_size=10),
        min_size=2,
        max_size=2,
    ),
)
def test_every_turn_and_page_is_a_wait_or_undelivered(
    handed: dict[int, float], frames: list[list[tuple[int, float]]]
) -> None:
    seen = [
        ("p", page, turn, when)
        for page, got in enumerate(frames)
        for turn, when in sorted(got, key=lambda f: f[1])
    ]
    done = web.delivery({("p", n): at for n, at in handed.items()}, seen, 0.0, 10.0, pages=2)
    expected: list[float] = []
    missed = 0
    for turn, at in handed.items():
        for page in range(2):
            arrived = [w for p, pg, n, w in seen if pg == page and n >= turn]
            if arrived:
                expected.append(min(arrived) - at)
            else:
                missed += 1
    assert sorted(done.per_page) == pytest.approx(sorted(expected))
    assert done.undelivered == missed
    assert done.behind == (["p"] if missed else [])
    assert len(done.per_page) + done.undelivered == 2 * len(handed)
    assert len(done.per_action) <= len(handed)


@given(
    values=st.lists(st.floats(0, 1000), min_size=1, max_size=300),
    q=st.sampled_from([50, 90, 99]),
)
def test_the_interval_of_a_percentile_holds_it(values: list[float], q: int) -> None:
    low, high = web.quantile_interval(values, q)
    assert min(values) <= low <= percentile(values, q) <= high <= max(values)


async def test_the_first_load_is_weighed_in_chromium() -> None:
    need_chromium()
    (load,) = await asyncio.wait_for(web_page.first_load(1), LIMIT)
    fetched = {url.split("?")[0].rsplit("/", 1)[-1] for url, _ in load.fetched}
    assert {"", "app.js", "cards.js", "style.css"} <= fetched  # "": the page itself
    assert all(size for _, size in load.fetched)  # each one counted
    assert load.transferred == sum(size or 0 for _, size in load.fetched)
    assert load.interactive > 0
