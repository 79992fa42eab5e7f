"""The Discord client: a `commands.Bot` subclass built from the settings by `create_bot`.

Start-up (`setup_hook`): open the storage, build the table manager with the
Discord front, register the persistent (dynamic) buttons, load the cogs, install
the command translator, sync the slash commands (to `DEV_GUILD_ID` at once when
set, else globally), then restore every unfinished table and re-post its board.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import normalise_language
from bot.runtime import tune_gc
from bot.settings import Settings

log = logging.getLogger("deucebot.discord")

COGS = ("bot.discord.cogs.tables", "bot.discord.cogs.play", "bot.discord.cogs.info")


def intents() -> discord.Intents:
    """The fewest intents that work: guilds only (channels and roles). Slash commands and
    buttons arrive as interactions, so no message content, members or presence intent."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class Deucebot(commands.Bot):
    """The bot: settings, the table manager and the Discord front hang off it."""

    def __init__(
        self,
        settings: Settings,
        *,
        edit_interval: float | None = None,
        latency_sink: Callable[[float], None] | None = None,
        **options: Any,
    ) -> None:
        """A bot for `settings`. `edit_interval` spaces board edits (default: the setting); `latency_sink` receives
        the runtime's per-action processing time (benchmark); `options` go to `commands.Bot`
        (tests pass a short `guild_ready_timeout`)."""
        options.setdefault("guild_ready_timeout", 2.0)
        # Deucebot never joins voice: do not warn about the voice libraries.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        self.edit_interval = settings.board_edit_seconds if edit_interval is None else edit_interval
        self.latency_sink = latency_sink
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=True, replied_user=False
            ),
            **options,
        )
        self.settings = settings
        self.storage: Any = None
        self.tables: Any = None
        self.front: Any = None
        self.locales: dict[int, str] = {}
        """Discord user id -> the language of their last interaction (for DMs)."""
        self.tree.on_error = self._on_tree_error  # type: ignore[method-assign]

    async def setup_hook(self) -> None:
        """Storage, runtime, persistent views, cogs, translator, command sync, table restore."""
        from bot.discord import images
        from bot.discord.front import DiscordFront
        from bot.discord.translator import CatalogTranslator
        from bot.discord.views import DYNAMIC_ITEMS
        from bot.runtime import RuntimeConfig, TableManager
        from storage import open_storage

        self.front = DiscordFront(self, edit_interval=self.edit_interval)
        self.storage = await open_storage(self.settings.db)
        self.tables = TableManager(
            self.storage,
            self.front,
            config=RuntimeConfig(
                ai_delay=self.settings.ai_delay,
                latency_sink=self.latency_sink,
                ai_processes=self.settings.ai_processes,
            ),
        )
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        images.warm()
        for cog in COGS:
            await self.load_extension(cog)
        await self.tree.set_translator(CatalogTranslator())
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        await self.tables.restore()
        tune_gc()  # after restoring: freeze start-up objects, rarer full collections

    async def on_ready(self) -> None:
        """Log who we are."""
        log.info("logged in as %s (%s guilds)", self.user, len(self.guilds))

    async def close(self) -> None:
        """Stop the front's tasks and close the storage before the connection."""
        if self.is_closed():
            return
        started = time.perf_counter()
        log.info("shutting down")
        if self.front is not None:
            await self.front.close()
        if self.tables is not None:
            await self.tables.close()
            log.info("tables and AI workers stopped (%.1f s)", time.perf_counter() - started)
            # Let cancelled AI turns and timers unwind while the database is still open.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.tables.idle(), 5)
        if self.storage is not None:
            await self.storage.close()
            log.info("database closed (%.1f s)", time.perf_counter() - started)
        await super().close()
        log.info("disconnected (%.1f s)", time.perf_counter() - started)

    def language(self, interaction: discord.Interaction) -> str:
        """The language to answer `interaction` in: the user's locale, else the guild's, else
        the configured default. Remembered for the user's DMs."""
        default = self.guild_language(interaction.guild)
        lang = normalise_language(interaction.locale.value, default="")
        if not lang:
            lang = default
        self.locales[interaction.user.id] = lang
        return lang

    def guild_language(self, guild: discord.Guild | None) -> str:
        """A guild's language for public messages: its preferred locale if we speak it."""
        default = normalise_language(self.settings.language)
        if guild is None:
            return default
        return normalise_language(guild.preferred_locale.value, default=default)

    async def _on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        from bot.discord.replies import reply_error

        await reply_error(self, interaction, error)


def create_bot(settings: Settings, **options: Any) -> Deucebot:
    """The bot for `settings` (the factory the entry point and the tests use)."""
    return Deucebot(settings, **options)
