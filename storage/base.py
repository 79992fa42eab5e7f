"""The storage interface the runtime talks to, and the records it exchanges.

The runtime never writes SQL: it calls a `Storage` (today `storage.sqlite.SqliteStorage`;
a PostgreSQL backend would implement the same protocol). Everything that belongs to one
accepted action (the log row, a new deal's seed, ledger rows, the match result, the next
turn deadline, seat changes) travels in one `ActionCommit` and is written in one
transaction: either all of it is durable or none of it is.

The action log and both ledgers are append-only; balances and leaderboards are sums
over them, never stored counters.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from storage.chain import ChainProblem

if TYPE_CHECKING:
    from storage.ratings import RatingEntry

JSON = dict[str, Any]

TableStatus = Literal["lobby", "playing", "finished", "stopped"]
Actor = Literal["human", "ai", "timeout"]
Period = Literal["all", "week", "month"]


class StorageError(Exception):
    """A storage operation failed for a reason the caller can name (see subclasses)."""


class PlaceTaken(StorageError):
    """A live (not stopped) table already exists in that place."""


class StaleWrite(StorageError):
    """An action row for that (match, seq) already exists: it would be applied twice."""


class CannotOpenDatabase(StorageError):
    """The database cannot be opened: a bad path, not a Deucebot database, a newer schema,
    locked, read-only, or in use by another Deucebot process. The message is one line that
    says what is wrong and what to do; entry points print it as it is."""


@dataclass(frozen=True, slots=True)
class TableRecord:
    """One table as stored: where it is, which game, its settings and its timer."""

    id: int
    guild: str
    place: str
    game: str
    settings: JSON
    options: JSON
    status: TableStatus
    created_at: float
    deadline: float | None = None
    deadline_turn: int | None = None


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """Who holds a seat now. `player_id` is the human owner (None for an AI seat);
    `policy` is the AI that plays when no human does; `away` means the owner left or
    timed out and the AI plays until they are back."""

    seat: int
    player_id: str | None
    name: str
    policy: str
    away: bool = False
    timeouts: int = 0


@dataclass(frozen=True, slots=True)
class MatchPlayer:
    """Who a match's results are credited to for one seat; at the match's start also who
    held the seat then (`held_by`, `held_ai`: a member's id, or ``ai:<policy>`` for an AI
    seat or a member away at the start), whom the seat's rating result counts for."""

    seat: int
    player_id: str
    name: str
    is_ai: bool
    held_by: str | None = None
    held_ai: bool = False


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One match of a table. `seed` is the match's secret: it seeds the engine's RNG and
    its `engines.fair.DealSource`, so it tells every card of the match; it is stored apart
    (`match_secrets`) and must never be shown, logged or exported. `first_seq` is the
    table-wide turn number of its first action."""

    id: int
    table_id: int
    number: int
    seed: int
    config: JSON
    first_seq: int
    started_at: float
    finished_at: float | None = None
    winners: tuple[int, ...] | None = None
    totals: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One accepted action: its canonical text, who made it and for which turn."""

    match_id: int
    seq: int
    deal: int
    seat: int
    action: str
    actor: Actor
    at: float


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A deal began: its dealer and the public commitment to its seed (None for a stacked
    deck or a deal stored before fair deals)."""

    match_id: int
    deal: int
    dealer: int
    commitment: str | None
    first_seq: int


@dataclass(frozen=True, slots=True)
class ChipEntry:
    """One chip-ledger row: `reason` is "buy-in", "rebuy", "hand" (a deal's net result for a
    seat dealt in) or "returned" (chips handed back to a seat left out of the deal)."""

    guild: str
    game: str
    match_id: int
    hand: int
    seat: int
    player_id: str
    is_ai: bool
    delta: int
    reason: str
    at: float


@dataclass(frozen=True, slots=True)
class PenaltyEntry:
    """One penalty-ledger row: a seat's penalty in one Big Two deal."""

    guild: str
    game: str
    match_id: int
    deal: int
    seat: int
    player_id: str
    is_ai: bool
    penalty: int
    at: float


@dataclass(frozen=True, slots=True)
class MatchResult:
    """How a match ended."""

    match_id: int
    finished_at: float
    winners: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Settlement:
    """A restart or stop of the unfinished match `match_id` at `at`: the storage settles
    it for the ratings on the deals played, in the transaction of the restart or stop
    (nothing when no deal was played, or when it is finished or settled already)."""

    match_id: int
    at: float


