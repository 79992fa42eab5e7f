"""The `/stats` chart: golden images (drawn with the shipped fonts), the alt text in each
language, and the cache drawing each chart once, in a worker thread."""

from __future__ import annotations

import io
import random
import threading

import pytest
from PIL import Image

from bot.charts import figures as figures_module
from bot.charts.figures import ChartCache
from bot.charts.stats import StatsFigures, alt_text, stats_chart
from tests.bot.charts.golden import check_golden


def sample(seed: int, penalties: bool) -> StatsFigures:
    rng = random.Random(seed)
    n = rng.randint(2, 30)
    mus = tuple(25 + rng.uniform(-8, 8) for _ in range(n))
    sigmas = tuple(max(1.0, 8.3 - 0.3 * i) for i in range(n))
    deals = tuple(
        rng.randint(0, 39) if penalties else rng.randint(-400, 400)
        for _ in range(rng.randint(1, 60))
    )
    return StatsFigures("Ana", "Big Two" if penalties else "Hold'em", mus, sigmas, deals, penalties)


@pytest.mark.parametrize(("seed", "penalties"), [(1, True), (2, False), (3, True)])
def test_charts_match_their_golden_images(seed: int, penalties: bool) -> None:
    png, _ = stats_chart(sample(seed, penalties), "en")
    image = Image.open(io.BytesIO(png))
    assert image.size == (800, 520)
    check_golden(image, f"stats_{seed}")


def test_the_chart_draws_the_results_it_is_given() -> None:
    base = sample(1, True)
    changed = StatsFigures(base.name, base.game_title, base.mus, base.sigmas, (39,) * 5, True)
    assert stats_chart(base, "en")[0] != stats_chart(changed, "en")[0]


def test_alt_text_says_the_figures_in_the_readers_language() -> None:
    f = StatsFigures("Ana", "Big Two", (25.0, 27.5), (8.0, 7.0), (0, 13, 2), True)
    assert alt_text(f, "en") == (
        "Chart of Ana's results in Big Two. Rating over 2 rated matches: from 1.0 to 6.5. "
        "3 deals: 15 penalty in all, 5.0 per deal."
    )
    assert "2 parties classées : de 1,0 à 6,5" in alt_text(f, "fr")
    assert "3 роздачі: усього 15 штрафу, 5,0 за роздачу" in alt_text(f, "uk")
    chips = StatsFigures("Bo", "Hold'em", (), (), (-40, 100), False)
    assert alt_text(chips, "en").endswith("2 hands: 60 chips net, 30.0 per hand.")


async def test_the_cache_draws_a_chart_once_off_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    threads: list[str] = []
    real = figures_module.stats_chart

    def spy(f: StatsFigures, lang: str) -> tuple[bytes, str]:
        threads.append(threading.current_thread().name)
        return real(f, lang)

    monkeypatch.setattr(figures_module, "stats_chart", spy)
    cache = ChartCache(size=2)
    f = sample(4, True)
    first = await cache.render(f, "en")
    assert await cache.render(f, "en") == first and cache.drawn == 1
    await cache.render(f, "fr")
    await cache.render(sample(5, True), "en")
    await cache.render(f, "en")  # pushed out by the two after it: drawn again
    assert cache.drawn == 4
    assert threads and threading.main_thread().name not in threads


def test_titles_in_cyrillic_are_drawn() -> None:
    f = sample(1, True)
    named = StatsFigures("Оксана", f.game_title, f.mus, f.sigmas, f.deals, f.penalties)
    blank = StatsFigures(" ", f.game_title, f.mus, f.sigmas, f.deals, f.penalties)
    assert stats_chart(named, "uk")[0] != stats_chart(blank, "uk")[0]
