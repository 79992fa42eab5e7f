"""The totals leaderboards' running sums: `board_days`, kept with every commit.

A totals leaderboard (`/leaderboard`, `deucebot leaderboard`, a `/stats` line) sums, per
player, their credited finished matches (count, wins, best total) and their ledger rows
(Big Two: deals and penalties; the chip games: hands and net chips) over a period. Summed
from the raw rows that is a scan of every match of the game (seconds at 100,000 matches),
so the sums are kept per player and UTC day in `board_days` (migration 011), written in
the transaction of the rows they sum:

- each penalty-ledger row adds a deal and its penalty (`UPSERT_DEAL`);
- each chip-ledger row of a hand or of chips handed back adds to the net (`UPSERT_CHIPS`;
  a hand row also counts a hand);
- a match's result adds, per credited seat (`storage.queries` has the match-credit rule),
  a match, a win if the seat is among the winners and the seat's total (`credit_match`).

A period (this week, this month) starts at 00:00 UTC, so a period is a whole number of
days and its board reads one row per player and day. `days_select` computes the same rows
from the raw tables: the rebuild (`rebuild_statements`: after migration 011, after
`migrate-db`) and the reads of a database opened read-only at an older schema use it.
Both dialects' SQL is here (JSON is read in SQL only by `days_select`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

from storage.base import ChipEntry, MatchResult, PenaltyEntry

Dialect = Literal["sqlite", "postgres"]

DAY = 86400.0
BOARD_SCHEMA = 11
"""The schema version that has `board_days` (migration 011)."""
KEY_SEATS = 64
"""A seat's key in a match is `match_id * KEY_SEATS + seat` (the latest names the player)."""
CHIP_REASONS = ("hand", "returned")
"""The chip-ledger rows a board sums (buy-ins and rebuys are not won or lost)."""

_KEY = "(guild, game, player_id, is_ai, day)"
_COLUMNS = "matches, wins, best, deals, penalty, chip_rows, hands, net, last_key"

UPSERT_DEAL = (
    f"INSERT INTO board_days {_KEY[:-1]}, deals, penalty) VALUES (?, ?, ?, ?, ?, 1, ?)"
    f" ON CONFLICT {_KEY} DO UPDATE SET deals = board_days.deals + 1,"
    " penalty = board_days.penalty + excluded.penalty"
)
UPSERT_CHIPS = (
    f"INSERT INTO board_days {_KEY[:-1]}, chip_rows, hands, net) VALUES (?, ?, ?, ?, ?, 1, ?, ?)"
    f" ON CONFLICT {_KEY} DO UPDATE SET chip_rows = board_days.chip_rows + 1,"
    " hands = board_days.hands + excluded.hands, net = board_days.net + excluded.net"
)
CREDITED = (
    "(mp.is_ai = 1 OR NOT EXISTS (SELECT 1 FROM actions a"
    " WHERE a.match_id = mp.match_id AND a.seat = mp.seat AND a.actor = 'ai'))"
)
"""The match-credit rule on a `match_players mp` row: an AI seat, or a person who made
every move of the seat (no move of it by the AI)."""
PENDING = "SELECT 1 FROM board_days_rebuild"
"""Rows here: `board_days` must be rebuilt (migration 011 leaves one)."""


def day_of(at: float) -> int:
    """The UTC day number of the epoch time `at` (what `board_days.day` holds)."""
    return math.floor(at / DAY)


def _case(seats: int) -> str:
    """`CASE mp.seat WHEN 0 THEN ? ... END`: one parameter per seat (NULL past them)."""
    whens = " ".join(f"WHEN {s} THEN CAST(? AS BIGINT)" for s in range(seats))
    return f"CASE mp.seat {whens} ELSE NULL END" if seats else "NULL"


