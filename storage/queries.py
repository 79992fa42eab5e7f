"""The reads every SQL backend answers, in one portable dialect, and the leaderboards.

`SqlReads` implements the read half of `storage.base.Storage` on top of one method a
backend supplies, `_all(sql, params)`: placeholders are `?` (SQLite's; `storage.postgres`
rewrites them) and rows are read by column name. The SQL uses nothing either database
lacks (JSON columns are parsed here, not in SQL), so both backends give the same answers
from the same rows, leaderboards included. The one exception is `storage.board`, whose
sums of the raw rows read the matches' JSON in each backend's own dialect (`dialect`).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal, Protocol

from storage.base import (
    ActionRecord,
    BuyInLedger,
    ChipEntry,
    ChipRow,
    DealRecord,
    Leaderboard,
    MatchPlayer,
    MatchRecord,
    PenaltyEntry,
    PenaltyRow,
    Period,
    SeatRecord,
    SettingChange,
    TableRecord,
    period_start,
)
from storage.board import (
    BOARD_SCHEMA,
    KEPT,
    Dialect,
    board_query,
    day_of,
    days_select,
    differences,
)
from storage.chain import HEAD_QUERY, ROW_QUERIES, ChainProblem, Kind, check_match
from storage.deliveries import DeliveryRecord, PostIntent

MATCHES = "SELECT m.*, s.seed FROM matches m LEFT JOIN match_secrets s ON s.match_id = m.id"
"""Match rows with their secret seed (kept apart in `match_secrets`; see `MatchRecord`)."""


class Row(Protocol):
    """A result row read by column name (sqlite3.Row, asyncpg.Record)."""

    def __getitem__(self, key: str, /) -> Any:
        """The value of column `key`."""
        ...


def table_record(row: Row) -> TableRecord:
    """A `tables` row as a `TableRecord`."""
    return TableRecord(
        id=row["id"],
        guild=row["guild"],
        place=row["place"],
        game=row["game"],
        settings=json.loads(row["settings"]),
        options=json.loads(row["options"]),
        status=row["status"],
        created_at=row["created_at"],
        deadline=row["deadline"],
        deadline_turn=row["deadline_turn"],
    )


def match_record(row: Row) -> MatchRecord:
    """A `matches` row as a `MatchRecord`."""
    return MatchRecord(
        id=row["id"],
        table_id=row["table_id"],
        number=row["number"],
        seed=int(row["seed"]),
        config=json.loads(row["config"]),
        first_seq=row["first_seq"],
        started_at=row["started_at"],
        finished_at=row["finished_at"],
        winners=tuple(json.loads(row["winners"])) if row["winners"] else None,
        totals=tuple(json.loads(row["totals"])) if row["totals"] else None,
    )


def _display_name(key: tuple[str, bool], name: str) -> str:
    """AI seats of one policy are one leaderboard line: name it after the policy."""
    player_id, is_ai = key
    if is_ai and player_id.startswith("ai:"):
        return f"AI ({player_id[3:]})"
    return name


Fetch = Callable[[str, tuple[Any, ...]], Awaitable[Sequence[Any]]]
"""Rows of one portable query (`?` placeholders), as `SqlReads._all` returns them."""


async def verify_chains_with(
    fetch: Fetch, match_ids: Sequence[int] | None = None
) -> list[ChainProblem]:
    """`storage.chain.check_match` over every match (or `match_ids`) read through `fetch`:
    each damaged match with its first bad row."""
    if match_ids is None:
        match_ids = [r[0] for r in await fetch("SELECT id FROM matches ORDER BY id", ())]
    problems: list[ChainProblem] = []
    for match_id in match_ids:
        head = await fetch(HEAD_QUERY, (match_id,))
        found: list[tuple[Kind, Sequence[Any]]] = []
        for kind, sql in ROW_QUERIES.items():
            found += [(kind, tuple(r)) for r in await fetch(sql, (match_id,))]
        problem = check_match(match_id, tuple(head[0]) if head else None, found)
        if problem is not None:
            problems.append(problem)
    return problems


SUMS = ("matches", "wins", "deals", "penalty", "chip_rows", "hands", "net")
"""The summed columns of a totals board's row (`storage.board`)."""


