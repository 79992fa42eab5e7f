"""Bitmask Big Two for the AI: the greedy move and fast greedy play-outs.

Hands are bitmasks of Big Two keys (see `engines.bigtwo_combos`). This is not
the engine: it knows just enough rules to play out a deal between greedy
players quickly, for the `strong` player's search.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Final

from engines.bigtwo_combos import (
    STRAIGHT_RANKS,
    Combo,
    classify_mask,
    combos_of_size,
    penalty,
)


def greedy_move(hand: int, table: Combo | None) -> int:
    """The greedy choice as a mask (0 = pass).

    On a table: the lowest combination of the same size that beats it. Leading:
    the lowest card, in the largest combination that contains it (five cards,
    then triple, pair, single), the lowest such combination."""
    if table is None:
        low = hand & -hand
        if hand.bit_count() >= 5:
            five = lowest_five_with(hand, low)
            if five:
                return five
        rank_shift = ((low.bit_length() - 1) >> 2) * 4
        nibble = hand >> rank_shift & 0xF
        # `low` is the lowest card of its rank: the lowest triple (pair) of the rank holds it.
        if nibble.bit_count() >= 3:
            return _TRIPLES_OF_NIBBLE[nibble][0] << rank_shift
        if nibble.bit_count() == 2:
            return hand & (0xF << rank_shift)
        return low
    power = table.power
    size = table.size
    if size == 1:
        above = hand >> (power + 1)
        return (above & -above) << (power + 1)
    if size == 5:
        return lowest_five_beating(hand, power)
    if size == 2:
        # A pair's power is the key of its higher card: start at the table's rank.
        for r in range(power >> 2, 13):
            nibble = hand >> (r * 4) & 0xF
            if nibble.bit_count() >= 2:
                for sub in _PAIRS_OF_NIBBLE[nibble]:
                    mask = sub << (r * 4)
                    if mask.bit_length() - 1 > power:
                        return mask
        return 0
    for r in range(power + 1, 13):  # a triple's power is its rank
        nibble = hand >> (r * 4) & 0xF
        if nibble.bit_count() >= 3:
            return _TRIPLES_OF_NIBBLE[nibble][0] << (r * 4)
    return 0


def _subsets(nibble: int, size: int) -> tuple[int, ...]:
    return tuple(
        sorted(sum(c) for c in combinations([b for b in (1, 2, 4, 8) if nibble & b], size))
    )


_PAIRS_OF_NIBBLE = tuple(_subsets(n, 2) for n in range(16))
_TRIPLES_OF_NIBBLE = tuple(_subsets(n, 3) for n in range(16))


_SUIT_MASKS = tuple(sum(1 << (r * 4 + s) for r in range(13)) for s in range(4))
_SUIT_OF_BIT = {1: 0, 2: 1, 4: 2, 8: 3}

# Rank sets as bitmasks with one bit per rank at the rank's nibble (bit 4r for rank r): the
# shape `_ranks(hand)` gives, so the tests below are a few integer operations per hand.
_LOW_BITS: Final = sum(1 << (4 * r) for r in range(13))
_RUN_STARTS: Final = sum(1 << (4 * i) for i in range(len(STRAIGHT_RANKS)))
_STRAIGHT_SPAN: Final = tuple(sum(0xF << (4 * x) for x in ranks) for ranks in STRAIGHT_RANKS)
"""Every card of the ranks of straight i."""
_STRAIGHT_OTHERS: Final = tuple(
    tuple(sorted(x for x in ranks if x != i + 2)) for i, ranks in enumerate(STRAIGHT_RANKS)
)
"""The ranks of straight i but its top one (rank i + 2), lowest first."""
_STRAIGHTS_WITH_RANK: Final = tuple(
    sum(1 << (4 * i) for i, ranks in enumerate(STRAIGHT_RANKS) if r in ranks) for r in range(13)
)
_STRAIGHT_FLUSH_OF: Final = tuple(sum(1 << (4 * x) for x in ranks) for ranks in STRAIGHT_RANKS)
"""Straight i in diamonds; shift left by the suit for the others."""


def _ranks(hand: int) -> int:
    """Bit 4r set when `hand` holds a card of rank r."""
    return (hand | hand >> 1 | hand >> 2 | hand >> 3) & _LOW_BITS


def _straights(ranks: int) -> int:
    """Bit 4i set when the rank set `ranks` (as `_ranks` gives it) covers straight i.

    Ranks move up two places, A and 2 wrap below 3: straight i then starts at place i."""
    ext = ranks << 8 | ranks >> 44
    return ext & ext >> 4 & ext >> 8 & ext >> 12 & ext >> 16 & _RUN_STARTS


def _at_least(hand: int, count: int) -> int:
    """Bit 4r set when `hand` holds at least `count` (2, 3 or 4) cards of rank r."""
    a = hand & _LOW_BITS
    b = hand >> 1 & _LOW_BITS
    c = hand >> 2 & _LOW_BITS
    d = hand >> 3 & _LOW_BITS
    if count == 2:
        return a & (b | c | d) | b & (c | d) | c & d
    if count == 3:
        return a & b & (c | d) | c & d & (a | b)
    return a & b & c & d


def _plain_straight(avail: int, i: int) -> int:
    """The lowest straight i (power, then mask) of the cards in `avail` that is not a straight
    flush, or 0. `avail` holds at least one card of each rank of the straight."""
    top_shift = (i + 2) * 4
    tops = avail >> top_shift & 0xF
    others = _STRAIGHT_ORDERED_SHIFTS[i]
    rest = 0
    for shift in others:
        nibble = avail >> shift & 0xF
        rest |= (nibble & -nibble) << shift
    while tops:
        top = tops & -tops
        pick = rest | top << top_shift
        if pick & ~_SUIT_MASKS[_SUIT_OF_BIT[top]]:
            return pick
        # All one suit: the next card of the lowest other rank that has one gives the
        # lowest mask with this top card; without one, try the next top card.
        for shift in others:
            nibble = avail >> shift & 0xF
            if nibble & (nibble - 1):
                lowest = nibble & -nibble
                second = nibble ^ lowest
                return pick ^ (lowest << shift) | (second & -second) << shift
        tops ^= top
    return 0


_STRAIGHT_ORDERED_SHIFTS: Final = tuple(tuple(4 * x for x in others) for others in _STRAIGHT_OTHERS)


def _lowest_flush(suited: int, base: int, floor: int, size: int) -> int:
    """The lowest flush (not a straight flush) made of the cards of `base` (one suit) and `size`
    cards of `suited` (the same suit), whose rank set is above `floor`; 0 when none is.

    Sets of `size` cards are taken in increasing order of their rank sets (Gosper's hack over
    the positions of `suited`'s cards), so the first acceptable one is the lowest."""
    bits = []
    while suited:
        low = suited & -suited
        bits.append(low)
        suited ^= low
    n = len(bits)
    if n < size:
        return 0
    rank_bits = [1 << ((b.bit_length() - 1) >> 2) for b in bits]
    base_ranks = 0
    rest = base
    while rest:
        low = rest & -rest
        base_ranks |= 1 << ((low.bit_length() - 1) >> 2)
        rest ^= low
    choice = (1 << size) - 1
    limit = 1 << n
    while choice < limit:
        ranks = base_ranks
        mask = base
        left = choice
        while left:
            low = left & -left
            j = low.bit_length() - 1
            ranks |= rank_bits[j]
            mask |= bits[j]
            left ^= low
        if ranks > floor and ranks not in _STRAIGHT_TOP_OF:
            return mask
        u = choice & -choice
        v = choice + u
        choice = v + (((v ^ choice) // u) >> 2)
    return 0


_STRAIGHT_TOP_OF: Final = frozenset(sum(1 << r for r in ranks) for ranks in STRAIGHT_RANKS)


def _lowest_pair(hand: int) -> int:
    """The lowest pair of `hand` (lowest rank, its two lowest cards), or 0."""
    twos = _at_least(hand, 2)
    if not twos:
        return 0
    shift = (twos & -twos).bit_length() - 1
    return _PAIRS_OF_NIBBLE[hand >> shift & 0xF][0] << shift


def _lowest_triple(hand: int) -> int:
    """The lowest triple of `hand` (lowest rank, its three lowest cards), or 0."""
    threes = _at_least(hand, 3)
    if not threes:
        return 0
    shift = (threes & -threes).bit_length() - 1
    return _TRIPLES_OF_NIBBLE[hand >> shift & 0xF][0] << shift


def lowest_five_with(hand: int, card: int) -> int:
    """The lowest five-card combination of `hand` that holds `card` (a one-bit mask), or 0.

    "Lowest" is the lowest power, then the lowest mask, as `combos_of_size` orders them.
    Categories are tried from the lowest: any straight holding the card beats nothing else
    first, and without a straight there is no straight flush either."""
    key = card.bit_length() - 1
    r = key >> 2
    shift = r * 4
    rest = hand & ~(0xF << shift)
    avail = rest | card
    flush = 0  # the lowest straight flush met on the way: the last resort
    runs = _straights(_ranks(avail)) & _STRAIGHTS_WITH_RANK[r]
    while runs:
        low = runs & -runs
        runs ^= low
        i = (low.bit_length() - 1) >> 2
        pick = _plain_straight(avail, i)
        if pick:
            return pick
        # Every rank has a single card here, all of one suit: a straight flush.
        if not flush:
            flush = avail & _STRAIGHT_SPAN[i]
    suit_mask = _SUIT_MASKS[key & 3]
    suited = rest & suit_mask
    if suited.bit_count() >= 4:
        pick = _lowest_flush(suited, card, -1, 4)
        if pick:
            return pick
    own_nibble = hand >> shift & 0xF
    own = own_nibble.bit_count()
    best = (1 << 60, 0)
    if own >= 2:
        if own >= 3:
            pair = _lowest_pair(rest)
            if pair:
                triple = next(t for t in _TRIPLES_OF_NIBBLE[own_nibble] if t << shift & card)
                best = ((2 << 16) | r, (triple << shift) | pair)
        triple = _lowest_triple(rest)
        if triple:
            pair = next(p for p in _PAIRS_OF_NIBBLE[own_nibble] if p << shift & card)
            t = (triple.bit_length() - 1) >> 2
            best = min(best, ((2 << 16) | t, triple | (pair << shift)))
    if best[1]:
        return best[1]
    if own == 4 and rest:
        best = ((3 << 16) | r, (0xF << shift) | _low_bit(rest))
    quads = _at_least(rest, 4)
    if quads:
        x_shift = (quads & -quads).bit_length() - 1
        best = min(best, ((3 << 16) | x_shift >> 2, (0xF << x_shift) | card))
    return best[1] or flush


def _low_bit(mask: int) -> int:
    return mask & -mask


def lowest_five_beating(hand: int, power: int) -> int:
    """The lowest five-card combination of `hand` with a power above `power`, or 0.

    Same order as `combos_of_size` (power, then mask), found category by category
    instead of listing every five-card hand."""
    if hand.bit_count() < 5:
        return 0
    category = power >> 16
    if category == 0:
        runs = _straights(_ranks(hand))
        while runs:
            low = runs & -runs
            runs ^= low
            i = (low.bit_length() - 1) >> 2
            top_shift = (i + 2) * 4
            floor = power - top_shift  # the top card's suit must be above this
            if floor >= 3:
                continue
            avail = hand
            if floor >= 0:
                avail &= ~(((2 << floor) - 1) << top_shift)
                if not avail >> top_shift & 0xF:
                    continue
            pick = _plain_straight(avail, i)
            if pick:
                return pick
    if category <= 1:
        table_suit = power >> 13 & 3 if category == 1 else -1
        for suit in range(max(table_suit, 0), 4):
            suited = hand & _SUIT_MASKS[suit]
            if suited.bit_count() >= 5:
                floor = power & 0x1FFF if suit == table_suit else -1
                pick = _lowest_flush(suited, 0, floor, 5)
                if pick:
                    return pick
    if category <= 2:
        low_rank = power & 0xF if category == 2 else -1
        threes = _at_least(hand, 3) >> (4 * (low_rank + 1)) << (4 * (low_rank + 1))
        pairs = _at_least(hand, 2)
        while threes:
            low = threes & -threes
            threes ^= low
            others = pairs & ~low
            if others:
                shift = low.bit_length() - 1
                pair_shift = (others & -others).bit_length() - 1
                return (
                    _TRIPLES_OF_NIBBLE[hand >> shift & 0xF][0] << shift
                    | _PAIRS_OF_NIBBLE[hand >> pair_shift & 0xF][0] << pair_shift
                )
    if category <= 3:
        low_rank = power & 0xF if category == 3 else -1
        fours = _at_least(hand, 4) >> (4 * (low_rank + 1)) << (4 * (low_rank + 1))
        while fours:
            low = fours & -fours
            fours ^= low
            quad = 0xF * low
            rest = hand & ~quad
            if rest:
                return quad | (rest & -rest)
    best_power = power
    best = 0
    for suit in range(4):
        if (hand & _SUIT_MASKS[suit]).bit_count() < 5:
            continue  # no flush, so no straight flush in this suit
        runs = _straights(hand >> suit & _LOW_BITS)
        while runs:
            low = runs & -runs
            runs ^= low
            i = (low.bit_length() - 1) >> 2
            found = (4 << 16) | ((i + 2) * 4 + suit)
            if found > power:
                if not best or found < best_power:
                    best_power = found
                    best = _STRAIGHT_FLUSH_OF[i] << suit
                break
    return best


def highest_five_power(hand: int) -> int:
    """The highest power of a five-card combination of `hand`, or -1 when it has none.

    Category by category from the highest: a straight flush, four of a kind (with any
    kicker), a full house (highest triple), a flush (highest suit, then its five highest
    ranks), a straight (highest top card); without a straight flush, no flush or straight
    of the hand is one."""
    if hand.bit_count() < 5:
        return -1
    best = -1
    for suit in range(4):
        runs = _straights(hand >> suit & _LOW_BITS)
        if runs:
            top = (runs.bit_length() - 1) >> 2
            best = max(best, (4 << 16) | ((top + 2) * 4 + suit))
    if best >= 0:
        return best
    quads = _at_least(hand, 4)
    if quads:
        return (3 << 16) | (quads.bit_length() - 1) >> 2
    threes = _at_least(hand, 3)
    if threes:
        top = threes.bit_length() - 1
        if _at_least(hand, 2) & ~(1 << top):
            return (2 << 16) | top >> 2
        threes ^= 1 << top
        if threes:  # the top triple's rank gives the next triple its pair
            return (2 << 16) | (threes.bit_length() - 1) >> 2
    for suit in (3, 2, 1, 0):
        suited = hand & _SUIT_MASKS[suit]
        if suited.bit_count() >= 5:
            ranks = 0
            while suited and ranks.bit_count() < 5:
                top = suited.bit_length() - 1
                ranks |= 1 << (top >> 2)
                suited ^= 1 << top
            return (1 << 16) | suit << 13 | ranks
    runs = _straights(_ranks(hand))
    if runs:
        top_shift = (((runs.bit_length() - 1) >> 2) + 2) * 4
        return top_shift + (hand >> top_shift & 0xF).bit_length() - 1
    return -1


def legal_moves(hand: int, table: Combo | None, opening: bool) -> list[int]:
    """The legal moves as masks, 0 = pass (answering only), as the engine lists them."""
    if table is None:
        moves = [c.mask for size in (1, 2, 3, 5) for c in combos_of_size(hand, size)]
        return [m for m in moves if m & 1] if opening else moves
    moves = [c.mask for c in combos_of_size(hand, table.size) if c.power > table.power]
    moves.append(0)
    return moves


Player = Callable[[list[int], int, Combo | None], int]
"""A seat's choice in a play-out: (every hand, the seat, the table) -> its move (0 = pass)."""


def play_out(
    hands: list[int],
    turn: int,
    table: Combo | None,
    table_seat: int,
    passes: int,
    limit: int = 400,
    players: Sequence[Player | None] | None = None,
) -> list[int]:
    """Play the deal to its end with greedy players; return each seat's penalty.

    `hands` is changed in place. `table_seat` is who played `table`; `passes`
    counts the passes since. `players`: per seat, who chooses instead of greedy (None:
    greedy)."""
    for _ in range(limit):
        hand = hands[turn]
        player = players[turn] if players is not None else None
        move = greedy_move(hand, table) if player is None else player(hands, turn, table)
        if move:
            hand &= ~move
            hands[turn] = hand
            if not hand:
                return [penalty(h.bit_count()) for h in hands]
            table = classify_mask(move)
            table_seat = turn
            passes = 0
        else:
            passes += 1
            if passes == 3:
                table = None
                passes = 0
                turn = table_seat
                continue
        turn = (turn + 1) % 4
    return [penalty(h.bit_count()) for h in hands]


def deal_unseen(
    rng: random.Random, unseen: list[int], counts: list[int], hands: list[int], me: int
) -> list[int]:
    """Hands for every seat: `me` keeps its own, the others get the unseen cards at random."""
    shuffled = unseen[:]
    rng.shuffle(shuffled)
    out = list(hands)
    start = 0
    for seat in range(4):
        if seat == me:
            continue
        mask = 0
        for key in shuffled[start : start + counts[seat]]:
            mask |= 1 << key
        start += counts[seat]
        out[seat] = mask
    return out
