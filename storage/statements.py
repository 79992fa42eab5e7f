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
    PenaltyEntry,
    SeatRecord,
    TableStatus,
)
from storage.board import credit_match, ledger_statements
from storage.chain import FIELDS, GENESIS, TABLES, Kind, chain_rows
from storage.ratings import RatingEntry

Statement = tuple[str, tuple[Any, ...]]
"""One SQL statement with its parameters."""

INSERT: dict[Kind, str] = {
    kind: f"INSERT INTO {TABLES[kind]} ({', '.join(FIELDS[kind])}, hash)"
    f" VALUES ({', '.join('?' * (len(FIELDS[kind]) + 1))})"
    for kind in TABLES
}
"""One INSERT per chained table, its columns in hash order (`storage.chain.FIELDS`) + hash."""
SET_HEAD = "UPDATE matches SET head_hash = ? WHERE id = ?"
"""A match's new chain head (the hash of its last row)."""
CHAIN_HEAD = "SELECT head_hash FROM matches WHERE id = ?"
"""A match's chain head, read in the transaction that chains rows after it."""
INSERT_SECRET = "INSERT INTO match_secrets (match_id, seed) VALUES (?, ?)"
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
    "INSERT INTO match_players (match_id, seat, player_id, name, is_ai, held_by, held_ai)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (match_id, seat) DO UPDATE SET player_id = excluded.player_id,"
    " name = excluded.name, is_ai = excluded.is_ai"
)
"""A seat's credit row; who held the seat at the start (`held_by`, `held_ai`) is written
by the match's start only: a member taking the seat mid-match does not change it."""
SETTLE_MATCH = (
    "UPDATE matches SET settled_at = ? WHERE id = ? AND finished_at IS NULL AND settled_at IS NULL"
)
"""An unfinished match settled for the ratings by a restart or stop."""

