"""Members' ephemeral hands kept up to date through their own interactions.

A member's hand (the ephemeral answer to "My hand", or the hand they acted from) carries
controls made for one turn. When the table moves on without them (the others play), the
hand they are looking at is edited through the interaction that showed
it (`PATCH /webhooks/{app}/{token}/messages/@original`): outside the global request
budget, seen only by them. It is edited when it becomes their turn (keeping the cards
chosen in its menu; its note, such as "✅ Done: call.", only while the edit shows the turn
the note answers: a confirmation never heads a later decision or deal); each edit shows
the seat's committed view at that moment (the newest one wins when several are
waiting), only while the interaction's token lives (15 minutes from the interaction, less
a margin), and never again once Discord refuses the token (expired, or the message
dismissed), nor after any later interaction of theirs (the answer to it is what they see;
a handler showing a hand watches it again). Only the member's own seat, only an
interaction whose original response *is* that ephemeral hand: a "My hand" answer (callback
type 4, ephemeral), or an update of the ephemeral hand clicked (types 6 and 7); never an
interaction on the board (its original response is the public board).

A hand answered without its picture (drawn later than `bot.discord.board.HAND_PICTURE_WAIT`)
gets it the same way once it is drawn (`pictured`), unless the member interacted since.

Nothing here is a delivery of the log (DMs and boards are): a hand not edited in time is
only a hand whose controls answer "the table moved on" and redraw it.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import discord

from bot.discord.board import draw_hand_ahead, hand_message
from bot.discord.host import Host
from bot.discord.replies import redraw_answer_privately
from bot.discord.textlimits import fit_message
from bot.discord.tokens import LIFETIME
from bot.pictures.worker import PictureDrawer
from bot.runtime import TableSnapshot

log = logging.getLogger("deucebot.discord")

MARGIN = timedelta(seconds=10)
"""A hand is not edited through a token with less than this to live."""
ORIGINAL_IS_HAND = frozenset(
    {
        discord.InteractionResponseType.message_update,
        discord.InteractionResponseType.deferred_message_update,
    }
)
"""Answers to a click on the ephemeral hand after which the original response is it."""


@dataclass
class _Watched:
    """One member's hand at one table, shown by `interaction`."""

    interaction: discord.Interaction
    seat: int
    sort: str
    lang: str
    turn: int
    expires: datetime
    note: str = ""
    """The note the hand showed (what the member's last move did): kept on the edits that
    show the turn it answers (`note_at`), dropped on the first that shows a later one."""
    note_at: tuple[int | None, int, int] = (None, 0, 0)
    """The match, deal and turn of the hand the note was shown with."""
    selected: tuple[str, ...] = ()
    """The cards chosen in its menu: kept on the edits."""
    image: str | None = None
    """The picture's file name the hand shows (None: unknown, upload it)."""
    pending: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None


