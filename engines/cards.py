"""Cards shared by every game: one immutable `Card`, parsing, formatting, decks.

A card knows its rank and suit, nothing about any game's ordering: Big Two
ranks 3..2, poker ranks 2..A, the duel has "2 beats A". Each game brings its
own ordering key (see `engines.bigtwo`, `engines.poker`, `engines.duel`).

Cards are interned: there is exactly one object per (rank, suit), so equality
is identity, hashing is an int, and `Card(rank, suit)` never allocates.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Any


class Rank(IntEnum):
    """Card ranks. The integer value is an identity, not a game's order."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        """One-character form: 2..9, T, J, Q, K, A."""
        return _RANK_CHARS[self]

    @property
    def label(self) -> str:
        """Form people read: 2..10, J, Q, K, A."""
        return "10" if self is Rank.TEN else _RANK_CHARS[self]


class Suit(IntEnum):
    """Suits. The value is an identity; Big Two happens to order them D < C < H < S."""

    DIAMONDS = 0
    CLUBS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """One-letter form: D, C, H, S."""
        return "DCHS"[self]

    @property
    def symbol(self) -> str:
        """Suit symbol: ♦ ♣ ♥ ♠."""
        return "♦♣♥♠"[self]


_RANK_CHARS = {r: ("T" if r == 10 else "JQKA"[r - 11] if r > 10 else str(int(r))) for r in Rank}


class Card:
    """An immutable playing card. `str(card)` is the canonical form, e.g. ``"TS"``."""

    __slots__ = ("code", "mask", "rank", "suit")

    rank: Rank
    suit: Suit
    code: int
    mask: int
    """One bit per card (bit ``suit * 13 + rank - 2``): the duck-typed field the eval7 poker
    evaluator reads, so `eval7.evaluate` ranks our cards without converting them."""

    def __new__(cls, rank: Rank | int, suit: Suit | int) -> Card:
        """Return the one card with this rank and suit."""
        if not (2 <= rank <= 14 and 0 <= suit <= 3):
            raise ValueError(f"no card with rank {rank!r} and suit {suit!r}")
        return _CARDS[(int(rank) - 2) * 4 + int(suit)]

    @classmethod
    def _make(cls, rank: Rank, suit: Suit) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "code", (int(rank) - 2) * 4 + int(suit))
        object.__setattr__(card, "mask", 1 << (int(suit) * 13 + int(rank) - 2))
        return card

    @classmethod
    def from_code(cls, code: int) -> Card:
        """The card with index `code` in 0..51 (rank-major: 2D, 2C, 2H, 2S, 3D, ...)."""
        return _CARDS[code]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card, (int(self.rank), int(self.suit)))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        return self

    def __hash__(self) -> int:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self})"

    def __str__(self) -> str:
        return self.rank.char + self.suit.letter

    @property
    def pretty(self) -> str:
        """Form people read, with the suit symbol: ``"10♠"``."""
        return self.rank.label + self.suit.symbol


_CARDS: list[Card] = [Card._make(r, s) for r in Rank for s in Suit]

FULL_DECK: tuple[Card, ...] = tuple(_CARDS)
"""The 52 cards in canonical order (2D, 2C, 2H, 2S, 3D, ..., AS)."""


class CardParseError(ValueError):
    """Raised for text that is not a card; the message names the bad token."""

    def __init__(self, token: str, reason: str = "") -> None:
        self.token = token
        hint = (
            "write a rank (2-10, J, Q, K, A) and a suit (D, C, H, S or ♦ ♣ ♥ ♠), e.g. 10S, qh or ♠A"
        )
        super().__init__(f"{token!r} is not a card: {reason or hint}")


_RANK_WORDS = {
    **{str(n): Rank(n) for n in range(2, 11)},
    "T": Rank.TEN,
    "J": Rank.JACK,
    "Q": Rank.QUEEN,
    "K": Rank.KING,
    "A": Rank.ACE,
}
_SUIT_WORDS = {
    "D": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "C": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS,
    "H": Suit.HEARTS, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "S": Suit.SPADES, "♠": Suit.SPADES, "♤": Suit.SPADES,
}  # fmt: skip
_SUITS = "DCHS♦♢♣♧♥♡♠♤"
_TOKEN = re.compile(rf"^(?:(10|[2-9TJQKA])([{_SUITS}])|([{_SUITS}])(10|[2-9TJQKA]))$")
_SEPARATORS = re.compile(r"[\s,;]+")


def parse_card(text: str) -> Card:
    """Parse one card as people type it: ``3D``, ``10s``, ``TS``, ``qh``, ``3♦``, ``♠A``."""
    token = text.strip()
    match = _TOKEN.match(token.upper().replace("\ufe0f", ""))
    if match is None:
        raise CardParseError(token)
    rank_text, suit_text = (
        (match.group(1), match.group(2)) if match.group(1) else (match.group(4), match.group(3))
    )
    return Card(_RANK_WORDS[rank_text], _SUIT_WORDS[suit_text])


