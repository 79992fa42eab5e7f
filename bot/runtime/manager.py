"""`TableManager`: the live tables of this process (by place and by id), creation, and
restore at start-up.

A place is where a table lives: a Discord channel id (as text) or "terminal:<game>".
At start-up `restore()` rebuilds every unfinished table (of this process's shards, if
sharded) from storage by replaying its match's action log from the stored seed, re-arms
stored turn deadlines (a deadline that passed while the process was down fires at once)
and asks the front to redraw each board.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import secrets
from collections.abc import Callable, Collection
from typing import Any

from pydantic import ValidationError

from bot.runtime import errors
from bot.runtime.ai_pool import AiPool
from bot.runtime.ai_seats import AiSeats
from bot.runtime.clock import Clock, SystemClock
from bot.runtime.front import Front
from bot.runtime.options import RuntimeConfig, TableOptions
from bot.runtime.seats import Player, Seat, ai_name
from bot.runtime.shards import Shards
from bot.runtime.table import Table
from engines.registry import GameSpec, UnknownName, get_game
from storage.base import PlaceTaken, Storage, TableRecord

log = logging.getLogger(__name__)


def tune_gc() -> None:
    """Keep the garbage collector from stalling the event loop (call once after start-up,
    e.g. after `TableManager.restore()`): objects alive now are frozen out of collections,
    and full collections run far less often. With hundreds of tables, a default full
    collection pauses the loop for ~100 ms (measured by `deucebot bench runtime`). Young
    collections stay frequent (every 1,000 allocations): their pause grows with the garbage
    they find, and discord.py's views and messages are cyclic garbage, so every 20,000
    allocations meant 30-60 ms pauses every few seconds under 100 Discord tables; every
    1,000 they take 1.5 ms (at most 8), the same total (`deucebot bench discord`)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(1_000, 20, 1_000)


def _validation_text(error: ValidationError) -> str:
    """A pydantic error as one readable line: `field: message; ...`."""
    parts = []
    for item in error.errors():
        where = ".".join(str(p) for p in item.get("loc", ())) or "settings"
        parts.append(f"{where}: {item.get('msg', 'invalid')}")
    return "; ".join(parts)