class LiveHands:
    """Members' ephemeral hands, edited through their own interactions as the table moves."""

    def __init__(self, host: Host, pictures: PictureDrawer | None = None) -> None:
        """Hands of the tables of `host` (its tables, languages and decks), their pictures
        drawn by `pictures` (None: in threads)."""
        self.host = host
        self.pictures = pictures
        self._watched: dict[tuple[int, int], _Watched] = {}
        self._tables_of: dict[int, set[int]] = {}
        """Member id -> the tables where a hand of theirs is watched (an index of `_watched`:
        every interaction and every commit looks hands up, at any number of tables)."""
        self._members_at: dict[int, set[int]] = {}
        """Table id -> the members whose hand there is watched."""
        self.edits = 0
        """Hands edited through members' interactions (for the benchmark and tests)."""

    def watch(
        self,
        interaction: discord.Interaction,
        table: TableSnapshot,
        seat: int,
        sort: str,
        *,
        note: str = "",
        selected: tuple[str, ...] = (),
        image: str | None = None,
    ) -> None:
        """Keep the hand `interaction` answered with (seat `seat` at `table`, showing `note`
        and the cards `selected`, and the picture named `image`: None when unknown) up to
        date; no-op unless the interaction's original response is that ephemeral hand."""
        kind = interaction.response.type
        clicked = interaction.message
        own = kind is discord.InteractionResponseType.channel_message or (
            kind in ORIGINAL_IS_HAND and clicked is not None and clicked.flags.ephemeral
        )
        if not own or interaction.guild_id is None:
            return
        key = (table.id, interaction.user.id)
        old = self._watched.pop(key, None)
        if old is not None and old.task is not None:
            old.task.cancel()
        self._tables_of.setdefault(interaction.user.id, set()).add(table.id)
        self._members_at.setdefault(table.id, set()).add(interaction.user.id)
        self._watched[key] = _Watched(
            interaction,
            seat,
            sort,
            self.host.language(interaction),
            table.turn,
            interaction.created_at + LIFETIME - MARGIN,
            note,
            (table.match, table.deal, table.turn),
            selected,
            image,
        )

    def touched(self, interaction: discord.Interaction) -> None:
        """A member interacts: their hands are no longer edited from here (the answer to
        this interaction is what they see; a handler showing a hand watches it again)."""
        user = interaction.user.id
        for table_id in list(self._tables_of.get(user, ())):
            self._forget(table_id, user)

    def moved(self, table: TableSnapshot) -> None:
        """`table` committed a new turn: edit the hands of the members now to act."""
        table_id = table.id
        for user in list(self._members_at.get(table_id, ())):
            watched = self._watched[(table_id, user)]
            if discord.utils.utcnow() >= watched.expires or table.match is None:
                self._forget(table_id, user)
                continue
            if table.turn == watched.turn:
                continue
            if table.to_act != watched.seat or table.status != "playing":
                continue
            self._edit_soon(table_id, user, watched)

    def _edit_soon(self, table_id: int, user: int, watched: _Watched) -> None:
        """Edit `watched` with the seat's newest committed view (one edit in flight)."""
        watched.pending.set()
        if watched.task is None or watched.task.done():
            watched.task = asyncio.get_running_loop().create_task(
                self._keep(table_id, user, watched)
            )

    def pictured(self, interaction: discord.Interaction, table_id: int) -> None:
        """The picture the hand `interaction` answered with went without is drawn: edit
        the hand (with it) if that answer is still the member's watched hand there."""
        watched = self._watched.get((table_id, interaction.user.id))
        if watched is None or watched.interaction is not interaction:
            return  # the member interacted since: what they see now has its own picture
        if discord.utils.utcnow() >= watched.expires:
            self._forget(table_id, interaction.user.id)
            return
        self._edit_soon(table_id, interaction.user.id, watched)

    def watched(self) -> int:
        """How many hands are followed now."""
        return len(self._watched)

    def drop_table(self, table_id: int) -> None:
        """Follow no hand at table `table_id` any more (it stopped)."""
        for user in list(self._members_at.get(table_id, ())):
            self._forget(table_id, user)

    def close(self) -> None:
        """Stop every edit (shutdown)."""
        for watched in self._watched.values():
            if watched.task is not None:
                watched.task.cancel()
        self._watched.clear()
        self._tables_of.clear()
        self._members_at.clear()

    def _forget(self, table_id: int, user: int) -> None:
        watched = self._watched.pop((table_id, user), None)
        for index, key, item in (
            (self._tables_of, user, table_id),
            (self._members_at, table_id, user),
        ):
            found = index.get(key)
            if found is not None:
                found.discard(item)
                if not found:
                    del index[key]
        if (
            watched is not None
            and watched.task is not None
            and watched.task is not asyncio.current_task()
        ):
            watched.task.cancel()

    async def _keep(self, table_id: int, user: int, watched: _Watched) -> None:
        """Edit the hand while changes wait (one edit in flight, the newest view each time)."""
        while watched.pending.is_set():
            watched.pending.clear()
            live = self.host.tables.by_id(table_id)
            if live is None:
                self._forget(table_id, user)
                return
            shown = await live.committed(watched.seat)
            if shown.seat_of(str(user)) != watched.seat or shown.view(watched.seat) is None:
                self._forget(table_id, user)
                return
            try:
                await self._edit(watched, shown, user)
            except discord.HTTPException as error:
                log.info("hand of %s at table %s not kept up (%s)", user, table_id, error.status)
                self._forget(table_id, user)
                return
            watched.turn = shown.turn

    async def _edit(self, watched: _Watched, shown: TableSnapshot, user: int) -> None:
        if (shown.match, shown.deal, shown.turn) != watched.note_at:
            watched.note = ""  # it answered an earlier turn: this one asks anew
        deck = await self.host.decks.of(user)
        await draw_hand_ahead(shown, watched.seat, watched.lang, watched.sort, deck, self.pictures)
        message = hand_message(
            shown,
            watched.seat,
            watched.lang,
            watched.sort,
            selected=watched.selected,
            note=watched.note,
            deck=deck,
        )
        kwargs: dict[str, Any] = {
            k: v for k, v in message.items() if k in ("content", "embed", "view")
        }
        kwargs["content"] = kwargs.get("content") or None
        name = message.get("image_name")
        if name != watched.image:
            file = message.get("file")
            kwargs["attachments"] = [file] if file is not None else []
        await redraw_answer_privately(watched.interaction, **fit_message(kwargs))
        watched.image = name
        self.edits += 1
