"""Big Two's hand model: the deal's public record rebuilt from one seat's views, the deals
it samples, its shipped weights and their training, and `hard` searching on its deals."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engines.ai.bigtwo import POLICIES
from engines.ai.bigtwo_hands import (
    HANDS_PATH,
    INPUTS,
    DealHistory,
    HandModel,
    Numbers,
    PublicRecord,
    sample_deals,
    shipped_hand_model,
)
from engines.ai.bigtwo_hands_train import mean_loss, self_play_examples, train
from engines.ai.bigtwo_hard import HardPolicy
from engines.ai.bigtwo_net import shipped_net
from engines.bigtwo import BigTwoConfig, BigTwoState, Play
from engines.bigtwo_combos import ALL_CARDS, keys_of_mask, mask_of_cards


def _move(action: object) -> int:
    return mask_of_cards(action.cards) if isinstance(action, Play) else 0


def test_each_seats_history_matches_what_an_observer_of_every_action_recorded() -> None:
    checked = 0
    for seed in range(4):
        state = BigTwoState(BigTwoConfig(deals=1), random.Random(seed))
        players = [POLICIES["net"](random.Random(seed + s)) for s in range(4)]
        histories = [DealHistory() for _ in range(4)]
        truth = PublicRecord()
        while not state.finished:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            histories[seat].see(view)
            record = histories[seat].record
            assert record is not None
            assert record.played == truth.played
            assert np.array_equal(record.passed, truth.passed)
            assert np.array_equal(record.led, truth.led)
            checked += 1
            action = players[seat].decide(view)
            histories[seat].acted(view, action)
            truth.record(seat, _move(action), view.table)
            state.apply(seat, action)
        assert truth.passed.any() and truth.led.any()
    assert checked > 100


def test_a_seat_that_joins_after_a_trick_was_cleared_has_no_history_and_hard_falls_back() -> None:
    state = BigTwoState(BigTwoConfig(deals=1), random.Random(3))
    players = [POLICIES["net"](random.Random(s)) for s in range(4)]
    while True:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        if len(view.played) > sum(len(e.cards) for e in view.trick):
            break  # some cards were played in a trick this view no longer shows
        state.apply(seat, players[seat].decide(view))
    history = DealHistory()
    history.see(view)
    assert history.record is None
    hard = POLICIES["hard"](random.Random(0))
    assert hard.decide(view) in view.legal
    assert hard.history.record is None


def test_a_seat_that_joins_before_any_trick_was_cleared_reads_the_whole_trick() -> None:
    state = BigTwoState(BigTwoConfig(deals=1), random.Random(3))
    players = [POLICIES["net"](random.Random(s)) for s in range(4)]
    truth = PublicRecord()
    for _ in range(3):
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        action = players[seat].decide(view)
        truth.record(seat, _move(action), view.table)
        state.apply(seat, action)
    seat = state.to_act
    assert seat is not None
    history = DealHistory()
    history.see(state.view(seat))
    assert history.record is not None and history.record.played == truth.played


def test_sampled_deals_give_each_opponent_exactly_its_count_of_unseen_cards() -> None:
    gen = np.random.default_rng(1)
    unseen = sorted(random.Random(2).sample(range(52), 30))
    counts = [12, 10, 8]
    probs = gen.dirichlet([1, 1, 1], size=52)
    for dealt in sample_deals(probs, unseen, counts, 50, gen):
        assert [m.bit_count() for m in dealt] == counts
        assert dealt[0] | dealt[1] | dealt[2] == sum(1 << k for k in unseen)
        assert not dealt[0] & dealt[1] and not dealt[1] & dealt[2] and not dealt[0] & dealt[2]
    with pytest.raises(ValueError, match="31 cards to deal for 30 unseen"):
        sample_deals(probs, unseen, [12, 10, 9], 1, gen)


def test_sampled_deals_follow_the_models_probabilities() -> None:
    unseen = list(range(20))
    counts = [10, 5, 5]
    probs = np.tile(np.array(counts) / sum(counts), (52, 1))  # the counts alone: at random
    probs[0] = [0.0, 1.0, 0.0]  # certainly the second opponent's
    probs[1] = [0.9, 0.05, 0.05]
    deals = sample_deals(probs, unseen, counts, 2000, np.random.default_rng(4))
    assert all(d[1] & 1 for d in deals)
    # Card 1: weights 0.9 x room against 0.05 x room; far above its share of 10 in 20.
    first = sum(bool(d[0] & 2) for d in deals) / len(deals)
    assert first > 0.8, first
    # A card the model says nothing about goes in proportion to the counts.
    ninth = [sum(bool(d[k] & (1 << 9)) for d in deals) / len(deals) for k in range(3)]
    assert ninth[0] == pytest.approx(0.5, abs=0.05) and ninth[1] == pytest.approx(0.25, abs=0.05)


def test_an_opponent_without_cards_is_never_given_one() -> None:
    model = shipped_hand_model()
    record = PublicRecord()
    hand = sum(1 << k for k in range(0, 52, 4))
    unseen = ALL_CARDS & ~hand & ~0xE  # three cards played
    probs = model.probabilities(record.features(0, hand, unseen, [13, 0, 20, 16]))
    keys = keys_of_mask(unseen)
    assert np.allclose(probs[keys].sum(axis=1), 1.0)
    assert not probs[keys, 0].any()
    for dealt in sample_deals(probs, keys, [0, 20, 16], 20, np.random.default_rng(0)):
        assert dealt[0] == 0


def test_the_shipped_weights_are_small_versioned_and_read_hands_better_than_the_counts() -> None:
    assert HANDS_PATH.name == "bigtwo_hands_v1.npz" and HANDS_PATH.stat().st_size < 1_000_000
    model = shipped_hand_model()
    assert model.params[0].shape[0] == INPUTS and all(np.isfinite(w).all() for w in model.params)
    rows, owners = self_play_examples(random.Random(77), 150, shipped_net())
    counts_only = HandModel([np.zeros_like(w) for w in model.params])
    loss, baseline = mean_loss(model, rows, owners), mean_loss(counts_only, rows, owners)
    assert loss < baseline - 0.04, (loss, baseline)


def test_training_reproduces_its_weights_and_learns_something() -> None:
    first, report = train(seed=3, deals=300, epochs=2, log=lambda _: None)
    again, _ = train(seed=3, deals=300, epochs=2, log=lambda _: None)
    assert all(np.array_equal(a, b) for a, b in zip(first.params, again.params, strict=True))
    assert report.deals == 300 and [e for e, _ in report.checks] == [1, 2]
    rows, owners = self_play_examples(random.Random(99), 100, shipped_net())
    counts_only = HandModel([np.zeros_like(w) for w in first.params])
    assert mean_loss(first, rows, owners) < mean_loss(counts_only, rows, owners)


class _Knowing(HandModel):
    """A hand model that knows where every card is (the test's true hands)."""

    def __init__(self, owners: Numbers) -> None:
        super().__init__(shipped_hand_model().params)
        self.owners = owners

    def probabilities(self, features: Numbers) -> Numbers:
        return self.owners


def test_hard_plays_its_candidates_out_on_the_deals_the_hand_model_deals() -> None:
    state = BigTwoState(BigTwoConfig(deals=1), random.Random(8))
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    hands = [state.view(s).hand_mask for s in range(4)]
    owners = np.zeros((52, 3))
    for k in (1, 2, 3):
        for key in keys_of_mask(hands[(seat + k) % 4]):
            owners[key, k - 1] = 1.0
    seen: list[list[int]] = []
    hard = HardPolicy(random.Random(0), hands=_Knowing(owners))
    finish = hard._finish

    def spy(dealt: list[int], *rest: object) -> list[int]:
        seen.append(list(dealt))  # the play-out changes the list it is given
        return finish(dealt, *rest)  # type: ignore[arg-type]

    hard._finish = spy  # type: ignore[method-assign,assignment]
    hard.history.see(view)
    candidates = hard._candidates(view, view.hand_mask)
    hard.values(view, seat, candidates, 20)
    assert seen and all(d[(seat + k) % 4] == hands[(seat + k) % 4] for d in seen for k in (1, 2, 3))


def test_hard4_is_hard_without_the_hand_model() -> None:
    hard, hard4 = POLICIES["hard"](random.Random(0)), POLICIES["hard4"](random.Random(0))
    assert hard.hands is shipped_hand_model() and hard4.hands is None
    assert (hard4.top, hard4.margin, hard4.rollouts, hard4.zero_sum, hard4.net_play_outs) == (
        hard.top,
        hard.margin,
        hard.rollouts,
        hard.zero_sum,
        hard.net_play_outs,
    )
    assert POLICIES["strong"](random.Random(0)).hands is None  # `normal` deals at random