class SqlReads:
    """The read methods of `Storage`, for a backend that supplies `_all`."""

    dialect: Dialect = "sqlite"
    """Which SQL the backend speaks where the portable SQL is not enough (`storage.board`)."""
    schema: int

    async def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        """Every row of one query (`?` placeholders), each readable by column name."""
        raise NotImplementedError

    async def delivered(self, match_id: int) -> list[DeliveryRecord]:
        """The match's delivered effects, by the turn they were committed up to."""
        rows = await self._all(
            "SELECT effect, upto, message_id FROM deliveries"
            " WHERE match_id = ? AND delivered = 1 ORDER BY upto, at",
            (match_id,),
        )
        return [
            DeliveryRecord(
                match_id,
                str(r["effect"]),
                int(r["upto"]),
                int(r["message_id"]) if r["message_id"] else None,
            )
            for r in rows
        ]

    async def intents(self, match_id: int) -> list[PostIntent]:
        """The match's intended posts never recorded as delivered (`storage.deliveries`)."""
        rows = await self._all(
            "SELECT effect, message_id, at FROM deliveries"
            " WHERE match_id = ? AND delivered = 0 ORDER BY at",
            (match_id,),
        )
        return [
            PostIntent(
                match_id,
                str(r["effect"]),
                int(r["message_id"]) if r["message_id"] else None,
                float(r["at"]),
            )
            for r in rows
        ]

    async def said(self, player_id: str, notice: str) -> bool:
        """True if `notice` was already said to `player_id`."""
        rows = await self._all(
            "SELECT 1 FROM notices_said WHERE player_id = ? AND notice = ?", (player_id, notice)
        )
        return bool(rows)

    async def guild_settings(self) -> dict[str, dict[str, Any]]:
        """Every server's settings (`/config`): guild -> setting name -> value."""
        out: dict[str, dict[str, Any]] = {}
        for r in await self._all("SELECT guild, name, value FROM guild_settings"):
            out.setdefault(str(r["guild"]), {})[str(r["name"])] = json.loads(r["value"])
        return out

    async def guild_settings_log(self, guild: str, limit: int = 10) -> list[SettingChange]:
        """The server's latest setting changes, newest first."""
        rows = await self._all(
            "SELECT guild, name, value, member_id, member_name, at FROM guild_settings_log"
            " WHERE guild = ? ORDER BY at DESC LIMIT ?",
            (guild, limit),
        )
        return [
            SettingChange(
                str(r["guild"]),
                str(r["name"]),
                None if r["value"] is None else json.loads(r["value"]),
                str(r["member_id"]),
                str(r["member_name"]),
                float(r["at"]),
            )
            for r in rows
        ]

    async def member_pref(self, player_id: str, name: str) -> str | None:
        """What `player_id` chose for the preference `name` (None: never chosen)."""
        rows = await self._all(
            "SELECT value FROM member_prefs WHERE player_id = ? AND name = ?", (player_id, name)
        )
        return str(rows[0]["value"]) if rows else None

    async def link_generation(self, player_id: str) -> int:
        """The generation of `player_id`'s browser links (0: never revoked)."""
        rows = await self._all("SELECT generation FROM web_links WHERE player_id = ?", (player_id,))
        return int(rows[0]["generation"]) if rows else 0

    async def live_tables(self) -> list[TableRecord]:
        """Every table that is not stopped, oldest first."""
        rows = await self._all("SELECT * FROM tables WHERE status <> 'stopped' ORDER BY id")
        return [table_record(r) for r in rows]

    async def table_at(self, place: str) -> TableRecord | None:
        """The live table in `place`, if any."""
        rows = await self._all(
            "SELECT * FROM tables WHERE place = ? AND status <> 'stopped'", (place,)
        )
        return table_record(rows[0]) if rows else None

    async def seats(self, table_id: int) -> list[SeatRecord]:
        """A table's seats in seat order."""
        rows = await self._all("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))
        return [
            SeatRecord(
                r["seat"], r["player_id"], r["name"], r["policy"], bool(r["away"]), r["timeouts"]
            )
            for r in rows
        ]

    async def current_match(self, table_id: int) -> MatchRecord | None:
        """The table's latest match."""
        rows = await self._all(
            f"{MATCHES} WHERE m.table_id = ? ORDER BY m.number DESC LIMIT 1", (table_id,)
        )
        return match_record(rows[0]) if rows else None

    async def table(self, table_id: int) -> TableRecord | None:
        """The table `table_id` (live or stopped), if it exists."""
        rows = await self._all("SELECT * FROM tables WHERE id = ?", (table_id,))
        return table_record(rows[0]) if rows else None

    async def match(self, match_id: int) -> MatchRecord | None:
        """The match `match_id`, if it exists."""
        rows = await self._all(f"{MATCHES} WHERE m.id = ?", (match_id,))
        return match_record(rows[0]) if rows else None

    async def matches(
        self,
        *,
        player_id: str | None = None,
        guild: str | None = None,
        limit: int | None = None,
        ended_deals: bool = False,
    ) -> list[MatchRecord]:
        """Matches newest first: all, those `player_id` played, or those of `guild`'s tables;
        with `ended_deals`, only those with a deal that ended (its ledger rows: a chip game's
        "hand" rows, Big Two's penalties), credited to `player_id` if given; at most
        `limit`. Each match is checked through the ledgers' match indexes, no log read."""
        sql = f"{MATCHES} JOIN tables t ON t.id = m.table_id WHERE 1 = 1"
        params: list[Any] = []
        if player_id is not None:
            sql += " AND m.id IN (SELECT match_id FROM match_players WHERE player_id = ?)"
            params.append(player_id)
        if guild is not None:
            sql += " AND t.guild = ?"
            params.append(guild)
        if ended_deals:
            whose = "" if player_id is None else " AND player_id = ?"
            sql += (
                " AND (EXISTS (SELECT 1 FROM chip_ledger WHERE match_id = m.id"
                f" AND reason = 'hand'{whose})"
                f" OR EXISTS (SELECT 1 FROM penalty_ledger WHERE match_id = m.id{whose}))"
            )
            params += [player_id, player_id] if player_id is not None else []
        sql += " ORDER BY m.id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return [match_record(r) for r in await self._all(sql, tuple(params))]

    async def match_players(self, match_id: int) -> list[MatchPlayer]:
        """Credit rows of a match in seat order."""
        rows = await self._all(
            "SELECT * FROM match_players WHERE match_id = ? ORDER BY seat", (match_id,)
        )
        return [MatchPlayer(r["seat"], r["player_id"], r["name"], bool(r["is_ai"])) for r in rows]

    async def verify_chain(self, match_ids: Sequence[int] | None = None) -> list[ChainProblem]:
        """Walk the hash chain of every match (or of `match_ids`); each damaged match with
        its first bad row (see `storage.chain`)."""
        return await verify_chains_with(self._all, match_ids)

    async def actions(self, match_id: int) -> list[ActionRecord]:
        """The match's action log in order."""
        rows = await self._all("SELECT * FROM actions WHERE match_id = ? ORDER BY seq", (match_id,))
        return [
            ActionRecord(
                r["match_id"], r["seq"], r["deal"], r["seat"], r["action"], r["actor"], r["at"]
            )
            for r in rows
        ]

    async def deals(self, match_id: int) -> list[DealRecord]:
        """The match's deals in order."""
        rows = await self._all("SELECT * FROM deals WHERE match_id = ? ORDER BY deal", (match_id,))
        return [
            DealRecord(r["match_id"], r["deal"], r["dealer"], r["commitment"], r["first_seq"])
            for r in rows
        ]

    async def chip_entries(self, match_id: int) -> list[ChipEntry]:
        """The match's chip-ledger rows in order."""
        rows = await self._all(
            "SELECT * FROM chip_ledger WHERE match_id = ? ORDER BY id", (match_id,)
        )
        return [
            ChipEntry(
                r["guild"],
                r["game"],
                r["match_id"],
                r["hand"],
                r["seat"],
                r["player_id"],
                bool(r["is_ai"]),
                r["delta"],
                r["reason"],
                r["at"],
            )
            for r in rows
        ]

    async def penalty_entries(self, match_id: int) -> list[PenaltyEntry]:
        """The match's penalty-ledger rows in order."""
        rows = await self._all(
            "SELECT * FROM penalty_ledger WHERE match_id = ? ORDER BY id", (match_id,)
        )
        return [
            PenaltyEntry(
                r["guild"],
                r["game"],
                r["match_id"],
                r["deal"],
                r["seat"],
                r["player_id"],
                bool(r["is_ai"]),
                r["penalty"],
                r["at"],
            )
            for r in rows
        ]

    # ----------------------------------------------------------- leaderboards

    async def _board_sums(
        self, guild: str, game: str, since: float, player_id: str | None = None
    ) -> dict[tuple[str, bool], dict[str, Any]]:
        """Per (player, is_ai) of `guild`'s `game` since `since` (a day's start): credited
        finished matches, wins, best total, deals and penalty, chip rows, hands and net chips,
        and the name on their latest credited seat (None: none), summed in SQL from the
        running sums (`storage.board`).

        A match result is credited to a person only if they made every move of their seat
        in it: if the AI made any (before they took the seat mid-match, or while they were
        away), that seat's result counts for nobody. The per-deal ledgers are not affected."""
        sql = board_query(self.dialect, self.schema, player_id)
        who = () if player_id is None else (player_id,)
        rows = await self._all(sql, (guild, game, day_of(since), *who))
        sums: dict[tuple[str, bool], dict[str, Any]] = {}
        for r in rows:
            sums[(str(r["player_id"]), bool(r["is_ai"]))] = {
                "name": r["name"],
                "best": None if r["best"] is None else int(r["best"]),
                **{k: int(r[k]) for k in SUMS},
            }
        return sums

    async def _names(
        self, guild: str, game: str, player_ids: Sequence[str]
    ) -> dict[tuple[str, bool], str]:
        # Each player's name in their latest match (the highest seat if twice in it).
        if not player_ids:
            return {}
        among = ", ".join("?" * len(player_ids))
        rows = await self._all(
            f"""
            SELECT mp.player_id, mp.is_ai, mp.name FROM match_players mp
            JOIN (SELECT mp2.player_id, mp2.is_ai, max(mp2.match_id * 64 + mp2.seat) AS last
                  FROM match_players mp2
                  JOIN matches m ON m.id = mp2.match_id JOIN tables t ON t.id = m.table_id
                  WHERE t.guild = ? AND t.game = ? AND mp2.player_id IN ({among})
                  GROUP BY mp2.player_id, mp2.is_ai) l
              ON l.player_id = mp.player_id AND l.is_ai = mp.is_ai
             AND mp.match_id * 64 + mp.seat = l.last
            """,
            (guild, game, *player_ids),
        )
        return {(r["player_id"], bool(r["is_ai"])): r["name"] for r in rows}

    async def leaderboard(
        self,
        *,
        guild: str,
        game: str,
        scoring: Literal["penalty", "chips"],
        period: Period,
        now: float,
        min_deals: int = 10,
        player_id: str | None = None,
    ) -> Leaderboard:
        """Big Two (penalty): ranked by average penalty per deal among players with at least
        `min_deals` deals. Chip games: by matches won, then net chips. AI apart. With
        `player_id`, only that player's lines (what `/stats` shows, read by player)."""
        start = period_start(period, now)
        since = -1e18 if start is None else start
        sums = await self._board_sums(guild, game, since, player_id)
        counted = "deals" if scoring == "penalty" else "chip_rows"
        sums = {k: s for k, s in sums.items() if s["matches"] or s[counted]}
        unnamed = sorted({k[0] for k, s in sums.items() if not s["name"]})
        names = await self._names(guild, game, unnamed)

        def name(key: tuple[str, bool]) -> str:
            return _display_name(key, sums[key]["name"] or names.get(key, key[0]))

        board = Leaderboard(guild, game, period, scoring, min_deals=min_deals)
        if scoring == "penalty":
            penalty_lines = [
                PenaltyRow(
                    player_id=key[0],
                    name=name(key),
                    is_ai=key[1],
                    matches=s["matches"],
                    wins=s["wins"],
                    deals=s["deals"],
                    average_penalty=round(s["penalty"] / s["deals"], 3) if s["deals"] else 0.0,
                    best_match=s["best"] if s["matches"] else None,
                )
                for key, s in sorted(sums.items())
            ]
            penalty_lines.sort(key=lambda r: (r.average_penalty, -r.wins, r.name))
            for line in penalty_lines:
                if line.is_ai:
                    board.ai.append(line)
                elif line.deals >= min_deals:
                    board.humans.append(line)
                else:
                    board.unranked.append(line)
            return board
        chip_lines = [
            ChipRow(
                player_id=key[0],
                name=name(key),
                is_ai=key[1],
                matches=s["matches"],
                wins=s["wins"],
                net_chips=s["net"],
                hands=s["hands"],
            )
            for key, s in sorted(sums.items())
        ]
        chip_lines.sort(key=lambda r: (-r.wins, -r.net_chips, r.name))
        for chip_line in chip_lines:
            (board.ai if chip_line.is_ai else board.humans).append(chip_line)
        return board

    async def board_problems(self) -> list[str]:
        """Where the totals leaderboards' running sums differ from the rows they sum
        (`storage.board`; `deucebot verify` reports them): none on an intact database."""
        if self.schema < BOARD_SCHEMA:
            return []
        kept = await self._all(KEPT)
        return differences(kept, await self._all(days_select(self.dialect)))

    async def buy_ins(self, *, guild: str, game: str, player_id: str) -> BuyInLedger:
        """`player_id`'s buy-ins in `game` in `guild`: the buy-in ledger's rows of their own
        (human) seats summed per match (each match's chips over its unit), and the chip
        ledger's results of those seats."""
        bought = await self._all(
            """
            SELECT match_id, reason, min(unit) AS unit, sum(chips) AS chips, count(*) AS n
            FROM buy_in_ledger
            WHERE guild = ? AND game = ? AND player_id = ? AND is_ai = 0
            GROUP BY match_id, reason
            """,
            (guild, game, player_id),
        )
        results = await self._all(
            """
            SELECT match_id, sum(delta) AS chips FROM chip_ledger
            WHERE guild = ? AND game = ? AND player_id = ? AND is_ai = 0
                AND reason IN ('hand', 'returned')
            GROUP BY match_id
            """,
            (guild, game, player_id),
        )
        per: dict[int, dict[str, Any]] = {}
        for r in bought:
            match = per.setdefault(int(r["match_id"]), {})
            match[r["reason"]] = (int(r["chips"]), int(r["n"]), int(r["unit"] or 0))
        won = {int(r["match_id"]): int(r["chips"]) for r in results}
        matches = rebuys = units = chips = 0
        net_units = 0.0
        for match_id in sorted(per.keys() | won.keys()):
            match = per.get(match_id, {})
            bought_in, _, unit = match.get("buy-in", (0, 0, 0))
            rebought, times, _ = match.get("rebuy", (0, 0, 0))
            unit = unit or 1
            matches += int(bought_in > 0)
            rebuys += times
            units += (bought_in + rebought) // unit
            chips += bought_in + rebought
            net_units += won.get(match_id, 0) / unit
        net = sum(won.values())
        return BuyInLedger(matches, rebuys, units, chips, net, round(net_units, 2))
