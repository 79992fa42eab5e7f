"""The duel's AI players: legal moves from views only, the baselines' stated behaviour, and the
strong player's reading of signals, discards and its lock trade-off."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.commands.simulate import simulate
from engines.ai.duel import BASE_STRENGTH, HonestPolicy, StrongPolicy, beats, duel_higher
from engines.cards import new_deck, parse_card, parse_cards
from engines.duel import SPEC, DuelConfig, DuelState, Lock, new_state
from engines.poker.actions import AllIn, Call, Check, Fold


def rigged(hand0: str, hand1: str, *, first: int = 0) -> DuelState:
    """Deal 1 with chosen hands; the rest of the shoe is the stock."""
    state = new_state(DuelConfig(first_player=first), random.Random(0))
    state.hands = [parse_cards(hand0), parse_cards(hand1)]
    rest = Counter(new_deck(2))
    rest.subtract(state.hands[0] + state.hands[1])
    state.stock = sorted(rest.elements(), key=lambda c: c.code)
    return state


def test_beats_follows_the_duel_order() -> None:
    assert beats(2, 14) == 1 and beats(14, 2) == 0 and beats(2, 3) == 0 and beats(9, 9) == 0.5
    # against a random rank, A and K are equally strong (A loses to 2, K beats it)
    assert BASE_STRENGTH[14] == BASE_STRENGTH[13] > BASE_STRENGTH[12]
    assert BASE_STRENGTH[2] == BASE_STRENGTH[3] == min(BASE_STRENGTH.values())


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), name=st.sampled_from(["random", "honest", "strong"]))
def test_every_policy_only_plays_legal_actions(seed: int, name: str) -> None:
    state = new_state(DuelConfig(), random.Random(seed))
    players = [
        SPEC.make_policy(name, random.Random(seed)),
        SPEC.make_policy("random", random.Random(1)),
    ]
    for _ in range(400):
        if state.finished:
            break
        seat = state.to_act
        assert seat is not None
        action = players[seat].decide(state.view(seat))
        state.check(seat, action)  # raises if illegal
        state.apply(seat, action)


def test_strong_decides_from_the_view_only() -> None:
    """Two states that differ only in hidden cards (same signals) give the same decision."""
    a = rigged("KS 4C", "9D 2H")
    b = rigged("KS 4C", "QC 6S")
    for state in (a, b):
        state.apply(0, Lock(parse_card("KS")))
        state.apply(1, Lock(state.hands[1][0]))
    assert a.view(0) == b.view(0)
    choices = {str(StrongPolicy(random.Random(5)).decide(s.view(0))) for s in (a, b)}
    assert len(choices) == 1


def test_honest_locks_the_card_that_wins_the_duel_between_its_two() -> None:
    honest = HonestPolicy(random.Random(0))
    assert honest.decide(rigged("KS 4C", "9D 2H").view(0)) == Lock(parse_card("KS"))
    assert honest.decide(rigged("AS 2C", "9D 2H").view(0)) == Lock(parse_card("2C"))
    assert duel_higher(parse_card("2C"), parse_card("AS")) == parse_card("2C")


def test_honest_never_bluffs_with_a_weak_card() -> None:
    state = rigged("3S 4C", "9D 2H")
    state.apply(0, Lock(parse_card("3S")))
    state.apply(1, Lock(parse_card("9D")))
    assert HonestPolicy(random.Random(0)).decide(state.view(0)) == Check()


def test_honest_bets_its_strong_card() -> None:
    state = rigged("KS 4C", "9D 2H")
    state.apply(0, Lock(parse_card("KS")))
    state.apply(1, Lock(parse_card("9D")))
    assert str(HonestPolicy(random.Random(0)).decide(state.view(0))).startswith("bet")


def test_strong_reads_the_signals() -> None:
    strong = StrongPolicy(random.Random(0))
    up = strong.opp_lock_distribution(rigged("KS 4C", "9D TH").view(0))
    down = strong.opp_lock_distribution(rigged("KS 4C", "3D 2H").view(0))
    assert sum(p for r, p in up.items() if r < 8) == 0
    assert sum(p for r, p in down.items() if r >= 8) == 0
    assert sum(up.values()) == pytest.approx(1) and sum(down.values()) == pytest.approx(1)


def test_strong_counts_the_cards_already_seen() -> None:
    state = rigged("KS 4C", "9D TH")
    aces = [c for c in state.stock if c.rank == 14]
    for ace in aces:
        state.stock.remove(ace)
    state.discards = aces  # every ace was shown
    dist = StrongPolicy(random.Random(0)).opp_lock_distribution(state.view(0))
    assert dist[14] == 0 and dist[13] > 0


def test_strong_keeps_its_better_card_when_the_worse_one_wins_anyway() -> None:
    """Against two DOWN cards a queen wins as surely as a king: lock the queen, keep the king."""
    state = rigged("KS QC", "3D 4H")
    assert StrongPolicy(random.Random(0)).decide(state.view(0)) == Lock(parse_card("QC"))


def test_strong_locks_its_ace_not_its_two_against_down_cards() -> None:
    """Against two DOWN cards the 2 loses to almost anything and the ace wins almost surely."""
    state = rigged("AS 2C", "5D 6H")
    assert StrongPolicy(random.Random(0)).decide(state.view(0)) == Lock(parse_card("AS"))


def test_strong_calls_an_all_in_with_a_sure_winner_and_folds_a_sure_loser() -> None:
    sure = rigged("KS QC", "3D 4H", first=1)
    sure.apply(1, Lock(parse_card("3D")))
    sure.apply(0, Lock(parse_card("KS")))
    sure.apply(1, AllIn())
    assert StrongPolicy(random.Random(0)).decide(sure.view(0)) == Call()
    lost = rigged("3S 3C", "KD AH", first=1)
    lost.apply(1, Lock(parse_card("KD")))
    lost.apply(0, Lock(parse_card("3S")))
    lost.apply(1, AllIn())
    assert StrongPolicy(random.Random(0)).decide(lost.view(0)) == Fold()


def test_strong_beats_both_baselines_over_short_runs() -> None:
    """A smoke check of strength (the 2,000-match figures are in docs/benchmarks.md)."""
    for rival in ("random", "honest"):
        result = simulate(SPEC, ["strong", rival], 60, seed=11, rotate=True)
        wins = sum(result.samples[0]["match_win_rate"]) / len(result.samples[0]["match_win_rate"])
        assert wins >= 0.7, (rival, wins)
