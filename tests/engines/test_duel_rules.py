"""Deuce Duel rules, one test per rule of docs/duel.md (and its rulings)."""

from __future__ import annotations

import itertools
import json
import random
import re
from collections import Counter
from collections.abc import Sequence

import pytest
from pydantic import ValidationError

from engines.base import (
    ChipsBought,
    DealSettled,
    DealStarted,
    Event,
    IllegalAction,
    MatchEnded,
    NotYourTurn,
    to_jsonable,
)
from engines.cards import Card, new_deck, parse_card, parse_cards
from engines.duel import (
    SPEC,
    AntesPaid,
    BettingSkipped,
    CardsDealt,
    Check,
    DuelConfig,
    DuelState,
    Fold,
    Lock,
    Locked,
    Reshuffled,
    Showdown,
    SignalsShown,
    compare,
    new_state,
    parse_action,
    restore,
    signal_of,
    timeout_action,
)
from engines.fair import DealSource
from engines.play import play_out
from engines.poker.events import UncalledReturned
from tests.refusals import assert_refused


def c(text: str) -> Card:
    return parse_card(text)


def rig(
    hands: Sequence[str],
    *,
    chips: Sequence[int] = (20, 20),
    first: int = 0,
    stock_top: str = "",
    stock_size: int | None = None,
) -> DuelState:
    """A state at the lock step of a deal with the given hands (after the antes were paid:
    `chips` are the chips before the ante). Every other card of the shoe is in the stock,
    `stock_top` first; with `stock_size` the rest goes to the discards."""
    state = new_state(DuelConfig(first_player=first), random.Random(1))
    state.hands = [parse_cards(hands[0]), parse_cards(hands[1])]
    rest = Counter(new_deck(2))
    rest.subtract(state.hands[0] + state.hands[1])
    top = parse_cards(stock_top)
    rest.subtract(top)
    others = sorted(rest.elements(), key=lambda card: card.code)
    stock = others + top[::-1]  # the top of the stock is the end of the list
    if stock_size is not None:
        cut = len(stock) - stock_size
        state.discards, stock = stock[:cut], stock[cut:]
    state.stock = stock
    if stock_top:
        # The next deal reorders the stock with its own seed: stack it to keep `stock_top`.
        state.source = state.source.stacked(state.deal + 1, stock[::-1])
    state.first = first
    state.to_act_seat = first
    state.start_chips = list(chips)
    state.antes = [min(1, n) for n in chips]
    state.chips = [n - a for n, a in zip(chips, state.antes, strict=True)]
    return state


def play(state: DuelState, *moves: tuple[int, str]) -> list[Event]:
    events: list[Event] = []
    for seat, text in moves:
        events += state.apply(seat, parse_action(text))
    return events


def of(events: Sequence[Event], kind: type[Event]) -> list[Event]:
    return [e for e in events if isinstance(e, kind)]


def refused(state: DuelState, seat: int, action: str, code: str) -> IllegalAction:
    return assert_refused(state, seat, parse_action(action), code)


def total_cards(state: DuelState) -> Counter[Card]:
    return Counter(state.stock + state.discards + state.hands[0] + state.hands[1])


# --- start -------------------------------------------------------------------


def test_config_defaults_are_the_rules() -> None:
    config = DuelConfig()
    assert (config.starting_chips, config.ante, config.min_bet, config.decks) == (20, 1, 1, 2)


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"seats": 3}, "exactly 2 players"),
        ({"ante": 20}, "ante (20) must be smaller"),
        ({"starting_chips": 1}, "starting_chips"),
        ({"first_player": 2}, "first_player"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_config_refuses_bad_settings_clearly(settings: dict[str, int], words: str) -> None:
    with pytest.raises(ValidationError, match=re.escape(words)):
        SPEC.make_config(**settings)


def test_shoe_is_two_decks_of_104_cards_and_each_starts_with_20_chips() -> None:
    state = new_state(DuelConfig(), random.Random(5))
    assert total_cards(state) == Counter(new_deck(2))
    assert sum(total_cards(state).values()) == 104
    bought = of(state.opening_events, ChipsBought)
    assert [(e.seat, e.amount, e.reason) for e in bought] == [(0, 20, "buy-in"), (1, 20, "buy-in")]


def test_each_deal_costs_a_one_chip_ante() -> None:
    state = new_state(DuelConfig(), random.Random(5))
    assert state.chips == [19, 19]
    assert state.view(None).pot == 2
    antes = of(state.opening_events, AntesPaid)
    assert antes[0].amounts == (1, 1)
    play(state, (0, f"lock {state.hands[0][0]}"), (1, f"lock {state.hands[1][0]}"))
    play(state, (0, "check"), (1, "check"))
    assert sum(state.chips) == 38 and state.view(None).pot == 2  # next deal's antes are in


@pytest.mark.parametrize("first", [0, 1])
def test_first_deal_is_dealt_alternately_first_player_first(first: int) -> None:
    source = DealSource(bytes(range(32)))
    state = new_state(DuelConfig(first_player=first), random.Random(9), source)
    assert of(state.opening_events, DealStarted)[0].commitment == source.commitment(1)
    top = source.deck(1, decks=2)
    assert state.hands[first] == [top[0], top[2]]
    assert state.hands[1 - first] == [top[1], top[3]]
    assert state.to_act == first
    dealt = of(state.opening_events, CardsDealt)
    assert [e.to for e in dealt] == [first, 1 - first]


# --- signals -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "signal"),
    [("8D 7C", (1, 1)), ("2D 7C", (0, 2)), ("AS 8H", (2, 0)), ("TS 3S", (1, 1))],
)
def test_signal_counts_up_8_to_ace_and_down_2_to_7(hand: str, signal: tuple[int, int]) -> None:
    assert signal_of(parse_cards(hand)) == signal