class TableManager:
    """Every live table of this process, by place (`tables`) and by id (`by_id`)."""

    def __init__(
        self,
        storage: Storage,
        front: Front,
        *,
        clock: Clock | None = None,
        config: RuntimeConfig | None = None,
        games: Callable[[str], GameSpec] = get_game,
        seed_source: Callable[[], int] | None = None,
        shards: Shards | None = None,
    ) -> None:
        """`games` looks a game up by name (tests inject toy games); `seed_source` gives each
        new match its secret seed (default: 256 random bits from `secrets`: the seed tells
        every card of the match, so it must not be guessable); `shards` (a sharded bot
        process): restore only the tables of guilds on these shards."""
        self.storage = storage
        self.front = front
        self.clock: Clock = clock or SystemClock()
        self.config = config or RuntimeConfig()
        self._games = games
        self._seed_source = seed_source or (lambda: secrets.randbits(256))
        self.shards = shards
        """The shards this process drives (None: every table)."""
        self.tables: dict[str, Table] = {}
        """Live tables by place."""
        self._creating: dict[str, dict[str, str]] = {}
        """Guild -> the places of its tables being created (written to the database), each
        with its game: they count against the guild's cap, and a second create in one of
        them is refused, naming the game being created there. Taken
        with the checks, in one step of the event loop: creates do not wait for each other
        (a lock held across the database write queued 500 `/table create`s for 30 s behind
        busy tables' commits)."""
        self._by_id: dict[int, Table] = {}
        self.ai = AiSeats(self.config, games)
        """Every AI decision of these tables (and the worker pool); closed by `close`."""

    @property
    def ai_pool(self) -> AiPool | None:
        """The AI worker processes (`config.ai_processes` > 0), else None."""
        return self.ai.pool

    def find(self, place: str) -> Table | None:
        """The live table in `place`, or None."""
        return self.tables.get(place)

    def by_id(self, table_id: int) -> Table | None:
        """The live table with id `table_id` (None once it was stopped or is unknown)."""
        table = self._by_id.get(table_id)
        if table is None or table.status == "stopped":
            return None
        return table

    def get(self, place: str) -> Table:
        """The live table in `place`; `unknown_table` error if there is none."""
        table = self.tables.get(place)
        if table is None or table.status == "stopped":
            raise errors.unknown_table(place)
        return table

    def spec(self, game: str) -> GameSpec:
        """The game's spec; `unknown_game` error naming the games that exist."""
        try:
            return self._games(game)
        except UnknownName as error:
            raise errors.unknown_game(game, str(error)) from error

    async def create(
        self,
        *,
        guild: str,
        place: str,
        game: str,
        settings: dict[str, Any] | None = None,
        options: TableOptions | dict[str, Any] | None = None,
        owner: Player | None = None,
    ) -> Table:
        """Create a table in the lobby (`owner`, if given, takes seat 0). Validates the game,
        its settings and the options; `table_exists` if `place` already has a live table,
        `too_many_tables` if `guild` has `config.max_tables_per_guild` live ones."""
        return await self._create(guild, place, game, settings, options, owner)

    async def _create(
        self,
        guild: str,
        place: str,
        game: str,
        settings: dict[str, Any] | None,
        options: TableOptions | dict[str, Any] | None,
        owner: Player | None,
    ) -> Table:
        spec = self.spec(game)
        existing = self.tables.get(place)
        if existing is not None and existing.status != "stopped":
            raise errors.table_exists(place, existing.game, existing.spec.title)
        creating = self._creating.get(guild, {})
        if place in creating:
            there = self.spec(creating[place])
            raise errors.table_exists(place, there.name, there.title)
        limit = self.config.max_tables_per_guild
        own = self.config.guild_table_cap(guild) if self.config.guild_table_cap else None
        limit = limit if own is None else own
        live = [t for t in self.tables.values() if t.guild == guild and t.status != "stopped"]
        if limit > 0 and len(live) + len(creating) >= limit:
            raise errors.too_many_tables(guild, limit)
        # The seat count is checked against the game's range before any validation, so every
        # out-of-range count gets the same message (GameSpec.seats_refusal).
        wanted = (settings or {}).get("seats")
        if wanted is None:
            wanted = (
                options.seats if isinstance(options, TableOptions) else (options or {}).get("seats")
            )
        if isinstance(wanted, int) and spec.seats_refusal(wanted):
            raise errors.bad_seats(spec.name, spec.seat_range, wanted)
        try:
            opts = options if isinstance(options, TableOptions) else TableOptions(**(options or {}))
        except ValidationError as error:
            raise errors.bad_settings(spec.name, _validation_text(error)) from error
        try:
            config = spec.make_config(**(settings or {}))
        except ValidationError as error:
            raise errors.bad_settings(spec.name, _validation_text(error)) from error
        except (TypeError, ValueError) as error:
            raise errors.bad_settings(spec.name, str(error)) from error
        count = getattr(config, "seats", None)
        if not isinstance(count, int):
            count = opts.seats or spec.default_seats
        if spec.seats_refusal(count):
            raise errors.bad_seats(spec.name, spec.seat_range, count)
        policy = opts.ai_policy or spec.level_policy(opts.ai_level)
        if policy not in spec.policies:
            known = ", ".join(sorted(spec.policies))
            raise errors.bad_settings(spec.name, f"no AI policy {policy!r}; choose one of: {known}")
        seats = [Seat(i, None, policy, ai_name(policy, i)) for i in range(count)]
        if owner is not None:
            seats[0] = Seat(0, owner, policy, owner.name)
            if opts.creator is None:
                opts = opts.model_copy(update={"creator": owner.id})
        creating = self._creating.setdefault(guild, creating)
        creating[place] = spec.name
        try:
            record = await self.storage.create_table(
                guild=guild,
                place=place,
                game=spec.name,
                settings=config.model_dump(mode="json"),
                options=opts.model_dump(mode="json"),
                seats=[s.record() for s in seats],
                now=self.clock.now(),
            )
        except PlaceTaken as error:
            raise await self._taken(place, spec) from error
        finally:
            creating.pop(place, None)
            if not creating:
                del self._creating[guild]
        table = self._wrap(record, spec, seats)
        self._add(table)
        return table

    async def _taken(self, place: str, wanted: GameSpec) -> errors.TableError:
        """The refusal of a create in `place` the database found taken (by another
        process): it names the table stored there (`wanted`'s game if it is gone since)."""
        record = await self.storage.table_at(place)
        there = wanted
        if record is not None:
            with contextlib.suppress(errors.TableError):
                there = self.spec(record.game)
        return errors.table_exists(place, there.name, there.title)

    def _add(self, table: Table) -> None:
        replaced = self.tables.get(table.place)
        if replaced is not None:
            self._by_id.pop(replaced.id, None)
        self.tables[table.place] = table
        self._by_id[table.id] = table

    async def stop(self, place: str) -> None:
        """Stop the table in `place` and forget it."""
        table = self.get(place)
        await table.stop()
        self.tables.pop(place, None)
        self._by_id.pop(table.id, None)

    async def restore(self, places: Collection[str] | None = None) -> list[Table]:
        """Rebuild every live table from storage (start-up), only those of guilds on this
        process's `shards` when it has some, and only those in `places` when given (the
        terminal drives only its own game's table: the others stay as stored, not resumed,
        their AI seats not playing); returns them.

        First the hash chain of every stored match is checked: each damaged match is
        logged as a warning naming its first bad row. A live table whose current match is
        damaged is not resumed (its state would be rebuilt from rows written outside the
        program, and it would go on crediting them); every intact table is."""
        damaged = {problem.match_id: problem for problem in await self.storage.verify_chain()}
        for problem in damaged.values():
            log.warning("the stored log was changed outside the program: %s", problem)
        restored = []
        for record in await self.storage.live_tables():
            if record.place in self.tables:
                continue
            if places is not None and record.place not in places:
                continue
            if self.shards is not None and not self.shards.owns(record.guild):
                continue  # another shard process drives it
            try:
                match = await self.storage.current_match(record.id)
                if match is not None and match.id in damaged:
                    log.error(
                        "table %s in %s is not resumed: %s (check with `deucebot verify`)",
                        record.id,
                        record.place,
                        damaged[match.id],
                    )
                    continue
                table = await self._restore_one(record)
            except Exception:
                log.exception("could not restore table %s in %s", record.id, record.place)
                continue
            self._add(table)
            restored.append(table)
        for table in restored:
            await table.wake()
        return restored

    async def _restore_one(self, record: TableRecord) -> Table:
        spec = self.spec(record.game)
        seats = [Seat.from_record(r) for r in await self.storage.seats(record.id)]
        table = self._wrap(record, spec, seats)
        match = await self.storage.current_match(record.id)
        if match is not None:
            actions = await self.storage.actions(match.id)
            credits = await self.storage.match_players(match.id)
            table.resume(match, [a.action for a in actions], credits)
        return table

    def _wrap(self, record: TableRecord, spec: GameSpec, seats: list[Seat]) -> Table:
        return Table(
            record,
            spec,
            seats,
            storage=self.storage,
            front=self.front,
            clock=self.clock,
            config=self.config,
            seed_source=self._seed_source,
            ai=self.ai,
        )

    async def idle(self) -> None:
        """Wait until no table has AI or timer work running."""
        await asyncio.gather(*(t.idle() for t in list(self.tables.values())))

    async def close(self) -> None:
        """Cancel every table's background tasks and stop the AI worker processes (shutdown);
        storage is closed by its owner."""
        for table in list(self.tables.values()):  # a creation may still be finishing
            await table.close()
        await self.ai.aclose()
