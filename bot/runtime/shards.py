"""Which guilds a sharded process drives: Discord puts guild `g` on shard
`(g >> 22) % shard_count`, and each process runs a set of shards (`Shards`).

A table belongs to the shard of its guild. Places that are not Discord guilds (the
terminal's tables) belong to shard 0, as Discord's direct messages do.
"""

from __future__ import annotations

from dataclasses import dataclass


def shard_of(guild: str, count: int) -> int:
    """The shard of the guild `guild` (a Discord id as text) among `count` shards; 0 for a
    place that is not a Discord guild."""
    if not guild.isdigit() or count <= 1:
        return 0
    return (int(guild) >> 22) % count


@dataclass(frozen=True)
class Shards:
    """The shards one process runs: `ids` out of `count`."""

    ids: tuple[int, ...]
    count: int

    def __post_init__(self) -> None:
        if self.count < 1 or not self.ids or any(not 0 <= i < self.count for i in self.ids):
            raise ValueError(f"shards {self.ids} do not fit a shard count of {self.count}")

    def owns(self, guild: str) -> bool:
        """Whether the tables of `guild` are this process's to drive."""
        return shard_of(guild, self.count) in self.ids

    def __str__(self) -> str:
        return f"shards {','.join(map(str, self.ids))} of {self.count}"
