"""Per-member cooldowns on costly commands and buttons.

`/stats` runs a full-history leaderboard query per game, `/leaderboard` one, `/history`
loads and replays matches, a hint (`/hint` or the hand's Hint button) runs the strong AI,
and `/table create` opens a table: each member may use each of them once per its
setting's seconds (`DEUCEBOT_STATS_COOLDOWN`, also for `/leaderboard` and `/history`,
`DEUCEBOT_HINT_COOLDOWN`, `DEUCEBOT_CREATE_COOLDOWN`; 0: none), or per the server's own
`/config cooldown` where it is stricter.

A member's use is recorded once per kind, whichever server it was made in, and each
server's seconds are checked against that one record: alternating between a lenient and a
strict server gives no extra uses, and the strict one's cooldown still holds there. A use
that comes too soon raises discord.py's `app_commands.CommandOnCooldown` (nothing
recorded), which `replies.refusal_text` answers privately, in the member's language, with
when to try again.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Literal, TypeVar

import discord
from discord import app_commands

if TYPE_CHECKING:
    from bot.process.settings import Settings

T = TypeVar("T")
Costly = Literal["stats", "leaderboard", "hint", "create", "history"]


class Cooldowns:
    """A member's last use of each kind, wherever it was made; each server's own seconds
    for a kind are checked against it, so alternating servers never helps."""

    def __init__(self, seconds: Mapping[str, float]) -> None:
        """Cooldowns of `seconds` per kind (a kind missing or at 0 has none)."""
        self.seconds = dict(seconds)
        self._last: OrderedDict[tuple[str, int], float] = OrderedDict()
        """(kind, member) -> the time of their last use counted, oldest first."""
        self.guild_seconds: Callable[[str, str], float | None] | None = None
        """A server's own seconds for a kind (its `/config`), None: the process's."""
        self.longest = max(self.seconds.values(), default=0.0)
        """The longest cooldown any server may set: a use older than that is forgotten."""

    @classmethod
    def from_settings(cls, settings: Settings) -> Cooldowns:
        """The cooldowns the settings ask for."""
        return cls(
            {
                "stats": settings.stats_cooldown,
                "leaderboard": settings.stats_cooldown,
                "hint": settings.hint_cooldown,
                "create": settings.create_cooldown,
                "history": settings.stats_cooldown,
            }
        )

    def hit(self, kind: Costly, interaction: discord.Interaction) -> Callable[[], None]:
        """Count one use of `kind` by the interaction's user, at the interaction's time;
        raises `app_commands.CommandOnCooldown` (nothing counted) if it comes too soon after
        their last use of `kind` in any server, by this server's seconds. Returns what gives
        the use back (a use that did none of the costly work: a hint the AI could not
        give), as if it had not been counted; nothing once a later use was counted."""
        per = self.seconds.get(kind, 0.0)
        if self.guild_seconds is not None and interaction.guild_id is not None:
            own = self.guild_seconds(str(interaction.guild_id), kind)
            per = per if own is None else own
        if per <= 0:
            return _nothing
        now = interaction.created_at.timestamp()
        self.longest = max(self.longest, per)
        self._forget(now)
        key = (kind, interaction.user.id)
        last = self._last.get(key)
        if last is not None and now - last < per:
            raise app_commands.CommandOnCooldown(app_commands.Cooldown(1, per), per - (now - last))
        self._last[key] = now
        self._last.move_to_end(key)

        def give_back() -> None:
            if self._last.get(key) != now:
                return
            if last is None:
                del self._last[key]
            else:
                self._last[key] = last

        return give_back

    def _forget(self, now: float) -> None:
        """Drop the uses no server's cooldown can reach any more (oldest first)."""
        while self._last:
            key, at = next(iter(self._last.items()))
            if now - at < self.longest:
                break
            del self._last[key]


def _nothing() -> None:
    """Give back a use that was not counted."""


def cooldown(kind: Costly) -> Callable[[T], T]:
    """Decorator for an app command: each use costs one use of `kind` (see `Cooldowns`)."""

    async def predicate(interaction: discord.Interaction) -> bool:
        cooldowns: Cooldowns = interaction.client.cooldowns  # type: ignore[attr-defined]
        cooldowns.hit(kind, interaction)
        return True

    decorate: Callable[[T], T] = app_commands.check(predicate)
    return decorate
