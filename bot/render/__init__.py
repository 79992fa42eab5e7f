"""bot/render package."""
