"""Build hand histories from storage: replay a match's log, cut it into deals, and keep only
what one viewer may know.

The one rule of visibility (`visible`): a seat's history holds the public events and that
seat's private events, exactly as the table delivered them, its own action texts (another
seat's action text can name hidden cards: a duel lock, a draw discard; what the table showed
of it is in the public events), and no seed while the match can still be played (a shuffle
seed gives the whole deck); deals credited to someone else (before a member took an AI seat
over) are left out. Once the match is over (`bot.history.over`) every history carries each
deal's seed, so a member can check the deals. The omniscient history (every hidden card and
the deck order of ended deals) is only built for a match that is over.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.errors import Refusal
from bot.history.model import (
    ActionEntry,
    DealHistory,
    DealResult,
    EventEntry,
    HistoryFile,
    LedgerEntry,
    MatchHistory,
    SeatInfo,
    Viewer,
)
from bot.history.over import is_over, latest_id
from bot.runtime.replay import match_state, opening_events
from engines.base import (
    ChipsBought,
    DealSettled,
    DealStarted,
    Event,
    GameState,
    MatchEnded,
)
from engines.cards import Card, deck_order
from engines.fair import DealSource, seed_from_hex
from engines.registry import GameSpec, get_game
from storage.base import (
    ActionRecord,
    ChipEntry,
    MatchPlayer,
    MatchRecord,
    PenaltyEntry,
    Storage,
    TableRecord,
)


class HistoryError(Refusal):
    """A history that cannot be given (i18n key ``error.<code>``); nothing was written."""


def deal_cards(game: str, seed: str | None) -> list[Card] | None:
    """The deck order of a deal, top card first, from its revealed seed (hex): the
    `engines.cards.deck_order` every game deals from (None without a seed, or when the game
    does not deal each deal from a fresh deck: `GameSpec.deck`, the duel's shoe)."""
    if get_game(game).deck != "per-deal" or not seed:
        return None
    return deck_order(seed_from_hex(seed))


@dataclass(frozen=True)
class MatchLog:
    """Everything stored about one match."""

    table: TableRecord
    match: MatchRecord
    players: list[MatchPlayer]
    actions: list[ActionRecord]
    chips: list[ChipEntry]
    penalties: list[PenaltyEntry]
    latest: int | None = None
    """The id of the table's latest match (None: taken to be this one; not read for a match
    over anyway, `bot.history.over.latest_id`)."""

    @property
    def finished(self) -> bool:
        """True once the match has ended."""
        return self.match.finished_at is not None

    @property
    def over(self) -> bool:
        """True once the match can no longer be played (`bot.history.over.is_over`): its
        seeds may be shown."""
        return is_over(self.match, self.table, self.latest)

    def seat_of(self, player_id: str) -> int | None:
        """The seat credited to `player_id` in this match, if any."""
        for player in self.players:
            if player.player_id == player_id and not player.is_ai:
                return player.seat
        return None


async def load_match(storage: Storage, match_id: int) -> MatchLog:
    """Read one match's rows; `HistoryError` (``history_no_match``) if there is none."""
    match = await storage.match(match_id)
    table = await storage.table(match.table_id) if match is not None else None
    if match is None or table is None:
        raise HistoryError(f"there is no match {match_id}", code="history_no_match", match=match_id)
    return MatchLog(
        table=table,
        match=match,
        players=await storage.match_players(match_id),
        actions=await storage.actions(match_id),
        chips=await storage.chip_entries(match_id),
        penalties=await storage.penalty_entries(match_id),
        latest=await latest_id(storage, match, table),
    )


@dataclass(frozen=True)
class Step:
    """One accepted action (None: the match's creation) and the events it produced."""

    action: ActionRecord | None
    events: tuple[Event, ...]


def replay_steps(
    spec: GameSpec,
    match: MatchRecord,
    actions: Sequence[ActionRecord],
    start: GameState[Any, Any] | None = None,
) -> list[Step]:
    """Replay a match from its seed (or from `start`, a state made otherwise) and its log,
    keeping every action's events."""
    state = start
    if state is None:
        state = match_state(spec, match)
    steps = [Step(None, tuple(opening_events(state)))]
    for row in actions:
        if state.to_act != row.seat:
            raise RuntimeError(f"match {match.id} turn {row.seq}: seat {row.seat} is not to act")
        steps.append(Step(row, tuple(state.apply(row.seat, spec.parse_action(row.action)))))
    return steps


@dataclass
class _Deal:
    started: DealStarted
    stacks: list[int] | None
    actions: list[ActionRecord] = field(default_factory=list)
    events: list[tuple[int | None, Event]] = field(default_factory=list)
    settled: DealSettled | None = None


def _deals(
    steps: Sequence[Step], chips: list[int] | None
) -> tuple[list[tuple[int | None, Event]], list[_Deal]]:
    """Cut the steps into deals at every `DealStarted`; events before the first deal apart.
    `chips` (chip games: zeros) follows every seat's chips through buy-ins and settlements."""
    before: list[tuple[int | None, Event]] = []
    deals: list[_Deal] = []
    for step in steps:
        seq = step.action.seq if step.action is not None else None
        if step.action is not None and deals:
            deals[-1].actions.append(step.action)
        for event in step.events:
            if chips is not None and isinstance(event, ChipsBought):
                chips[event.seat] += event.amount
            elif chips is not None and isinstance(event, DealSettled) and event.chips:
                for seat, delta in enumerate(event.chips):
                    chips[seat] += delta
            if isinstance(event, DealStarted):
                deals.append(_Deal(event, list(chips) if chips is not None else None))
            target = deals[-1].events if deals else before
            target.append((seq, event))
            if isinstance(event, DealSettled) and deals:
                deals[-1].settled = event
    return before, deals


def revealed_seeds(log: MatchLog, steps: Sequence[Step]) -> dict[int, str]:
    """Deal -> its seed (hex), for a match that is over; nothing while it can be played.
    A match that ended revealed them itself (`MatchEnded.seeds`); one that stopped or was
    restarted has them derived from its stored secret, for the deals that published a
    commitment (a stacked deal has none)."""
    if not log.over:
        return {}
    for step in steps:
        for event in step.events:
            if isinstance(event, MatchEnded):
                return dict(event.seeds)
    source = DealSource.for_match(log.match.seed, table=log.table.id, match=log.match.number)
    found = {}
    for step in steps:
        for event in step.events:
            if isinstance(event, DealStarted) and event.commitment is not None:
                seed = source.seed(event.deal)
                if seed is not None and seed.commitment == event.commitment:
                    found[event.deal] = seed.hex
    return found


def visible(event: Event, seat: int | None) -> bool:
    """True when the viewer at `seat` (None: omniscient) saw `event`."""
    return seat is None or event.to is None or event.to == seat


def _ledger(log: MatchLog, deal: int | None, deal_numbers: set[int]) -> list[LedgerEntry]:
    """Ledger rows of `deal` (None: the rows of no deal, e.g. buy-ins before the first)."""
    rows = [
        LedgerEntry(
            seat=c.seat,
            player_id=c.player_id,
            is_ai=c.is_ai,
            reason=c.reason,
            amount=c.delta,
        )
        for c in log.chips
        if (c.hand == deal if deal is not None else c.hand not in deal_numbers)
    ]
    rows += [
        LedgerEntry(
            seat=p.seat, player_id=p.player_id, is_ai=p.is_ai, reason="penalty", amount=p.penalty
        )
        for p in log.penalties
        if (p.deal == deal if deal is not None else p.deal not in deal_numbers)
    ]
    return rows


def _credited(log: MatchLog) -> dict[tuple[int, int], str]:
    """(deal, seat) -> the player that deal's result was credited to (its ledger rows)."""
    found = {(c.hand, c.seat): c.player_id for c in log.chips if c.reason == "hand"}
    found.update({(p.deal, p.seat): p.player_id for p in log.penalties})
    return found


def build_match_history(
    log: MatchLog, *, seat: int | None = None, start: GameState[Any, Any] | None = None
) -> MatchHistory:
    """The match as the owner of `seat` saw it, or everything when `seat` is None (refused
    with ``history_not_finished`` while the match is still being played). Every deal's seed
    is there once the match is over (`revealed_seeds`), never before. `start` is the
    match's state before its first action when it was not made from the match seed (a
    recorded hand dealt from a stacked deck).

    A seat's history leaves out the deals its ledger rows credit to someone else: a member
    who took an AI seat over mid-match never sees that seat's earlier hands."""
    omniscient = seat is None
    if omniscient and not log.over:
        raise HistoryError(
            f"match {log.match.id} is still being played: only a seat's own history can be "
            "exported until it ends",
            code="history_not_finished",
            match=log.match.id,
        )
    spec = get_game(log.table.game)
    chips = [0] * len(log.players) if spec.scoring == "chips" else None
    steps = replay_steps(spec, log.match, log.actions, start)
    seeds = revealed_seeds(log, steps)
    before, deals = _deals(steps, chips)
    numbers = {d.started.deal for d in deals}
    viewer_id = next((p.player_id for p in log.players if p.seat == seat), None)
    credited = _credited(log)
    out: list[DealHistory] = []
    for index, deal in enumerate(deals):
        events = list(deal.events)
        if index == 0:
            events = before + events
        if seat is not None and credited.get((deal.started.deal, seat), viewer_id) != viewer_id:
            continue
        ended = deal.settled is not None
        settled = deal.settled
        seed = seeds.get(deal.started.deal)
        deck = deal_cards(spec.name, seed) if omniscient and ended else None
        out.append(
            DealHistory(
                deal=deal.started.deal,
                dealer=deal.started.dealer,
                ended=ended,
                seed=seed,
                deck=[str(c) for c in deck] if deck is not None else None,
                stacks=deal.stacks,
                actions=[
                    ActionEntry(
                        seq=a.seq,
                        seat=a.seat,
                        actor=a.actor,
                        action=a.action if omniscient or a.seat == seat else None,
                        at=a.at,
                    )
                    for a in deal.actions
                ],
                events=[
                    EventEntry(seq=s, event=e.to_json()) for s, e in events if visible(e, seat)
                ],
                result=DealResult(
                    chips=list(settled.chips) if settled.chips is not None else None,
                    penalties=list(settled.penalties) if settled.penalties is not None else None,
                    dealt=list(settled.dealt) if settled.dealt is not None else None,
                )
                if settled is not None
                else None,
                ledger=_ledger(log, deal.started.deal, numbers),
            )
        )
    match = log.match
    return MatchHistory(
        game=spec.name,
        title=spec.title,
        match_id=match.id,
        number=match.number,
        table_id=log.table.id,
        guild=log.table.guild,
        place=log.table.place,
        config=match.config,
        seed=str(match.seed) if omniscient else None,
        started_at=match.started_at,
        finished_at=match.finished_at,
        winners=list(match.winners) if match.winners is not None else None,
        totals=list(match.totals) if match.totals is not None else None,
        viewer=Viewer(seat=seat, player_id=viewer_id, omniscient=omniscient),
        seats=[
            SeatInfo(seat=p.seat, player_id=p.player_id, name=p.name, is_ai=p.is_ai)
            for p in log.players
        ],
        ledger=_ledger(log, None, numbers),
        deals=out,
    )


async def export_matches(
    storage: Storage, *, match_id: int | None = None, player_id: str | None = None
) -> HistoryFile:
    """The CLI's export: one match or every match, as `player_id` saw them (their matches
    only) or omniscient (finished matches only when no match is named)."""
    if match_id is not None:
        ids = [match_id]
    else:
        found = await storage.matches(player_id=player_id)
        ids = [m.id for m in reversed(found) if player_id is not None or m.finished_at is not None]
    matches = []
    for number in ids:
        log = await load_match(storage, number)
        seat = None
        if player_id is not None:
            seat = log.seat_of(player_id)
            if seat is None:
                raise HistoryError(
                    f"{player_id} did not play match {number}",
                    code="history_not_player",
                    match=number,
                    player=player_id,
                )
        matches.append(build_match_history(log, seat=seat))
    return HistoryFile(matches=matches)


async def recent_deals(
    storage: Storage, player_id: str, *, deals: int, guild: str | None = None
) -> HistoryFile:
    """`player_id`'s last `deals` ended deals (newest matches first, each match's deals in
    order), as they saw them: what `/history` sends. Replays run in a worker thread, so a
    long match never holds the event loop. Only matches with a deal of theirs that ended
    are read, at most `deals` of them (each holds one at least): the work does not grow
    with the matches they played."""
    matches: list[MatchHistory] = []
    wanted = deals
    found = await storage.matches(player_id=player_id, guild=guild, limit=deals, ended_deals=True)
    for match in found:
        if wanted <= 0:
            break
        log = await load_match(storage, match.id)
        seat = log.seat_of(player_id)
        if seat is None:
            continue
        history = await asyncio.to_thread(build_match_history, log, seat=seat)
        ended = [d for d in history.deals if d.ended][-wanted:]
        if ended:
            wanted -= len(ended)
            matches.append(history.model_copy(update={"deals": ended}))
    return HistoryFile(matches=matches)