@dataclass(frozen=True, slots=True)
class ActionCommit:
    """Everything one accepted action changes, written in one transaction.

    `deadline`/`deadline_turn` are the table's new turn timer (None: no timer);
    `seats` are seat rows whose state changed (timeouts, away); `status` the table's
    new status when it changed (e.g. "finished"). `ratings` are filled in by the storage
    itself when the commit carries a result (`storage.rating_reads`)."""

    table_id: int
    action: ActionRecord
    deals: Sequence[DealRecord] = ()
    chips: Sequence[ChipEntry] = ()
    penalties: Sequence[PenaltyEntry] = ()
    result: MatchResult | None = None
    status: TableStatus | None = None
    deadline: float | None = None
    deadline_turn: int | None = None
    seats: Sequence[SeatRecord] = ()
    ratings: Sequence[RatingEntry] = ()


@dataclass(frozen=True, slots=True)
class PenaltyRow:
    """One Big Two leaderboard line (lower average penalty is better)."""

    player_id: str
    name: str
    is_ai: bool
    matches: int
    wins: int
    deals: int
    average_penalty: float
    best_match: int | None
    """The lowest total penalty this player finished a match with."""


@dataclass(frozen=True, slots=True)
class ChipRow:
    """One chip-game leaderboard line."""

    player_id: str
    name: str
    is_ai: bool
    matches: int
    wins: int
    net_chips: int
    hands: int


@dataclass(frozen=True, slots=True)
class BuyInLedger:
    """What a person bought in one game in one guild, from the buy-in ledger (migration
    013: each seat's buy-in and rebuys, in units of its first buy-in) and what they won or
    lost (the chip ledger's "hand" and "returned" rows)."""

    matches: int
    """Matches they bought into."""
    rebuys: int
    """Rebuys made (each one of 1 or more units)."""
    units: int
    """Units bought: the initial buy-ins and the rebuys."""
    chips: int
    """Chips bought (buy-ins and rebuys)."""
    net: int
    """Net result in chips (won minus lost)."""
    net_units: float
    """Net result in units (each match's net over its unit)."""


@dataclass(frozen=True)
class Leaderboard:
    """A game's leaderboard for one guild and period. Humans and AI seats are listed apart;
    for penalty games players below `min_deals` deals are in `unranked`."""

    guild: str
    game: str
    period: Period
    scoring: Literal["penalty", "chips"]
    humans: list[Any] = field(default_factory=list)
    ai: list[Any] = field(default_factory=list)
    unranked: list[Any] = field(default_factory=list)
    min_deals: int = 0