INSERT_DELIVERY = (
    "INSERT INTO deliveries (match_id, effect, upto, message_id, delivered, at)"
    " VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (match_id, effect) DO UPDATE SET"
    " upto = excluded.upto, message_id = excluded.message_id, delivered = 1, at = excluded.at"
    " WHERE deliveries.delivered = 0"
)
"""A delivered effect of a match (the first delivery record wins; it replaces an intent)."""
INSERT_INTENT = (
    "INSERT INTO deliveries (match_id, effect, upto, message_id, delivered, at)"
    " VALUES (?, ?, ?, ?, 0, ?) ON CONFLICT (match_id, effect) DO NOTHING"
)
"""An effect about to be posted (`delivered` 0; `message_id`: the message it comes after)."""
INSERT_SAID = (
    "INSERT INTO notices_said (player_id, notice, at) VALUES (?, ?, ?)"
    " ON CONFLICT (player_id, notice) DO NOTHING"
)
DELETE_SAID = "DELETE FROM notices_said WHERE player_id = ? AND notice = ?"
UPSERT_GUILD_SETTING = (
    "INSERT INTO guild_settings (guild, name, value) VALUES (?, ?, ?)"
    " ON CONFLICT (guild, name) DO UPDATE SET value = excluded.value"
)
DELETE_GUILD_SETTING = "DELETE FROM guild_settings WHERE guild = ? AND name = ?"
INSERT_SETTING_CHANGE = (
    "INSERT INTO guild_settings_log (guild, name, value, member_id, member_name, at)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)
INSERT_SEASON = "INSERT INTO seasons (guild, name, starts_at, set_by) VALUES (?, ?, ?, ?)"
UPSERT_PREF = (
    "INSERT INTO member_prefs (player_id, name, value, at) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (player_id, name) DO UPDATE SET value = excluded.value, at = excluded.at"
)
RAISE_LINK_GENERATION = (
    "INSERT INTO web_links (player_id, generation, at) VALUES (?, 1, ?)"
    " ON CONFLICT (player_id) DO UPDATE SET generation = web_links.generation + 1,"
    " at = excluded.at"
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


def chip_values(entry: ChipEntry, match_id: int, seq: int | None) -> tuple[Any, ...]:
    """A `chip_ledger` row's values in hash order (`storage.chain.FIELDS["chip"]`)."""
    return (
        match_id,
        seq,
        entry.guild,
        entry.game,
        entry.hand,
        entry.seat,
        entry.player_id,
        int(entry.is_ai),
        entry.delta,
        entry.reason,
        entry.at,
    )


def penalty_values(entry: PenaltyEntry, match_id: int, seq: int | None) -> tuple[Any, ...]:
    """A `penalty_ledger` row's values in hash order (`storage.chain.FIELDS["penalty"]`)."""
    return (
        match_id,
        seq,
        entry.guild,
        entry.game,
        entry.deal,
        entry.seat,
        entry.player_id,
        int(entry.is_ai),
        entry.penalty,
        entry.at,
    )


def rating_values(entry: RatingEntry, seq: int | None) -> tuple[Any, ...]:
    """A `rating_updates` row's values in hash order (`storage.chain.FIELDS["rating"]`)."""
    return (
        entry.match_id,
        seq,
        entry.guild,
        entry.game,
        entry.season,
        entry.seat,
        entry.player_id,
        entry.rank,
        entry.before.mu,
        entry.before.sigma,
        entry.after.mu,
        entry.after.sigma,
        entry.at,
    )


def deal_values(deal: DealRecord, match_id: int, seq: int | None) -> tuple[Any, ...]:
    """A `deals` row's values in hash order (`storage.chain.FIELDS["deal"]`)."""
    return (match_id, deal.deal, deal.dealer, deal.commitment, deal.first_seq, seq)


def chained_statements(
    previous: str, rows: Sequence[tuple[Kind, tuple[Any, ...]]], match_id: int
) -> list[Statement]:
    """INSERTs of `rows` (kind, values in hash order) chained after `previous`, then the
    match's new chain head."""
    out: list[Statement] = []
    head = previous
    for (kind, values), digest in zip(rows, chain_rows(previous, rows), strict=True):
        out.append((INSERT[kind], (*values, digest)))
        head = digest
    out.append((SET_HEAD, (head, match_id)))
    return out


def commit_statements(commit: ActionCommit, previous: str = GENESIS) -> list[Statement]:
    """The SQL statements of one `ActionCommit`, in order; its rows are chained after
    `previous`, the match's chain head before the commit."""
    a = commit.action
    m, seq = a.match_id, a.seq
    rows: list[tuple[Kind, tuple[Any, ...]]] = [
        ("action", (m, seq, a.deal, a.seat, a.action, a.actor, a.at))
    ]
    rows += [("deal", deal_values(d, m, seq)) for d in commit.deals]
    rows += [("chip", chip_values(c, m, seq)) for c in commit.chips]
    rows += [("penalty", penalty_values(p, m, seq)) for p in commit.penalties]
    rows += [("rating", rating_values(r, seq)) for r in commit.ratings]
    out = chained_statements(previous, rows, m)
    out += ledger_statements(commit.chips, commit.penalties)
    if commit.result is not None:
        r = commit.result
        out.append(
            (
                FINISH_MATCH,
                (r.finished_at, json.dumps(r.winners), json.dumps(r.totals), r.match_id),
            )
        )
        out.append(credit_match(r))
    timer = (commit.deadline, commit.deadline_turn, commit.status, commit.table_id)
    out.append((SET_TIMER_STATUS, timer))
    out += [(UPSERT_SEAT, seat_row(commit.table_id, s)) for s in commit.seats]
    return out


INSERT_TABLE = (
    "INSERT INTO tables (guild, place, game, settings, options, status, created_at)"
    " VALUES (?, ?, ?, ?, ?, 'lobby', ?) RETURNING id"
)
INSERT_MATCH = (
    "INSERT INTO matches (table_id, number, config, first_seq, started_at, chained)"
    " VALUES (?, ?, ?, ?, ?, 1) RETURNING id"
)


@dataclass(frozen=True)
class NewRow:
    """A write that creates a row and then writes rows that refer to its id: `insert`
    returns the id (`RETURNING id`), `then(id)` are the statements that follow, in the
    same transaction. `first`: a `Chained` write run just before, in that transaction
    (a restart settling the match it replaces)."""

    insert: Statement
    then: Callable[[int], list[Statement]]
    first: Chained | None = None


@dataclass(frozen=True)
class Chained:
    """A write that chains rows after a match's chain head: the backend reads the head
    (`CHAIN_HEAD`, GENESIS when NULL) in the batch's transaction and runs `build(head)`,
    so writes of one match in one batch chain one after the other."""

    match_id: int
    build: Callable[[str], list[Statement]]


Write = list[Statement] | NewRow | Chained
"""One job for group commit: statements run in order, a `NewRow` (its result: the id) or
a `Chained` write."""


def seats_statements(
    table_id: int,
    seats: Sequence[SeatRecord],
    match_id: int | None = None,
    players: Sequence[MatchPlayer] = (),
) -> list[Statement]:
    """Replace seat rows and, with `match_id`, those seats' credit rows of that match."""
    out: list[Statement] = [(UPSERT_SEAT, seat_row(table_id, s)) for s in seats]
    if match_id is not None:
        out += [(UPSERT_PLAYER, player_row(match_id, p)) for p in players]
    return out


def player_row(match_id: int, player: MatchPlayer) -> tuple[Any, ...]:
    """The `match_players` row of `player` in match `match_id` (UPSERT_PLAYER's parameters)."""
    held_ai = None if player.held_by is None else int(player.held_ai)
    return (
        match_id,
        player.seat,
        player.player_id,
        player.name,
        int(player.is_ai),
        player.held_by,
        held_ai,
    )


def status_statement(table_id: int, status: TableStatus) -> Statement:
    """Change a table's status; stopping it also clears its timer."""
    if status == "stopped":
        return (SET_TIMER_STATUS, (None, None, status, table_id))
    return ("UPDATE tables SET status = ? WHERE id = ?", (status, table_id))


def timer_statement(table_id: int, deadline: float | None, turn: int | None) -> Statement:
    """Store the table's turn deadline (or clear it)."""
    return (SET_TIMER_STATUS, (deadline, turn, None, table_id))
