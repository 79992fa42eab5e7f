"""Main and side pots, settling each pot on its own, odd chips (docs/holdem.md, "Settling")."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.poker.pots import (
    Pot,
    best_of,
    build_pots,
    odd_chip_order,
    payouts,
    settle,
    split,
)


def test_single_pot_when_everyone_matched() -> None:
    assert build_pots([100, 100, 100], [True, True, True]) == [Pot(300, (0, 1, 2))]


def test_three_way_all_in_makes_two_side_pots() -> None:
    # Seat 0 all-in 100, seat 1 all-in 300, seats 2 and 3 put in 700.
    pots = build_pots([100, 300, 700, 700], [True] * 4)
    assert pots == [Pot(400, (0, 1, 2, 3)), Pot(600, (1, 2, 3)), Pot(800, (2, 3))]
    # The short stack has the best hand, seat 1 the second best.
    awards = settle(pots, best_of({0: 9, 1: 8, 2: 1, 3: 2}), odd_chip_order(3, 4))
    assert payouts(awards, 4) == [400, 600, 0, 800]


def test_folded_chips_stay_but_folded_seats_cannot_win() -> None:
    pots = build_pots([50, 200, 200], [False, True, True])
    assert pots == [Pot(450, (1, 2))]
    awards = settle(pots, best_of({1: 3, 2: 5}), [1, 2, 0])
    assert payouts(awards, 3) == [0, 0, 450]


def test_folded_chips_between_all_in_levels_go_to_the_pots_they_reach() -> None:
    # Seat 0 all-in 50; seat 1 folded after putting in 80; seats 2, 3 put in 200.
    pots = build_pots([50, 80, 200, 200], [True, False, True, True])
    assert pots == [Pot(200, (0, 2, 3)), Pot(330, (2, 3))]


def test_split_pot_with_an_odd_chip_goes_to_first_winner_after_button() -> None:
    # Button is seat 2: the order after it is 3, 0, 1, 2.
    order = odd_chip_order(2, 4)
    assert order == [3, 0, 1, 2]
    assert split(25, [1, 3], order) == {3: 13, 1: 12}
    assert split(25, [0, 1], order) == {0: 13, 1: 12}


def test_two_odd_chips_in_a_three_way_split_go_one_each() -> None:
    shares = split(302, [0, 1, 2], odd_chip_order(0, 4))  # order 1, 2, 3, 0
    assert shares == {1: 101, 2: 101, 0: 100}


def test_each_pot_settled_on_its_own_with_its_own_odd_chip() -> None:
    # Main pot 3 x 101 = 303 three-way tie; side pot 2 x 100 = 200 won by seat 2 alone.
    pots = build_pots([101, 201, 201], [True, True, True])
    assert pots == [Pot(303, (0, 1, 2)), Pot(200, (1, 2))]
    awards = settle(pots, best_of({0: 5, 1: 5, 2: 5}), odd_chip_order(0, 3))
    # Main: 101 each. Side: 100 each, no odd chip. Not merged into one 503 split.
    assert payouts(awards, 3) == [101, 201, 201]
    pots = build_pots([11, 22, 22], [True, True, True])
    awards = settle(pots, best_of({0: 5, 1: 5, 2: 5}), odd_chip_order(2, 3))
    # Main 33 = 11 each; side 22 = 11 each.
    assert payouts(awards, 3) == [11, 22, 22]
    pots = build_pots([10, 21, 21], [True, True, True])
    awards = settle(pots, best_of({0: 5, 1: 5, 2: 5}), odd_chip_order(0, 3))
    # Main 30 (10 each); side 22 split 11/11: no chip lost or moved between pots.
    assert payouts(awards, 3) == [10, 21, 21]


def test_odd_chip_in_side_pot_only_among_its_winners() -> None:
    pots = build_pots([10, 15, 16, 16], [True, False, True, True])
    # Main 10*4 = 40 (0,2,3); side: 5 (folded) + 6 + 6 = 17 (2,3).
    assert pots == [Pot(40, (0, 2, 3)), Pot(17, (2, 3))]
    awards = settle(pots, best_of({0: 1, 2: 7, 3: 7}), odd_chip_order(2, 4))
    # Odd chip of the side pot: first after the button (seat 2) among {2, 3} is seat 3.
    assert payouts(awards, 4) == [0, 0, 28, 29]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 500), st.booleans(), st.integers(0, 3)), min_size=2, max_size=9
    ),
    st.integers(0, 8),
)
def test_pots_add_up_and_payouts_conserve_chips(
    seats: list[tuple[int, bool, int]], button: int
) -> None:
    contributions = [c for c, _, _ in seats]
    live = [alive for _, alive, _ in seats]
    if not any(live):
        live[0] = True
    pots = build_pots(contributions, live)
    assert sum(p.amount for p in pots) == sum(contributions)
    for pot in pots:
        assert all(live[s] for s in pot.eligible) and pot.eligible
    strengths = {s: v for s, (_, _, v) in enumerate(seats)}
    order = odd_chip_order(button % len(seats), len(seats))
    paid = payouts(settle(pots, best_of(strengths), order), len(seats))
    assert sum(paid) == sum(contributions)
    assert all(p == 0 for s, p in enumerate(paid) if not live[s])
    for award in settle(pots, best_of(strengths), order):
        assert max(award.shares) - min(award.shares) <= 1