def test_signals_are_public_to_both_players_and_spectators() -> None:
    state = rig(["AS 8H", "2D 7C"])
    for seat in (0, 1, None):
        assert state.view(seat).signals == ((2, 0), (0, 2))


def test_signals_never_reveal_which_card_is_locked_nor_its_group() -> None:
    """Hands with one UP and one DOWN card: locking either gives the same public views."""
    views = []
    for lock0, lock1 in [("KS", "3D"), ("4C", "9H"), ("KS", "9H"), ("4C", "3D")]:
        state = rig(["KS 4C", "3D 9H"])
        play(state, (0, f"lock {lock0}"), (1, f"lock {lock1}"))
        views.append((state.view(None), state.view(1).hand, state.view(0).hand))
        assert state.view(1).my_lock == c(lock1) and state.view(0).my_lock == c(lock0)
    spectators = {v[0] for v in views}
    assert len(spectators) == 1
    assert views[0][0].signals == ((1, 1), (1, 1))


def test_signals_are_shown_again_after_the_replacement() -> None:
    state = rig(["KS 4C", "3D 9H"], stock_top="2H QC")
    events = play(state, (0, "lock KS"), (1, "lock 3D"), (0, "check"), (1, "check"))
    shown = of(events, SignalsShown)
    assert len(shown) == 1
    # seat 0 keeps 4C and draws 2H, seat 1 keeps 9H and draws QC
    assert shown[0].signals == ((0, 2), (2, 0)) == state.view(None).signals


# --- locking -----------------------------------------------------------------


def test_first_player_locks_then_the_second() -> None:
    state = rig(["KS 4C", "3D 9H"], first=1)
    refused(state, 0, "lock KS", "not_your_turn")
    events = play(state, (1, "lock 9H"))
    assert state.to_act == 0
    assert [e.seat for e in of(events, Locked)] == [1]


def test_lock_refuses_a_card_not_held() -> None:
    state = rig(["KS 4C", "3D 9H"])
    error = refused(state, 0, "lock 3D", "duel_not_your_card")
    assert "you do not hold 3D" in error.message


def test_betting_starts_only_when_both_have_locked() -> None:
    state = rig(["KS 4C", "3D 9H"])
    refused(state, 0, "bet 2", "duel_lock_first")
    play(state, (0, "lock KS"))
    refused(state, 1, "check", "duel_lock_first")
    play(state, (1, "lock 3D"))
    assert state.phase == "bet" and state.to_act == 0


def test_a_locked_card_cannot_be_changed() -> None:
    state = rig(["KS 4C", "3D 9H"])
    play(state, (0, "lock KS"))
    with pytest.raises(NotYourTurn):
        state.apply(0, Lock(c("4C")))
    play(state, (1, "lock 3D"))
    error = refused(state, 0, "lock 4C", "duel_already_locked")
    assert "cannot be changed" in error.message
    assert state.view(0).my_lock == c("KS")


def test_views_show_that_the_other_locked_but_not_what() -> None:
    state = rig(["KS 4C", "3D 9H"])
    events = play(state, (0, "lock KS"))
    view = state.view(1)
    assert view.locked == (True, False)
    assert view.my_lock is None and view.hand == (c("3D"), c("9H"))
    public = [e for e in events if e.to is None]
    assert all("KS" not in str(e.to_json()) for e in public)
    assert state.view(None).hand == ()


