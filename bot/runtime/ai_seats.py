"""`AiSeats`: every AI decision of a manager's tables, turns and hints alike.

It owns what an AI decision needs: each seat's policy name and seed (per match), the
policies themselves, built only where they run (in this process when there is no worker
pool, else inside the pool's workers), the worker pool (`AiPool`, when
`RuntimeConfig.ai_processes` > 0), the bound on AI turns in progress across tables, and the
safe defaults:

- `decide` never fails: an AI standing in for an away person never spends their money
  (`spec.owner_decides`), and a policy that raises, or a worker that died, gives the game's
  safe default (`spec.timeout_action(view)`), logged;
- `hint` runs the game's default policy for a person's seat, seeded from the seat's match
  seed and the turn (the same hint for the same position), on the same pool, or in a thread
  when there is none, so a hint never runs on the event loop.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Sequence
from typing import Any

from bot.runtime.ai_pool import AiPool, AiPoolClosed
from bot.runtime.options import RuntimeConfig
from bot.runtime.seats import Seat
from engines.base import Policy
from engines.registry import GameSpec, get_game

log = logging.getLogger(__name__)

_SEED_MIX = 0x5EA7
_HINT_MIX = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1


class AiSeats:
    """AI decisions and hints for the tables of one manager (see the module docstring)."""

    def __init__(self, config: RuntimeConfig, games: Callable[[str], GameSpec] = get_game) -> None:
        """Start the worker pool when `config.ai_processes` > 0 (`games` must pickle then)."""
        self.pool: AiPool | None = (
            AiPool(config.ai_processes, games=games) if config.ai_processes > 0 else None
        )
        """The worker processes, if any (closed by `aclose`)."""
        self.slots = asyncio.Semaphore(max(1, config.ai_concurrency))
        """AI turns in progress at once across every table (held by the table for a turn)."""
        self._in_thread = config.ai_in_thread
        self._seeds: dict[int, dict[int, tuple[str, int]]] = {}
        """Table -> seat -> (policy name, seed) of the match in progress."""
        self._policies: dict[tuple[int, int], Policy[Any, Any]] = {}
        """(table, seat) -> the policy living in this process (no pool only)."""

    def new_match(self, table_id: int, seats: Sequence[Seat], seed: int) -> None:
        """Give each seat of `table_id` its policy seed for the match seeded `seed`; policies
        of an earlier match are dropped (each seat's starts afresh on its next decision)."""
        self.forget(table_id)
        master = random.Random(seed ^ _SEED_MIX)
        self._seeds[table_id] = {
            seat.index: (seat.policy, master.getrandbits(64)) for seat in seats
        }

    async def decide(self, table_id: int, spec: GameSpec, seat: Seat, view: Any) -> Any:
        """The action for AI-played `seat` of `table_id` from the seat's `view`. Never raises
        for a failed decision: the game's safe default is played instead (logged). Raises
        `AiPoolClosed` at shutdown: no move is made for the seat then (not even the safe
        default), so the seat decides for itself after the restart."""
        if seat.owner is not None and spec.owner_decides(view):
            # Standing in for an away person: never spend their chips for them.
            return spec.timeout_action(view)
        try:
            name, seed = self._seeds[table_id][seat.index]
            if self.pool is not None:
                return await self.pool.decide(table_id, seat.index, spec.name, name, seed, view)
            key = (table_id, seat.index)
            policy = self._policies.get(key)
            if policy is None:
                policy = self._policies[key] = spec.make_policy(name, random.Random(seed))
            if self._in_thread:
                return await asyncio.to_thread(policy.decide, view)
            return policy.decide(view)
        except AiPoolClosed:
            raise
        except Exception:
            log.exception(
                "AI of seat %s failed in table %s; playing the safe default", seat.index, table_id
            )
            return self.safe_default(spec, view)

    @staticmethod
    def safe_default(spec: GameSpec, view: Any) -> Any:
        """The game's safe default for the seat of `view` (a timeout, a failed decision)."""
        return spec.timeout_action(view)

    async def hint(self, table_id: int, spec: GameSpec, seat: int, view: Any, turn: int) -> Any:
        """What the game's default AI would play for `seat` (a person's) at `turn`. Runs in the
        pool's worker, or in a thread; raises whatever the policy or the pool raised."""
        base = self._seeds.get(table_id, {}).get(seat, ("", table_id))[1]
        seed = (base ^ (turn * _HINT_MIX)) & _MASK
        name = spec.default_policy
        if self.pool is not None:
            return await self.pool.decide(_hint_key(table_id), seat, spec.name, name, seed, view)
        policy = spec.make_policy(name, random.Random(seed))
        return await asyncio.to_thread(policy.decide, view)

    def policies_of(self, table_id: int) -> dict[int, Policy[Any, Any]]:
        """Seat -> the policy living in this process for `table_id` (a copy; empty with a
        worker pool, whose policies live in the workers). For diagnostics and tests."""
        return {seat: p for (table, seat), p in self._policies.items() if table == table_id}

    def forget(self, table_id: int) -> None:
        """Drop the policies of `table_id` (here and in the workers): its match finished, it
        stopped, or a new match begins."""
        for key in [key for key in self._policies if key[0] == table_id]:
            del self._policies[key]
        if self.pool is not None:
            self.pool.forget(table_id)
            self.pool.forget(_hint_key(table_id))

    def drop(self, table_id: int) -> None:
        """Forget `table_id` entirely (it stopped for good)."""
        self.forget(table_id)
        self._seeds.pop(table_id, None)

    async def aclose(self) -> None:
        """Stop the worker processes (shutdown)."""
        if self.pool is not None:
            await self.pool.aclose()


def _hint_key(table_id: int) -> tuple[str, int]:
    """The pool key of a table's hint policies (apart from its seats' own policies)."""
    return ("hint", table_id)
