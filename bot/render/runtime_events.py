"""How the runtime's own events read (joins, leaves, away, back, timeouts, a match's start,
a stop, a mid-match reveal of seeds): one function for every front.

Each front words them with its own catalog keys and names (`RuntimeWording`): the terminal
addresses you in the second person and names nobody's seat; a Discord channel is public,
so a member-chosen name is made safe there and a timed-out move never names hidden cards.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bot.i18n import t
from bot.render import GameRenderer
from bot.render.fair import fair_line
from bot.render.text import move_cards
from bot.render.words import say_move
from bot.runtime import (
    MatchStarted,
    PlayerJoined,
    PlayerLeft,
    SeatAway,
    SeatBack,
    SeedsRevealed,
    TableStopped,
    TurnTimedOut,
)
from engines.base import Event

SeatName = Callable[[Sequence[str], int, str], str]
"""The name a join, leave, away or back line gives: from the seats' names, the event's
seat and the name the event carries."""


@dataclass(frozen=True)
class RuntimeWording:
    """How one front words the runtime's events."""

    keys: Mapping[str, str]
    """Event kind (`Event.kind`) -> the catalog key of its line; a kind not here has none."""
    seat_name: SeatName
    """The name of the member a seat event is about."""
    public: bool
    """A public channel: a timed-out move never names cards (but in a game whose moves are
    cards played face up), and a mid-match reveal of the seeds is a line of its own."""


def seat_label(names: Sequence[str], seat: int) -> str:
    """The seat's name, or `#n` for a seat the names do not cover."""
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def timed_out_move(text: str, renderer: GameRenderer | None, lang: str, *, public: bool) -> str:
    """The move played for a seat that timed out, in the reader's words (cards as hands
    show them), not its code. In public, its cards are named only in a game whose moves
    are cards played face up (Big Two); elsewhere a move's cards are hidden ones (the
    duel's locked card, draw's discards): the verb alone."""
    if renderer is None:
        return text
    if public and not renderer.plays_cards:
        text = " ".join(word for word in text.split() if not move_cards(word))
    return say_move(text, renderer.move_areas, lang)


def runtime_line(
    event: Event,
    names: Sequence[str],
    lang: str,
    renderer: GameRenderer | None,
    wording: RuntimeWording,
) -> str | None:
    """The line of one of the runtime's own events as `wording` says it, or None (an event
    of the game, or one this front says nothing of)."""
    if isinstance(event, SeedsRevealed):  # a match stopped or restarted mid-way
        return fair_line(event, lang) if wording.public else None
    key = wording.keys.get(event.kind)
    if key is None:
        return None
    if isinstance(event, PlayerJoined | PlayerLeft | SeatAway | SeatBack):
        name = wording.seat_name(names, event.seat, event.name)
        return t(key, lang, name=name, seat=event.seat + 1)
    if isinstance(event, TurnTimedOut):
        action = timed_out_move(event.action, renderer, lang, public=wording.public)
        name = seat_label(names, event.seat)
        return t(key, lang, name=name, seat=event.seat + 1, action=action)
    if isinstance(event, MatchStarted):
        return t(key, lang, number=event.number)
    if isinstance(event, TableStopped):
        return t(key, lang)
    return None
