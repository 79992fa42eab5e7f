"""The root of the bot's own errors, as the engines' `IllegalAction` is the root of the
rules' refusals.

- `DeucebotError`: every error the bot raises itself derives from it, one subclass per
  domain (`bot.runtime.errors.TableError`, `bot.history.build.HistoryError`,
  `bot.commands.verify.ExportError`, `bot.commands.backup.BackupError`,
  `bot.runtime.worker_process.WorkerError`,
  `bot.runtime.ai_pool.AiPoolError`, `bot.runtime.shard_lease.ShardsTaken`,
  `bot.discord.tokens.LostAnswer`, `bot.discord.table_limits.TableBusy`,
  `bot.web.identity.WebAuthError`; tests/bot/test_errors.py checks every one). Storage keeps its own
  root, `storage.base.StorageError` (storage is below the bot and imports none of it).
- `Refusal`: a request the bot refused (nothing changed, nothing written), with a stable
  `code` (catalog key ``error.<code>``) and its `params`, as `IllegalAction` has them.
- `REFUSALS`: what a front explains to the person who asked (`bot.i18n.explain`): the
  bot's refusals and the rules'.
"""

from __future__ import annotations

from typing import Any

from engines.base import IllegalAction


class DeucebotError(Exception):
    """An error the bot raised itself (never one of the rules: those are `IllegalAction`)."""


class Refusal(DeucebotError):
    """A request the bot refused; nothing changed and nothing was written.

    `str(error)` is a specific English message; `code` and `params` let a front say it in
    the person's language (catalog key ``error.<code>``).
    """

    def __init__(self, message: str, *, code: str, **params: Any) -> None:
        """Build the refusal from its English message, a stable code and its parameters."""
        super().__init__(message)
        self.message = message
        self.code = code
        self.params = params


AnyRefusal = IllegalAction | Refusal
"""Every refusal a person is told about: the bot's (`Refusal`) and the rules'."""

REFUSALS = (IllegalAction, Refusal)
"""`AnyRefusal` as the classes an `except` clause takes."""
