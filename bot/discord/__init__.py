"""bot/discord package."""
