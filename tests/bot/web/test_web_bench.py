"""`deucebot bench web` measures something: every page gets the tables' turns."""

from __future__ import annotations

import math

from deucebot_dev.bench import web


async def test_the_bench_sees_every_page_get_the_actions() -> None:
    result = await web.run(tables=2, seconds=1.0, ai_delay=0.0)
    assert result["actions"] > 0
    assert math.isfinite(result["p50"]) and result["p99"] >= result["p50"]
    assert result["bytes"] > 0
    raw, packed = web.page_weight()
    assert 0 < packed < raw
