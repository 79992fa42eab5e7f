"""The lines every game shows for provably fair deals: the commitment when a deal starts
(before any card is seen), in a short form; then, when the match is over (ended, or its
table stopped or restarted mid-way), one line saying that every deal's seed is revealed
and where to check them (`deucebot verify`, the hand history holds the full values). No
seed is ever shown while the match can be played."""

from __future__ import annotations

from bot.i18n import t
from bot.render.phrases import deal_word
from bot.runtime.front import SeedsRevealed
from engines.base import DealStarted, Event, MatchEnded

SHORT = 16
"""Hex digits of a commitment shown (the history holds all 64)."""


def fair_line(event: Event, lang: str, game: str = "", *, verifiable: bool = True) -> str | None:
    """The commitment line of a `DealStarted`, the reveal line of a `MatchEnded` that
    reveals seeds or of a `SeedsRevealed` (a match stopped or restarted mid-way); None for
    any other event. `game` names the deal ("Hand 3" in hold'em).
    `verifiable`: the match is kept where `deucebot verify` can check it (not a terminal
    match played without --db), so the reveal points there."""
    if isinstance(event, DealStarted) and event.commitment:
        unit = deal_word(game, lang, title=True)
        short = event.commitment[:SHORT]
        return t("fair.committed", lang, unit=unit, deal=event.deal, short=short)
    if (isinstance(event, MatchEnded) and event.seeds) or isinstance(event, SeedsRevealed):
        return t("fair.revealed" if verifiable else "fair.revealed_unsaved", lang)
    return None