def credit_match(result: MatchResult) -> tuple[str, tuple[Any, ...]]:
    """The statement adding a finished match to its credited players' days (run after the
    match's last action is written: that action may be the AI's). It reads the match's
    actions and credit rows: in a PostgreSQL batch (grouped per table) every `actions`
    row still comes first, since each commit writes its action before anything else, and
    a table's seat changes are committed before its next action is accepted."""
    seats = len(result.totals)
    sql = (
        f"INSERT INTO board_days {_KEY[:-1]}, matches, wins, best, last_key)"
        " SELECT t.guild, t.game, mp.player_id, mp.is_ai, CAST(? AS BIGINT), count(*),"
        f" sum(coalesce({_case(seats)}, 0)), min({_case(seats)}),"
        f" max(mp.match_id * {KEY_SEATS} + mp.seat)"
        " FROM match_players mp JOIN matches m ON m.id = mp.match_id"
        " JOIN tables t ON t.id = m.table_id"
        f" WHERE mp.match_id = ? AND {CREDITED}"
        " GROUP BY t.guild, t.game, mp.player_id, mp.is_ai"
        f" ON CONFLICT {_KEY} DO UPDATE SET matches = board_days.matches + excluded.matches,"
        " wins = board_days.wins + excluded.wins,"
        " best = CASE WHEN excluded.best IS NULL THEN board_days.best"
        " WHEN board_days.best IS NULL OR excluded.best < board_days.best THEN excluded.best"
        " ELSE board_days.best END,"
        " last_key = CASE WHEN board_days.last_key IS NULL"
        " OR excluded.last_key > board_days.last_key THEN excluded.last_key"
        " ELSE board_days.last_key END"
    )
    won = tuple(int(s in result.winners) for s in range(seats))
    return sql, (day_of(result.finished_at), *won, *result.totals, result.match_id)


def ledger_statements(
    chips: Sequence[ChipEntry], penalties: Sequence[PenaltyEntry]
) -> list[tuple[str, tuple[Any, ...]]]:
    """The `board_days` upserts of ledger rows written in the same transaction."""
    out: list[tuple[str, tuple[Any, ...]]] = []
    for p in penalties:
        key = (p.guild, p.game, p.player_id, int(p.is_ai), day_of(p.at))
        out.append((UPSERT_DEAL, (*key, p.penalty)))
    for c in chips:
        if c.reason in CHIP_REASONS:
            key = (c.guild, c.game, c.player_id, int(c.is_ai), day_of(c.at))
            out.append((UPSERT_CHIPS, (*key, int(c.reason == "hand"), c.delta)))
    return out


def _day(column: str, dialect: Dialect) -> str:
    if dialect == "postgres":
        return f"CAST(floor({column} / 86400) AS BIGINT)"
    whole = f"CAST({column} / 86400 AS INTEGER)"
    return f"({whole} - ({whole} > {column} / 86400))"  # floor: CAST truncates


def _won(dialect: Dialect) -> str:
    if dialect == "postgres":
        return "CASE WHEN m.winners::jsonb @> to_jsonb(mp.seat) THEN 1 ELSE 0 END"
    return "EXISTS (SELECT 1 FROM json_each(m.winners) w WHERE w.value = mp.seat)"


def _total(dialect: Dialect) -> str:
    if dialect == "postgres":
        return "CAST(m.totals::jsonb ->> mp.seat AS BIGINT)"
    return "json_extract(m.totals, '$[' || mp.seat || ']')"


def days_select(dialect: Dialect) -> str:
    """Every `board_days` row (its columns in table order) computed from the ledgers and
    the finished matches: what the running sums must equal."""
    penalty_day, chip_day = _day("at", dialect), _day("at", dialect)
    match_day = _day("m.finished_at", dialect)
    reasons = ", ".join(f"'{r}'" for r in CHIP_REASONS)
    return f"""
        SELECT guild, game, player_id, is_ai, day, sum(matches) AS matches,
               sum(wins) AS wins, min(best) AS best, sum(deals) AS deals,
               sum(penalty) AS penalty, sum(chip_rows) AS chip_rows, sum(hands) AS hands,
               sum(net) AS net, max(last_key) AS last_key
        FROM (
            SELECT guild, game, player_id, is_ai, {penalty_day} AS day, 0 AS matches,
                   0 AS wins, CAST(NULL AS BIGINT) AS best, count(*) AS deals,
                   sum(penalty) AS penalty, 0 AS chip_rows, 0 AS hands, 0 AS net,
                   CAST(NULL AS BIGINT) AS last_key
            FROM penalty_ledger GROUP BY guild, game, player_id, is_ai, {penalty_day}
            UNION ALL
            SELECT guild, game, player_id, is_ai, {chip_day}, 0, 0, CAST(NULL AS BIGINT), 0, 0,
                   count(*), sum(CASE WHEN reason = 'hand' THEN 1 ELSE 0 END), sum(delta),
                   CAST(NULL AS BIGINT)
            FROM chip_ledger WHERE reason IN ({reasons})
            GROUP BY guild, game, player_id, is_ai, {chip_day}
            UNION ALL
            SELECT t.guild, t.game, mp.player_id, mp.is_ai, {match_day}, count(*),
                   sum({_won(dialect)}), min({_total(dialect)}), 0, 0, 0, 0, 0,
                   max(mp.match_id * {KEY_SEATS} + mp.seat)
            FROM match_players mp JOIN matches m ON m.id = mp.match_id
            JOIN tables t ON t.id = m.table_id
            WHERE m.finished_at IS NOT NULL AND {CREDITED}
            GROUP BY t.guild, t.game, mp.player_id, mp.is_ai, {match_day}
        ) parts
        GROUP BY guild, game, player_id, is_ai, day
    """


