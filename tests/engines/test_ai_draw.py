"""AI players of French draw poker: legal from a view, baselines as specified, strong is sound."""

from __future__ import annotations

import random
from copy import deepcopy

import pytest

from bot.commands.draw_pool import duplicate, margin
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
from engines.ai.draw_best import best_draw
from engines.ai.draw_hard import Habits, HardPolicy
from engines.ai.draw_pool import STYLES, tier
from engines.cards import parse_cards
from engines.draw import SPEC, DrawConfig, DrawState
from engines.draw.actions import (
    STAND,
    Call,
    Check,
    Draw,
    Fold,
    NoSurblind,
    Open,
    Raise,
    Rebuy,
    SitOut,
    Surblind,
)
from engines.draw.hands import sort_hand
from engines.draw.view import DrawView
from engines.play import play_out


def hand(text: str) -> list:  # type: ignore[type-arg]
    return sort_hand(parse_cards(text))


ALL_POLICIES = sorted(SPEC.policies)


@pytest.mark.parametrize("name", ALL_POLICIES)
def test_every_policy_only_plays_legal_actions_from_its_view(name: str) -> None:
    policies = [SPEC.make_policy(name, random.Random(i)) for i in range(4)]
    state = DrawState(DrawConfig(seats=4, deals=25, cave_unit=40), random.Random(3))
    played = play_out(state, policies)  # an illegal action would raise IllegalAction
    assert state.finished and played.actions > 0


@pytest.mark.parametrize("seed", range(4))
def test_hard_plays_only_legal_moves_against_every_style_at_every_table_size(seed: int) -> None:
    rng = random.Random(seed)
    seats = 2 + seed
    for cave in (8, 200):
        policies = [
            SPEC.make_policy("hard" if s == seed % seats else rng.choice(ALL_POLICIES), rng)
            for s in range(seats)
        ]
        state = DrawState(DrawConfig(seats=seats, deals=30, cave_unit=cave), random.Random(seed))
        for _ in range(100_000):
            if state.finished:
                break
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            action = policies[seat].decide(view)
            state.check(seat, action)  # raises IllegalAction for an illegal move
            state.apply(seat, action)
        assert state.finished


def _hidden_cards_shuffled(state: DrawState, seat: int, rng: random.Random) -> DrawState:
    """The same table as `seat` sees it, with every card it cannot see dealt differently."""
    data = state.snapshot()
    hidden = [h for s, h in enumerate(data["hands"]) if s != seat]
    pool = [c for h in hidden for c in h] + list(data["stock"])
    rng.shuffle(pool)
    hands = []
    for s, h in enumerate(data["hands"]):
        if s == seat:
            hands.append(h)
        else:
            hands.append(pool[: len(h)])
            pool = pool[len(h) :]
    return DrawState.restore({**data, "hands": hands, "stock": pool})


@pytest.mark.parametrize("name", ["hard", "strong", "tag", "maniac"])
def test_policies_decide_from_their_seats_view_only(name: str) -> None:
    # At every decision of seat 0, a table that looks the same from seat 0 but deals every
    # hidden card differently gets the same decision from a copy of the same policy.
    rng = random.Random(4)
    policies = [SPEC.make_policy(name, random.Random(s)) for s in range(3)]
    state = DrawState(DrawConfig(seats=3, deals=20), random.Random(8))
    decisions = 0
    while not state.finished:
        seat = state.to_act
        assert seat is not None
        if seat == 0:
            twin = _hidden_cards_shuffled(state, 0, rng)
            assert twin.view(0) == state.view(0)
            copy = deepcopy(policies[0])
            assert copy.decide(twin.view(0)) == (action := policies[0].decide(state.view(0)))
            decisions += 1
        else:
            action = policies[seat].decide(state.view(seat))
        state.apply(seat, action)
    assert decisions > 10


def test_hard_draws_the_exact_best_draw_unless_it_bluffs() -> None:
    draws = bluffs = 0
    for seed in range(3):
        policies = [HardPolicy(random.Random(seed * 10 + s)) for s in range(3)]
        state = DrawState(DrawConfig(seats=3, deals=25), random.Random(seed))
        while not state.finished:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            action = policies[seat].decide(view)
            if view.phase == "draw":
                draws += 1
                if policies[seat].bluffing:
                    bluffs += 1
                    assert action == STAND and len(best_draw(view.hand).positions) >= 3
                else:
                    assert action == best_draw(view.hand)
            state.apply(seat, action)
    assert draws > 50


def test_hard_takes_the_surblind_only_deep_and_short_handed() -> None:
    state = DrawState(DrawConfig(seats=2), random.Random(0))
    view = state.view(0)
    fields = {f: getattr(view, f) for f in view.__dataclass_fields__}
    policy = HardPolicy(random.Random(0))
    asked = view.__class__(**{**fields, "phase": "surblind", "deal": 7})
    assert policy.decide(asked) == Surblind()
    short = view.__class__(**{**fields, "phase": "surblind", "stacks": (10, 400), "deal": 8})
    assert policy.decide(short) == NoSurblind()


