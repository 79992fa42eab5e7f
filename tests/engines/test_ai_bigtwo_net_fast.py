"""The fast paths under the `net` player: `plan`, `action_features`, `highest_five_power` and
`net_play_out` give exactly what the straightforward code they replaced gives.

The reference implementations below are the previous code, kept verbatim (they enumerated
every split with `_rest_plan` and asked `_beaten_by_unseen` about every combination); the
fast code must agree with them to the bit, so `net` plays the same moves as before."""

from __future__ import annotations

import random

import numpy as np

from engines.ai.bigtwo_fast import highest_five_power, play_out
from engines.ai.bigtwo_net import FEATURES, NetPolicy, action_features, net_play_out, shipped_net
from engines.ai.bigtwo_strong import _beaten_by_unseen, _combo, plan
from engines.ai.bigtwo_train import play_deal
from engines.bigtwo import BigTwoConfig, BigTwoState
from engines.bigtwo_combos import Combo, classify_mask, combos_of_size, penalty

_TWOS = 0xF << 48
_ACES = 0xF << 44


def reference_plan(hand: int) -> tuple[Combo, ...]:
    best_score, best = _reference_rest_plan(hand, ())
    fives = combos_of_size(hand, 5)
    pairs_of_fives = len(fives) <= 40
    for i, first in enumerate(fives):
        left = hand & ~first.mask
        score, combos = _reference_rest_plan(left, (first,))
        if score < best_score:
            best_score, best = score, combos
        for second in fives[i + 1 :] if pairs_of_fives else ():
            if second.mask & first.mask:
                continue
            score, combos = _reference_rest_plan(left & ~second.mask, (first, second))
            if score < best_score:
                best_score, best = score, combos
    return best


def _reference_rest_plan(
    hand: int, fives: tuple[Combo, ...]
) -> tuple[tuple[int, int, int], tuple[Combo, ...]]:
    combos = list(fives)
    low_singles = 0
    strength = 0
    for r in range(13):
        nibble = hand >> (r * 4) & 0xF
        if not nibble:
            continue
        shifted = nibble << (r * 4)
        count = nibble.bit_count()
        if count == 4:
            combos.append(_combo(shifted & (0x3 << (r * 4))))
            combos.append(_combo(shifted & (0xC << (r * 4))))
        else:
            combos.append(_combo(shifted))
            if count == 1 and r < 10:
                low_singles += 1
        strength += r
    return (len(combos), low_singles, -strength), tuple(combos)


def reference_features(
    hand: int, moves: list[int], table: Combo | None, counts: tuple[int, int, int, int], unseen: int
) -> np.ndarray:
    base = reference_plan(hand)
    base_parts = len(base)
    others = counts[1:]
    max_other = max(others)
    danger = min(others)
    context = [
        1.0 if table is None else 0.0,
        counts[0] / 13,
        others[0] / 13,
        others[1] / 13,
        others[2] / 13,
        1.0 if danger <= 2 else 0.0,
        1.0 if others[0] <= 2 else 0.0,
        base_parts / 8,
        (hand & _TWOS).bit_count() / 4,
    ]
    rows = np.zeros((len(moves), FEATURES))
    for i, move in enumerate(moves):
        row = rows[i]
        row[: len(context)] = context
        if not move:
            rest = hand
            row[9] = 1.0
            parts = base
        else:
            combo = classify_mask(move)
            assert combo is not None
            rest = hand & ~move
            parts = reference_plan(rest) if rest else ()
            row[10 + (3 if combo.size == 5 else combo.size - 1)] = 1.0
            if combo.size == 5:
                row[14 + (combo.power >> 16)] = 1.0
            top = (move.bit_length() - 1) >> 2
            low = ((move & -move).bit_length() - 1) >> 2
            row[19] = top / 12
            row[20] = low / 12
            row[21] = (move & _TWOS).bit_count() / 2
            row[22] = (move & _ACES).bit_count() / 2
            row[23] = 0.0 if _beaten_by_unseen(combo, unseen, max_other) else 1.0
            row[24] = 1.0 if not rest else 0.0
            row[25] = (len(parts) + 1 - base_parts) / 2
        row[26] = rest.bit_count() / 13
        row[27] = len(parts) / 8
        row[28] = sum(_beaten_by_unseen(c, unseen, max_other) for c in parts) / 6
        row[29] = sum(1 for c in parts if c.size == 1) / 6
        row[30] = (rest & _TWOS).bit_count() / 4
        row[31] = (((rest & -rest).bit_length() - 1) >> 2) / 12 if rest else 1.0
    return rows


