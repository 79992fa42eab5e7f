"""Slash-command cogs, loaded by the bot's `setup_hook` (each module has `async def setup`)."""