# --- betting -----------------------------------------------------------------


def locked_pair(chips: Sequence[int] = (20, 20)) -> DuelState:
    state = rig(["KS 4C", "3D 9H"], chips=chips)
    play(state, (0, "lock KS"), (1, "lock 3D"))
    return state


def test_minimum_bet_is_one_chip() -> None:
    state = locked_pair()
    refused(state, 0, "bet 0", "bad_amount")
    play(state, (0, "bet 1"))
    assert state.bets == [1, 0]


def test_fold_is_refused_when_checking_is_free() -> None:
    refused(locked_pair(), 0, "fold", "fold_when_check_free")


def test_raise_must_add_at_least_the_last_full_bet_or_raise() -> None:
    state = locked_pair()
    play(state, (0, "bet 3"))
    refused(state, 1, "raise 5", "raise_below_min")
    play(state, (1, "raise 6"))
    refused(state, 0, "raise 8", "raise_below_min")
    play(state, (0, "raise 9"))
    assert state.bets == [9, 6]


def test_amounts_are_totals_for_the_round_not_counting_the_ante() -> None:
    state = locked_pair()
    play(state, (0, "bet 3"), (1, "raise 6"))
    assert state.chips == [16, 13]  # 19 behind after the ante, minus the round totals
    assert state.view(None).pot == 2 + 9


def test_all_in_may_be_short_and_does_not_reopen_raising() -> None:
    state = locked_pair(chips=(20, 9))  # seat 1 has 8 behind after the ante
    play(state, (0, "bet 5"))
    events = play(state, (1, "allin"))
    assert state.bets == [5, 8]  # a raise of 3, short of a full raise of 5
    assert state.view(0).can_raise is False
    refused(state, 0, "raise 13", "raise_nobody_can_call")
    play(state, (0, "call"))
    assert of(events, UncalledReturned) == []


def test_facing_an_all_in_only_call_or_fold() -> None:
    state = locked_pair(chips=(20, 20))
    play(state, (0, "allin"))
    options = {str(a) for a in state.legal_actions(1)}
    assert options == {"call", "fold"}
    refused(state, 1, "raise 19", "raise_not_above")
    refused(state, 1, "bet 3", "bet_when_bet")


def test_a_call_that_cannot_be_covered_puts_in_the_rest_and_the_excess_returns() -> None:
    state = locked_pair(chips=(20, 6))  # seat 1 has 5 behind
    play(state, (0, "bet 15"))
    events = play(state, (1, "call"))
    returned = of(events, UncalledReturned)
    assert [(e.seat, e.amount) for e in returned] == [(0, 10)]
    showdown = of(events, Showdown)[0]
    assert showdown.pot == 2 + 5 + 5
    # KS beats 3D: seat 0 wins 12, seat 1 ends with 0 and loses the match
    assert state.finished and state.winners == (0,)


def test_bets_are_not_capped_at_the_opponent_stack() -> None:
    state = locked_pair(chips=(20, 6))
    play(state, (0, "bet 19"))
    assert state.bets == [19, 0]


def test_ante_leaving_a_player_all_in_goes_straight_to_showdown() -> None:
    state = rig(["KS 4C", "3D 9H"], chips=(39, 1))
    assert state.chips == [38, 0]
    events = play(state, (0, "lock 4C"), (1, "lock 9H"))
    assert [e.all_in for e in of(events, BettingSkipped)] == [(1,)]
    showdown = of(events, Showdown)[0]
    assert showdown.winners == (1,) and showdown.pot == 2
    assert not state.finished and state.chips[1] == 2 - 1  # won the pot, paid the next ante


def test_a_short_ante_is_matched_only_up_to_what_was_posted() -> None:
    state = new_state(DuelConfig(ante=3), random.Random(1))
    state.hands = [parse_cards("KS 4C"), parse_cards("3D 9H")]
    state.start_chips, state.chips, state.antes = [38, 2], [35, 0], [3, 2]
    events = play(state, (0, "lock 4C"), (1, "lock 9H"))
    assert [(e.seat, e.amount) for e in of(events, UncalledReturned)] == [(0, 1)]
    assert of(events, Showdown)[0].pot == 4 and of(events, Showdown)[0].winners == (1,)
    assert of(events, DealSettled)[0].chips == (-2, 2)


# --- showdown ----------------------------------------------------------------


def test_two_beats_ace() -> None:
    assert compare(c("2C"), c("AS")) == 1 and compare(c("AS"), c("2C")) == -1


