"""The Discord client: a `commands.Bot` subclass built from the settings by `create_bot`.

Start-up (`setup_hook`): open the storage, build the table manager with the
Discord front, register the persistent (dynamic) buttons, load the cogs, install
the command translator, sync the slash commands (to `DEV_GUILD_ID` at once when
set, else globally), then restore every unfinished table and re-post its board.

The client wires things up: it imports the front, the components and the handlers
(and implements `host.Host` for them); nothing in `bot/discord` imports it but the
cogs, which it loads by name.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import pictures
from bot.discord.actions import Controls
from bot.discord.cooldowns import Cooldowns
from bot.discord.decks import MemberDecks
from bot.discord.delivery_hooks import NO_HOOKS, DeliveryHooks
from bot.discord.entry_point import keep_entry_point
from bot.discord.front import DiscordFront
from bot.discord.health import HealthServer, Probes
from bot.discord.loop_pressure import LoopPressure
from bot.discord.metrics import BotMetrics, Live, timed, timed_start
from bot.discord.one_write import OneWriteHook, one_write
from bot.discord.replies import reply_error
from bot.discord.rest_budget import RequestBudget, budget_trace
from bot.discord.safe_text import NO_PINGS
from bot.discord.server_config import COOLDOWN_MAX, ServerConfig
from bot.discord.shutdown_gate import ShutdownGate
from bot.discord.table_limits import TableLimits
from bot.discord.translator import CatalogTranslator
from bot.discord.views import DYNAMIC_ITEMS
from bot.discord.web_doors import WebDoors
from bot.discord.web_offer import configure as configure_web_offer
from bot.i18n import normalise_language
from bot.pictures.worker import PictureDrawer
from bot.process.jsonlog import bind_ids
from bot.process.settings import Settings
from bot.runtime import RuntimeConfig, TableManager, tune_gc
from bot.runtime.fronts import Fronts
from bot.runtime.shard_lease import ShardLeaseKeeper
from bot.runtime.shards import Shards
from bot.web.front import WebFront
from bot.web.service import WebService
from storage.backend import AnyStorage, is_postgres_url, open_storage
from storage.leases import ShardLease

DELIVERY_RECORDS = True
"""The front records what it delivered (storage.deliveries); off only in the benchmark's
reference run that measures the records' cost."""
DRAIN_SECONDS = 5.0
"""At shutdown, how long the outboxes may take to send what was committed."""
IN_FLIGHT_SECONDS = 5.0
"""At shutdown, how long the interactions already let in may take to finish (a click's
handler answers within Discord's 3 s, a deferred one a little later)."""

log = logging.getLogger("deucebot.discord")

