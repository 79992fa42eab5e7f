"""bot/runtime package."""
