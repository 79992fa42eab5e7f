"""Bitmask Big Two for the AI: the greedy move and fast greedy play-outs.

Hands are bitmasks of Big Two keys (see `engines.bigtwo_combos`). This is not
the engine: it knows just enough rules to play out a deal between greedy
players quickly, for the `strong` player's search.
"""

from __future__ import annotations

import random

from engines.bigtwo_combos import (
    Combo,
    classify_mask,
    combos_of_size,
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
            for combo in combos_of_size(hand, 5):
                if combo.mask & low:
                    return combo.mask
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
        for combo in combos_of_size(hand, 5):
            if combo.power > power:
                return combo.mask
        return 0
    for mask in same_rank_sets(hand, size):
        combo = classify_mask(mask)
        if combo is not None and combo.power > power:
            return mask
    return 0


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
