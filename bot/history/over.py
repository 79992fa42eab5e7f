"""Is a match over? The one answer every surface asks before it shows a deal's seed.

A seed gives its deal's whole deck (the folded hands, the cards drawn, the card a Deuce
Duel player keeps into the next deal), so seeds are public only once no card they tell
can still be secret or matter: when the match has ended, when its table was stopped, or
when a restart at its table began a newer match (the runtime never resumes it then).
"""

from __future__ import annotations

from storage.base import MatchRecord, Storage, TableRecord


def is_over(match: MatchRecord, table: TableRecord, latest: int | None) -> bool:
    """True when `match` (of `table`, whose latest match has the id `latest`; None: not
    known, taken as `match` itself) can no longer be played: finished, its table stopped,
    or superseded by a newer match."""
    return (
        match.finished_at is not None
        or table.status == "stopped"
        or (latest is not None and latest != match.id)
    )


async def latest_id(storage: Storage, match: MatchRecord, table: TableRecord) -> int | None:
    """The id of `table`'s latest match, the `latest` of `is_over`: read from `storage`
    only when it can tell (None, no read, for a match finished or of a stopped table)."""
    if is_over(match, table, None):
        return None
    latest = await storage.current_match(table.id)
    return latest.id if latest is not None else None


async def match_over(storage: Storage, match: MatchRecord, table: TableRecord) -> bool:
    """`is_over` for a match read from `storage`."""
    return is_over(match, table, await latest_id(storage, match, table))