def rebuild_statements(dialect: Dialect) -> list[tuple[str, tuple[Any, ...]]]:
    """`board_days` recomputed from the raw rows, and the rebuild marked done (one
    transaction)."""
    return [
        ("DELETE FROM board_days", ()),
        (
            f"INSERT INTO board_days {_KEY[:-1]}, {_COLUMNS})"
            f" SELECT * FROM ({days_select(dialect)}) d WHERE 1 = 1",
            (),
        ),
        ("DELETE FROM board_days_rebuild", ()),
    ]


KEPT = f"SELECT guild, game, player_id, is_ai, day, {_COLUMNS} FROM board_days"
"""Every running-sums row, its columns in `days_select`'s order."""


def _row(values: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(v if v is None or isinstance(v, str) else int(v) for v in values)


def differences(kept: Sequence[Sequence[Any]], computed: Sequence[Sequence[Any]]) -> list[str]:
    """Where the running sums (`KEPT` rows) differ from the sums of the raw rows
    (`days_select` rows): one line per (guild, game, player, AI or not, day)."""
    have = {_row(r[:5]): _row(r[5:]) for r in kept}
    want = {_row(r[:5]): _row(r[5:]) for r in computed}
    names = _COLUMNS.split(", ")
    out = []
    for key in sorted(set(have) | set(want), key=repr):
        if have.get(key) != want.get(key):
            guild, game, player, is_ai, day = key
            shown = {
                n: (a, b)
                for n, a, b in zip(names, have.get(key, ()) or (None,) * len(names),
                                   want.get(key, ()) or (None,) * len(names), strict=True)
                if a != b
            }  # fmt: skip
            changes = ", ".join(f"{n} {a} instead of {b}" for n, (a, b) in shown.items())
            who = f"{player}{' (AI)' if is_ai else ''}"
            out.append(
                f"leaderboard sums of {guild} {game} {who}, day {day}: {changes}"
                " (the stored rows give the second figures)"
            )
    return out


def board_query(dialect: Dialect, schema: int, player_id: str | None) -> str:
    """Per player (and AI or not) of a guild's game since a day: the period's sums and the
    name on their latest credited seat (NULL: none in the period). Parameters: guild, game,
    first day (and `player_id`). A database older than `BOARD_SCHEMA` (read-only) is
    summed from its raw rows."""
    source = "board_days" if schema >= BOARD_SCHEMA else f"({days_select(dialect)})"
    only = "" if player_id is None else " AND b.player_id = ?"
    return f"""
        WITH sums AS (
            SELECT b.player_id, b.is_ai, sum(b.matches) AS matches, sum(b.wins) AS wins,
                   min(b.best) AS best, sum(b.deals) AS deals, sum(b.penalty) AS penalty,
                   sum(b.chip_rows) AS chip_rows, sum(b.hands) AS hands, sum(b.net) AS net,
                   max(b.last_key) AS last_key
            FROM {source} b
            WHERE b.guild = ? AND b.game = ? AND b.day >= ?{only}
            GROUP BY b.player_id, b.is_ai
        )
        SELECT sums.*, (SELECT mp.name FROM match_players mp
                        WHERE mp.match_id = sums.last_key / {KEY_SEATS}
                          AND mp.seat = sums.last_key % {KEY_SEATS}) AS name
        FROM sums
    """
