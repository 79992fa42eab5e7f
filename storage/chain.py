"""The tamper-evident log: every stored row of a match chained by SHA-256.

A match's chain runs through its rows in one fixed order: first the rows written when
the match started (its first deal, the buy-ins), then for each action in `seq` order the
action row followed by the deal, chip-ledger, penalty-ledger and rating-update rows that
action wrote (rating updates: only the match's last action, `storage.ratings`; a match a
restart or stop settled has them after its last action's rows, with that action's seq).
Each row stores ``hash = SHA-256(previous hash || canonical bytes of the row)`` (hex),
the first row's previous hash being 32 zero bytes; `matches.head_hash` holds the last.
The canonical bytes are the row's kind and fields as compact JSON (`row_bytes`). So a
row changed, removed, inserted or moved outside the program breaks the chain at that
row (or, for the last rows, at the head), and `verify_chain` names it.

The hash has no key: whoever can write the file can also recompute a whole chain. It
catches quiet edits (a fixed score, a deleted hand) and damage, not a forger who
rewrites every later hash; docs/fairness.md says how to pin a chain from outside.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["action", "deal", "chip", "penalty", "rating"]

GENESIS = "00" * 32
"""The previous hash of a match's first row."""

FIELDS: dict[Kind, tuple[str, ...]] = {
    "action": ("match_id", "seq", "deal", "seat", "action", "actor", "at"),
    "deal": ("match_id", "deal", "dealer", "commitment", "first_seq", "seq"),
    "chip": (
        "match_id", "seq", "guild", "game", "hand", "seat", "player_id", "is_ai", "delta",
        "reason", "at",
    ),
    "penalty": (
        "match_id", "seq", "guild", "game", "deal", "seat", "player_id", "is_ai", "penalty",
        "at",
    ),
    "rating": (
        "match_id", "seq", "guild", "game", "season", "seat", "player_id", "rank",
        "mu_before", "sigma_before", "mu", "sigma", "at",
    ),
}  # fmt: skip
"""The columns each kind of row is hashed over, in order."""

TABLES: dict[Kind, str] = {
    "action": "actions",
    "deal": "deals",
    "chip": "chip_ledger",
    "penalty": "penalty_ledger",
    "rating": "rating_updates",
}


def row_bytes(kind: Kind, values: Sequence[Any]) -> bytes:
    """The canonical bytes of a row: ``[kind, field values...]`` as JSON without spaces,
    UTF-8 (booleans stored as 0/1 are hashed as 0/1)."""
    data = [kind, *(int(v) if isinstance(v, bool) else v for v in values)]
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def link(previous: str, kind: Kind, values: Sequence[Any]) -> str:
    """The hash of a row that follows `previous` (hex) in its match's chain."""
    return hashlib.sha256(bytes.fromhex(previous) + row_bytes(kind, values)).hexdigest()


@dataclass(frozen=True, slots=True)
class ChainProblem:
    """The first bad row of a damaged match: where it is and what is wrong."""

    match_id: int
    table_id: int
    where: str
    """The row: e.g. "action seq 17", "chip_ledger row 40", "the chain head"."""
    what: str

    def __str__(self) -> str:
        return f"match {self.match_id} (table {self.table_id}): {self.where}: {self.what}"


@dataclass(frozen=True, slots=True)
class _Row:
    kind: Kind
    key: int
    values: tuple[Any, ...]
    hash: str | None
    seq: int | None

    @property
    def where(self) -> str:
        if self.kind == "action":
            return f"action seq {self.key}"
        if self.kind == "deal":
            return f"deal {self.key}"
        return f"{TABLES[self.kind]} row {self.key}"


ROW_QUERIES: dict[Kind, str] = {
    kind: f"SELECT {dict(action='seq', deal='deal').get(kind, 'id')}, seq, hash,"
    f" {', '.join(FIELDS[kind])} FROM {table} WHERE match_id = ?"
    for kind, table in TABLES.items()
}
"""Per kind, the query of a match's rows: key, seq, hash, then the hashed fields (portable
SQL, `?` placeholders)."""
HEAD_QUERY = "SELECT table_id, head_hash, chained FROM matches WHERE id = ?"
"""A match's table, chain head and whether it was chained from its start."""


