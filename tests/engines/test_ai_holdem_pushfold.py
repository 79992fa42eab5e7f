"""Hold'em push/fold: the shipped chart, the solver, and `hard` playing it when short."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.ai.holdem_classes import CLASSES, JOINT, WEIGHT, class_index, class_name, hole_class
from engines.ai.holdem_hard import HardPolicy
from engines.ai.holdem_pushfold import DEPTHS, range_share, shipped_chart, solve
from engines.cards import FULL_DECK, Card
from engines.holdem import HoldemConfig, HoldemState
from engines.poker.actions import AllIn, Call, Fold

PUBLISHED = Path(__file__).parent.parent / "data" / "holdem_push_chart_hrc.txt"


def test_classes_cover_every_starting_hand_once() -> None:
    assert WEIGHT.sum() == 1326
    assert sorted({class_name(i) for i in range(CLASSES)}) == sorted(
        class_name(class_index(class_name(i))) for i in range(CLASSES)
    )
    assert [class_name(i) for i in (0, 1, 13, 168)] == ["AA", "AKs", "AKo", "22"]
    # Card removal: AA against AA leaves one combo per AA combo; AKs against AA two each.
    assert JOINT[class_index("AA"), class_index("AA")] == 6
    assert JOINT[class_index("AA"), class_index("AKs")] == 12
    assert np.allclose(JOINT, JOINT.T)


def test_shipped_chart_loads_with_consistent_equities() -> None:
    chart = shipped_chart()
    assert chart.equity.shape == (CLASSES, CLASSES)
    assert chart.shove.shape == chart.call.shape == (len(DEPTHS), CLASSES)
    assert chart.depths[0] == 1.0 and chart.depths[-1] == 20.0
    assert np.allclose(chart.equity + chart.equity.T, 1.0, atol=3e-5)

    def eq(a: str, b: str) -> float:
        return float(chart.equity[class_index(a), class_index(b)])

    # Well-known all-in equities (any equity calculator; JTs against AKo from 2,000,000
    # boards). An entry's standard error is at most 0.0016: allow five of them.
    assert eq("AA", "KK") == pytest.approx(0.8195, abs=0.008)
    assert eq("AKo", "QQ") == pytest.approx(0.4329, abs=0.008)
    assert eq("AKs", "22") == pytest.approx(0.5028, abs=0.008)
    assert eq("AA", "72o") == pytest.approx(0.8767, abs=0.008)
    assert eq("JTs", "AKo") == pytest.approx(0.4050, abs=0.008)


def test_solver_converges_on_a_two_hand_game_with_a_known_answer() -> None:
    # Nuts (equity 1 against air, 1/2 against nuts) or air, dealt alike. With stacks S in
    # (1, 2) the small blind shoves air S - 1 of the time and the big blind calls with air
    # 2 - S of the time; both always play the nuts (see the indifference equations).
    equity = np.array([[0.5, 1.0], [0.0, 0.5]])
    joint = np.ones((2, 2))
    for stack in (1.2, 1.5, 1.75):
        solution = solve(equity, stack, joint, iterations=3000)
        assert solution.shove == pytest.approx([1.0, stack - 1.0], abs=0.005)
        assert solution.call == pytest.approx([1.0, 2.0 - stack], abs=0.005)
        assert solution.exploitability < 1e-4


def _published() -> dict[str, float]:
    result = {}
    for line in PUBLISHED.read_text().splitlines():
        if line and not line.startswith("#"):
            name, value = line.split()
            result[name] = 20.0 if value == "20+" else float(value)
    return result


def _largest_push(hand: int) -> float:
    chart = shipped_chart()
    pushed = [d for d, row in zip(chart.depths, chart.shove, strict=True) if row[hand] >= 0.5]
    return float(max(pushed, default=0.0))


def test_the_solved_chart_agrees_with_the_published_one() -> None:
    published = _published()
    assert len(published) == 166
    off = {}
    for name, depth in published.items():
        ours = _largest_push(class_index(name))
        # Tolerance: 0.5 bb or 6% of the depth (the published chart and ours differ by
        # sampling error in the equities and by rounding to 0.1 bb).
        if abs(ours - depth) > max(0.5, 0.06 * depth):
            off[name] = (ours, depth)
    assert off == {}
    # The well-known points: AA and 72o's extremes, and the share shoved at 10 bb.
    assert _largest_push(class_index("AA")) == 20.0
    assert 1.3 <= _largest_push(class_index("72o")) <= 2.0
    chart = shipped_chart()
    assert range_share(chart.shove[chart.row(10.0)]) == pytest.approx(0.578, abs=0.01)
    assert chart.call_frequency(class_index("72o"), 10.0) == 0.0
    assert chart.call_frequency(class_index("AA"), 20.0) == 1.0


def _heads_up(stack_bb: float, hole: tuple[Card, Card], seat: int) -> HoldemState:
    """A heads-up hand at `stack_bb` big blinds each, seat 0 on the button (the small blind),
    `seat` holding `hole`."""
    chips = round(stack_bb * 20)
    config = HoldemConfig(seats=2, stacks=(chips, chips))
    spare = [c for c in FULL_DECK if c not in hole]
    # Dealing starts after the button: the big blind (seat 1) gets the first card.
    pairs = (
        [(hole[0], spare[0]), (hole[1], spare[1])]
        if seat == 1
        else [
            (spare[0], hole[0]),
            (spare[1], hole[1]),
        ]
    )
    deck = [pairs[0][0], pairs[0][1], pairs[1][0], pairs[1][1], *spare[2:]]
    return HoldemState(config, random.Random(0), first_deck=deck)


def _representatives() -> list[tuple[int, tuple[Card, Card]]]:
    result: dict[int, tuple[Card, Card]] = {}
    for i, a in enumerate(FULL_DECK):
        for b in FULL_DECK[i + 1 :]:
            result.setdefault(hole_class((a, b)), (a, b))
    return sorted(result.items())


@pytest.mark.parametrize("stack", [2.0, 6.3, 10.0, 12.55, 15.0])
def test_hard_pushes_and_calls_like_the_equilibrium_when_short(stack: float) -> None:
    exact = solve(shipped_chart().equity, stack)
    pushed_wrong = called_wrong = 0.0
    for hand, hole in _representatives():
        state = _heads_up(stack, hole, 0)
        assert state.to_act == 0 and hole_class(state.holes[0] or ()) == hand
        pushes = HardPolicy(random.Random(hand)).decide(state.view(0))
        assert pushes in (AllIn(), Fold())
        pushed_wrong += WEIGHT[hand] * abs(float(pushes == AllIn()) - exact.shove[hand])
        facing = _heads_up(stack, hole, 1)
        facing.apply(0, AllIn())
        assert hole_class(facing.holes[1] or ()) == hand
        calls = HardPolicy(random.Random(hand)).decide(facing.view(1))
        assert calls in (Call(), Fold(), AllIn())
        called_wrong += WEIGHT[hand] * abs(float(calls != Fold()) - exact.call[hand])
    # Within 1% of hands (by combos) of the equilibrium solved at this very depth.
    assert pushed_wrong / 1326 <= 0.01
    assert called_wrong / 1326 <= 0.01


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.floats(0.05, 0.95), min_size=3, max_size=3),
    st.lists(st.integers(1, 12), min_size=3, max_size=3),
    st.floats(1.0, 20.0),
)
def test_solver_reaches_an_equilibrium_of_any_small_game(
    upper: list[float], combos: list[int], stack: float
) -> None:
    # Three classes with any equities (equity[j, i] = 1 - equity[i, j]) and any combo counts:
    # neither side can gain more than a thousandth of a big blind per hand by deviating.
    equity = np.full((3, 3), 0.5)
    for (i, j), value in zip(((0, 1), (0, 2), (1, 2)), upper, strict=True):
        equity[i, j], equity[j, i] = value, 1.0 - value
    joint = np.outer(combos, combos).astype(np.float64)
    solution = solve(equity, stack, joint, iterations=2000)
    assert solution.exploitability < 1e-3
    assert ((solution.shove >= 0) & (solution.shove <= 1)).all()
    assert ((solution.call >= 0) & (solution.call <= 1)).all()
