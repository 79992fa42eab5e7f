"""`ChannelServices`: what a `TableChannel` uses of the front that holds it (its
collaborators and settings), so that the channel does not import the front."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from bot.charts.match import MatchSummaries
from bot.discord.delivery_hooks import DeliveryHooks
from bot.discord.direct_messages import DirectMessages
from bot.discord.loop_pressure import LoopPressure
from bot.discord.recovery import Recovery
from bot.discord.tokens import InteractionTokens
from bot.discord.transport import Transport
from bot.pictures.worker import PictureDrawer
from bot.runtime import TableSnapshot
from storage.deliveries import Deliveries


class ChannelServices(Protocol):
    """The front's side of a table's channel (`DiscordFront` is one)."""

    transport: Transport
    recovery: Recovery
    dms: DirectMessages
    tokens: InteractionTokens
    pressure: LoopPressure
    hooks: DeliveryHooks
    deliveries: Deliveries | None
    summaries: MatchSummaries
    pictures: PictureDrawer | None
    edit_interval: float
    pause_retry: float
    answer_updates: int
    delivered_sink: Callable[[float], None] | None

    def language(self, table: TableSnapshot) -> str:
        """The table's language for public messages."""
        ...

    def let_go(self, table_id: int, channel: object) -> None:
        """The stopped table's `channel` delivered its last effect: let go of it."""
        ...
