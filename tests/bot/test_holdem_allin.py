"""All-in EV adjustment of the hold'em measurements (bot.commands.holdem_allin)."""

from __future__ import annotations

import random

import pytest

from bot.commands.holdem_allin import HandTally, allin_expectation
from bot.commands.holdem_pool import duplicate
from engines.cards import parse_cards
from engines.holdem import HoldemConfig, HoldemState
from engines.poker.actions import AllIn, Call, Check


def test_on_the_turn_every_river_is_counted() -> None:
    # AA against KK on 2c 7d 9h Tc: only the two kings left (of 44 unseen cards) lose it.
    holes = {0: tuple(parse_cards("AS AH")), 1: tuple(parse_cards("KS KH"))}
    board = parse_cards("2C 7D 9H TC")
    ev = allin_expectation(0, holes, [0, 1], board, [1000, 1000], 0, random.Random(0))
    assert ev == pytest.approx(2000 * 42 / 44 - 1000)


def test_side_pots_are_paid_pot_by_pot() -> None:
    # Seat 0 (AA) is all-in for 200 of the 600 the others put in: it can only win the main
    # pot of 600; KK and QQ share the side pot of 800 by the river (2 kings and 2 queens of
    # 42 unseen cards).
    holes = {
        0: tuple(parse_cards("AS AH")),
        1: tuple(parse_cards("KS KH")),
        2: tuple(parse_cards("QS QH")),
    }
    board = parse_cards("2C 7D 9H 3S")
    invested = [200, 600, 600]
    args = ([0, 1, 2], board, invested, 0, random.Random(0))
    assert allin_expectation(0, holes, *args) == pytest.approx(600 * 38 / 42 - 200)
    assert allin_expectation(1, holes, *args) == pytest.approx(600 * 2 / 42 + 800 * 40 / 42 - 600)
    assert allin_expectation(2, holes, *args) == pytest.approx(600 * 2 / 42 + 800 * 2 / 42 - 600)


def test_a_real_flop_all_in_is_credited_its_equity_not_its_run_out() -> None:
    # Heads-up, seat 0 (the button) holds AA, seat 1 KK; all-in on 2C 7D QH and the turn
    # brings a king: the engine pays seat 1, the tally credits seat 0 the share of the
    # 990 turn-and-river pairs it wins: the 903 without a king and the 4 king-and-ace.
    deck = parse_cards("KS AS KH AH 3D 2C 7D QH 4D KC 5D 8C")
    state = HoldemState(HoldemConfig(seats=2), random.Random(0), first_deck=deck)
    tally = HandTally(0, random.Random(0))
    tally.feed(state.opening_events)
    for seat, action in ((0, Call()), (1, Check()), (1, Check()), (0, AllIn()), (1, Call())):
        tally.feed(state.apply(seat, action))
    assert tally.raw == [-1000]
    assert tally.adjusted == [pytest.approx(2000 * 907 / 990 - 1000)]


def test_hands_without_an_all_in_keep_the_engine_s_result() -> None:
    deck = parse_cards("KS AS KH AH 3D 2C 7D QH 4D 9C 5D 8C")
    state = HoldemState(HoldemConfig(seats=2), random.Random(0), first_deck=deck)
    tally = HandTally(0, random.Random(0))
    tally.feed(state.opening_events)
    moves = [(0, Call()), (1, Check())] + [(1, Check()), (0, Check())] * 3
    for seat, action in moves:
        tally.feed(state.apply(seat, action))
    assert tally.raw == [20]
    assert tally.adjusted == [20.0]


def test_the_adjustment_narrows_the_interval_on_the_same_hands() -> None:
    # Against the maniac many pots go all-in before the river: the same 100 duplicate deals
    # at 6 seats, measured both ways.
    line = duplicate("hard", "maniac", seats=6, deals=100, seed=3)
    assert line.raw is not None
    assert line.result.high - line.result.low < 0.85 * (line.raw.high - line.raw.low)
    # The same hands: the two means estimate the same thing and stay close.
    assert abs(line.result.mean - line.raw.mean) < (line.raw.high - line.raw.low) / 2
