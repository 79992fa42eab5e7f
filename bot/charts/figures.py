"""What a chart shows, read from storage, and a cache of rendered charts.

`stats_figures` reads a person's rating history and per-deal results (two indexed queries);
`render` draws them off the event loop and keeps the last charts drawn, keyed by the
figures themselves, so an unchanged `/stats` is not drawn twice.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Protocol

from bot.charts.stats import StatsFigures, stats_chart
from storage.rating_reads import RatingPoint
from storage.ratings import ALL_TIME

POINTS = 200
"""At most this many matches and deals are drawn (the latest)."""


class ChartReads(Protocol):
    """The storage reads a chart needs (`storage.rating_reads.SqlRatings`)."""

    async def rating_history(
        self, *, guild: str, game: str, player_id: str, season: str = ALL_TIME, limit: int = 200
    ) -> list[RatingPoint]:
        """A person's rating after each rated match, oldest first."""
        ...

    async def deal_results(
        self, *, guild: str, game: str, player_id: str, limit: int = 200
    ) -> list[int]:
        """A person's result per deal, oldest first."""
        ...


async def stats_figures(
    storage: ChartReads,
    *,
    guild: str,
    game: str,
    player_id: str,
    name: str,
    title: str,
    penalties: bool,
) -> StatsFigures:
    """The figures of `player_id`'s chart in `game` on `guild`."""
    history = await storage.rating_history(
        guild=guild, game=game, player_id=player_id, limit=POINTS
    )
    deals = await storage.deal_results(guild=guild, game=game, player_id=player_id, limit=POINTS)
    return StatsFigures(
        name,
        title,
        tuple(p.rating.mu for p in history),
        tuple(p.rating.sigma for p in history),
        tuple(deals),
        penalties,
    )


class ChartCache:
    """The last `size` charts drawn, by (figures, language)."""

    def __init__(self, size: int = 128) -> None:
        """An empty cache of at most `size` charts."""
        self._size = size
        self._charts: OrderedDict[tuple[StatsFigures, str], tuple[bytes, str]] = OrderedDict()
        self.drawn = 0
        """How many charts were drawn (not taken from the cache)."""

    async def render(self, figures: StatsFigures, lang: str) -> tuple[bytes, str]:
        """The chart's PNG and alt text: from the cache, else drawn in a worker thread."""
        key = (figures, lang)
        found = self._charts.get(key)
        if found is not None:
            self._charts.move_to_end(key)
            return found
        chart = await asyncio.to_thread(stats_chart, figures, lang)
        self.drawn += 1
        self._charts[key] = chart
        if len(self._charts) > self._size:
            self._charts.popitem(last=False)
        return chart
