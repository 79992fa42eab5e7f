"""The lines every game shows for provably fair deals: the commitment when a deal starts
(before any card is seen), then the seed in the deal's result, both in a short form with
where to check them (`deucebot verify`); the full values are in the hand history."""

from __future__ import annotations

from bot.i18n import t
from bot.render.phrases import deal_word
from engines.base import DealSettled, DealStarted, Event

SHORT = 16
"""Hex digits of a commitment or seed shown (the history holds all 64)."""


def fair_line(event: Event, lang: str, game: str = "", *, verifiable: bool = True) -> str | None:
    """The commitment line of a `DealStarted`, the reveal line of a `DealSettled` that
    reveals a seed; None for any other event. `game` names the deal ("Hand 3" in hold'em).
    `verifiable`: the match is kept where `deucebot verify` can check it (not a terminal
    match played without --db), so the reveal points there."""
    unit = deal_word(game, lang, title=True)
    if isinstance(event, DealStarted) and event.commitment:
        short = event.commitment[:SHORT]
        return t("fair.committed", lang, unit=unit, deal=event.deal, short=short)
    if isinstance(event, DealSettled) and event.seed:
        return t(
            "fair.revealed" if verifiable else "fair.revealed_unsaved",
            lang,
            unit=unit,
            deal=event.deal,
            seed=event.seed[:SHORT],
            short=(event.commitment or "")[:SHORT],
        )
    return None
