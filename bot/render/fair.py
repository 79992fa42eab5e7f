"""The lines every game shows for provably fair deals: the commitment when a deal starts
(before any card is seen, shortened), then the seed and the whole commitment in the
deal's result."""

from __future__ import annotations

from bot.i18n import t
from engines.base import DealSettled, DealStarted, Event

SHORT = 16
"""Hex digits of a commitment shown when a deal starts (the result shows all 64)."""


def fair_line(event: Event, lang: str) -> str | None:
    """The commitment line of a `DealStarted`, the reveal line of a `DealSettled` that
    reveals a seed; None for any other event."""
    if isinstance(event, DealStarted) and event.commitment:
        return t("fair.committed", lang, deal=event.deal, short=event.commitment[:SHORT])
    if isinstance(event, DealSettled) and event.seed:
        return t(
            "fair.revealed", lang, deal=event.deal, seed=event.seed, commitment=event.commitment
        )
    return None