def period_start(period: Period, now: float) -> float | None:
    """Start (UTC epoch seconds) of this week (Monday 00:00 UTC) or month; None for all time."""
    if period == "all":
        return None
    day = dt.datetime.fromtimestamp(now, dt.UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "week":
        start = day - dt.timedelta(days=day.weekday())
    elif period == "month":
        start = day.replace(day=1)
    else:
        raise ValueError(f"unknown period {period!r}: choose all, week or month")
    return start.timestamp()


@dataclass(frozen=True, slots=True)
class SettingChange:
    """One change of a server's setting (`/config`): the new value (None: cleared), who
    made it and when (the value is anything JSON can hold)."""

    guild: str
    name: str
    value: Any
    member_id: str
    member_name: str
    at: float


class Storage(Protocol):
    """What the runtime needs from a database. All methods are coroutines; writes that
    belong together happen in one transaction inside one method."""

    async def open(self) -> None:
        """Connect and bring the schema to the latest version (migrations)."""
        ...

    async def close(self) -> None:
        """Finish pending writes and disconnect."""
        ...

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
        """Create a table in the lobby with its seats; `PlaceTaken` if the place has a live one."""
        ...

    async def save_seats(
        self,
        table_id: int,
        seats: Sequence[SeatRecord],
        *,
        match_id: int | None = None,
        players: Sequence[MatchPlayer] = (),
    ) -> None:
        """Replace the given seats' rows (join, leave, back, take a seat); with `match_id`,
        also replace those seats' `players` credit rows of that match (a human taking over
        an AI seat mid-match). One transaction."""
        ...

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
        """Start a match in one transaction: the match row, its players, the seats, the first
        deal and buy-ins if the engine announced them at creation, the table's status
        ("playing") and timer. `deals`/`chips` carry match_id 0, replaced by the new id.
        `settle`: the match this one replaces (a restart), settled for the ratings in the
        same transaction."""
        ...

    async def commit_action(self, commit: ActionCommit) -> None:
        """Durably write one accepted action and everything it changed (one transaction).
        Returns only once the commit is durable against a process kill."""
        ...

    def begin_commit(self, commit: ActionCommit) -> asyncio.Future[Any]:
        """`commit_action` started now: the future that is done (or failed) once the
        commit is durable. The table's hot path, with fewer hops of the event loop."""
        ...

    async def set_status(
        self, table_id: int, status: TableStatus, settle: Settlement | None = None
    ) -> None:
        """Change a table's status (stop); with `settle`, settle its unfinished match for
        the ratings in the same transaction."""
        ...

    async def set_timer(self, table_id: int, deadline: float | None, turn: int | None) -> None:
        """Store the table's turn deadline (or clear it)."""
        ...

    async def live_tables(self) -> list[TableRecord]:
        """Every table that is not stopped (the manager restores them at start-up)."""
        ...

    async def table_at(self, place: str) -> TableRecord | None:
        """The live table in `place`, if any."""
        ...

    async def seats(self, table_id: int) -> list[SeatRecord]:
        """A table's seats in seat order."""
        ...

    async def current_match(self, table_id: int) -> MatchRecord | None:
        """The table's latest match (finished or not), or None before the first start."""
        ...

    async def table(self, table_id: int) -> TableRecord | None:
        """The table `table_id` (live or stopped), if it exists."""
        ...

    async def match(self, match_id: int) -> MatchRecord | None:
        """The match `match_id`, if it exists."""
        ...

    async def matches(
        self,
        *,
        player_id: str | None = None,
        guild: str | None = None,
        limit: int | None = None,
        ended_deals: bool = False,
    ) -> list[MatchRecord]:
        """Matches newest first: all of them, or those `player_id` played (a seat credited to
        them), or those of tables in `guild`; with `ended_deals`, only those with an ended
        deal (credited to `player_id` if given); at most `limit` (hand histories)."""
        ...

    async def match_players(self, match_id: int) -> list[MatchPlayer]:
        """Who each seat of a match is credited to."""
        ...

    async def verify_chain(self, match_ids: Sequence[int] | None = None) -> list[ChainProblem]:
        """Every damaged match (of `match_ids`, default all) with its first bad row: a row
        changed, removed or inserted outside the program (`storage.chain`)."""
        ...

    async def actions(self, match_id: int) -> list[ActionRecord]:
        """A match's action log in order."""
        ...

    async def deals(self, match_id: int) -> list[DealRecord]:
        """A match's deals (commitments) in order."""
        ...

    async def chip_entries(self, match_id: int) -> list[ChipEntry]:
        """A match's chip-ledger rows in order."""
        ...

    async def penalty_entries(self, match_id: int) -> list[PenaltyEntry]:
        """A match's penalty-ledger rows in order."""
        ...

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
        """The leaderboard of `game` in `guild` over `period` (see `Leaderboard`); with
        `player_id`, only that player's lines."""
        ...

    async def buy_ins(self, *, guild: str, game: str, player_id: str) -> BuyInLedger:
        """`player_id`'s buy-ins and net result in `game` in `guild` (see `BuyInLedger`);
        seats the AI played are not theirs."""
        ...

    async def guild_settings(self) -> dict[str, dict[str, Any]]:
        """Every server's settings (`/config`): guild -> setting name -> value."""
        ...

    async def set_guild_setting(self, change: SettingChange) -> None:
        """Store (or clear: value None) a server's setting and log the change, in one
        transaction."""
        ...

    async def guild_settings_log(self, guild: str, limit: int = 10) -> list[SettingChange]:
        """The server's latest setting changes, newest first."""
        ...

    async def member_pref(self, player_id: str, name: str) -> str | None:
        """What `player_id` chose for the preference `name` (the card `deck`), None if they
        never chose (migration 008)."""
        ...

    async def set_member_pref(self, player_id: str, name: str, value: str) -> None:
        """Remember that `player_id` chose `value` for the preference `name` (durable once
        this returns)."""
        ...

    async def link_generation(self, player_id: str) -> int:
        """The generation of `player_id`'s signed browser links (0 if never revoked;
        migration 014): a link made in an older one is revoked."""
        ...

    async def revoke_links(self, player_id: str) -> int:
        """Revoke every browser link of `player_id` made so far (raise their generation);
        the new generation, durable once this returns."""
        ...
