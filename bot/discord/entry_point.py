"""Global command sync that keeps an Activity's Entry Point command.

When Activities are enabled in the developer portal, Discord gives the application an Entry
Point command (type 4, the App Launcher's "Launch") and refuses any bulk overwrite of the
global commands that leaves it out (400, code 50240), which is what `CommandTree.sync()`
sends: the bot would not start. `keep_entry_point` makes that overwrite carry the Entry
Point commands Discord has (read first), so the bot's sync never removes them.
"""

from __future__ import annotations

from typing import Any

from discord.http import HTTPClient

ENTRY_POINT = 4
"""Discord's application command type of an Entry Point command."""
_READ_ONLY = ("application_id", "version", "guild_id")


def kept_entry_points(
    existing: list[dict[str, Any]], payload: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The Entry Point commands of `existing` (the global commands Discord has) that the
    overwrite `payload` must carry too (those it does not name itself)."""
    named = {command.get("name") for command in payload}
    return [
        {k: v for k, v in command.items() if k not in _READ_ONLY}
        for command in existing
        if command.get("type") == ENTRY_POINT and command.get("name") not in named
    ]


def keep_entry_point(http: HTTPClient) -> None:
    """Make `http`'s global bulk overwrite keep the application's Entry Point commands."""
    overwrite = http.bulk_upsert_global_commands

    async def keeping(application_id: Any, payload: list[dict[str, Any]]) -> Any:
        existing: list[dict[str, Any]] = await http.get_global_commands(application_id)  # type: ignore[assignment]
        kept = kept_entry_points(existing, payload)
        return await overwrite(application_id, payload=[*payload, *kept])

    http.bulk_upsert_global_commands = keeping  # type: ignore[method-assign]
