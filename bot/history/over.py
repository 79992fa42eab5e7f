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


async def match_over(storage: Storage, match: MatchRecord, table: TableRecord) -> bool:
    """`is_over` for a match read from `storage`."""
    if match.finished_at is not None or table.status == "stopped":
        return True
    latest = await storage.current_match(table.id)
    return is_over(match, table, latest.id if latest is not None else None)
