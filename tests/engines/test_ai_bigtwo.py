"""Big Two AI players: legal choices from views only, the greedy rules, strong's key habits."""

from __future__ import annotations

import random

import pytest

from engines.ai.bigtwo import POLICIES, GreedyPolicy
from engines.ai.bigtwo_fast import greedy_move, lowest_five_beating, lowest_five_with
from engines.ai.bigtwo_strong import StrongPolicy
from engines.base import DealSettled
from engines.bigtwo import PASS, BigTwoConfig, BigTwoState, Play, legal_plays
from engines.bigtwo_combos import combos_of_size, mask_of_cards
from engines.cards import FULL_DECK, parse_cards
from engines.play import play_out


def play(text: str) -> Play:
    return Play(tuple(parse_cards(text)))


def crafted(
    hands: list[str],
    turn: int,
    table: str | None = None,
    table_seat: int | None = None,
    opening: bool = False,
    played: str = "",
) -> BigTwoState:
    data = BigTwoState(BigTwoConfig(deals=1), random.Random(0)).snapshot()
    data.update(
        hands=hands,
        turn=turn,
        leader=turn if table is None else table_seat,
        table=table,
        table_seat=table_seat,
        passes=0,
        opening=opening,
        trick=[[table_seat, table]] if table else [],
        played=played,
    )
    return BigTwoState.restore(data)


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_every_policy_plays_whole_matches_with_legal_actions(name: str) -> None:
    rng = random.Random(5)
    policies = [POLICIES[name](random.Random(rng.getrandbits(32))) for _ in range(4)]
    for _ in range(2):
        state = BigTwoState(BigTwoConfig(deals=1), random.Random(rng.getrandbits(32)))
        while not state.finished:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            action = policies[seat].decide(view)
            assert action in view.legal
            state.apply(seat, action)


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_policies_decide_from_the_view_only(name: str) -> None:
    # Two deals that look the same from seat 0 (same hand, same table, same counts) but hide
    # different opponent cards: a policy with the same RNG must choose the same action.
    mine = "3D 4C 5H 6S 7D 9C 9H JD QS KC AD 2C 2H"
    rest = [
        c
        for c in parse_cards(
            "3C 3H 3S 4D 4H 4S 5D 5C 5S 6D 6C 6H 7C 7H 7S 8D 8C 8H 8S 9D 9S TD TC TH TS JC JH JS "
            "QD QC QH KD KH KS AC AH AS 2D 2S"
        )
    ]
    for seed in range(3):
        shuffled = rest[:]
        random.Random(seed).shuffle(shuffled)
        others = [" ".join(str(c) for c in shuffled[i * 13 : (i + 1) * 13]) for i in range(3)]
        choices = set()
        for variant in (others, others[::-1]):
            state = crafted([mine, *variant], turn=0, opening=True)
            policy = POLICIES[name](random.Random(seed))
            if isinstance(policy, StrongPolicy):
                policy.budget = 1e9  # no time cut-off: the same samples in both runs
            choices.add(policy.decide(state.view(0)))
        assert len(choices) == 1


def test_greedy_answers_with_the_lowest_beating_play_and_never_passes_when_it_can() -> None:
    greedy = GreedyPolicy(random.Random(0))
    state = crafted(["5C 9C", "4D 8S 9D 2S", "6D", "7D"], turn=1, table="8D", table_seat=0)
    assert greedy.decide(state.view(1)) == play("8S")
    state = crafted(["5C 9C", "4D 4S 9D 9S", "6D", "7D"], turn=1, table="5D 5S", table_seat=0)
    assert greedy.decide(state.view(1)) == play("9D 9S")
    state = crafted(["5C 9C", "4D 8S", "6D", "7D"], turn=1, table="2D", table_seat=0)
    assert greedy.decide(state.view(1)) == PASS


def test_greedy_leads_its_lowest_card_in_its_largest_combination() -> None:
    greedy = GreedyPolicy(random.Random(0))
    state = crafted(["3D 3S 4C 5H 6S 7D 2S", "4D", "6D", "7C"], turn=0, opening=True)
    # 2-3-4-5-6 is a lower straight than 3-4-5-6-7, and both hold 3♦.
    assert greedy.decide(state.view(0)) == play("2S 3D 4C 5H 6S")
    state = crafted(["3D 3S 3H 9C", "4D", "6D", "7C"], turn=0, opening=True)
    assert greedy.decide(state.view(0)) == play("3D 3H 3S")
    state = crafted(["5D 5S 9C", "4D", "6D", "7C"], turn=0)
    assert greedy.decide(state.view(0)) == play("5D 5S")


