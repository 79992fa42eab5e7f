"""Big Two combinations: card keys, `classify`, `Combo.beats`, `penalty` and move generation.

Inside this module a card is its Big Two key ``rank * 4 + suit`` in 0..51, with
ranks 3 4 5 6 7 8 9 10 J Q K A 2 as 0..12 and suits ♦ ♣ ♥ ♠ as 0..3, so 3♦ is
0 and 2♠ is 51. A set of cards is a bitmask of those keys (bit k = key k):
"same rank" is one 4-bit nibble, and comparing keys compares cards.

Every legal combination has a `power`: a higher power beats a lower one of the
same size. Five-card hands put their category in the high bits, so any
straight flush beats any four of a kind, and so on.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from itertools import combinations, product
from typing import Final

from engines.cards import Card, Rank, Suit

RANK_ORDER: Final = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2)
"""Big Two rank order, low to high, as `Rank` values (2 is the highest)."""


def bt_key(card: Card) -> int:
    """The Big Two key of `card`: rank index (3 = 0 ... 2 = 12) * 4 + suit (♦ ♣ ♥ ♠ = 0..3)."""
    return _KEY_OF_CODE[card.code]


_KEY_OF_CODE: Final = [
    ((int(c.rank) - 3) % 13) * 4 + int(c.suit) for c in map(Card.from_code, range(52))
]
CARD_OF_KEY: Final[tuple[Card, ...]] = tuple(
    Card(Rank(RANK_ORDER[k >> 2]), Suit(k & 3)) for k in range(52)
)
"""Key -> card."""
BIT_OF_CARD: Final[dict[Card, int]] = {card: 1 << _KEY_OF_CODE[card.code] for card in CARD_OF_KEY}
"""Card -> its one-bit mask."""
THREE_OF_DIAMONDS: Final = CARD_OF_KEY[0]
"""3♦, which opens every deal."""
ALL_CARDS: Final = (1 << 52) - 1

SINGLE, PAIR, TRIPLE = "single", "pair", "triple"
STRAIGHT, FLUSH, FULL_HOUSE = "straight", "flush", "full_house"
FOUR_OF_A_KIND, STRAIGHT_FLUSH = "four_of_a_kind", "straight_flush"
FIVE_CATEGORIES: Final = (STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH)
"""Five-card categories, low to high."""
_CATEGORY_SHIFT: Final = 16

# Straights as rank-index sets, lowest first: A-2-3-4-5, 2-3-4-5-6, 3-4-5-6-7 ... 10-J-Q-K-A.
# The top card of straight i has rank index i + 2 (5 for A-2-3-4-5, 6 for 2-3-4-5-6, ...).
STRAIGHT_RANKS: Final[tuple[tuple[int, ...], ...]] = (
    (11, 12, 0, 1, 2),
    (12, 0, 1, 2, 3),
    *(tuple(range(low, low + 5)) for low in range(0, 8)),
)
_STRAIGHT_TOP: Final[dict[int, int]] = {
    sum(1 << r for r in ranks): i + 2 for i, ranks in enumerate(STRAIGHT_RANKS)
}
_NIBBLE = 0xF
_SUIT_MASK: Final = tuple(sum(1 << (r * 4 + s) for r in range(13)) for s in range(4))


def _cards_of_chunk(chunk: int, base: int) -> tuple[Card, ...]:
    cards = []
    while chunk:
        low = chunk & -chunk
        cards.append(CARD_OF_KEY[base + low.bit_length() - 1])
        chunk ^= low
    return tuple(cards)


# Cards of each 13-bit chunk of a mask, filled on first use: four lookups per mask.
_CHUNKS: Final[tuple[dict[int, tuple[Card, ...]], ...]] = ({}, {}, {}, {})
_CHUNK = 0x1FFF


def cards_of_mask(mask: int) -> tuple[Card, ...]:
    """The cards of a bitmask, lowest first."""
    out: tuple[Card, ...] = ()
    for i, table in enumerate(_CHUNKS):
        chunk = mask >> (13 * i) & _CHUNK
        if chunk:
            cards = table.get(chunk)
            if cards is None:
                cards = table[chunk] = _cards_of_chunk(chunk, 13 * i)
            out += cards
    return out


_BIT_OF_CODE: Final = [1 << k for k in _KEY_OF_CODE]


def mask_of_cards(cards: Iterable[Card]) -> int:
    """The bitmask of `cards` (duplicates collapse: compare popcount with the count to spot
    them)."""
    mask = 0
    bits = _BIT_OF_CODE
    for card in cards:
        mask |= bits[card.code]
    return mask


def keys_of_mask(mask: int) -> list[int]:
    """The keys of a bitmask, lowest first."""
    keys = []
    while mask:
        low = mask & -mask
        keys.append(low.bit_length() - 1)
        mask ^= low
    return keys


@dataclasses.dataclass(frozen=True, slots=True)
class Combo:
    """A legal Big Two combination: its cards (lowest first), kind and power."""

    kind: str
    """single, pair, triple, straight, flush, full_house, four_of_a_kind or straight_flush."""
    size: int
    power: int
    """Higher beats lower among combinations of the same size."""
    mask: int
    """The cards as a bitmask of Big Two keys."""

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards, lowest first (Big Two order)."""
        return cards_of_mask(self.mask)

    def beats(self, other: Combo) -> bool:
        """True when this combination may be played on `other`: same number of cards, higher."""
        return self.size == other.size and self.power > other.power

    def __str__(self) -> str:
        return " ".join(str(card) for card in self.cards)


