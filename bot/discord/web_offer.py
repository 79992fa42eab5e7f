"""Which ways into the web table the Discord messages offer: the board's "Open table" (the
Activity) and the hand's "Open in browser" (signed links).

Read from the settings once, when the bot is built (`configure`), like the API base the
process talks to (`bot.discord.app.point_at`): the board and hand builders are pure
functions of a snapshot and read it here (`offered`) instead of every caller passing it.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.process.settings import Settings


@dataclass(frozen=True, slots=True)
class WebOffer:
    """`activity`: the board offers "Open table"; `links`: the hand offers "Open in browser"."""

    activity: bool = False
    links: bool = False


_OFFER = [WebOffer()]
"""The process's offer (one slot, replaced whole by `configure`)."""


def configure(settings: Settings) -> WebOffer:
    """Offer what `settings` configure (and nothing else); the offer in force."""
    _OFFER[0] = WebOffer(activity=settings.activity_ready, links=settings.links_ready)
    return _OFFER[0]


def offered() -> WebOffer:
    """What the boards and hands offer in this process."""
    return _OFFER[0]
