"""What the Discord modules need from the bot, as protocols (the client implements them).

Components (`views`), handlers (`actions`) and the front depend on these protocols instead
of on the client class, so imports inside `bot/discord` go one way: the client imports
and wires everything, nothing imports the client.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Protocol

import discord

from bot.discord.cooldowns import Cooldowns
from bot.discord.decks import MemberDecks
from bot.discord.shutdown_gate import ShutdownGate
from bot.pictures.worker import PictureDrawer
from bot.process.settings import Settings
from bot.runtime import TableManager


class Controls(Protocol):
    """What the hand's buttons and menus do (implemented by `actions.Controls`)."""

    async def show_hand(
        self,
        interaction: discord.Interaction,
        table_id: int,
        sort: str,
        *,
        edit: bool,
        selected: list[str] | None = None,
        hint: bool = False,
        turn: int | None = None,
    ) -> None:
        """Answer with the clicker's hand (new ephemeral message, or `edit` the clicked one)."""
        ...

    async def set_autopass(
        self, interaction: discord.Interaction, table_id: int, sort: str, on: bool
    ) -> None:
        """Turn the clicker's auto-pass `on` or off and redraw their hand."""
        ...

    async def act_from_hand(
        self,
        interaction: discord.Interaction,
        table_id: int,
        turn: int,
        text: str,
        sort: str,
        *,
        spoken: str | None = None,
    ) -> None:
        """Play `text` for the clicker's seat, made for `turn`; redraw the hand after it (the
        confirmation says `spoken`, the move as chosen, when given)."""
        ...

    async def act_cards(
        self,
        interaction: discord.Interaction,
        table_id: int,
        turn: int,
        verb: str,
        cards: list[str],
        sort: str,
    ) -> None:
        """Play ``verb cards`` (draw's discards, the duel's lock) for the clicker's seat."""
        ...

    async def answer_challenge(
        self,
        interaction: discord.Interaction,
        accept: bool,
        challenger: int,
        challenged: int,
        expires: int,
    ) -> None:
        """Accept (a duel table is opened and dealt) or decline a `/duel challenge`."""
        ...

    async def ask_amount(
        self, interaction: discord.Interaction, table_id: int, turn: int, sort: str
    ) -> None:
        """Open the amount form of "Raise..." with the clicker's legal range."""
        ...

    async def act_amount(
        self,
        interaction: discord.Interaction,
        table_id: int,
        turn: int,
        verb: str,
        typed: str,
        sort: str,
    ) -> None:
        """Play ``verb typed`` from the amount form (a non-number is refused with the range)."""
        ...

    async def ask_rebuy(
        self, interaction: discord.Interaction, table_id: int, turn: int, seat: int
    ) -> None:
        """Show the broke `seat`'s owner the choice of caves (refusals answered privately)."""
        ...

    async def buy_caves(
        self, interaction: discord.Interaction, table_id: int, turn: int, seat: int, caves: str
    ) -> None:
        """Buy back in by `caves` caves for `seat`, made for `turn` (the clicker's seat only)."""
        ...


class WebDoors(Protocol):
    """What the ways into the web table do (implemented by `web_doors.WebDoors`)."""

    async def launch_activity(self, interaction: discord.Interaction, table_id: int) -> None:
        """Answer the board's "Open table" by launching the Activity (LAUNCH_ACTIVITY)."""
        ...

    async def open_in_browser(self, interaction: discord.Interaction, table_id: int) -> None:
        """Answer with a signed link to the clicker's seat at `table_id` (ephemeral)."""
        ...

    async def revoke_links(self, interaction: discord.Interaction, table_id: int) -> None:
        """Revoke every browser link the clicker was given."""
        ...


class Answers(Protocol):
    """What the front does through a member's own interaction (outside the global budget)."""

    async def answer_with_board(self, interaction: discord.Interaction, table_id: int) -> bool:
        """Answer a click on the table's current board with that board brought up to date
        (UPDATE_MESSAGE); whether it could."""
        ...

    def holding_board(
        self, interaction: discord.Interaction, table_id: int
    ) -> AbstractContextManager[None]:
        """Inside: a click on the table's board is acted on and answered with the board;
        the front's own edits of it wait."""
        ...

    def watch_hand(
        self,
        interaction: discord.Interaction,
        table_id: int,
        seat: int,
        sort: str,
        *,
        note: str = "",
        selected: tuple[str, ...] = (),
        image: str | None = None,
    ) -> None:
        """Keep the ephemeral hand `interaction` showed (or answered with) up to date
        through that interaction while its token lives; `image` is the file name of the
        picture it shows (None: unknown), kept by edits that would draw the same."""
        ...

    def hand_pictured(self, interaction: discord.Interaction, table_id: int) -> None:
        """The picture the hand `interaction` answered with went without (drawn too late)
        is ready: edit it in through that interaction, unless the member moved on since."""
        ...


class Host(Protocol):
    """The bot as handlers, components and the front see it."""

    @property
    def answers(self) -> Answers:
        """The front's answers through members' own interactions."""
        ...

    @property
    def tables(self) -> TableManager:
        """The runtime's tables."""
        ...

    @property
    def controls(self) -> Controls:
        """What components call on a click."""
        ...

    @property
    def doors(self) -> WebDoors:
        """What the Activity's and the browser links' buttons call."""
        ...

    @property
    def locales(self) -> dict[int, str]:
        """Discord user id -> the language of their last interaction (for DMs)."""
        ...

    @property
    def decks(self) -> MemberDecks:
        """The card deck each member chose for their private pictures."""
        ...

    @property
    def pictures(self) -> PictureDrawer:
        """What draws the pictures off the event loop (a worker process)."""
        ...

    @property
    def gate(self) -> ShutdownGate:
        """The door every interaction passes (shut while the bot shuts down)."""
        ...

    @property
    def cooldowns(self) -> Cooldowns:
        """Per-member cooldowns on costly commands and buttons."""
        ...

    def language(self, interaction: discord.Interaction) -> str:
        """The language to answer `interaction` in (remembered for the user's DMs)."""
        ...

    def guild_language(self, guild: discord.Guild | None) -> str:
        """A guild's language for public messages."""
        ...

    @property
    def settings(self) -> Settings:
        """The bot's settings (turn seconds of new tables...)."""
        ...
