"""Deucebot's development tools: never shipped with the bot (`pip install .` installs only
`engines`, `storage` and `bot`), installed beside it by `python3 tasks.py test` (or
`pip install -e ./deucebot_dev`). They stand in for the outside world in end-to-end tests
and benchmarks, and measure the bot.

- `deucebot_dev.discord_standin`: a local Discord (REST API and gateway on 127.0.0.1)
  that the real discord.py stack talks to, enforcing Discord's rate limits
  (`deucebot_dev.discord_limits`); the end-to-end tests (tests/e2e) and
  `deucebot bench discord` drive the bot through it.
- `deucebot_dev.bench`: `deucebot bench TARGET`, one module per target.
- `deucebot_dev.pg_server`: a throwaway PostgreSQL server for tests and benchmarks.
- `deucebot_dev.crashpoints`: the crash points the crash tests inject into the Discord
  front's delivery path (`bot.discord.delivery_hooks`), enabled by `DEUCEBOT_KILL_AT`.
"""
