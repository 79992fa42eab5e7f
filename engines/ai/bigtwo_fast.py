"""Bitmask Big Two for the AI: the greedy move and fast greedy play-outs.

Hands are bitmasks of Big Two keys (see `engines.bigtwo_combos`). This is not
the engine: it knows just enough rules to play out a deal between greedy
players quickly, for the `strong` player's search.
"""

from __future__ import annotations

import random
from itertools import combinations, product

from engines.bigtwo_combos import (
    STRAIGHT_RANKS,
    Combo,
    classify_mask,
    penalty,
    same_rank_sets,
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
        count = nibble.bit_count()
        if count >= 3:
            for mask in same_rank_sets(nibble << rank_shift, 3):
                if mask & low:
                    return mask
        if count >= 2:
            for mask in same_rank_sets(nibble << rank_shift, 2):
                if mask & low:
                    return mask
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
_STRAIGHTS_WITH = tuple(tuple(ranks for ranks in STRAIGHT_RANKS if r in ranks) for r in range(13))


def _low_bit(mask: int) -> int:
    return mask & -mask


def lowest_five_with(hand: int, card: int) -> int:
    """The lowest five-card combination of `hand` that holds `card` (a one-bit mask), or 0.

    "Lowest" is the lowest power, then the lowest mask, as `combos_of_size` orders them.
    Categories are tried from the lowest: any straight holding the card beats nothing else
    first, and without a straight there is no straight flush either."""
    key = card.bit_length() - 1
    r = key >> 2
    flushes: list[int] = []  # straight flushes met on the way: the last resort
    for ranks in _STRAIGHTS_WITH[r]:
        nibbles = [hand >> (x * 4) & 0xF for x in ranks]
        if all(nibbles):
            # Straights are listed lowest first; the lowest suit of every rank but ours
            # gives the lowest one, unless that happens to be a straight flush.
            pick = sum(
                card if x == r else _low_bit(n) << (x * 4)
                for x, n in zip(ranks, nibbles, strict=True)
            )
            if _kind(pick) == "straight":
                return pick
            options = [
                [card] if x == r else [b << (x * 4) for b in (1, 2, 4, 8) if n & b]
                for x, n in zip(ranks, nibbles, strict=True)
            ]
            masks = [sum(p) for p in product(*options)]
            plain = [m for m in masks if _kind(m) == "straight"]
            if plain:
                return min(plain, key=_order)
            flushes += masks
    suited = hand & _SUIT_MASKS[key & 3] & ~card
    if suited.bit_count() >= 4:
        pick = card
        rest_suited = suited
        for _ in range(4):
            low = _low_bit(rest_suited)
            pick |= low
            rest_suited ^= low
        if _kind(pick) == "flush":
            return pick
        bits = [1 << k for k in range(52) if suited >> k & 1]
        plain = [card | sum(c) for c in combinations(bits, 4)]
        plain = [m for m in plain if _kind(m) == "flush"]
        if plain:
            return min(plain, key=_order)
    shift = r * 4
    own_nibble = hand >> shift & 0xF
    own = own_nibble.bit_count()
    rest = hand & ~(0xF << shift)
    best = (1 << 60, 0)
    if own >= 2:
        if own >= 3:
            pairs = same_rank_sets(rest, 2)
            if pairs:
                triple = next(t for t in _TRIPLES_OF_NIBBLE[own_nibble] if t << shift & card)
                best = min(best, ((2 << 16) | r, (triple << shift) | pairs[0]))
        triples = same_rank_sets(rest, 3)
        if triples:
            pair = next(p for p in _PAIRS_OF_NIBBLE[own_nibble] if p << shift & card)
            t = (triples[0].bit_length() - 1) >> 2
            best = min(best, ((2 << 16) | t, triples[0] | (pair << shift)))
    if best[1]:
        return best[1]
    if own == 4 and rest:
        best = min(best, ((3 << 16) | r, (0xF << shift) | _low_bit(rest)))
    for x in range(13):
        if x != r and hand >> (x * 4) & 0xF == 0xF:
            best = min(best, ((3 << 16) | x, (0xF << (x * 4)) | card))
            break
    if best[1] or not flushes:
        return best[1]
    return min(flushes, key=_order)


def lowest_five_beating(hand: int, power: int) -> int:
    """The lowest five-card combination of `hand` with a power above `power`, or 0.

    Same order as `combos_of_size` (power, then mask), found category by category
    instead of listing every five-card hand."""
    if hand.bit_count() < 5:
        return 0
    category = power >> 16
    nibbles = [hand >> (x * 4) & 0xF for x in range(13)]
    present = 0
    for x, nibble in enumerate(nibbles):
        if nibble:
            present |= 1 << x
    if category == 0:
        for i, ranks in enumerate(STRAIGHT_RANKS):
            top = i + 2
            wanted = _STRAIGHT_PRESENCE[i]
            if (top * 4 + 3) <= power or present & wanted != wanted:
                continue
            options = [
                [b << (x * 4) for b in (1, 2, 4, 8) if nibbles[x] & b]
                if x != top
                else [
                    b << (x * 4) for b in (1, 2, 4, 8) if nibbles[x] & b and x * 4 + _LOG[b] > power
                ]
                for x in ranks
            ]
            plain = [sum(p) for p in product(*options)]
            plain = [m for m in plain if _kind(m) == "straight"]
            if plain:
                return min(plain, key=_order)
        category = 1
    if category == 1:
        for suit in range(4):
            suited = hand & _SUIT_MASKS[suit]
            if suited.bit_count() < 5:
                continue
            bits = [1 << k for k in range(suit, 52, 4) if suited >> k & 1]
            found = [sum(c) for c in combinations(bits, 5)]
            found = [m for m in found if _kind(m) == "flush" and _order(m)[0] > power]
            if found:
                return min(found, key=_order)
        category = 2
    if category == 2:
        low = power & 0xF if power >> 16 == 2 else -1
        for r in range(low + 1, 13):
            if nibbles[r].bit_count() >= 3:
                rest = hand & ~(0xF << (r * 4))
                pairs = same_rank_sets(rest, 2)
                if pairs:
                    return (_TRIPLES_OF_NIBBLE[nibbles[r]][0] << (r * 4)) | pairs[0]
        category = 3
    if category == 3:
        low = power & 0xF if power >> 16 == 3 else -1
        for r in range(low + 1, 13):
            if nibbles[r] == 0xF:
                rest = hand & ~(0xF << (r * 4))
                if rest:
                    return (0xF << (r * 4)) | (rest & -rest)
    found = []
    for suit in range(4):
        suited = 0  # ranks present in this suit
        for x, nibble in enumerate(nibbles):
            if nibble >> suit & 1:
                suited |= 1 << x
        for i, wanted in enumerate(_STRAIGHT_PRESENCE):
            if suited & wanted == wanted and (4 << 16) | ((i + 2) * 4 + suit) > power:
                found.append(sum(1 << (x * 4 + suit) for x in STRAIGHT_RANKS[i]))
    return min(found, key=_order) if found else 0


_LOG = {1: 0, 2: 1, 4: 2, 8: 3}
_STRAIGHT_PRESENCE = tuple(sum(1 << x for x in ranks) for ranks in STRAIGHT_RANKS)


def _kind(mask: int) -> str:
    combo = classify_mask(mask)
    return combo.kind if combo is not None else ""


def _order(mask: int) -> tuple[int, int]:
    combo = classify_mask(mask)
    assert combo is not None
    return (combo.power, mask)


def play_out(
    hands: list[int], turn: int, table: Combo | None, table_seat: int, passes: int, limit: int = 400
) -> list[int]:
    """Play the deal to its end with greedy players; return each seat's penalty.

    `hands` is changed in place. `table_seat` is who played `table`; `passes`
    counts the passes since."""
    for _ in range(limit):
        hand = hands[turn]
        move = greedy_move(hand, table)
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