@pytest.mark.parametrize("rank", ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"])
def test_two_loses_to_every_other_rank(rank: str) -> None:
    assert compare(c("2S"), c(rank + "D")) == -1
    assert compare(c(rank + "D"), c("2S")) == 1


def test_ace_high_otherwise_and_suits_do_not_matter() -> None:
    ranks = "3456789TJQKA"
    for low, high in itertools.pairwise(ranks):
        assert compare(c(high + "D"), c(low + "S")) == 1
    assert compare(c("7S"), c("7D")) == 0


def test_showdown_pays_the_higher_locked_card() -> None:
    state = rig(["2S 4C", "AD 9H"])
    events = play(state, (0, "lock 2S"), (1, "lock AD"), (0, "bet 4"), (1, "call"))
    showdown = of(events, Showdown)[0]
    assert showdown.locked == (c("2S"), c("AD"))
    assert showdown.winners == (0,) and showdown.won == (10, 0)
    assert of(events, DealSettled)[0].chips == (5, -5)


def test_equal_ranks_tie_and_split_the_pot() -> None:
    state = rig(["7S 4C", "7D 9H"])
    events = play(state, (0, "lock 7S"), (1, "lock 7D"), (0, "bet 3"), (1, "call"))
    showdown = of(events, Showdown)[0]
    assert showdown.winners == (0, 1) and showdown.won == (4, 4)
    assert of(events, DealSettled)[0].chips == (0, 0)


def test_after_a_fold_the_other_wins_and_both_locked_cards_are_shown() -> None:
    state = rig(["KS 4C", "3D 9H"])
    events = play(state, (0, "lock KS"), (1, "lock 3D"), (0, "check"), (1, "bet 2"), (0, "fold"))
    showdown = of(events, Showdown)[0]
    assert showdown.folded == 0 and showdown.locked == (c("KS"), c("3D"))
    assert showdown.winners == (1,)  # KS would have won; the fold decides
    assert of(events, UncalledReturned)[0].amount == 2
    assert of(events, DealSettled)[0].chips == (-1, 1)
    assert state.view(0).last is not None and state.view(0).last.locked == (c("KS"), c("3D"))


# --- carry-over --------------------------------------------------------------


def test_locked_cards_go_to_the_discards_and_each_keeps_the_other_card() -> None:
    state = rig(["KS 4C", "3D 9H"], stock_top="5H 6H")
    before = len(state.discards)
    play(state, (0, "lock KS"), (1, "lock 9H"), (0, "check"), (1, "check"))
    assert state.hands == [[c("4C"), c("5H")], [c("3D"), c("6H")]]
    assert state.discards[before:] == [c("KS"), c("9H")]


def test_replacements_are_dealt_first_player_first() -> None:
    state = rig(["KS 4C", "3D 9H"], stock_top="5H 6H")
    # seat 1 wins and goes first next deal: it draws first
    play(state, (0, "lock 4C"), (1, "lock 9H"), (0, "check"), (1, "check"))
    assert state.first == 1
    assert state.hands == [[c("KS"), c("6H")], [c("3D"), c("5H")]]


def test_reshuffle_when_fewer_than_two_cards_left_keeps_held_cards_out() -> None:
    state = rig(["KS 4C", "3D 9H"], stock_size=1)
    events = play(state, (0, "lock KS"), (1, "lock 9H"), (0, "check"), (1, "check"))
    reshuffled = of(events, Reshuffled)
    assert [e.stock for e in reshuffled] == [104 - 2]
    assert state.discards == []
    assert len(state.stock) == 100
    held = Counter(state.hands[0] + state.hands[1])
    assert c("4C") in held and c("3D") in held
    assert Counter(state.stock) + held == Counter(new_deck(2))


def test_no_reshuffle_while_two_cards_are_left() -> None:
    state = rig(["KS 4C", "3D 9H"], stock_size=2)
    events = play(state, (0, "lock KS"), (1, "lock 9H"), (0, "check"), (1, "check"))
    assert of(events, Reshuffled) == [] and len(state.stock) == 0


# --- who goes first, end of match --------------------------------------------


def test_table_first_player_starts_the_first_deal() -> None:
    for first in (0, 1):
        state = new_state(DuelConfig(first_player=first), random.Random(3))
        assert state.to_act == first and of(state.opening_events, DealStarted)[0].dealer == first


@pytest.mark.parametrize(("first", "winner"), [(0, 0), (0, 1), (1, 0), (1, 1)])
def test_the_previous_winner_goes_first(first: int, winner: int) -> None:
    hands = ["KD 9H", "3S 4C"] if winner == 0 else ["3S 4C", "KD 9H"]
    state = rig(hands, first=first)
    second = 1 - first
    events = play(
        state,
        (first, f"lock {state.hands[first][0]}"),
        (second, f"lock {state.hands[second][0]}"),
        (first, "check"),
        (second, "check"),
    )
    assert of(events, Showdown)[0].winners == (winner,)
    assert state.first == winner and state.to_act == winner
    assert of(events, DealStarted)[0].dealer == winner


@pytest.mark.parametrize("first", [0, 1])
def test_after_a_tie_the_first_player_switches(first: int) -> None:
    state = rig(["7S 4C", "7D 9H"], first=first)
    play(
        state,
        (first, f"lock {'7S' if first == 0 else '7D'}"),
        (1 - first, f"lock {'7D' if first == 0 else '7S'}"),
        (first, "check"),
        (1 - first, "check"),
    )
    assert state.first == 1 - first and state.to_act == 1 - first


def test_the_match_ends_when_a_player_runs_out_of_chips() -> None:
    state = locked_pair(chips=(20, 20))
    events = play(state, (0, "allin"), (1, "call"))
    ended = of(events, MatchEnded)
    assert [(e.winners, e.totals) for e in ended] == [((0,), (40, 0))]
    assert state.finished and state.to_act is None
    assert of(events, DealStarted) == []
    refused(state, 1, "check", "duel_match_over")


def test_restart_gives_twenty_chips_each() -> None:
    state = locked_pair()
    play(state, (0, "allin"), (1, "call"))
    again = SPEC.new_state(state.config, random.Random(2))
    assert again.start_chips == [20, 20] and not again.finished


# --- protocol ----------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["lock 7S", "lock TD", "check", "call", "fold", "bet 3", "raise 6", "allin"]
)
def test_action_text_round_trips(text: str) -> None:
    assert str(parse_action(text)) == text
    assert str(SPEC.parse_action(str(parse_action(text)))) == text


