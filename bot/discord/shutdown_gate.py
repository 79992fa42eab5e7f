"""The door every interaction passes: open while the bot runs, shut once it starts to close.

Each handler (a slash command, an autocomplete, a component, a form) is let in by `admit`
first, from the `interaction_check` of the command tree and of the components. While the
bot runs, `admit` keeps the handler's task, so a shutdown can wait for the clicks already in
flight (`close`) before the tables, the pictures and the database close under them: a play
accepted just before a restart is committed and answered, not lost half-way with an error.

Once the shutdown began, a new interaction is not let in: the member is told privately, in
their language, that the bot is restarting and that nothing was done (an autocomplete gets
no choices). Nothing at the table changes, so trying again after the restart is safe.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import discord

from bot.discord.replies import REFUSED, say
from bot.i18n import t

log = logging.getLogger(__name__)


class ShutdownGate:
    """Lets interactions in and keeps their handlers' tasks until `shut`."""

    def __init__(self, language: Callable[[discord.Interaction], str]) -> None:
        """`language`: the language to answer an interaction in (the bot's)."""
        self._language = language
        self._in_flight: set[asyncio.Task[object]] = set()
        self._shut = False

    @property
    def shut(self) -> bool:
        """True once the shutdown began: no interaction is let in any more."""
        return self._shut

    @property
    def in_flight(self) -> int:
        """How many admitted handlers are still running."""
        return len(self._in_flight)

    async def admit(self, interaction: discord.Interaction) -> bool:
        """True: run the handler (its task is kept until it ends). False: the bot is shutting
        down, and the member was told so privately."""
        if not self._shut:
            task = asyncio.current_task()
            if task is not None and task not in self._in_flight:
                self._in_flight.add(task)
                task.add_done_callback(self._in_flight.discard)
            return True
        interaction.extras[REFUSED] = True  # no board rides on it (`tokens.rides_for`)
        try:
            if interaction.type == discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
            else:
                lang = self._language(interaction)
                await say(interaction, "🔄 " + t("discord.restarting", lang))
        except discord.HTTPException:
            log.info("could not tell interaction %s that the bot restarts", interaction.id)
        return False

    async def close(self, timeout: float) -> bool:
        """Shut the door, then wait up to `timeout` seconds for the handlers let in before
        (never for the calling task); True when all of them ended. Once shut, nothing more
        is let in, so the handlers to wait for are known at once."""
        self._shut = True
        current = asyncio.current_task()
        waiting = [t for t in self._in_flight if t is not current and not t.done()]
        if not waiting:
            return True
        _, pending = await asyncio.wait(waiting, timeout=timeout)
        if pending:
            log.warning("%s interaction handlers still running at shutdown", len(pending))
        return not pending
