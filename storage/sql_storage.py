"""What the SQL backends share: the whole `Storage` protocol over group commit.

`SqlStorage` turns every write of the protocol into `storage.statements` jobs queued on one
`GroupCommit`, and every read into `storage.queries` (shard leases: `storage.leases`). A
backend (`storage.sqlite`, `storage.postgres`) only supplies how to connect (`open`,
`close`), how to run a batch of jobs in one transaction (`_run_batch`), how to name its
driver's errors (`_translate`) and how to read rows (`_all`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections.abc import Sequence
from functools import partial
from typing import Any, Self

from storage.base import (
    JSON,
    ActionCommit,
    ChipEntry,
    DealRecord,
    MatchPlayer,
    MatchRecord,
    SeatRecord,
    SettingChange,
    Settlement,
    TableRecord,
    TableStatus,
)
from storage.board import PENDING, ledger_statements, rebuild_statements
from storage.chain import GENESIS, Kind
from storage.group_commit import Batches, GroupCommit
from storage.leases import SqlLeases
from storage.queries import SqlReads
from storage.rating_reads import SqlRatings
from storage.statements import (
    DELETE_GUILD_SETTING,
    DELETE_SAID,
    INSERT_DELIVERY,
    INSERT_INTENT,
    INSERT_MATCH,
    INSERT_SAID,
    INSERT_SEASON,
    INSERT_SECRET,
    INSERT_SETTING_CHANGE,
    INSERT_TABLE,
    RAISE_LINK_GENERATION,
    SET_TIMER_STATUS,
    SETTLE_MATCH,
    UPSERT_GUILD_SETTING,
    UPSERT_PLAYER,
    UPSERT_PREF,
    UPSERT_SEAT,
    Chained,
    NewRow,
    Statement,
    Write,
    chained_statements,
    chip_values,
    commit_statements,
    deal_values,
    player_row,
    rating_values,
    seat_row,
    seats_statements,
    status_statement,
    timer_statement,
)


class SqlStorage(SqlReads, SqlRatings, SqlLeases):
    """The `Storage` protocol for a backend that supplies the methods named above."""

    def __init__(self) -> None:
        """Set up the backend's group commit (`_new_group`)."""
        self._group: Batches[Write] = self._new_group()
        self._rating = asyncio.Lock()
        """Held from reading a finished match's prior ratings to committing its new ones
        (and around a season change), so results are rated one after the other, in the
        order their last actions were accepted (the order `rebuild_ratings` replays)."""
        self.schema = 0
        """The schema version found at `open()` (after migrating, the latest; read-only
        storages may be older: only what that version has can be read)."""

    @property
    def batches(self) -> int:
        """How many write transactions ran (group commit makes it fewer than the writes)."""
        return self._group.batches

    async def open(self) -> None:
        """Connect and bring the schema to the latest version."""
        raise NotImplementedError

    async def _rebuild_board_if_pending(self) -> None:
        """Recompute the leaderboards' running sums when migration 011 (or `migrate-db`)
        asked for it (`storage.board`), in one transaction with clearing the request."""
        if await self._all(PENDING):
            await self._group.submit(rebuild_statements(self.dialect))

    async def close(self) -> None:
        """Finish pending writes and disconnect."""
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        """`async with Backend(...) as storage:` opens and closes it."""
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        """Close on leaving the block."""
        await self.close()

    def _new_group(self) -> Batches[Write]:
        """The group commit: by default a writer task over `_run_batch`."""
        return GroupCommit(self._run_batch, self._translate)

    async def _run_batch(self, jobs: Sequence[Write]) -> list[Any]:
        """Run `jobs` in one transaction (all or nothing); one result per job: the new id
        for a `NewRow`, None for statements."""
        raise NotImplementedError

    @staticmethod
    def _translate(error: Exception) -> BaseException:
        """A driver error as the `storage.base` error it means (else unchanged)."""
        return error

    # ----------------------------------------------------------------- writes

    async def create_table(
        self,
        *,
        guild: str,
        place: str,
        game: str,
        settings: JSON,
        options: JSON,
        seats: Sequence[SeatRecord],
        now: float,
    ) -> TableRecord:
        """Insert a lobby table and its seats; `PlaceTaken` if the place has a live table."""
        row = (guild, place, game, json.dumps(settings), json.dumps(options), now)
        write = NewRow(
            (INSERT_TABLE, row),
            lambda table_id: [(UPSERT_SEAT, seat_row(table_id, s)) for s in seats],
        )
        table_id = int(await self._group.submit(write))
        return TableRecord(
            table_id, guild, place, game, dict(settings), dict(options), "lobby", now
        )

    async def save_seats(
        self,
        table_id: int,
        seats: Sequence[SeatRecord],
        *,
        match_id: int | None = None,
        players: Sequence[MatchPlayer] = (),
    ) -> None:
        """Replace seat rows (and, with `match_id`, those seats' credit rows) in one transaction."""
        await self._group.submit(seats_statements(table_id, seats, match_id, players))

    async def start_match(
        self,
        *,
        table_id: int,
        number: int,
        seed: int,
        config: JSON,
        first_seq: int,
        players: Sequence[MatchPlayer],
        seats: Sequence[SeatRecord],
        deals: Sequence[DealRecord],
        chips: Sequence[ChipEntry],
        deadline: float | None,
        deadline_turn: int | None,
        now: float,
        settle: Settlement | None = None,
    ) -> MatchRecord:
        """Insert the match with its players, seats, first deal and buy-ins; table -> playing.
        With `settle` (a restart), the match it replaces is settled for the ratings in the
        same transaction."""
        match_row = (table_id, number, json.dumps(config), first_seq, now)

        def then(match_id: int) -> list[Statement]:
            out: list[Statement] = [(INSERT_SECRET, (match_id, str(seed)))]
            out += [(UPSERT_PLAYER, player_row(match_id, p)) for p in players]
            out += [(UPSERT_SEAT, seat_row(table_id, s)) for s in seats]
            rows: list[tuple[Kind, tuple[Any, ...]]] = [
                ("deal", deal_values(d, match_id, None)) for d in deals
            ]
            rows += [("chip", chip_values(c, match_id, None)) for c in chips]
            out += chained_statements(GENESIS, rows, match_id)
            out += ledger_statements(chips, ())
            out.append((SET_TIMER_STATUS, (deadline, deadline_turn, "playing", table_id)))
            return out

        write = NewRow((INSERT_MATCH, match_row), then)
        if settle is None:
            match_id = int(await self._group.submit(write))
        else:
            async with self._rating:
                first = await self._settlement(settle)
                match_id = int(await self._group.submit(dataclasses.replace(write, first=first)))
        return MatchRecord(match_id, table_id, number, seed, dict(config), first_seq, now)

    async def commit_action(self, commit: ActionCommit) -> None:
        """Write the commit in the next group transaction, its rows chained after the
        match's chain head; return once it is committed. A commit that finishes a match
        carries the match's rating updates (`storage.rating_reads`)."""
        await self.begin_commit(commit)

    def begin_commit(self, commit: ActionCommit) -> asyncio.Future[Any]:
        """`commit_action` started now; the future that is done once it is committed. An
        action that ends no match is queued as it is, with no task of its own: on a busy
        bot each task between a member's click and its answer costs a turn of the loop."""
        if commit.result is None:
            build = partial(commit_statements, commit)
            return self._group.enqueue(Chained(commit.action.match_id, build))
        return asyncio.ensure_future(self._commit_rated(commit))

    async def _commit_rated(self, commit: ActionCommit) -> None:
        """Commit the action that finishes a match, with its rating updates."""
        async with self._rating:
            commit = dataclasses.replace(commit, ratings=await self.rate_commit(commit))
            build = partial(commit_statements, commit)
            await self._group.submit(Chained(commit.action.match_id, build))

    async def start_season(
        self, guild: str, name: str | None, set_by: str, now: float | None = None
    ) -> float:
        """From `now` (default: this moment) on, `guild`'s results count for the season
        `name` (None: monthly seasons again); returns when it started."""
        async with self._rating:
            at = time.time() if now is None else now
            await self._group.submit([(INSERT_SEASON, (guild, name, at, set_by))])
            return at

    async def set_status(
        self, table_id: int, status: TableStatus, settle: Settlement | None = None
    ) -> None:
        """Change a table's status (and clear its timer when it stops); with `settle`, its
        unfinished match is settled for the ratings in the same transaction."""
        change = [status_statement(table_id, status)]
        if settle is None:
            await self._group.submit(change)
            return
        async with self._rating:
            settled = await self._settlement(settle, change)
            await self._group.submit(change if settled is None else settled)

    async def _settlement(
        self, settle: Settlement, then: Sequence[Statement] = ()
    ) -> Chained | None:
        """The write settling an unfinished match for the ratings (`rate_settlement`):
        its rating rows chained after its last action, `settled_at`, then `then`; None when
        there is nothing to settle. Call with `_rating` held until it is committed."""
        found = await self.rate_settlement(settle)
        if found is None:
            return None
        entries, seq = found
        rows: list[tuple[Kind, tuple[Any, ...]]] = [
            ("rating", rating_values(e, seq)) for e in entries
        ]
        mark: Statement = (SETTLE_MATCH, (settle.at, settle.match_id))

        def build(head: str) -> list[Statement]:
            chained = chained_statements(head, rows, settle.match_id) if rows else []
            return [*chained, mark, *then]

        return Chained(settle.match_id, build)

    async def set_timer(self, table_id: int, deadline: float | None, turn: int | None) -> None:
        """Store the table's turn deadline (or clear it)."""
        await self._group.submit([timer_statement(table_id, deadline, turn)])

    async def mark_delivered(
        self, match_id: int, effect: str, upto: int, message_id: int | None
    ) -> None:
        """Record a delivered effect of a match (`storage.deliveries`; the first record of
        an effect wins)."""
        text = None if message_id is None else str(message_id)
        row = (match_id, effect, upto, text, time.time())
        await self._group.submit([(INSERT_DELIVERY, row)])

    async def set_guild_setting(self, change: SettingChange) -> None:
        """Store (or clear: value None) a server's setting and log the change, in one
        transaction."""
        value = None if change.value is None else json.dumps(change.value, sort_keys=True)
        key = (change.guild, change.name)
        write = (
            (DELETE_GUILD_SETTING, key) if value is None else (UPSERT_GUILD_SETTING, (*key, value))
        )
        logged = (*key, value, change.member_id, change.member_name, change.at)
        await self._group.submit([write, (INSERT_SETTING_CHANGE, logged)])

    async def intend(self, match_id: int, effect: str, upto: int, after: int | None) -> None:
        """Record an effect about to be posted after message `after` (`storage.deliveries`;
        kept if the effect has a record already)."""
        text = None if after is None else str(after)
        await self._group.submit([(INSERT_INTENT, (match_id, effect, upto, text, time.time()))])

    async def set_member_pref(self, player_id: str, name: str, value: str) -> None:
        """Remember that `player_id` chose `value` for the preference `name`."""
        await self._group.submit([(UPSERT_PREF, (player_id, name, value, time.time()))])

    async def revoke_links(self, player_id: str) -> int:
        """Revoke `player_id`'s browser links made so far; the new generation."""
        await self._group.submit([(RAISE_LINK_GENERATION, (player_id, time.time()))])
        return await self.link_generation(player_id)

    async def remember_said(self, player_id: str, notice: str, said: bool) -> None:
        """Remember (or forget: `said` False) that `notice` was said to `player_id`."""
        if said:
            await self._group.submit([(INSERT_SAID, (player_id, notice, time.time()))])
        else:
            await self._group.submit([(DELETE_SAID, (player_id, notice))])