def parse_cards(text: str) -> list[Card]:
    """Parse cards separated by spaces or commas. Raises `CardParseError` on the first bad token."""
    return [parse_card(token) for token in _SEPARATORS.split(text.strip()) if token]


def format_cards(cards: Iterable[Card], *, pretty: bool = False) -> str:
    """Cards joined by spaces, canonical (``TS 3D``) or pretty (``10♠ 3♦``)."""
    return " ".join(card.pretty if pretty else str(card) for card in cards)


def new_deck(copies: int = 1) -> list[Card]:
    """An unshuffled deck of `copies` times the 52 cards."""
    return list(FULL_DECK) * copies


SEED_BYTES = 32
"""Length of a deal seed: 32 bytes (256 bits)."""


def shuffle_cards(seed: bytes, cards: Iterable[Card], label: bytes = b"") -> list[Card]:
    """The cards in the order `seed` gives them, top card first (see docs/fairness.md).

    The one shuffle recipe of every game, reproducible with nothing but SHA-256:

    1. put the cards in canonical order (by `Card.code`: 2D, 2C, 2H, 2S, 3D, ..., AS) and
       number equal cards in that order: `copy` is 0 for a card's first copy, 1 for its
       second (the duel's two decks), ...;
    2. each card's key is ``SHA-256(seed || label || copy as 1 byte || card text in ASCII)``,
       the card text being rank and suit as `str(card)` writes it (``"TS"``, ``"2D"``);
    3. sort by key, ascending (bytes compared as unsigned); the smallest key is the top card.

    Sorting by independent uniform keys gives every order the same chance. `label` tells
    apart shuffles of one seed: empty for the deal's deck, `reshuffle_label(n)` for its
    n-th reshuffle. `seed` must be `SEED_BYTES` long.
    """
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a deal seed is {SEED_BYTES} bytes, not {len(seed)}")
    keyed: list[tuple[bytes, int, Card]] = []
    copies: dict[Card, int] = {}
    for card in sorted(cards, key=_code):
        copy = copies.get(card, 0)
        copies[card] = copy + 1
        digest = hashlib.sha256(seed + label + bytes((copy,)) + str(card).encode("ascii"))
        keyed.append((digest.digest(), card.code, card))
    keyed.sort(key=lambda item: (item[0], item[1]))
    return [card for _, _, card in keyed]


def _code(card: Card) -> int:
    return card.code


def reshuffle_label(number: int) -> bytes:
    """The `shuffle_cards` label of a deal's `number`-th reshuffle (1, 2, ...): the byte
    ``R`` then `number` as 4 bytes, big-endian."""
    if not 1 <= number < 1 << 32:
        raise ValueError(f"reshuffle numbers start at 1, not {number}")
    return b"R" + number.to_bytes(4, "big")


def deck_order(seed: bytes, decks: int = 1) -> list[Card]:
    """The deck a deal with this seed deals from, top card first: `decks` times the 52 cards
    shuffled by `shuffle_cards` (empty label). Every game deals from this function."""
    if decks < 1:
        raise ValueError(f"a deck order needs at least one deck, not {decks}")
    return shuffle_cards(seed, new_deck(decks))


class Deck:
    """A stock of cards drawn from the top, in the order it was given: a deal's
    `deck_order` (or an explicit order in tests and replays). It never shuffles:
    `shuffle_cards` is the only shuffle."""

    __slots__ = ("_cards",)

    def __init__(self, cards: Iterable[Card] = ()) -> None:
        """A stock in exactly this order, first card on top."""
        self._cards = list(cards)[::-1]

    @classmethod
    def stacked(cls, cards: Iterable[Card]) -> Deck:
        """A stock in exactly this order, first card on top (the same as `Deck(cards)`)."""
        return cls(cards)

    def draw(self, n: int = 1) -> list[Card]:
        """Take `n` cards from the top."""
        if n > len(self._cards):
            raise ValueError(f"cannot draw {n} cards from a stock of {len(self._cards)}")
        drawn = self._cards[-n:] if n else []
        del self._cards[len(self._cards) - n :]
        return drawn[::-1]

    def draw_one(self) -> Card:
        """Take the top card."""
        return self._cards.pop()

    def __len__(self) -> int:
        return len(self._cards)

    def __iter__(self) -> Iterator[Card]:
        """Cards from the top down."""
        return reversed(self._cards)

    def cards(self) -> list[Card]:
        """The remaining cards, top first."""
        return self._cards[::-1]
