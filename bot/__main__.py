"""`python -m bot`: start the Discord bot (see bot.discord).

Before connecting to Discord it reads the settings and opens the database once, so a bad
setting or an unusable `DEUCEBOT_DB` (not a Deucebot database, newer, locked, in use by
another bot, a folder...) is one line and exit code 2 at once, never a traceback.
"""

from __future__ import annotations

import asyncio
import sys

from pydantic import ValidationError

from bot.process.settings import Settings, describe_error, load_settings
from storage.base import CannotOpenDatabase


async def check_database(settings: Settings) -> None:
    """Open and close the bot's database: refusals surface before the bot connects, and a
    new file is created and migrated, a PostgreSQL server is reached. `CannotOpenDatabase`
    if it cannot be used."""
    from storage import open_storage

    storage = await open_storage(settings.db, synchronous=settings.db_synchronous)
    await storage.close()


def main() -> int:
    """Run the Discord bot with settings from the environment and .env."""
    try:
        settings = load_settings()
        if settings.discord_token and settings.discord_token.strip():
            asyncio.run(check_database(settings))
    except ValidationError as error:
        print(f"deucebot: {describe_error(error)}", file=sys.stderr)
        return 2
    except CannotOpenDatabase as error:
        print(f"deucebot: {error}", file=sys.stderr)
        return 2
    from bot.discord.app import SHUTDOWN_LIMIT, run

    return run(settings, shutdown_limit=SHUTDOWN_LIMIT)


if __name__ == "__main__":
    sys.exit(main())
