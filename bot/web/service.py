"""The Discord bot process's web table (`DEUCEBOT_WEB_PORT`): what links and the Activity open.

`WebService` serves `bot.web.server.build_web_app` over the bot's own table manager (whose
front includes the `WebFront` it is given) on `DEUCEBOT_WEB_HOST` (127.0.0.1 unless a reverse
proxy elsewhere needs another address) and `DEUCEBOT_WEB_PORT`, with the sign-ins the
settings configure (`bot.web.signins.discord_signins`: `/hand` links, the Activity) and an
access log that never writes their tokens (`bot.web.redact`). Table pages live at
`bot.web.links.table_path` (and under the Activity's ``/activity`` root mapping), each under
its shard's prefix ``/s/<shard>``: the process serves the shards it holds
(`DEUCEBOT_SHARD_IDS`) and refuses the others' addresses with 421 (docs/scaling.md).
"""

from __future__ import annotations

import logging

from aiohttp import web

from bot.process.settings import Settings
from bot.runtime import TableManager
from bot.runtime.shards import Shards
from bot.web.front import WebFront
from bot.web.identity import Authenticator
from bot.web.redact import RedactingAccessLogger
from bot.web.server import RECHECK, build_web_app
from bot.web.signins import discord_signins
from storage import Storage

log = logging.getLogger(__name__)


class WebService:
    """The web table of one bot process, served once `start`ed until `close`d."""

    def __init__(
        self,
        settings: Settings,
        manager: TableManager,
        front: WebFront,
        storage: Storage,
        *,
        recheck: float = RECHECK,
    ) -> None:
        """Serve `manager`'s tables (delivering to `front`) as `settings` say; `recheck` is
        how often an open page's sign-in is asked again (`bot.web.server.RECHECK`)."""
        self.settings = settings
        self.manager = manager
        self.front = front
        self.storage = storage
        self.recheck = recheck
        self.port: int | None = None
        """The port listened on, once started (the one chosen when the setting is 0)."""
        self._runner: web.AppRunner | None = None

    @property
    def shards(self) -> Shards:
        """The shards whose tables this process drives, and serves (unsharded: 0 of 1)."""
        count = self.settings.shard_count or 1
        return Shards(self.settings.shards or (0,), count)

    def _table_at(self, place: str) -> int | None:
        table = self.manager.find(place)
        return None if table is None else table.id

    def app(self) -> web.Application:
        """The application: the sign-ins' routes mounted, the table pages asking them."""
        # The pages read the list at each request: filled once the sign-ins are mounted.
        signins: list[Authenticator] = []
        app = build_web_app(
            self.manager,
            self.front,
            signins,
            recheck=self.recheck,
            shards=self.shards,
            root=False,  # every table address names its shard
        )
        signins.extend(
            discord_signins(app, self.settings, self.storage.link_generation, self._table_at)
        )
        if not signins:
            log.warning(
                "web table served without a sign-in (set DEUCEBOT_PUBLIC_URL and "
                "DEUCEBOT_LINK_SECRET): every page is refused"
            )
        return app

    async def start(self) -> None:
        """Listen on the configured host and port (the port chosen is logged)."""
        host, port = self.settings.web_host, self.settings.web_port or 0
        self._runner = web.AppRunner(self.app(), access_log_class=RedactingAccessLogger)
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        self.port = int(self._runner.addresses[0][1])
        log.info("web table on http://%s:%s", host, self.port)

    async def close(self) -> None:
        """Stop listening; open pages are told to reconnect (to the next process)."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
