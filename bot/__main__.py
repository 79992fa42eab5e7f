"""`python -m bot`: start the Discord bot (see bot.discord)."""

from __future__ import annotations

import sys


def main() -> int:
    """Run the Discord bot with settings from the environment and .env."""
    from bot.discord.app import run

    return run()


if __name__ == "__main__":
    sys.exit(main())