COGS = (
    "bot.discord.cogs.tables",
    "bot.discord.cogs.play",
    "bot.discord.cogs.info",
    "bot.discord.cogs.history",
    "bot.discord.cogs.admin",
    "bot.discord.cogs.ratings",
    "bot.discord.cogs.prefs",
)


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
        delivery_hooks: DeliveryHooks = NO_HOOKS,
        **options: Any,
    ) -> None:
        """A bot for `settings`. `edit_interval` spaces board edits (default: the setting);
        `latency_sink` receives the runtime's per-action processing time (benchmark);
        `delivery_hooks` are told where the front's delivery is (the crash tests' kill
        points; none by default); `options` go to `commands.Bot` (tests pass a short
        `guild_ready_timeout`)."""
        options.setdefault("guild_ready_timeout", 2.0)
        # Deucebot never joins voice: do not warn about the voice libraries.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        self.edit_interval = settings.board_edit_seconds if edit_interval is None else edit_interval
        self.rest_budget = RequestBudget(settings.rest_per_second)
        """Every counted REST request waits here for its place under Discord's global limit."""
        trace = options.setdefault("http_trace", budget_trace(self.rest_budget))
        self.delivery_hooks = delivery_hooks
        delivery_hooks.watch(trace)
        self._one_write = OneWriteHook(trace)
        """Multipart bodies in one write, if discord.py's session is not where `one_write`
        looks."""
        self.metrics = BotMetrics(self._live)
        """The process's Prometheus metrics (served by the health endpoint)."""
        self.metrics.trace(trace)
        self.latency_sink = latency_sink
        self.health: HealthServer | None = None
        """The health and metrics endpoint (`DEUCEBOT_HTTP_PORT`), once started."""
        self.started_at = time.time()
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            # A mention pings nobody unless its message names whom (`pinging`): a member's
            # name in a board must never ping anyone.
            allowed_mentions=NO_PINGS,
            **options,
        )
        self.settings = settings
        self.cooldowns = Cooldowns.from_settings(settings)
        """Per-member cooldowns on costly commands and buttons."""
        self.table_limits = TableLimits.from_settings(settings)
        """Limits per member and per table on the commands that cost other members."""
        self._storage: AnyStorage | None = None
        self._server_config: ServerConfig | None = None
        self._tables: TableManager | None = None
        self._front: DiscordFront | None = None
        self.web_front = WebFront()
        """The browser tables' front (beside the Discord one)."""
        self.web: WebService | None = None
        """The web table (`DEUCEBOT_WEB_PORT`), once started."""
        self._lease: ShardLeaseKeeper | None = None
        self._stopping: asyncio.Task[None] | None = None
        self._controls = Controls(self)
        self._doors = WebDoors(self)
        configure_web_offer(settings)
        self._locales: dict[int, str] = {}
        self._decks = MemberDecks(lambda: self.storage)
        self._pictures: PictureDrawer | None = None
        self.tree.on_error = self._on_tree_error  # type: ignore[method-assign]
        self.gate = ShutdownGate(self.language)
        """The door every interaction passes; `close` shuts it first."""
        self.tree.interaction_check = self.gate.admit  # type: ignore[method-assign]

    @property
    def storage(self) -> AnyStorage:
        """The database (opened by `setup_hook`)."""
        if self._storage is None:
            raise RuntimeError("the bot is not set up yet")
        return self._storage

    @property
    def server_config(self) -> ServerConfig:
        """Every server's own settings (`/config`; read by `setup_hook`)."""
        if self._server_config is None:
            raise RuntimeError("the bot is not set up yet")
        return self._server_config

    @property
    def tables(self) -> TableManager:
        """The runtime's tables (built by `setup_hook`)."""
        if self._tables is None:
            raise RuntimeError("the bot is not set up yet")
        return self._tables

    @property
    def front(self) -> DiscordFront:
        """The Discord front (built by `setup_hook`)."""
        if self._front is None:
            raise RuntimeError("the bot is not set up yet")
        return self._front

    @property
    def owned_shards(self) -> Shards | None:
        """The shards this process runs (None: not sharded, every guild)."""
        ids = self.settings.shards
        if ids is None or self.settings.shard_count is None:
            return None
        return Shards(ids, self.settings.shard_count)

    @property
    def controls(self) -> Controls:
        """The handlers the components call."""
        return self._controls

    @property
    def doors(self) -> WebDoors:
        """The handlers of the Activity's and the browser links' buttons."""
        return self._doors

    @property
    def locales(self) -> dict[int, str]:
        """Discord user id -> the language of their last interaction (for DMs)."""
        return self._locales

    @property
    def pressure(self) -> LoopPressure:
        """The loop-pressure gate (`bot.discord.loop_pressure`): slash commands that come
        while the loop runs late are deferred and wait at it (`replies.in_time`)."""
        return self.front.pressure

    @property
    def answers(self) -> DiscordFront:
        """The front, for what it does through members' own interactions."""
        return self.front

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Lend an interaction at a table to the front (`DiscordFront.lend`): once answered,
        its token posts and edits the table's boards outside the global request budget
        (`bot.discord.tokens`); the member's live hands stop following the table
        (`LiveHands.touched`: the answer to this interaction is what they see next)."""
        if self._front is not None:
            self._front.hands.touched(interaction)
            self._front.lend(interaction)

    @property
    def decks(self) -> MemberDecks:
        """The card deck each member chose for their private pictures (`/deck`)."""
        return self._decks

    @property
    def pictures(self) -> PictureDrawer:
        """The worker process that draws the pictures (started on first use)."""
        if self._pictures is None:
            self._pictures = PictureDrawer(self.settings.picture_processes)
        return self._pictures

    async def setup_hook(self) -> None:
        """Storage, runtime, persistent views, cogs, translator, command sync, table restore."""
        if not (one_write(self.http) or self._one_write.took):
            log.warning("multipart bodies go out in parts (an unexpected HTTP session)")
        storage = self._storage = await open_storage(
            self.settings.db, synchronous=self.settings.db_synchronous
        )
        front = self._front = DiscordFront(
            self,
            self,
            edit_interval=self.edit_interval,
            deliveries=storage if DELIVERY_RECORDS else None,
            pictures=self.pictures,
            hooks=self.delivery_hooks,
        )
        front.delivered_sink = self.metrics.delivery.observe
        config = self._server_config = ServerConfig(storage, self.settings)
        await config.load()
        self.cooldowns.guild_seconds = config.cooldown
        self.cooldowns.longest = COOLDOWN_MAX
        await self._lease_shards()
        tables = self._tables = TableManager(
            storage,
            Fronts(front, self.web_front),
            config=RuntimeConfig(
                ai_delay=self.settings.ai_delay,
                latency_sink=self._action_done,
                ai_processes=self.settings.ai_processes,
                max_tables_per_guild=self.settings.max_tables_per_server,
                guild_table_cap=config.table_cap,
            ),
            shards=self.owned_shards,
        )
        storage.begin_commit = timed_start(  # type: ignore[method-assign]
            storage.begin_commit, self.metrics.storage_commit.observe
        )
        tables.ai.decide = timed(  # type: ignore[method-assign]
            tables.ai.decide, self.metrics.ai_decision.observe
        )
        if self.settings.http_port is not None:
            self.health = HealthServer(self._probes(), self.metrics, self.settings.http_port)
            await self.health.start()
        if self.settings.web_port is not None:
            self.web = WebService(self.settings, tables, self.web_front, storage)
            await self.web.start()
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        if self.pictures.processes == 0:
            pictures.warm()  # drawn here: the tiles once now, not on the first board
        for cog in COGS:
            await self.load_extension(cog)
        await self.tree.set_translator(CatalogTranslator())
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            keep_entry_point(self.http)  # an Activity's "Launch" survives the overwrite
            await self.tree.sync()
        await tables.restore()
        tune_gc()  # after restoring: freeze start-up objects, rarer full collections

    def _action_done(self, seconds: float) -> None:
        """Each accepted action: counted, and passed on to the benchmark's sink if any."""
        self.metrics.action_done(seconds)
        if self.latency_sink is not None:
            self.latency_sink(seconds)

    def gateway_open(self) -> bool:
        """Whether the bot is logged in and every gateway connection is open."""
        if self.is_closed() or not self.is_ready():
            return False
        if isinstance(self, commands.AutoShardedBot):
            return all(not shard.is_closed() for shard in self.shards.values())
        ws = self.ws
        return ws is not None and not ws.socket.closed

    def _live(self) -> Live:
        """What the metrics read at each scrape."""
        games: dict[str, int] = {}
        tables = self._tables.tables.values() if self._tables is not None else ()
        for table in tables:
            if table.status != "stopped":
                games[table.game] = games.get(table.game, 0) + 1
        front = self._front
        return Live(
            tables_by_game=games,
            outbox_lag=front.lag() if front is not None else {},
            paused=len(front.paused()) if front is not None else 0,
            gateway_latency=self.latency,
        )

    def _probes(self) -> Probes:
        """What `/healthz` checks."""

        async def storage_reads() -> None:
            await self.storage.table(0)  # a primary-key read: no row, nothing written

        def lag() -> float:
            paused = self.front.paused()
            waits = [s for tid, s in self.front.lag().items() if tid not in paused]
            return max(waits, default=0.0)

        return Probes(self.gateway_open, storage_reads, lag, self.settings.health_max_lag)

    async def _lease_shards(self) -> None:
        """Claim this process's shards in the database (`ShardLeaseKeeper`): a sharded bot,
        or any bot on PostgreSQL (shard 0 of 1), where other processes could share the
        database. `ShardsTaken` if a live process drives them. SQLite's own file lock
        already keeps a second process away."""
        shards = self.owned_shards
        if shards is None and is_postgres_url(self.settings.db):
            shards = Shards((0,), 1)
        if shards is None:
            return
        lease = ShardLeaseKeeper(self.storage, shards, seconds=self.settings.shard_lease_seconds)
        await lease.acquire()
        self._lease = lease
        lease.keep(self._lost_shards)

    def _lost_shards(self, lost: Sequence[ShardLease]) -> None:
        """Another process took our shards (we were stalled past the lease): stop at once,
        so no table is driven by two processes."""
        first = lost[0]
        log.error(
            "another process (%s) took shard %s: stopping, so only it drives those tables",
            first.owner,
            first.shard_id,
        )
        self._stopping = asyncio.get_running_loop().create_task(self.close())

    async def on_ready(self) -> None:
        """Log who we are (and our shards)."""
        shards = self.owned_shards
        log.info(
            "logged in as %s (%s guilds%s)",
            self.user,
            len(self.guilds),
            f", {shards}" if shards is not None else "",
        )

    async def close(self) -> None:
        """Stop the front's tasks and close the storage before the connection."""
        if self.is_closed():
            return
        started = time.perf_counter()
        log.info("shutting down")
        # No new interaction from here on; the ones already let in finish while the tables,
        # the pictures and the database are still open (bounded: one stuck handler must
        # not keep the process from stopping).
        await self.gate.close(IN_FLIGHT_SECONDS)
        if self.health is not None:
            await self.health.close()
        if self.web is not None:
            await self.web.close()
        if self._tables is not None:
            await self._tables.close()
            log.info("tables and AI workers stopped (%.1f s)", time.perf_counter() - started)
            # Let cancelled AI turns and timers unwind while the database is still open.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._tables.idle(), 5)
        if self._front is not None:
            # What was committed reaches the channel before the process goes (bounded: a
            # restart delivers whatever is left from the log).
            if not await self._front.drain(DRAIN_SECONDS):
                log.warning("deliveries left to the next start (%.0f s)", DRAIN_SECONDS)
            await self._front.close()
        if self._pictures is not None:
            await self._pictures.aclose()
        if self._lease is not None:
            with contextlib.suppress(Exception):
                await self._lease.release()
        if self._storage is not None:
            await self._storage.close()
            log.info("database closed (%.1f s)", time.perf_counter() - started)
        await super().close()
        log.info("disconnected (%.1f s)", time.perf_counter() - started)

    def language(self, interaction: discord.Interaction) -> str:
        """The language to answer `interaction` in: the user's locale, else the guild's, else
        the configured default. Remembered for the user's DMs."""
        self._bind_log_ids(interaction)
        default = self.guild_language(interaction.guild)
        lang = normalise_language(interaction.locale.value, default="")
        if not lang:
            lang = default
        self._locales[interaction.user.id] = lang
        return lang

    def _bind_log_ids(self, interaction: discord.Interaction) -> None:
        """Name the guild, and the channel's table and match, in this handler's log lines."""
        table = None
        if self._tables is not None and interaction.channel_id is not None:
            table = self._tables.find(str(interaction.channel_id))
        bind_ids(
            guild=interaction.guild_id,
            table=table.id if table is not None else None,
            match=table.match.id if table is not None and table.match is not None else None,
        )

    def guild_language(self, guild: discord.Guild | None) -> str:
        """A guild's language for public messages: the one its admins chose (`/config`),
        else its preferred locale if we speak it."""
        default = normalise_language(self.settings.language)
        if guild is None:
            return default
        if self._server_config is not None:
            chosen = self._server_config.language(str(guild.id))
            if chosen is not None:
                return chosen
        return normalise_language(guild.preferred_locale.value, default=default)

    async def _on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await reply_error(interaction, error, self.language(interaction))


class ShardedDeucebot(Deucebot, commands.AutoShardedBot):
    """The bot as one process of a sharded deployment: it connects the shards of
    `settings.shards` only, and drives only the tables of guilds on them."""


def create_bot(settings: Settings, **options: Any) -> Deucebot:
    """The bot for `settings` (the factory the entry point and the tests use): sharded
    (`AutoShardedBot` with `shard_ids` and `shard_count`) when `DEUCEBOT_SHARD_COUNT` is set."""
    shards = settings.shards
    if shards is None:
        return Deucebot(settings, **options)
    options.update(shard_count=settings.shard_count, shard_ids=list(shards))
    return ShardedDeucebot(settings, **options)