def _classify_mask(mask: int) -> Combo | None:
    size = mask.bit_count()
    keys = keys_of_mask(mask)
    if size == 1:
        return Combo(SINGLE, 1, keys[0], mask)
    ranks = [k >> 2 for k in keys]
    if size in (2, 3):
        if ranks[0] != ranks[-1]:
            return None
        if size == 2:
            return Combo(PAIR, 2, keys[-1], mask)
        return Combo(TRIPLE, 3, ranks[0], mask)
    if size != 5:
        return None
    rank_set = 0
    for r in ranks:
        rank_set |= 1 << r
    flush = all(k & 3 == keys[0] & 3 for k in keys)
    top = _STRAIGHT_TOP.get(rank_set)
    if top is not None:
        top_key = next(k for k in keys if k >> 2 == top)
        category = 4 if flush else 0
        return Combo(FIVE_CATEGORIES[category], 5, (category << _CATEGORY_SHIFT) | top_key, mask)
    if flush:
        return Combo(FLUSH, 5, (1 << _CATEGORY_SHIFT) | (keys[0] & 3) << 13 | rank_set, mask)
    counts = sorted((ranks.count(r), r) for r in set(ranks))
    if [c for c, _ in counts] == [2, 3]:
        return Combo(FULL_HOUSE, 5, (2 << _CATEGORY_SHIFT) | counts[1][1], mask)
    if [c for c, _ in counts] == [1, 4]:
        return Combo(FOUR_OF_A_KIND, 5, (3 << _CATEGORY_SHIFT) | counts[1][1], mask)
    return None


_CACHE: dict[int, Combo | None] = {}


def classify_mask(mask: int) -> Combo | None:
    """The combination formed by the cards of `mask`, or None when it is not a legal one."""
    try:
        return _CACHE[mask]
    except KeyError:
        combo = _CACHE[mask] = _classify_mask(mask)
        return combo


def classify(cards: Iterable[Card]) -> Combo | None:
    """The Big Two combination these cards form, or None for an illegal set.

    Legal: a single, a pair, a triple (same rank), or a five-card straight,
    flush, full house, four of a kind with one kicker, straight flush. Repeated
    cards, four cards, two pair and anything else give None.
    """
    cards = list(cards)
    mask = mask_of_cards(cards)
    if mask.bit_count() != len(cards):
        return None
    return classify_mask(mask)


