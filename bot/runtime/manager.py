"""`TableManager`: the registry place -> table, creation, and restore at start-up.

A place is where a table lives: a Discord channel id (as text) or "terminal:<game>".
At start-up `restore()` rebuilds every unfinished table from storage by replaying its
match's action log from the stored seed, re-arms stored turn deadlines (a deadline that
passed while the process was down fires at once) and asks the front to redraw each board.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import secrets
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from bot.runtime import errors
from bot.runtime.ai_pool import AiPool
from bot.runtime.clock import Clock, SystemClock
from bot.runtime.front import Front
from bot.runtime.table import (
    Player,
    RuntimeConfig,
    Seat,
    Table,
    TableOptions,
    ai_name,
    replay,
)
from engines.registry import GameSpec, UnknownName, get_game
from storage.base import PlaceTaken, Storage, TableRecord

log = logging.getLogger(__name__)


def tune_gc() -> None:
    """Keep the garbage collector from stalling the event loop (call once after start-up,
    e.g. after `TableManager.restore()`): objects alive now are frozen out of collections,
    and full collections run far less often. With hundreds of tables, a default full
    collection pauses the loop for ~100 ms (measured by `deucebot bench runtime`)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 1_000)


def _validation_text(error: ValidationError) -> str:
    """A pydantic error as one readable line: `field: message; ...`."""
    parts = []
    for item in error.errors():
        where = ".".join(str(p) for p in item.get("loc", ())) or "settings"
        parts.append(f"{where}: {item.get('msg', 'invalid')}")
    return "; ".join(parts)


class TableManager:
    """Every live table of this process, by place."""

    def __init__(
        self,
        storage: Storage,
        front: Front,
        *,
        clock: Clock | None = None,
        config: RuntimeConfig | None = None,
        games: Callable[[str], GameSpec] = get_game,
        seed_source: Callable[[], int] | None = None,
    ) -> None:
        """`games` looks a game up by name (tests inject toy games); `seed_source` gives each
        new match its secret seed (default: 256 random bits from `secrets`: the seed tells
        every card of the match, so it must not be guessable)."""
        self.storage = storage
        self.front = front
        self.clock: Clock = clock or SystemClock()
        self.config = config or RuntimeConfig()
        self._games = games
        self._seed_source = seed_source or (lambda: secrets.randbits(256))
        self.tables: dict[str, Table] = {}
        self._ai_slots = asyncio.Semaphore(max(1, self.config.ai_concurrency))
        self.ai_pool: AiPool | None = None
        """AI worker processes (`config.ai_processes` > 0); closed by `close`."""
        if self.config.ai_processes > 0:
            self.ai_pool = AiPool(self.config.ai_processes, games=games)

    def find(self, place: str) -> Table | None:
        """The live table in `place`, or None."""
        return self.tables.get(place)

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
        its settings and the options; `table_exists` if `place` already has a live table."""
        spec = self.spec(game)
        existing = self.tables.get(place)
        if existing is not None and existing.status != "stopped":
            raise errors.table_exists(place, existing.game)
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
        policy = opts.ai_policy or spec.default_policy
        if policy not in spec.policies:
            known = ", ".join(sorted(spec.policies))
            raise errors.bad_settings(spec.name, f"no AI policy {policy!r}; choose one of: {known}")
        seats = [Seat(i, None, policy, ai_name(policy, i)) for i in range(count)]
        if owner is not None:
            seats[0] = Seat(0, owner, policy, owner.name)
            if opts.creator is None:
                opts = opts.model_copy(update={"creator": owner.id})
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
            raise errors.table_exists(place, spec.name) from error
        table = self._wrap(record, spec, seats)
        self.tables[place] = table
        return table

    async def stop(self, place: str) -> None:
        """Stop the table in `place` and forget it."""
        table = self.get(place)
        await table.stop()
        self.tables.pop(place, None)

    async def restore(self) -> list[Table]:
        """Rebuild every live table from storage (start-up); returns them.

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
            self.tables[record.place] = table
            restored.append(table)
        for table in restored:
            await table._deliver([])
            table._after_change()
        return restored

    async def _restore_one(self, record: TableRecord) -> Table:
        spec = self.spec(record.game)
        seats = [Seat.from_record(r) for r in await self.storage.seats(record.id)]
        table = self._wrap(record, spec, seats)
        match = await self.storage.current_match(record.id)
        if match is not None:
            actions = await self.storage.actions(match.id)
            table.match = match
            table.state, table.deal = replay(spec, match, [a.action for a in actions])
            table.turn = match.first_seq + len(actions)
            table.credits = await self.storage.match_players(match.id)
            table._make_policies(match.seed)
            if table.state.finished and table.status == "playing":
                table.status = "finished"
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
            ai_slots=self._ai_slots,
            ai_pool=self.ai_pool,
        )

    async def idle(self) -> None:
        """Wait until no table has AI or timer work running."""
        await asyncio.gather(*(t.idle() for t in list(self.tables.values())))

    async def close(self) -> None:
        """Cancel every table's background tasks and stop the AI worker processes (shutdown);
        storage is closed by its owner."""
        for table in self.tables.values():
            await table.close()
        if self.ai_pool is not None:
            await self.ai_pool.aclose()
