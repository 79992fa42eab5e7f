"""Each member's card deck for the pictures they get privately (their hand, in the DM and
the "My hand" answer): two colours (the default) or four, chosen with `/deck`, remembered
in the database (`Storage.member_pref`, migration 008) and read once per member and process.
Public pictures (boards, results) always use the default deck."""

from __future__ import annotations

from collections.abc import Callable

from bot.pictures.cards import DECKS
from storage.base import Storage

DEFAULT_DECK = DECKS[0]
PREF = "deck"


class MemberDecks:
    """The decks members chose, read through to the storage once per member."""

    def __init__(self, storage: Callable[[], Storage]) -> None:
        """Decks kept in `storage()` (called when first needed: the bot opens it later)."""
        self._storage = storage
        self._known: dict[int, str] = {}

    async def of(self, user: int) -> str:
        """The deck `user` chose (the default if they never chose)."""
        deck = self._known.get(user)
        if deck is None:
            stored = await self._storage().member_pref(str(user), PREF)
            deck = self._known[user] = stored if stored in DECKS else DEFAULT_DECK
        return deck

    async def choose(self, user: int, deck: str) -> None:
        """Remember that `user` chose `deck` (one of `DECKS`), durably before returning."""
        if deck not in DECKS:
            raise ValueError(f"unknown deck {deck!r}")
        await self._storage().set_member_pref(str(user), PREF, deck)
        self._known[user] = deck
