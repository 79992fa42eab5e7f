"""The ledger: what a batch of engine events writes besides the action itself.

A pure function, no I/O and no asyncio: from the events an action (or a match start)
produced, the seats' credits, the ids and the time, to the deal rows (dealer and
commitment of each deal begun) and the chip and penalty rows. Chip and penalty rows are built by one
helper, so the credited player, the AI flag and the time are filled in one place.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from engines.base import ChipsBought, DealSettled, DealStarted, Event
from storage.base import ChipEntry, DealRecord, MatchPlayer, PenaltyEntry


class LedgerIds(NamedTuple):
    """Where rows belong: the table's guild and game, the match, and the time they carry."""

    guild: str
    game: str
    match_id: int
    at: float


class LedgerRows(NamedTuple):
    """The rows of one batch of events, and the deal in progress after it."""

    deal: int
    deals: list[DealRecord]
    chips: list[ChipEntry]
    penalties: list[PenaltyEntry]


def ledger_rows(
    events: Sequence[Event],
    credits: Sequence[MatchPlayer],
    ids: LedgerIds,
    *,
    next_seq: int,
    deal: int,
) -> LedgerRows:
    """Deal rows and ledger rows from the shared `events` of one action.

    `credits[seat]` is who a seat's results go to; `next_seq` is the turn number of the first
    action of any deal begun here; `deal` is the deal in progress before the events. A
    `ChipsBought` is a buy-in or rebuy; a `DealSettled` gives one "hand" row per seat dealt in
    (even a zero), a "returned" row for a seat left out only when chips came back to it, and a
    penalty row per seat when the game scores penalties."""
    deals: list[DealRecord] = []
    chips: list[ChipEntry] = []
    penalties: list[PenaltyEntry] = []
    for event in events:
        if isinstance(event, DealStarted):
            deal = event.deal
            commitment = event.commitment
            deals.append(DealRecord(ids.match_id, event.deal, event.dealer, commitment, next_seq))
        elif isinstance(event, ChipsBought):
            chips.append(_chips(ids, credits, event.seat, deal, event.amount, event.reason))
        elif isinstance(event, DealSettled):
            for seat, delta in enumerate(event.chips or ()):
                # A seat dealt in played a hand (even one that changed nothing); a seat left
                # out only appears when chips were handed back to it.
                reason = "hand" if event.was_dealt(seat) else "returned"
                if reason == "returned" and delta == 0:
                    continue
                chips.append(_chips(ids, credits, seat, event.deal, delta, reason))
            for seat, penalty in enumerate(event.penalties or ()):
                penalties.append(_penalty(ids, credits, seat, event.deal, penalty))
    return LedgerRows(deal, deals, chips, penalties)


def _chips(
    ids: LedgerIds, credits: Sequence[MatchPlayer], seat: int, deal: int, delta: int, reason: str
) -> ChipEntry:
    """The chip row of `seat` (the one place a chip row is built)."""
    who = credits[seat]
    return ChipEntry(
        ids.guild,
        ids.game,
        ids.match_id,
        deal,
        seat,
        who.player_id,
        who.is_ai,
        delta,
        reason,
        ids.at,
    )


def _penalty(
    ids: LedgerIds, credits: Sequence[MatchPlayer], seat: int, deal: int, penalty: int
) -> PenaltyEntry:
    """The penalty row of `seat` (the one place a penalty row is built)."""
    who = credits[seat]
    return PenaltyEntry(
        ids.guild, ids.game, ids.match_id, deal, seat, who.player_id, who.is_ai, penalty, ids.at
    )
