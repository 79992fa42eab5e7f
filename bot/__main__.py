"""`python -m bot`: start the Discord bot (see bot.discord)."""

from __future__ import annotations

import sys


def main() -> int:
    """Run the Discord bot with settings from the environment and .env."""
    from bot.discord.app import SHUTDOWN_LIMIT, run

    return run(shutdown_limit=SHUTDOWN_LIMIT)


if __name__ == "__main__":
    sys.exit(main())
