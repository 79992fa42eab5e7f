"""AI players of French draw poker: legal from a view, baselines as specified, strong is sound."""

from __future__ import annotations

import random

import pytest

from bot.commands.simulate import simulate
from engines.ai.draw import (
    AI_CAVES,
    CallingPolicy,
    RandomPolicy,
    StrongPolicy,
    calling_draw,
    equity,
    strong_draw,
)
from engines.cards import parse_cards
from engines.draw import SPEC, DrawConfig, DrawState
from engines.draw.actions import STAND, Draw, Open, Rebuy, SitOut
from engines.draw.hands import sort_hand
from engines.play import play_out


def hand(text: str) -> list:  # type: ignore[type-arg]
    return sort_hand(parse_cards(text))


@pytest.mark.parametrize("name", ["random", "calling", "strong"])
def test_every_policy_only_plays_legal_actions_from_its_view(name: str) -> None:
    policies = [SPEC.make_policy(name, random.Random(i)) for i in range(4)]
    state = DrawState(DrawConfig(seats=4, deals=25, cave_unit=40), random.Random(3))
    played = play_out(state, policies)  # an illegal action would raise IllegalAction
    assert state.finished and played.actions > 0


def test_ai_players_buy_back_one_cave_unit() -> None:
    state = DrawState(DrawConfig(seats=2), random.Random(0))
    view = state.view(0)
    broke = view.__class__(
        **{**{f: getattr(view, f) for f in view.__dataclass_fields__}, "phase": "rebuy"}
    )
    for policy in (
        RandomPolicy(random.Random(1)),
        CallingPolicy(random.Random(1)),
        StrongPolicy(random.Random(1)),
    ):
        assert policy.decide(broke) == Rebuy(1)


def _broke_view(deals: int | None, caves_bought: int):  # type: ignore[no-untyped-def]
    state = DrawState(DrawConfig(seats=2, deals=deals), random.Random(0))
    view = state.view(0)
    fields = {f: getattr(view, f) for f in view.__dataclass_fields__}
    bought = (caves_bought * view.cave_unit, view.bought[1])
    return view.__class__(**{**fields, "phase": "rebuy", "bought": bought})


@pytest.mark.parametrize("name", ["random", "calling", "strong"])
def test_without_a_deal_limit_ai_players_stop_buying_after_some_caves(name: str) -> None:
    policy = SPEC.make_policy(name, random.Random(1))
    assert policy.decide(_broke_view(None, AI_CAVES - 1)) == Rebuy(1)
    assert policy.decide(_broke_view(None, AI_CAVES)) == SitOut()
    # With a deal limit the match ends anyway: they buy back as often as they need.
    assert policy.decide(_broke_view(30, AI_CAVES + 3)) == Rebuy(1)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_match_of_ai_players_alone_with_no_deal_limit_ends(seed: int) -> None:
    rng = random.Random(seed)
    policies = [
        SPEC.make_policy(rng.choice(["random", "calling"]), random.Random(s)) for s in range(3)
    ]
    state = DrawState(DrawConfig(seats=3, deals=None, cave_unit=40), random.Random(seed))
    for _ in range(500_000):
        if state.finished:
            break
        seat = state.to_act
        assert seat is not None
        state.apply(seat, policies[seat].decide(state.view(seat)))
    assert state.finished


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("9S 9D 2C 5H KD", STAND),  # a pair: stand pat
        ("AS KD 2C 5H 8D", Draw((3, 4, 5))),  # keep the two highest, draw three
    ],
)
def test_the_calling_player_stands_pat_with_a_pair_else_draws_three(
    cards: str, expected: Draw
) -> None:
    assert calling_draw(hand(cards)) == expected


def test_the_calling_player_opens_when_it_can_and_otherwise_checks_or_calls() -> None:
    rng = random.Random(0)
    for seed in range(200):
        state = DrawState(DrawConfig(seats=3, deals=6), random.Random(seed))
        policy = CallingPolicy(rng)
        while not state.finished:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            action = policy.decide(view)
            if view.can_open and any(isinstance(a, Open) for a in view.legal):
                assert isinstance(action, Open)
            assert str(action) != "fold" or "check" not in {str(a) for a in view.legal}
            state.apply(seat, action)
        if seed > 20:
            break


@pytest.mark.parametrize(
    ("cards", "kept"),
    [
        ("7S 7D 7C 2H 9D", "7S 7D 7C"),  # trips keep three
        ("QS QD 5C 5H 9D", "QS QD 5C 5H"),  # two pair keep four
        ("JS JD 2C 6H 9D", "JS JD"),  # a pair keeps two
        ("AH 9H 6H 3H KS", "AH 9H 6H 3H"),  # four to a flush
        ("9C 8D 7H 6S 2C", "9C 8D 7H 6S"),  # open-ended straight
        ("TS 9H 6D 5C 4S", "TS"),  # nothing: the highest card
        ("2S 3S 4S 5S 7S", "2S 3S 4S 5S 7S"),  # a flush stands pat
    ],
)
def test_the_strong_player_draws_soundly(cards: str, kept: str) -> None:
    cards_sorted = hand(cards)
    draw = strong_draw(cards_sorted)
    keep = {c for i, c in enumerate(cards_sorted) if i + 1 not in draw.positions}
    assert keep == set(parse_cards(kept))


def test_equity_orders_hands_and_respects_a_pat_opponent() -> None:
    rng = random.Random(5)
    aces = equity(hand("AS AD 7C 4H 2D"), None, [3], rng, trials=600)
    junk = equity(hand("9S 7D 5C 4H 2D"), None, [3], rng, trials=600)
    assert aces > 0.6 > junk
    against_pat = equity(hand("AS AD 7C 4H 2D"), None, [0], rng, trials=600)
    assert against_pat < aces - 0.2


def test_strong_beats_random_and_calling_players_in_a_short_seeded_run() -> None:
    for rivals in ("random", "calling"):
        result = simulate(SPEC, ["strong", rivals, rivals, rivals], n=150, seed=11, rotate=True)
        figure = result.to_json()["seats"][0]["chips_per_deal"]
        assert figure["mean"] > 0, (rivals, figure)