def _rows(found: Sequence[tuple[Kind, Sequence[Any]]]) -> list[_Row]:
    """Rows read by `ROW_QUERIES` (kind, row) in chain order."""
    rows = [_Row(kind, r[0], tuple(r[3:]), r[2], r[1]) for kind, r in found]
    rank = {"action": 0, "deal": 1, "chip": 2, "penalty": 3, "rating": 4}

    def order(row: _Row) -> tuple[int, int, int, int]:
        if row.seq is None:
            return (0, 0, rank[row.kind], row.key)
        return (1, row.seq, rank[row.kind], row.key)

    rows.sort(key=order)
    return rows


def check_match(
    match_id: int,
    head: Sequence[Any] | None,
    found: Sequence[tuple[Kind, Sequence[Any]]],
) -> ChainProblem | None:
    """Walk one match's chain: `head` is its `HEAD_QUERY` row (None: no match row),
    `found` its rows as read by `ROW_QUERIES`; the first bad row, or None when whole.

    An unchained match (written before the chain existed) is checked from its first
    hashed row on; rows without a hash after that are a problem."""
    if head is None:
        return ChainProblem(match_id, -1, "the match row", "is missing")
    table_id, head_hash, chained = head

    def problem(where: str, what: str) -> ChainProblem:
        return ChainProblem(match_id, table_id, where, what)

    previous: str | None = GENESIS if chained else None
    for row in _rows(found):
        if row.hash is None:
            if previous is None:
                continue  # legacy rows before the chain began
            return problem(row.where, "has no hash: inserted outside the program")
        if previous is None:
            previous = GENESIS
        expected = link(previous, row.kind, row.values)
        if row.hash != expected:
            return problem(
                row.where,
                "does not match its hash: changed, or a row before it was removed, "
                "inserted or moved",
            )
        previous = row.hash
    if previous is not None and previous != GENESIS and head_hash != previous:
        return problem("the chain head", "the last rows of the match were removed")
    if previous in (None, GENESIS) and head_hash is not None:
        return problem("the chain head", "every row of the match was removed")
    return None


def verify_match(conn: sqlite3.Connection, match_id: int) -> ChainProblem | None:
    """`check_match` over a plain SQLite connection (the verifier's read-only file)."""
    head = conn.execute(HEAD_QUERY, (match_id,)).fetchone()
    found: list[tuple[Kind, Sequence[Any]]] = []
    for kind, sql in ROW_QUERIES.items():
        found += [(kind, tuple(r)) for r in conn.execute(sql, (match_id,))]
    return check_match(match_id, head, found)


def verify_chains(
    conn: sqlite3.Connection, match_ids: Sequence[int] | None = None
) -> list[ChainProblem]:
    """Every damaged match (of `match_ids`, default all) with its first bad row, on a
    plain SQLite connection."""
    ids = (
        list(match_ids)
        if match_ids is not None
        else [r[0] for r in conn.execute("SELECT id FROM matches ORDER BY id")]
    )
    return [p for p in (verify_match(conn, i) for i in ids) if p is not None]


def chain_rows(previous: str, rows: Sequence[tuple[Kind, Sequence[Any]]]) -> Iterator[str]:
    """The hashes of rows written one after the other after `previous`."""
    for kind, values in rows:
        previous = link(previous, kind, values)
        yield previous


def rechain(
    new_match_id: int, found: Sequence[tuple[Kind, Sequence[Any]]]
) -> tuple[dict[tuple[Kind, int], str], str | None]:
    """The hashes of a whole chain (rows as read by `ROW_QUERIES`) once its match is
    renumbered `new_match_id` (the match id is hashed in every row): per (kind, key) the
    new hash of each hashed row, and the new chain head (None: no hashed row). Only for a
    chain `check_match` found whole: it would make a damaged one look whole."""
    hashes: dict[tuple[Kind, int], str] = {}
    previous: str | None = None
    for row in _rows(found):
        if row.hash is None:
            continue  # legacy rows before the chain began carry no hash
        values = (new_match_id, *row.values[1:])
        previous = link(previous or GENESIS, row.kind, values)
        hashes[(row.kind, row.key)] = previous
    return hashes, previous
