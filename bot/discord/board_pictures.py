"""The pictures a table's board waits for: each drawn ahead, off the event loop, and
waited for `PICTURE_WAIT` at most; a picture drawn later follows by another edit of the
board (its channel is told, `landed`), and a newer one replaces a late one still drawing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.discord.board import done_within, draw_ahead
from bot.pictures.worker import PictureDrawer
from bot.runtime import TableSnapshot

PICTURE_WAIT = 0.5
"""Seconds a board post or edit waits at most for its new picture; a picture drawn later
follows by another edit (the text, with the last picture, goes now). Past what the
picture worker can draw (1,000 busy tables on two cores), boards waited 3-4 s for their
picture, and the move and "your turn" with them (board staleness p50 4.3 s, p99 7.9-9.3
s; with this wait 1.5 / 3.4 s, the pictures 3.5 / 5.7 s). At 300 tables it never
triggers. An AI still waits for its move's picture (`caught_up`)."""


class BoardPictures:
    """One table's board pictures being drawn."""

    def __init__(self, pictures: PictureDrawer | None, landed: Callable[[], None]) -> None:
        """Drawing by `pictures` (None: in threads); `landed()` is called when a picture
        the board went without is ready (the board is to be edited again)."""
        self.pictures = pictures
        self.landed = landed
        self.drawing = 0
        """Pictures being drawn for the table's next post or edit (its channel is busy)."""
        self._late: asyncio.Future[None] | None = None

    def running(self) -> bool:
        """Whether a late picture is being drawn."""
        return self._late is not None and not self._late.done()

    def close(self) -> None:
        """Stop drawing a late picture."""
        if self._late is not None:
            self._late.cancel()

    async def drawn(self, drawing: Awaitable[None]) -> None:
        """Await a picture drawn ahead, counted meanwhile."""
        self.drawing += 1
        try:
            await drawing
        finally:
            self.drawing -= 1

    async def board(self, shown: TableSnapshot, lang: str) -> None:
        """Draw the board picture of `shown` ahead, counted meanwhile."""
        await self.drawn(draw_ahead(shown, lang, self.pictures))

    async def within(self, shown: TableSnapshot, lang: str) -> bool:
        """Await the board picture of `shown` drawn ahead for `PICTURE_WAIT` at most:
        whether it is ready. If not, it is drawn on (counted), replacing a late picture of
        an earlier snapshot (not drawn if not begun), and `landed` once it is ready."""
        task = asyncio.ensure_future(draw_ahead(shown, lang, self.pictures))
        self.drawing += 1
        task.add_done_callback(self._drew)
        if await done_within(task, PICTURE_WAIT):
            task.result()
            return True
        if self._late is not None:
            self._late.cancel()
        self._late = task
        task.add_done_callback(self._landed)
        return False

    def _drew(self, _: asyncio.Future[None]) -> None:
        self.drawing -= 1

    def _landed(self, finished: asyncio.Future[None]) -> None:
        if self._late is finished:
            self._late = None
        if not finished.cancelled():
            self.landed()
