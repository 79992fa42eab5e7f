"""Limits on the commands whose use costs other members, per member and per table.

Starting or stopping a match posts boards and results and sends every seated member
their hand by DM; taking or leaving a seat redraws the board for everyone. So each
member may use the commands of one kind at most `per_member` times in any minute, and all
the members of one table (one channel) together at most `per_table` times:

- `match`: `/table create`, `/table start`, `/table restart`, `/table stop`,
  `/duel challenge` (each starts, ends or offers a match);
- `seat`: `/table join`, `/table leave`, `/back`.

`per_member` is `DEUCEBOT_TABLE_COMMANDS_PER_MINUTE` (6 by default, 0: no limit);
`per_table` is twice that. A use over either raises `CommandOnCooldown` (a
`TableBusy` for the table's limit) before the command does anything, which
`replies.refusal_text` answers privately, in the member's language, with when to try
again; a refused use is not counted.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, TypeVar

import discord
from discord import app_commands

from bot.discord.cooldowns import Cooldowns, Costly
from bot.errors import DeucebotError

if TYPE_CHECKING:
    from bot.process.settings import Settings

T = TypeVar("T")
Kind = Literal["match", "seat"]
WINDOW = 60.0
"""Seconds a use counts against its limits."""


class TableBusy(app_commands.CommandOnCooldown, DeucebotError):
    """A use refused by the table's limit (its members together), not the member's own (a
    cooldown to discord.py, answered as one)."""


class TableLimits:
    """Sliding one-minute windows of uses per (kind, member) and per (kind, table)."""

    def __init__(self, per_member: int, per_table: int | None = None) -> None:
        """At most `per_member` uses of a kind per member and `per_table` (twice
        `per_member` unless given) per table in any `WINDOW` seconds; 0: no limit."""
        self.per_member = per_member
        self.per_table = 2 * per_member if per_table is None else per_table
        self.clock: Callable[[], float] | None = None
        """The time of a use (tests set it); None: the interaction's own time."""
        self._uses: OrderedDict[tuple[str, str, str], deque[float]] = OrderedDict()
        """(kind, "member" or "table", id) -> the times of its counted uses, oldest first;
        the keys least recently used first."""

    @classmethod
    def from_settings(cls, settings: Settings) -> TableLimits:
        """The limits the settings ask for."""
        return cls(settings.table_commands_per_minute)

    def hit(
        self, kind: Kind, interaction: discord.Interaction, then: Callable[[], object] | None = None
    ) -> None:
        """Count one use of `kind` by the interaction's user at its table (channel). Raises
        `CommandOnCooldown` (or `TableBusy`) when over a limit; `then` (another check,
        such as a cooldown) runs once both limits allow the use and may refuse it too;
        nothing is counted unless the use goes through."""
        now = self.clock() if self.clock is not None else interaction.created_at.timestamp()
        self._forget(now)
        member = (kind, "member", str(interaction.user.id))
        table = (kind, "table", str(interaction.channel_id))
        self._check(member, self.per_member, now, app_commands.CommandOnCooldown)
        self._check(table, self.per_table, now, TableBusy)
        if then is not None:
            then()
        for key, limit in ((member, self.per_member), (table, self.per_table)):
            if limit > 0:
                self._uses.setdefault(key, deque()).append(now)
                self._uses.move_to_end(key)

    def _check(
        self,
        key: tuple[str, str, str],
        limit: int,
        now: float,
        refusal: type[app_commands.CommandOnCooldown],
    ) -> None:
        """Raise `refusal` if `key` already used its `limit` in the window before `now`."""
        if limit <= 0:
            return
        uses = self._uses.get(key)
        if uses is None:
            return
        while uses and now - uses[0] >= WINDOW:
            uses.popleft()
        if len(uses) >= limit:
            raise refusal(app_commands.Cooldown(limit, WINDOW), uses[-limit] + WINDOW - now)

    def _forget(self, now: float) -> None:
        """Drop the keys whose latest use left the window (least recently used first)."""
        while self._uses:
            key, uses = next(iter(self._uses.items()))
            if uses and now - uses[-1] < WINDOW:
                break
            del self._uses[key]


def limited(kind: Kind, cooldown: Costly | None = None) -> Callable[[T], T]:
    """Decorator for an app command: each use counts against `kind`'s limits (see
    `TableLimits`) and, if given, the member's `cooldown` (`Cooldowns`), in one step."""

    async def predicate(interaction: discord.Interaction) -> bool:
        client = interaction.client
        limits: TableLimits = client.table_limits  # type: ignore[attr-defined]
        cooldowns: Cooldowns = client.cooldowns  # type: ignore[attr-defined]
        then = None if cooldown is None else (lambda: cooldowns.hit(cooldown, interaction))
        limits.hit(kind, interaction, then)
        return True

    decorate: Callable[[T], T] = app_commands.check(predicate)
    return decorate
