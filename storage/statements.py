"""The write statements every SQL backend runs, in one portable dialect.

Placeholders are `?` (SQLite's); `storage.postgres` rewrites them to `$1, $2, ...`. Values
are the columns' stored forms: JSON as text, seeds as decimal text (they may exceed 64
bits), flags as 0/1. One `ActionCommit` becomes one list of statements, written in one
transaction by whichever backend holds it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from storage.base import (
    ActionCommit,
    ChipEntry,
    DealRecord,
    MatchPlayer,
    SeatRecord,
    TableStatus,
)

Statement = tuple[str, tuple[Any, ...]]
"""One SQL statement with its parameters."""

INSERT_ACTION = "INSERT INTO actions (match_id, seq, deal, seat, action, actor, at) VALUES (?, ?, ?, ?, ?, ?, ?)"
INSERT_DEAL = "INSERT INTO deals (match_id, deal, dealer, seed, first_seq) VALUES (?, ?, ?, ?, ?)"
INSERT_CHIP = (
    "INSERT INTO chip_ledger (guild, game, match_id, hand, seat, player_id, is_ai, delta, reason, at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
INSERT_PENALTY = (
    "INSERT INTO penalty_ledger (guild, game, match_id, deal, seat, player_id, is_ai, penalty, at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
FINISH_MATCH = "UPDATE matches SET finished_at = ?, winners = ?, totals = ? WHERE id = ?"
SET_TIMER_STATUS = (
    "UPDATE tables SET deadline = ?, deadline_turn = ?, status = coalesce(?, status) WHERE id = ?"
)
"""The table's timer and, unless the status given is NULL, its status: one statement for
both, so a batch's timer updates go out as one run."""
UPSERT_SEAT = (
    "INSERT INTO seats (table_id, seat, player_id, name, policy, away, timeouts)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (table_id, seat) DO UPDATE SET player_id = excluded.player_id,"
    " name = excluded.name, policy = excluded.policy, away = excluded.away,"
    " timeouts = excluded.timeouts"
)
UPSERT_PLAYER = (
    "INSERT INTO match_players (match_id, seat, player_id, name, is_ai) VALUES (?, ?, ?, ?, ?)"
    " ON CONFLICT (match_id, seat) DO UPDATE SET player_id = excluded.player_id,"
    " name = excluded.name, is_ai = excluded.is_ai"
)


def seat_row(table_id: int, seat: SeatRecord) -> tuple[Any, ...]:
    """The `seats` row of `seat` at table `table_id` (UPSERT_SEAT's parameters)."""
    return (
        table_id,
        seat.seat,
        seat.player_id,
        seat.name,
        seat.policy,
        int(seat.away),
        seat.timeouts,
    )


def chip_row(entry: ChipEntry, match_id: int | None = None) -> tuple[Any, ...]:
    """The `chip_ledger` row of `entry` (INSERT_CHIP's parameters), optionally for another match."""
    return (
        entry.guild,
        entry.game,
        entry.match_id if match_id is None else match_id,
        entry.hand,
        entry.seat,
        entry.player_id,
        int(entry.is_ai),
        entry.delta,
        entry.reason,
        entry.at,
    )


def deal_row(deal: DealRecord, match_id: int | None = None) -> tuple[Any, ...]:
    """The `deals` row of `deal` (INSERT_DEAL's parameters), optionally for another match."""
    return (
        deal.match_id if match_id is None else match_id,
        deal.deal,
        deal.dealer,
        str(deal.seed),
        deal.first_seq,
    )


def commit_statements(commit: ActionCommit) -> list[Statement]:
    """The SQL statements of one `ActionCommit`, in order."""
    a = commit.action
    out: list[Statement] = [
        (INSERT_ACTION, (a.match_id, a.seq, a.deal, a.seat, a.action, a.actor, a.at))
    ]
    out += [(INSERT_DEAL, deal_row(d)) for d in commit.deals]
    out += [(INSERT_CHIP, chip_row(c)) for c in commit.chips]
    out += [
        (
            INSERT_PENALTY,
            (
                p.guild,
                p.game,
                p.match_id,
                p.deal,
                p.seat,
                p.player_id,
                int(p.is_ai),
                p.penalty,
                p.at,
            ),
        )
        for p in commit.penalties
    ]
    if commit.result is not None:
        r = commit.result
        out.append(
            (
                FINISH_MATCH,
                (r.finished_at, json.dumps(r.winners), json.dumps(r.totals), r.match_id),
            )
        )
    timer = (commit.deadline, commit.deadline_turn, commit.status, commit.table_id)
    out.append((SET_TIMER_STATUS, timer))
    out += [(UPSERT_SEAT, seat_row(commit.table_id, s)) for s in commit.seats]
    return out


INSERT_TABLE = (
    "INSERT INTO tables (guild, place, game, settings, options, status, created_at)"
    " VALUES (?, ?, ?, ?, ?, 'lobby', ?) RETURNING id"
)
INSERT_MATCH = (
    "INSERT INTO matches (table_id, number, seed, config, first_seq, started_at)"
    " VALUES (?, ?, ?, ?, ?, ?) RETURNING id"
)


@dataclass(frozen=True)
class NewRow:
    """A write that creates a row and then writes rows that refer to its id: `insert`
    returns the id (`RETURNING id`), `then(id)` are the statements that follow, in the
    same transaction."""

    insert: Statement
    then: Callable[[int], list[Statement]]


Write = list[Statement] | NewRow
"""One job for group commit: statements run in order, or a `NewRow` (its result: the id)."""


def seats_statements(
    table_id: int,
    seats: Sequence[SeatRecord],
    match_id: int | None = None,
    players: Sequence[MatchPlayer] = (),
) -> list[Statement]:
    """Replace seat rows and, with `match_id`, those seats' credit rows of that match."""
    out: list[Statement] = [(UPSERT_SEAT, seat_row(table_id, s)) for s in seats]
    if match_id is not None:
        out += [
            (UPSERT_PLAYER, (match_id, p.seat, p.player_id, p.name, int(p.is_ai))) for p in players
        ]
    return out


def status_statement(table_id: int, status: TableStatus) -> Statement:
    """Change a table's status; stopping it also clears its timer."""
    if status == "stopped":
        return (SET_TIMER_STATUS, (None, None, status, table_id))
    return ("UPDATE tables SET status = ? WHERE id = ?", (status, table_id))


def timer_statement(table_id: int, deadline: float | None, turn: int | None) -> Statement:
    """Store the table's turn deadline (or clear it)."""
    return (SET_TIMER_STATUS, (deadline, turn, None, table_id))
