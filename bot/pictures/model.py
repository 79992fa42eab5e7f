"""What every picture is made of: the table facts besides the view (`Facts`), a finished
picture (`Picture`: PNG bytes, alt text, a file name that changes with the picture), and
the words pictures use."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import t
from bot.pictures.fonts import drawable
from engines.base import DealSettled, Event
from engines.cards import Card

ALT_LIMIT = 1024
"""Discord's limit on an attachment's description (its alt text)."""


@dataclass(frozen=True, slots=True)
class Facts:
    """The table facts a picture shows besides the view: the names in seat order, which
    seats are away (the AI plays for them), and the seconds the seat to act has left
    (None: no clock). The same facts the board's text shows."""

    names: tuple[str, ...]
    away: tuple[bool, ...] = ()
    seconds: int | None = None

    def name(self, seat: int) -> str:
        """The name of `seat` (``#n`` past the known names), without the characters the
        pictures' font cannot draw (emoji)."""
        name = self.names[seat] if 0 <= seat < len(self.names) else ""
        return drawable(name) or f"#{seat + 1}"

    def is_away(self, seat: int) -> bool:
        """Whether `seat`'s owner is away (the AI plays for them)."""
        return 0 <= seat < len(self.away) and self.away[seat]


@dataclass(frozen=True, slots=True)
class Picture:
    """A drawn picture: PNG bytes, its alt text (the same facts in words, every card face it
    shows named), the faces it shows (in order, drawn or written), its size in pixels."""

    png: bytes
    alt: str
    faces: tuple[Card, ...]
    width: int
    height: int
    kind: str = "table"

    @property
    def name(self) -> str:
        """A file name that changes whenever the picture does (an edit keeps an unchanged
        picture by its name)."""
        digest = hashlib.blake2b(self.png, digest_size=6).hexdigest()
        return f"{self.kind}-{digest}.png"


def settled_deal(events: Sequence[Event], shown: int) -> int:
    """The number of the deal a result shows: its committed `DealSettled`'s, never a view's
    (a front delivering several deals behind may no longer hold the deal's view); `shown`
    (the view's number) only when the events hold no settlement."""
    return next((e.deal for e in events if isinstance(e, DealSettled)), shown)


def cards_text(cards: Sequence[Card | None]) -> str:
    """Cards in words for alt text: faces with their suit symbol, backs as "?"."""
    return " ".join("?" if card is None else card.pretty for card in cards)


def pot_text(label: str, amount: int) -> str:
    """A pot as pictures and alt texts write it: "Pot: 1,200", "Side pot 1: 400"."""
    return f"{label}: {amount:,}"


def fit_alt(parts: Sequence[str]) -> str:
    """Join alt text `parts` (most important first) within Discord's limit: whole parts
    are kept while they fit, the rest is cut."""
    text = ""
    for part in parts:
        joined = f"{text} {part}" if text else part
        if len(joined) > ALT_LIMIT:
            room = ALT_LIMIT - len(text) - 2
            if room > 20:
                text = f"{text} {part[:room]}…"
            break
        text = joined
    return text


def to_act_words(seconds: int | None, lang: str) -> str:
    """The alt text's "to act" of the seat whose turn it is, with its seconds left if any."""
    if seconds is None:
        return word("alt.to_act", lang)
    return word("alt.to_act_clock", lang, n=seconds)


def word(key: str, lang: str, **params: object) -> str:
    """A word of the pictures' catalog area (``pictures.<key>``) in `lang`."""
    return t(f"pictures.{key}", lang, **params)
