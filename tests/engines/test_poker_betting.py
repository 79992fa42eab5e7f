"""One no-limit betting round (engines.poker.betting): docs/holdem.md "Betting" rules, and the
options draw poker (docs/draw.md, the blind entry) and the duel (docs/duel.md) rely on."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import IllegalAction, NotYourTurn
from engines.poker import (
    AllIn,
    Bet,
    BettingRound,
    Call,
    Check,
    Fold,
    Raise,
    parse_betting_action,
)


def holdem_preflop(stacks: list[int], sb: int = 10, bb: int = 20) -> BettingRound:
    """Seats 0.. with seat 0 = small blind, 1 = big blind, action from seat 2 (or 0 heads-up)."""
    n = len(stacks)
    order = [(2 + i) % n for i in range(n)] if n > 2 else [0, 1]
    r = BettingRound(stacks, order, min_bet=bb)
    r.post(0, sb)
    r.post(1, bb)
    r.start()
    return r


def refused(r: BettingRound, seat: int, action: object, code: str) -> IllegalAction:
    before = r.to_json()
    with pytest.raises(IllegalAction) as info:
        r.act(seat, action)  # type: ignore[arg-type]
    assert info.value.code == code, info.value.message
    assert r.to_json() == before
    return info.value


def test_canonical_text_round_trips() -> None:
    for action in (Fold(), Check(), Call(), Bet(60), Raise(120), AllIn()):
        assert parse_betting_action(str(action)) == action
    assert [str(a) for a in (Bet(60), Raise(120), AllIn())] == ["bet 60", "raise 120", "allin"]
    assert parse_betting_action("  Raise to 120 ") == Raise(120)
    assert parse_betting_action("all-in") == AllIn()
    with pytest.raises(IllegalAction) as info:
        parse_betting_action("raise")
    assert info.value.code == "missing_amount"
    with pytest.raises(IllegalAction) as info:
        parse_betting_action("jump 5")
    assert "jump 5" in info.value.message


def test_preflop_order_and_big_blind_option() -> None:
    r = holdem_preflop([1000] * 4)
    assert r.to_act == 2
    r.act(2, Call())
    r.act(3, Call())
    r.act(0, Call())
    # Nobody raised: the big blind may still check or raise.
    assert r.to_act == 1
    assert Check() in r.legal_actions(1) and Raise(40) in r.legal_actions(1)
    r.act(1, Check())
    assert r.done and r.committed == [20, 20, 20, 20]


def test_big_blind_option_raise_reopens_for_callers() -> None:
    r = holdem_preflop([1000] * 3)
    r.act(2, Call())
    r.act(0, Call())
    r.act(1, Raise(60))
    assert r.to_act == 2
    r.act(2, Raise(100))
    assert r.min_raise_to() == 140


def test_fold_refused_when_check_is_free() -> None:
    r = BettingRound([100, 100], [0, 1], min_bet=1)
    r.start()
    error = refused(r, 0, Fold(), "fold_when_check_free")
    assert "check" in error.message


def test_check_refused_when_owed_and_call_refused_when_nothing_owed() -> None:
    r = holdem_preflop([1000] * 3)
    refused(r, 2, Check(), "check_when_owed")
    r2 = BettingRound([100, 100], [0, 1], min_bet=1)
    r2.start()
    refused(r2, 0, Call(), "call_nothing_owed")


def test_minimum_bet_and_raise_messages() -> None:
    r = BettingRound([1000] * 3, [0, 1, 2], min_bet=20)
    r.start()
    error = refused(r, 0, Bet(10), "bet_below_min")
    assert error.message == "bet 10 is below the minimum bet of 20"
    r.act(0, Bet(20))
    error = refused(r, 1, Raise(35), "raise_below_min")
    assert error.message == "raise 35 is below the minimum raise to 40"
    r.act(1, Raise(70))  # a raise of 50
    refused(r, 2, Raise(110), "raise_below_min")  # needs +50: 120
    r.act(2, Raise(120))
    assert r.min_raise_to() == 170


def test_bet_and_raise_words_must_fit_the_situation() -> None:
    r = BettingRound([1000] * 2, [0, 1], min_bet=20)
    r.start()
    refused(r, 0, Raise(40), "raise_without_bet")
    r.act(0, Bet(40))
    refused(r, 1, Bet(100), "bet_when_bet")
    refused(r, 1, Raise(40), "raise_not_above")
    refused(r, 1, Raise(5000), "more_than_stack")
    refused(r, 1, Raise(0), "bad_amount")


def test_not_your_turn() -> None:
    r = BettingRound([100, 100], [0, 1], min_bet=1)
    r.start()
    with pytest.raises(NotYourTurn):
        r.act(1, Check())


def test_call_short_puts_everything_in() -> None:
    r = BettingRound([1000, 50], [0, 1], min_bet=20)
    r.start()
    r.act(0, Bet(200))
    move = r.act(1, Call())
    assert move.all_in and move.total == 50 and r.stacks[1] == 0
    # Uncalled 150 goes back to the bettor when the round closes.
    assert r.done and r.returned == (0, 150) and r.committed == [50, 50]
    assert r.stacks[0] == 950


def test_uncalled_bet_returned_when_everyone_folds() -> None:
    r = BettingRound([1000] * 3, [0, 1, 2], min_bet=20)
    r.start()
    r.act(0, Bet(100))
    r.act(1, Fold())
    r.act(2, Fold())
    assert r.done and r.returned == (0, 100) and r.committed == [0, 0, 0]
    assert r.stacks == [1000, 1000, 1000]


def test_short_all_in_does_not_reopen_raising() -> None:
    r = BettingRound([1000, 1000, 150], [0, 1, 2], min_bet=20)
    r.start()
    r.act(0, Bet(100))
    r.act(1, Call())
    move = r.act(2, AllIn())  # raise of 50, short of the full 100
    assert move.verb == "raise" and move.all_in and not move.full
    assert r.to_act == 0
    refused(r, 0, Raise(300), "raise_not_reopened")
    refused(r, 0, AllIn(), "raise_not_reopened")
    assert r.legal_actions(0) == [Call(), Fold()]
    r.act(0, Call())
    r.act(1, Call())
    assert r.done and r.committed == [150, 150, 150]


def test_short_all_in_lets_players_who_have_not_acted_raise() -> None:
    r = BettingRound([1000, 130, 1000], [0, 1, 2], min_bet=20)
    r.start()
    r.act(0, Bet(100))
    r.act(1, AllIn())  # to 130, short
    assert r.can_raise(2)
    refused(r, 2, Raise(200), "raise_below_min")  # still 130 + 100
    r.act(2, Raise(230))
    # Seat 0 faces a full raise now: reopened.
    assert r.can_raise(0)


def test_two_short_all_ins_together_reopen_raising() -> None:
    r = BettingRound([1000, 1000, 150, 200], [0, 1, 2, 3], min_bet=20)
    r.start()
    r.act(0, Bet(100))
    r.act(1, Call())
    r.act(2, AllIn())  # 150: +50
    r.act(3, AllIn())  # 200: +50 more; 100 over what seat 0 and 1 faced
    assert r.to_act == 0 and r.can_raise(0)
    assert r.min_raise_to() == 300
    r.act(0, Raise(300))
    r.act(1, Call())
    assert r.done and r.committed == [300, 300, 150, 200]


def test_no_raise_when_nobody_else_can_bet() -> None:
    r = BettingRound([1000, 300], [0, 1], min_bet=20)
    r.start()
    r.act(0, Bet(50))
    r.act(1, AllIn())
    refused(r, 0, Raise(900), "raise_nobody_can_call")
    assert r.legal_actions(0) == [Call(), Fold()]
    r.act(0, Call())
    assert r.done


def test_duel_bet_over_opponent_stack_excess_returned() -> None:
    r = BettingRound([19, 5], [0, 1], min_bet=1)
    r.start()
    r.act(0, Bet(12))  # more than the opponent has: allowed
    assert r.legal_actions(1) == [Call(), Fold()]  # facing more than it has: call or fold
    r.act(1, Call())
    assert r.done and r.committed == [5, 5] and r.stacks == [14, 0]


def test_no_action_when_only_one_player_has_chips() -> None:
    r = BettingRound([0, 50], [0, 1], min_bet=1)
    r.start()
    assert r.done


def test_draw_blind_entry_costs_twice_the_blind() -> None:
    # Seat 0 blind (10), seats 1, 2 to speak; nobody may just match the blind.
    r = BettingRound([500, 500, 500], [1, 2, 0], min_bet=10, min_raise=10, no_limp=True)
    r.post(0, 10)
    r.start()
    assert r.to_act == 1
    error = refused(r, 1, Call(), "no_limp")
    assert "20" in error.message
    refused(r, 1, Raise(15), "raise_below_min")
    r.act(1, Raise(20))
    r.act(2, Call())  # open now: matching the entry is fine
    r.act(0, Call())  # the blind completes
    assert r.done and r.committed == [20, 20, 20]


def test_draw_surblind_entry_and_short_all_in_below_entry() -> None:
    # Blind 10 (seat 0), surblind 20 (seat 1): entry is 40.
    r = BettingRound([500, 500, 30, 500], [2, 3, 0, 1], min_bet=10, min_raise=20, no_limp=True)
    r.post(0, 10)
    r.post(1, 20)
    r.start()
    assert r.min_raise_to() == 40
    move = r.act(2, AllIn())  # 30: short, below the entry price
    assert move.all_in and not move.full
    # Matching the short all-in is not coming in; the entry price stays 40 (not 30 + 20).
    assert r.min_raise_to() == 40
    refused(r, 3, Call(), "no_limp")
    refused(r, 3, Raise(39), "raise_below_min")
    assert r.act(3, Raise(40)).full
    r.act(0, Fold())
    refused(r, 1, Raise(59), "raise_below_min")
    r.act(1, Raise(60))  # surblind raises when the turn comes back: a full 20
    assert r.to_act == 3


def test_draw_an_all_in_at_exactly_the_entry_price_after_a_short_one_comes_in() -> None:
    # Blind 10 (seat 0): entry 20. Seat 1 all-in for 15 (short), seat 2 all-in for exactly 20.
    r = BettingRound([500, 15, 20, 500], [1, 2, 3, 0], min_bet=10, min_raise=10, no_limp=True)
    r.post(0, 10)
    r.start()
    assert not r.act(1, AllIn()).full
    move = r.act(2, AllIn())
    assert move.all_in and move.full
    assert r.opened
    r.act(3, Call())  # calling is open now
    assert r.committed[3] == 20


def test_draw_a_blind_posted_short_counts_as_a_full_blind_for_the_next_raise() -> None:
    # Blind 10 posted all-in for 4 (seat 0): coming in costs 20, an increase of 10 over the
    # nominal blind, so the next raise goes to at least 30 (not 20 + 16).
    r = BettingRound([4, 500, 500], [1, 2, 0], min_bet=10, min_raise=10, no_limp=True)
    r.post(0, 10)
    r.start()
    assert r.min_raise_to() == 20
    r.act(1, Raise(20))
    assert r.min_raise_to() == 30


def test_draw_facing_stakes_nobody_could_answer_a_seat_may_call() -> None:
    # Blind 10 all-in (seat 0), surblind 20 (seat 1), seat 2 all-in for 30 (short of 40).
    r = BettingRound([10, 500, 30], [2, 0, 1], min_bet=10, min_raise=20, no_limp=True)
    r.post(0, 10)
    r.post(1, 20)
    r.start()
    r.act(2, AllIn())
    assert r.to_act == 1 and r.legal_actions(1) == [Call(), Fold()]
    refused(r, 1, Raise(40), "raise_nobody_can_call")
    r.act(1, Call())
    assert r.done and r.committed == [10, 30, 30]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(1, 60), min_size=2, max_size=6),
    st.integers(0, 2**32),
    st.booleans(),
)
def test_draw_entry_a_seat_with_chips_is_never_left_only_fold(
    stacks: list[int], seed: int, surblind: bool
) -> None:
    # Blind 2 (seat 0) and, when seat 1 holds two blinds, the surblind 4: draw poker's entry.
    rng = random.Random(seed)
    n = len(stacks)
    surblind = surblind and stacks[1] >= 4
    level = 4 if surblind else 2
    last = 1 if surblind else 0
    order = [(last + 1 + i) % n for i in range(n)]
    r = BettingRound(stacks, order, min_bet=2, min_raise=level, no_limp=True)
    r.post(0, 2)
    if surblind:
        r.post(1, 4)
    r.start()
    while r.to_act is not None:
        seat = r.to_act
        if not r.opened:
            assert r.min_raise_to() == 2 * level  # the entry price, whatever was posted
        legal = r.legal_actions(seat)
        assert any(not isinstance(action, Fold) for action in legal), (r.to_json(), legal)
        r.act(seat, _random_action(r, seat, rng))  # type: ignore[arg-type]


def test_draw_everyone_folds_to_the_blind_takes_back_its_stake() -> None:
    r = BettingRound([500, 500, 500], [1, 2, 0], min_bet=10, min_raise=10, no_limp=True)
    r.post(0, 10)
    r.start()
    r.act(1, Fold())
    r.act(2, Fold())
    assert r.done and r.returned == (0, 10) and r.stacks[0] == 500


def test_json_round_trip_mid_round() -> None:
    r = holdem_preflop([1000, 1000, 500])
    r.act(2, Raise(60))
    copy = BettingRound.from_json(r.to_json())
    assert copy.to_json() == r.to_json()
    assert copy.act(0, Call()) == r.act(0, Call())
    assert copy.to_json() == r.to_json()


def _random_action(r: BettingRound, seat: int, rng: random.Random) -> object:
    legal = r.legal_actions(seat)
    choice = rng.choice(legal)
    if isinstance(choice, (Bet, Raise)) and rng.random() < 0.5:
        low, high = choice.amount, r.max_total(seat)
        return type(choice)(rng.randint(low, high))
    return choice


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(0, 400), min_size=2, max_size=8),
    st.integers(0, 2**32),
    st.booleans(),
)
def test_random_rounds_conserve_chips_and_end(stacks: list[int], seed: int, blinds: bool) -> None:
    rng = random.Random(seed)
    n = len(stacks)
    r = BettingRound(stacks, list(range(n)), min_bet=20)
    if blinds:
        r.post(0, 10)
        r.post(1 % n, 20)
    r.start()
    total = sum(stacks)
    for _ in range(500):
        seat = r.to_act
        if seat is None:
            break
        assert r.legal_actions(seat), "a seat to act always has a choice"
        for other in range(n):
            if other != seat:
                assert r.legal_actions(other) == []
        before = r.to_json()
        wrong = rng.choice([Check(), Fold(), Call(), Bet(1), Raise(r.current_bet + 1)])
        try:
            r.check(seat, wrong)
        except IllegalAction:
            assert r.to_json() == before
        r.act(seat, _random_action(r, seat, rng))  # type: ignore[arg-type]
        assert min(r.stacks) >= 0
        assert sum(r.stacks) + sum(r.committed) == total
    assert r.done
    live = [s for s in range(n) if not r.folded[s]]
    # Every live seat with chips matched the highest total.
    top = max(r.committed)
    for s in live:
        assert r.committed[s] == top or r.stacks[s] == 0
    # Nothing uncalled is left: the top total is matched by someone else.
    assert sorted(r.committed)[-2:][0] == top or n == 1


def test_a_draw_round_saved_before_the_entry_level_existed_keeps_its_entry_price() -> None:
    # Old snapshots had no "level": their entry price was the current bet plus min_raise.
    r = BettingRound([500, 500, 500], [1, 2, 0], min_bet=10, min_raise=10, no_limp=True)
    r.post(0, 10)
    r.start()
    old = r.to_json()
    del old["level"]
    restored = BettingRound.from_json(old)
    assert restored.min_raise_to() == r.min_raise_to() == 20
    assert restored.to_json() == r.to_json()