def penalty(cards_left: int) -> int:
    """The penalty for cards left at the end of a deal: 1 each for 1-9, 2 each for 10-12, 39
    for 13."""
    if not isinstance(cards_left, int) or not 0 <= cards_left <= 13:
        raise ValueError(f"a Big Two hand holds 0 to 13 cards, not {cards_left!r}")
    if cards_left == 13:
        return 39
    return cards_left * 2 if cards_left >= 10 else cards_left


def _submasks(nibble: int, size: int) -> tuple[int, ...]:
    bits = [1 << s for s in range(4) if nibble >> s & 1]
    return tuple(sum(c) for c in combinations(bits, size))


_NIBBLE_SUBSETS: Final = tuple(tuple(_submasks(n, size) for size in range(5)) for n in range(16))


def singles(hand: int) -> list[int]:
    """Every single in `hand`, lowest first, as masks."""
    out: list[int] = []
    while hand:
        low = hand & -hand
        out.append(low)
        hand ^= low
    return out


def same_rank_sets(hand: int, size: int) -> list[int]:
    """Every pair (size 2) or triple (3) in `hand`, lowest power first, as masks."""
    out: list[int] = []
    for r in range(13):
        nibble = hand >> (r * 4) & _NIBBLE
        if nibble.bit_count() >= size:
            shift = r * 4
            out.extend(sub << shift for sub in _NIBBLE_SUBSETS[nibble][size])
    if size == 2:
        out.sort()  # a pair's power is its highest card, which the mask order respects
    return out


def five_card_sets(hand: int) -> list[int]:
    """Every legal five-card hand in `hand`, as masks (not sorted)."""
    if hand.bit_count() < 5:
        return []
    nibbles = [hand >> (r * 4) & _NIBBLE for r in range(13)]
    found: set[int] = set()
    for ranks in STRAIGHT_RANKS:
        if all(nibbles[r] for r in ranks):
            choices = [[bit << (r * 4) for bit in _NIBBLE_SUBSETS[nibbles[r]][1]] for r in ranks]
            found.update(sum(p) for p in product(*choices))
    for suit_mask in _SUIT_MASK:
        suited = hand & suit_mask
        if suited.bit_count() >= 5:
            found.update(sum(c) for c in combinations(singles(suited), 5))
    triple_ranks = [r for r in range(13) if nibbles[r].bit_count() >= 3]
    if triple_ranks:
        pairs = same_rank_sets(hand, 2)
        for r in triple_ranks:
            for trip in _NIBBLE_SUBSETS[nibbles[r]][3]:
                trip <<= r * 4
                found.update(trip | p for p in pairs if (p >> (r * 4)) & _NIBBLE == 0)
            if nibbles[r] == _NIBBLE:
                quad = _NIBBLE << (r * 4)
                found.update(quad | k for k in singles(hand & ~quad))
    return list(found)


_SIZED: dict[tuple[int, int], list[Combo]] = {}


def combos_of_size(hand: int, size: int) -> list[Combo]:
    """Every legal combination of `size` cards in `hand`, lowest power first.

    Results are cached per (hand, size) in a bounded cache: a player who passes
    keeps the same hand and is asked again on the next trick."""
    key = (hand, size)
    combos = _SIZED.get(key)
    if combos is not None:
        return combos
    if size == 1:
        masks = singles(hand)
    elif size in (2, 3):
        masks = same_rank_sets(hand, size)
    elif size == 5:
        masks = five_card_sets(hand)
    else:
        return []
    combos = [c for c in map(classify_mask, masks) if c is not None]
    if size == 5:
        combos.sort(key=_power_then_mask)
    if len(_SIZED) >= 50_000:
        _SIZED.clear()
    _SIZED[key] = combos
    return combos


def all_combos(hand: int) -> list[Combo]:
    """Every legal combination in `hand`: singles, pairs, triples, then five-card hands."""
    return [c for size in (1, 2, 3, 5) for c in combos_of_size(hand, size)]


def _power_then_mask(combo: Combo) -> tuple[int, int]:
    return (combo.power, combo.mask)