def test_hard_buys_back_enough_to_cover_the_deepest_opponent_within_its_limits() -> None:
    def broke(stacks: tuple[int, ...], deals: int | None, bought: int) -> DrawView:
        state = DrawState(DrawConfig(seats=len(stacks), deals=deals), random.Random(0))
        view = state.view(0)
        fields = {f: getattr(view, f) for f in view.__dataclass_fields__}
        spent = (bought * view.cave_unit, *view.bought[1:])
        return view.__class__(**{**fields, "phase": "rebuy", "stacks": stacks, "bought": spent})

    policy = HardPolicy(random.Random(0))
    assert policy.decide(broke((0, 150, 180), 20, 1)) == Rebuy(1)
    assert policy.decide(broke((0, 450, 100), 20, 1)) == Rebuy(3)
    assert policy.decide(broke((0, 2000, 100), 20, 1)) == Rebuy(3)  # at most three at once
    assert policy.decide(broke((0, 2000, 100), None, AI_CAVES - 1)) == Rebuy(1)
    assert policy.decide(broke((0, 2000, 100), None, AI_CAVES)) == SitOut()


def _facing_the_entry(seed: int, reraised: bool) -> DrawView:
    """A blind deal of four, no surblind: the first to speak comes in at the entry price (4)
    and the next folds or raises to 16; the view of the player to act after them."""
    state = DrawState(DrawConfig(seats=4, deals=5), random.Random(seed))
    for action in (NoSurblind(), Raise(4), Raise(16) if reraised else Fold()):
        assert state.to_act is not None
        state.apply(state.to_act, action)
    assert state.to_act is not None
    view = state.view(state.to_act)
    assert view.phase == "bet1" and Call() in view.legal
    return view


def test_hard_stays_in_for_the_entry_but_pays_a_raise_over_it_by_pot_odds_alone() -> None:
    # A-K-5-3 of hearts and a queen: four to the nut flush. Facing the entry alone it stays
    # in (the price buys a draw and the betting after it); raised to four times the entry
    # by a player it has seen raise now and then, the same hand folds (a loose raiser makes
    # a draw pay); the same raise from a player that, as this seat saw it in earlier deals,
    # raises nearly every time (a maniac), or from one it has not seen act yet, it calls.
    entry = _facing_the_entry(107, reraised=False)
    assert sorted(c.rank for c in entry.hand) == [3, 5, 12, 13, 14]
    assert len({c.suit for c in entry.hand}) == 2
    assert HardPolicy(random.Random(0)).decide(entry) == Call()
    raised = _facing_the_entry(107, reraised=True)
    assert raised.hand == entry.hand and raised.to_call > entry.to_call
    raiser, text = raised.history[-1]
    assert text.startswith("raise")

    def facing(habits: Habits | None) -> object:
        policy = HardPolicy(random.Random(0))
        if habits is not None:
            policy.habits[raiser] = habits  # what it saw of the raiser in earlier deals
        return policy.decide(raised)

    assert facing(Habits(aggressive=3, passive=9)) == Fold()
    assert facing(Habits(aggressive=30, passive=5)) == Call()
    assert facing(None) == Call()


def test_hard_beats_normal_on_duplicate_deals_with_fixed_seeds() -> None:
    # Hard in each seat in turn against three of frozen strong (today's normal), the same
    # cards in every rotation; normal in hard's place would make exactly zero.
    result = duplicate("hard", "strong_v1", groups=2, seed=7)
    assert result.deals == 2 * 4 * 25
    assert result.chips().mean > 0, result.groups
    assert SPEC.level_policy("hard") == "hard" and SPEC.level_policy("normal") == "strong"
    mirror = duplicate("strong", "strong_v1", groups=1, seed=7)
    assert mirror.groups == [0.0]


def test_hard_beats_normal_against_loose_aggressive_players_on_fixed_seeds() -> None:
    # Hard, then normal, in each seat in turn against three `lag` on the same duplicate
    # deals (groups 7-11 of the bench's seed 43, 2,000 deals each). Over so few deals the
    # margin is noisy: these groups were checked to show a loss for hard's previous rule
    # (a fair share of the pot paid any raise before the draw), -2.75 chips/deal; over
    # 20,000 deals hard's margin is +4.99 [+2.34, +7.63] (docs/benchmarks.md).
    hard = duplicate("hard", "lag", groups=5, seed=43, start=7)
    normal = duplicate(SPEC.level_policy("normal"), "lag", groups=5, seed=43, start=7)
    assert hard.deals >= 5 * 4 * 25 and normal.deals >= 5 * 4 * 25
    assert margin(hard, normal).mean > 0, (hard.groups, normal.groups)


@pytest.mark.parametrize("name", ["tag", "lag", "maniac", "rock"])
def test_the_styles_play_as_described(name: str) -> None:
    style = STYLES[name]
    policy = SPEC.make_policy(name, random.Random(0))
    loose = sum(1 for s in STYLES.values() if s.enter < style.enter)
    assert policy.name == name and 0 <= loose < len(STYLES)
    # Facing an entry price with nothing: only the maniac (and a bluff) comes in.
    entries = 0
    for seed in range(40):
        state = DrawState(DrawConfig(seats=3), random.Random(seed))
        while state.phase == "surblind" and state.to_act is not None:
            state.apply(state.to_act, NoSurblind())
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        if view.phase != "bet1" or tier(view.hand, True) != 0 or Check() in view.legal:
            continue
        entries += policy.decide(view) != Fold()
    if name == "maniac":
        assert entries > 0
    if name == "rock":
        assert entries == 0


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