@pytest.mark.parametrize(
    ("text", "code"),
    [("lock", "duel_bad_lock"), ("lock ZZ", "duel_bad_lock"), ("dance", "bad_input")],
)
def test_unreadable_actions_are_refused_clearly(text: str, code: str) -> None:
    with pytest.raises(IllegalAction) as info:
        parse_action(text)
    assert info.value.code == code and text in info.value.message


def test_wrong_seat_and_missing_seat_are_refused_unchanged() -> None:
    state = rig(["KS 4C", "3D 9H"])
    refused(state, 1, "lock 3D", "not_your_turn")
    refused(state, 5, "lock 3D", "no_such_seat")  # type: ignore[arg-type]


def test_timeout_locks_the_lower_card_then_checks_else_folds() -> None:
    state = rig(["KS 4C", "3D 9H"])
    assert timeout_action(state.view(0)) == Lock(c("4C"))
    play(state, (0, "lock 4C"), (1, "lock 9H"))
    assert timeout_action(state.view(0)) == Check()
    play(state, (0, "bet 2"))
    assert timeout_action(state.view(1)) == Fold()


def test_snapshot_restores_exactly_mid_betting() -> None:
    state = locked_pair()
    play(state, (0, "bet 3"))
    copy = restore(state.snapshot())
    assert copy.snapshot() == state.snapshot()
    assert copy.view(1) == state.view(1)
    assert play(copy, (1, "raise 7"), (0, "call")) == play(state, (1, "raise 7"), (0, "call"))
    assert copy.snapshot() == state.snapshot()


def test_snapshot_and_views_are_plain_json() -> None:
    state = locked_pair()
    play(state, (0, "bet 2"))
    text = json.dumps(state.snapshot())
    assert restore(json.loads(text)).snapshot() == state.snapshot()
    view = to_jsonable(state.view(1))
    json.dumps(view)
    assert view["hand"] == ["3D", "9H"] and view["signals"] == [[1, 1], [1, 1]]
    assert {e["kind"] for e in map(Event.to_json, state.opening_events)} >= {
        "chips_bought",
        "deal_started",
        "duel_signals",
    }


def test_replay_same_seed_same_actions_same_state() -> None:
    moves: list[str] = []
    first = new_state(DuelConfig(), random.Random(77))
    policy = SPEC.make_policy("random", random.Random(4))

    def record(seat: int, action: object, events: list[Event]) -> bool:
        moves.append(str(action))
        return len(moves) >= 300

    play_out(first, [policy, policy], on_action=record)
    second = new_state(DuelConfig(), random.Random(77))
    for text in moves:
        seat = second.to_act
        assert seat is not None
        second.apply(seat, parse_action(text))
    assert second.snapshot() == first.snapshot()
