"""Per-member cooldowns on costly commands and buttons.

`/stats` runs a full-history leaderboard query per game, `/leaderboard` one, a hint
(`/hint` or the hand's Hint button) runs the strong AI, and `/table create` opens a
table: each member may use each of them once per its setting's seconds
(`DEUCEBOT_STATS_COOLDOWN`, `DEUCEBOT_HINT_COOLDOWN`, `DEUCEBOT_CREATE_COOLDOWN`; 0:
none). The buckets are discord.py's `app_commands.Cooldown`; a use that comes too soon
raises its `CommandOnCooldown`, which `replies.refusal_text` answers privately, in the
member's language, with when to try again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Literal, TypeVar

import discord
from discord import app_commands

if TYPE_CHECKING:
    from bot.settings import Settings

T = TypeVar("T")
Costly = Literal["stats", "leaderboard", "hint", "create"]


class Cooldowns:
    """One bucket per (kind, member); a member's uses of one kind are spaced by its seconds."""

    def __init__(self, seconds: Mapping[str, float]) -> None:
        """Cooldowns of `seconds` per kind (a kind missing or at 0 has none)."""
        self.seconds = dict(seconds)
        self._buckets: dict[tuple[str, int], app_commands.Cooldown] = {}
        self.guild_seconds: Callable[[str, str], float | None] | None = None
        """A server's own seconds for a kind (its `/config`), None: the process's."""

    @classmethod
    def from_settings(cls, settings: Settings) -> Cooldowns:
        """The cooldowns the settings ask for."""
        return cls(
            {
                "stats": settings.stats_cooldown,
                "leaderboard": settings.stats_cooldown,
                "hint": settings.hint_cooldown,
                "create": settings.create_cooldown,
            }
        )

    def hit(self, kind: Costly, interaction: discord.Interaction) -> None:
        """Count one use of `kind` by the interaction's user, at the interaction's time;
        raises `app_commands.CommandOnCooldown` (nothing counted) if it comes too soon."""
        per = self.seconds.get(kind, 0.0)
        if self.guild_seconds is not None and interaction.guild_id is not None:
            own = self.guild_seconds(str(interaction.guild_id), kind)
            per = per if own is None else own
        if per <= 0:
            return
        now = interaction.created_at.timestamp()
        # Forget buckets that filled up again: they would allow the next use anyway.
        idle = [k for k, b in self._buckets.items() if b.get_tokens(now) == b.rate]
        for key in idle:
            del self._buckets[key]
        bucket = self._buckets.setdefault(
            (kind, interaction.user.id), app_commands.Cooldown(1, per)
        )
        if bucket.per != per:  # the server changed its cooldown meanwhile
            bucket = self._buckets[(kind, interaction.user.id)] = app_commands.Cooldown(1, per)
        retry_after = bucket.update_rate_limit(now)
        if retry_after is not None:
            raise app_commands.CommandOnCooldown(bucket, retry_after)


def cooldown(kind: Costly) -> Callable[[T], T]:
    """Decorator for an app command: each use costs one use of `kind` (see `Cooldowns`)."""

    async def predicate(interaction: discord.Interaction) -> bool:
        cooldowns: Cooldowns = interaction.client.cooldowns  # type: ignore[attr-defined]
        cooldowns.hit(kind, interaction)
        return True

    decorate: Callable[[T], T] = app_commands.check(predicate)
    return decorate
