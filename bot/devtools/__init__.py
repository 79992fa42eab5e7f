"""Development tools shipped with the bot but never used by it: they stand in for the
outside world in end-to-end tests and benchmarks.

- `bot.devtools.discord_standin`: a local Discord (REST API and gateway on 127.0.0.1)
  that the real discord.py stack talks to; the end-to-end tests (tests/e2e) and
  `deucebot bench discord` drive the bot through it.
"""