def random_hands(rng: random.Random, count: int) -> list[int]:
    """Hands of every size, some dealt from a few ranks only (rich in five-card hands)."""
    hands = []
    for i in range(count):
        size = 1 + i % 13
        if i % 3:
            keys = rng.sample(range(52), size)
        else:
            ranks = rng.sample(range(13), rng.randint(2, 5))
            pool = [r * 4 + s for r in ranks for s in range(4)]
            keys = rng.sample(pool, min(size, len(pool)))
        hands.append(sum(1 << k for k in keys))
    return hands


def test_plan_splits_every_hand_as_the_reference_does() -> None:
    for hand in random_hands(random.Random(1), 3000):
        assert plan(hand) == reference_plan(hand), hex(hand)


def test_highest_five_power_is_the_strongest_five_card_combination() -> None:
    for hand in random_hands(random.Random(2), 4000):
        expected = max((c.power for c in combos_of_size(hand, 5)), default=-1)
        assert highest_five_power(hand) == expected, hex(hand)


def test_features_and_choices_are_those_of_the_reference_on_self_play_deals() -> None:
    net = shipped_net()
    seen: list[tuple[int, list[int], Combo | None, tuple[int, int, int, int], int]] = []

    def agent(
        seat: int,
        hand: int,
        moves: list[int],
        table: Combo | None,
        counts: tuple[int, int, int, int],
        unseen: int,
    ) -> int:
        seen.append((hand, moves, table, counts, unseen))
        return random.Random(hand ^ unseen).randrange(len(moves))  # wide-ranging deals

    rng = random.Random(3)
    for _ in range(40):
        play_deal(rng, [agent] * 4)
    assert len(seen) > 1000
    differ = 0
    for situation in seen:
        fast = action_features(*situation)
        slow = reference_features(*situation)
        assert fast.shape == slow.shape == (len(situation[1]), FEATURES)
        assert np.array_equal(fast, slow), situation
        scores = net.scores(fast)
        assert int(np.argmax(scores)) == int(np.argmax(net.scores(slow)))
        differ += len(set(scores.tolist())) > 1
    assert differ > 500  # the network does tell the moves apart


def test_net_play_out_plays_as_net_players_do_through_the_engine() -> None:
    net = shipped_net()
    compared = 0
    for deal in range(12):
        state = BigTwoState(BigTwoConfig(deals=1), random.Random(deal))
        players = [NetPolicy(random.Random(0)) for _ in range(4)]
        for _ in range(1 + deal * 2):  # past the opening play, into the deal
            seat = state.to_act
            assert seat is not None
            state.apply(seat, players[seat].decide(state.view(seat)))
        if state.finished:  # a match of one deal: over when the deal is
            continue
        seat = state.to_act
        assert seat is not None
        hands = list(state.hands)
        table_seat = state.table_seat if state.table_seat is not None else seat
        start = (seat, state.table, table_seat, state.passes)
        while not state.finished:
            turn = state.to_act
            assert turn is not None
            state.apply(turn, players[turn].decide(state.view(turn)))
        expected = list(state.penalties[0])
        assert net_play_out(net, list(hands), *start) == expected
        # Greedy for every seat when no seat is given to the network.
        assert net_play_out(net, list(hands), *start, seats=0) == play_out(list(hands), *start)
        compared += 1
    assert compared >= 10


def test_net_play_out_ends_every_deal_with_the_cards_conserved() -> None:
    net = shipped_net()
    rng = random.Random(4)
    for _ in range(30):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sum(1 << k for k in deck[s::4]) for s in range(4)]
        first = next(s for s in range(4) if hands[s] & 1)
        seats = rng.randrange(16)
        left = list(hands)
        penalties = net_play_out(net, left, first, None, first, 0, seats=seats)
        assert sum(1 for h in left if not h) == 1  # one seat went out
        assert all(h & ~o == 0 for h, o in zip(left, hands, strict=True))  # only own cards
        assert penalties == [penalty(h.bit_count()) for h in left]