def test_strong_goes_out_when_its_whole_hand_is_one_play() -> None:
    strong = StrongPolicy(random.Random(0))
    state = crafted(["5C 6C 7D 8H 9S", "4D 4S", "6D 2S", "7C 8C"], turn=0)
    assert strong.decide(state.view(0)) == play("5C 6C 7D 8H 9S")


def complement(*hands: str) -> str:
    held = {c for hand in hands for c in parse_cards(hand)}
    return " ".join(str(c) for c in FULL_DECK if c not in held)


def test_strong_keeps_control_for_a_forced_finish() -> None:
    # Every opponent holds one card and nobody can beat 9♦9♠ or 2♠: leading 5♣ first would let
    # an opponent out; leading the safe plays first and 5♣ last wins.
    hands = ["5C 9D 9S 2S", "JD", "QC", "KH"]
    for seed in range(3):
        state = crafted(hands, turn=0, played=complement(*hands))
        action = StrongPolicy(random.Random(seed), budget_ms=1e9).decide(state.view(0))
        assert action in (play("9D 9S"), play("2S"))


def test_strong_blocks_a_player_about_to_go_out() -> None:
    # The next player has one card left (a 10): leading a low single would let them out.
    hands = ["4C 9D 9S KH", "TS", "5D 6D 7D 8D 9C", "3S 4S JC QC QD"]
    for seed in range(3):
        state = crafted(hands, turn=0, played=complement(*hands))
        action = StrongPolicy(random.Random(seed), budget_ms=1e9).decide(state.view(0))
        assert action in (play("9D 9S"), play("KH"))


def test_strong_beats_greedy_players_in_a_short_run() -> None:
    # A sanity check only; the real figures come from `deucebot simulate` and the bench.
    rng = random.Random(11)
    wins = 0
    deals = 40
    for deal in range(deals):
        seats = [GreedyPolicy(random.Random(0)) for _ in range(4)]
        strong_seat = deal % 4
        seats[strong_seat] = StrongPolicy(random.Random(deal), rollouts=60, budget_ms=1e9)  # type: ignore[call-overload]
        state = BigTwoState(BigTwoConfig(deals=1), random.Random(rng.getrandbits(32)))
        for event in play_out(state, seats).events:
            if isinstance(event, DealSettled) and event.penalties is not None:
                wins += event.penalties[strong_seat] == 0
    assert wins / deals > 0.25  # better than a fair share


def test_fast_greedy_move_is_the_lowest_legal_answer() -> None:
    # The search's bitmask greedy must agree with the engine's legal list (lowest first).
    rng = random.Random(0)
    for _ in range(1500):
        keys = rng.sample(range(52), rng.randrange(1, 14))
        hand = sum(1 << k for k in keys)
        size = rng.choice([1, 2, 3, 5])
        others = rng.sample([k for k in range(52) if k not in keys], 13)
        tables = combos_of_size(sum(1 << k for k in others), size)
        if not tables:
            continue
        table = rng.choice(tables)
        first = legal_plays(hand, table, False)[0]
        expected = mask_of_cards(first.cards) if isinstance(first, Play) else 0
        assert greedy_move(hand, table) == expected


def test_lowest_five_with_agrees_with_full_enumeration() -> None:
    rng = random.Random(1)
    for i in range(3000):
        # Every third hand is all one suit, full of straight flushes.
        pool = range(0, 52, 4) if i % 3 == 0 else range(52)
        keys = rng.sample(list(pool), min(len(pool), rng.randrange(5, 14)))
        hand = sum(1 << k for k in keys)
        card = 1 << rng.choice(keys)
        holding = [c for c in combos_of_size(hand, 5) if c.mask & card]
        assert lowest_five_with(hand, card) == (holding[0].mask if holding else 0)


def test_lowest_five_beating_agrees_with_full_enumeration() -> None:
    rng = random.Random(2)
    for i in range(2000):
        pool = list(range(0, 52, 4)) if i % 4 == 0 else list(range(52))
        keys = rng.sample(pool, min(len(pool), rng.randrange(5, 14)))
        hand = sum(1 << k for k in keys)
        others = rng.sample([k for k in range(52) if k not in keys], 13)
        tables = combos_of_size(sum(1 << k for k in others), 5)
        if not tables:
            continue
        table = rng.choice(tables)
        higher = [c for c in combos_of_size(hand, 5) if c.power > table.power]
        assert lowest_five_beating(hand, table.power) == (higher[0].mask if higher else 0)
