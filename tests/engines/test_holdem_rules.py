"""Hold'em rules, one test per rule of docs/holdem.md (engine level, stacked decks)."""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

from engines.base import DealSettled, DealStarted, Event, IllegalAction, MatchEnded, NotYourTurn
from engines.cards import FULL_DECK, Card, parse_cards
from engines.holdem import (
    SPEC,
    BlindsPosted,
    BoardDealt,
    Eliminated,
    HoldemConfig,
    HoldemState,
    HoleCards,
    PotAwarded,
    Showdown,
    UncalledReturned,
)
from engines.poker.actions import AllIn, Bet, Call, Check, Fold, Raise

ROYAL = "AS KS QS JS TS"


def stacked(
    n: int, button: int, holes: dict[int, str], board: str, stacks: list[int]
) -> list[Card]:
    """A deck that deals `holes` (seat -> two cards) and `board`, in the engine's order."""
    wanted = {s: parse_cards(h) for s, h in holes.items()}
    board_cards = parse_cards(board)
    used = {c for cs in wanted.values() for c in cs} | set(board_cards)
    spare = [c for c in FULL_DECK if c not in used]
    order = [(button + i) % n for i in range(1, n + 1) if stacks[(button + i) % n] > 0]
    for seat in order:
        wanted.setdefault(seat, [spare.pop(), spare.pop()])
    while len(board_cards) < 5:
        board_cards.append(spare.pop())
    cards = [wanted[s][0] for s in order] + [wanted[s][1] for s in order]
    burns = [spare.pop() for _ in range(3)]
    return [*cards, burns[0], *board_cards[:3], burns[1], board_cards[3], burns[2], board_cards[4]]


def table(
    stacks: list[int],
    holes: dict[int, str] | None = None,
    board: str = "2C 7D 9H JS 3D",
    *,
    button: int = 0,
    sb: int = 10,
    bb: int = 20,
) -> HoldemState:
    n = len(stacks)
    config = HoldemConfig(
        seats=n, stacks=tuple(stacks), button=button, small_blind=sb, big_blind=bb
    )
    deck = stacked(n, button, holes or {}, board, stacks)
    return HoldemState(config, random.Random(1), first_deck=deck)


def play(state: HoldemState, *moves: tuple[int, object]) -> list[Event]:
    events: list[Event] = []
    for seat, action in moves:
        events.extend(state.apply(seat, action))  # type: ignore[arg-type]
    return events


def first(events: list[Event], kind: type) -> object:
    return next(e for e in events if isinstance(e, kind))


def settled_stacks(start: list[int], events: list[Event]) -> list[int]:
    settled = first(events, DealSettled)
    assert isinstance(settled, DealSettled) and settled.chips is not None
    return [s + d for s, d in zip(start, settled.chips, strict=True)]


# Start -----------------------------------------------------------------------------------------


def test_defaults_1000_chips_blinds_10_20_four_seats() -> None:
    config = HoldemConfig()
    assert (config.seats, config.starting_chips, config.small_blind, config.big_blind) == (
        4,
        1000,
        10,
        20,
    )
    state = HoldemState(config, random.Random(3))
    blinds = first(state.opening_events, BlindsPosted)
    assert isinstance(blinds, BlindsPosted) and (blinds.small_blind, blinds.big_blind) == (10, 20)
    assert sum(s.stack + s.bet for s in state.view(None).seats) == 4000


def test_settings_are_validated_with_clear_errors() -> None:
    with pytest.raises(ValidationError, match="big blind"):
        HoldemConfig(small_blind=30, big_blind=20)
    with pytest.raises(ValidationError, match="seats"):
        HoldemConfig(seats=11)
    with pytest.raises(ValidationError, match="button seat 5"):
        HoldemConfig(seats=4, button=5)
    assert HoldemConfig(seats=10, starting_chips=500, small_blind=25, big_blind=50).seats == 10


def test_two_private_cards_each_seen_only_by_their_owner() -> None:
    state = HoldemState(HoldemConfig(), random.Random(4))
    holes = [e for e in state.opening_events if isinstance(e, HoleCards)]
    assert sorted(e.seat for e in holes) == [0, 1, 2, 3]
    assert all(e.to == e.seat and len(e.cards) == 2 for e in holes)
    assert len({c for e in holes for c in e.cards}) == 8
    for e in holes:
        assert state.view(e.seat).hole == e.cards
    assert state.view(None).hole is None
    assert "hole" not in str([s for s in state.view(None).seats])


# Button and blinds -----------------------------------------------------------------------------


def test_button_starts_on_first_seat_blinds_are_next_two_action_after_big_blind() -> None:
    state = HoldemState(HoldemConfig(), random.Random(5))
    view = state.view(None)
    assert (view.button, view.small_blind_seat, view.big_blind_seat) == (0, 1, 2)
    assert state.to_act == 3
    assert [s.bet for s in view.seats] == [0, 10, 20, 0]


def test_button_moves_one_seat_each_hand() -> None:
    state = table([1000] * 4)
    play(state, (3, Fold()), (0, Fold()), (1, Fold()))
    view = state.view(None)
    assert (view.hand, view.button, view.small_blind_seat, view.big_blind_seat) == (2, 1, 2, 3)
    assert state.to_act == 0


def test_button_skips_eliminated_players_and_they_get_no_cards() -> None:
    state = table([1000, 50, 1000, 1000], {1: "4H 6S", 2: "AH AD"})
    events = play(state, (3, Fold()), (0, Fold()), (1, AllIn()), (2, Call()))
    assert any(isinstance(e, Eliminated) and e.seat == 1 for e in events)
    dealt = [e.seat for e in events if isinstance(e, HoleCards)]
    assert 1 not in dealt and sorted(dealt) == [0, 2, 3]
    view = state.view(None)
    # Button moves from seat 0 to the next player still in: seat 2.
    assert (view.button, view.small_blind_seat, view.big_blind_seat) == (2, 3, 0)
    assert view.seats[1].eliminated


def test_heads_up_button_posts_small_blind_acts_first_preflop_last_after() -> None:
    state = table([1000, 1000])
    view = state.view(None)
    assert (view.button, view.small_blind_seat, view.big_blind_seat) == (0, 0, 1)
    assert state.to_act == 0
    play(state, (0, Call()))
    assert state.to_act == 1  # big blind option
    events = play(state, (1, Check()))
    assert any(isinstance(e, BoardDealt) for e in events)
    assert state.to_act == 1  # after the flop the button acts last
    play(state, (1, Check()))
    assert state.to_act == 0


def test_first_heads_up_hand_moves_button_so_nobody_posts_big_blind_twice() -> None:
    # Hand 1: button 0, small blind 1, big blind 2. Seat 0 busts.
    state = table([100, 1000, 1000], {0: "4H 6S", 2: "AH AD"})
    events = play(state, (0, AllIn()), (1, Fold()), (2, Call()))
    assert any(isinstance(e, Eliminated) and e.seat == 0 for e in events)
    view = state.view(None)
    # Plain movement would give button 1 and big blind 2 again; seat 2 takes the button instead.
    assert (view.button, view.small_blind_seat, view.big_blind_seat) == (2, 2, 1)
    assert state.to_act == 2
    # Later heads-up hands alternate normally.
    play(state, (2, Fold()))
    view = state.view(None)
    assert (view.button, view.small_blind_seat, view.big_blind_seat) == (1, 1, 2)


def test_first_heads_up_hand_keeps_button_when_no_repeat() -> None:
    state = table([1000, 1000, 100], {2: "4H 6S", 0: "AH AD"})
    # Button 0, small blind 1, big blind 2 (100 chips): seat 2 busts.
    events = play(state, (0, Raise(200)), (1, Fold()), (2, Call()))
    assert any(isinstance(e, Eliminated) and e.seat == 2 for e in events)
    view = state.view(None)
    assert (view.button, view.small_blind_seat, view.big_blind_seat) == (1, 1, 0)


def test_big_blind_keeps_its_option_when_nobody_raised() -> None:
    state = table([1000] * 4)
    play(state, (3, Call()), (0, Call()), (1, Call()))
    assert state.to_act == 2
    assert Check() in state.legal_actions(2)
    assert Raise(40) in state.legal_actions(2)
    play(state, (2, Raise(60)))
    assert state.to_act == 3


# Betting ---------------------------------------------------------------------------------------


def test_check_only_when_nothing_owed_else_call_raise_or_fold() -> None:
    state = table([1000] * 4)
    before = state.snapshot()
    with pytest.raises(IllegalAction) as info:
        state.apply(3, Check())
    assert info.value.code == "check_when_owed" and state.snapshot() == before
    assert state.legal_actions(3) == [Call(), Fold(), Raise(40), AllIn()]


def test_folding_when_checking_is_free_is_refused() -> None:
    state = table([1000] * 4)
    play(state, (3, Call()), (0, Call()), (1, Call()))
    before = state.snapshot()
    with pytest.raises(IllegalAction) as info:
        state.apply(2, Fold())
    assert info.value.code == "fold_when_check_free"
    assert "check" in str(info.value) and state.snapshot() == before


def test_call_puts_in_all_remaining_chips_when_short() -> None:
    state = table([1000, 1000, 1000, 70])
    play(state, (3, Call()), (0, Raise(300)), (1, Fold()), (2, Fold()))
    events = play(state, (3, Call()))
    acted = [e for e in events if getattr(e, "seat", None) == 3 and hasattr(e, "verb")]
    assert acted and acted[0].all_in and acted[0].total == 70  # type: ignore[attr-defined]


def test_minimum_opening_bet_is_the_big_blind() -> None:
    state = table([1000] * 2)
    play(state, (0, Call()), (1, Check()))
    with pytest.raises(IllegalAction, match="bet 10 is below the minimum bet of 20"):
        state.apply(1, Bet(10))
    play(state, (1, Bet(20)))


def test_raise_below_minimum_named_in_message() -> None:
    state = table([1000] * 4)
    with pytest.raises(IllegalAction) as info:
        state.apply(3, Raise(35))
    assert str(info.value) == "raise 35 is below the minimum raise to 40"
    assert info.value.code == "raise_below_min" and info.value.params["min_to"] == 40


def test_raise_increase_at_least_last_full_raise_up_to_stack() -> None:
    state = table([1000, 1000, 1000, 1000])
    play(state, (3, Raise(100)))  # +80
    with pytest.raises(IllegalAction, match="minimum raise to 180"):
        state.apply(0, Raise(170))
    with pytest.raises(IllegalAction, match="more than you have"):
        state.apply(0, Raise(1200))
    play(state, (0, Raise(180)))


def test_short_all_in_does_not_reopen_raising_to_players_who_acted() -> None:
    state = table([1000, 1000, 1000, 130])
    play(state, (3, Call()), (0, Raise(100)), (1, Fold()), (2, Call()), (3, AllIn()))
    # Seat 3 went to 130: +30, short of the full raise of 80. Seat 0 and 2 already acted.
    assert state.to_act == 0
    with pytest.raises(IllegalAction) as info:
        state.apply(0, Raise(300))
    assert info.value.code == "raise_not_reopened"
    assert state.legal_actions(0) == [Call(), Fold()]


def test_two_short_all_ins_together_reopen_raising() -> None:
    state = table([1000, 1000, 150, 190], bb=20)
    # Seat 3 under the gun raises to 100; seat 0 calls; seats 1 and 2 go all-in short.
    play(state, (3, Call()), (0, Raise(100)), (1, Call()), (2, AllIn()))
    # 150: +50 (short of 80).
    play(state, (3, AllIn()))  # 190: +40 more; seat 0 and 1 face +90 >= 80
    assert state.to_act == 0
    assert state.view(0).can_raise
    play(state, (0, Raise(300)))


def test_nobody_may_raise_when_no_other_player_can_still_bet() -> None:
    state = table([1000, 1000, 200, 1000])
    play(state, (3, Fold()), (0, Fold()), (1, Call()), (2, AllIn()))
    with pytest.raises(IllegalAction) as info:
        state.apply(1, Raise(500))
    assert info.value.code == "raise_nobody_can_call"
    assert state.legal_actions(1) == [Call(), Fold()]


def test_not_your_turn_and_unknown_seat_refused_without_change() -> None:
    state = table([1000] * 4)
    before = state.snapshot()
    with pytest.raises(NotYourTurn):
        state.apply(1, Call())
    with pytest.raises(IllegalAction) as info:
        state.apply(7, Call())
    assert info.value.code == "no_such_seat"
    assert state.snapshot() == before


# Streets ---------------------------------------------------------------------------------------


def test_burn_one_card_before_flop_turn_and_river() -> None:
    state = table([1000, 1000], board="2C 7D 9H JS 3D")
    deck = stacked(2, 0, {}, "2C 7D 9H JS 3D", [1000, 1000])
    events = play(state, (0, Call()), (1, Check()))
    flop = first(events, BoardDealt)
    assert isinstance(flop, BoardDealt) and flop.cards == tuple(deck[5:8])
    assert flop.street == "flop"
    events = play(state, (1, Check()), (0, Check()))
    turn = first(events, BoardDealt)
    assert isinstance(turn, BoardDealt) and turn.cards == (deck[9],) and turn.street == "turn"
    events = play(state, (1, Check()), (0, Check()))
    river = first(events, BoardDealt)
    assert isinstance(river, BoardDealt) and river.cards == (deck[11],)
    assert len(river.board) == 5


def test_after_flop_action_starts_with_first_player_after_button_who_can_act() -> None:
    state = table([1000, 40, 1000, 1000])
    # Seat 1 (small blind, 40 chips) is all-in before the flop and cannot act after it.
    play(state, (3, Raise(40)), (0, Call()), (1, AllIn()), (2, Call()))
    assert state.view(None).street == "flop"
    assert state.view(None).seats[1].all_in
    assert state.to_act == 2


def test_run_out_when_no_more_betting_is_possible() -> None:
    state = table([1000, 1000], {0: "AH AD", 1: "KH KD"})
    events = play(state, (0, AllIn()), (1, Call()))
    streets = [e.street for e in events if isinstance(e, BoardDealt)]
    assert streets == ["flop", "turn", "river"]
    assert any(isinstance(e, Showdown) for e in events)


# Hands and settling ----------------------------------------------------------------------------


def test_last_player_wins_at_once_and_no_card_is_shown() -> None:
    state = table([1000] * 4)
    events = play(state, (3, Raise(60)), (0, Fold()), (1, Fold()), (2, Fold()))
    assert not any(isinstance(e, Showdown) for e in events)
    award = first(events, PotAwarded)
    assert isinstance(award, PotAwarded) and award.winners == (3,) and not award.shown
    assert settled_stacks([1000] * 4, events) == [1000, 990, 980, 1030]


def test_uncalled_chips_are_returned() -> None:
    state = table([1000] * 3)
    events = play(state, (0, Raise(500)), (1, Fold()), (2, Fold()))
    returned = first(events, UncalledReturned)
    assert isinstance(returned, UncalledReturned) and (returned.seat, returned.amount) == (0, 480)
    assert settled_stacks([1000] * 3, events) == [1030, 990, 980]


def test_uncalled_part_of_an_all_in_returned_to_the_bigger_stack() -> None:
    state = table([1000, 300], {0: "4H 6S", 1: "AH AD"})
    events = play(state, (0, AllIn()), (1, Call()))
    returned = first(events, UncalledReturned)
    assert isinstance(returned, UncalledReturned) and (returned.seat, returned.amount) == (0, 700)
    assert settled_stacks([1000, 300], events) == [700, 600]


def test_showdown_best_five_of_seven_wins() -> None:
    state = table([1000, 1000], {0: "AH AD", 1: "7C 7S"}, board="2C 7D 9H JS 3D")
    events = play(state, (0, AllIn()), (1, Call()))
    shown = first(events, Showdown)
    assert isinstance(shown, Showdown)
    names = {h.seat: h.name for h in shown.hands}
    assert names == {0: "pair of aces", 1: "three of a kind, sevens"}
    assert settled_stacks([1000, 1000], events) == [0, 2000]


def test_three_way_all_in_with_two_side_pots() -> None:
    stacks = [1000, 100, 300, 600]
    holes = {1: "AH AD", 2: "KH KD", 3: "QH QD", 0: "4H 5S"}
    state = table(stacks, holes, board="2C 7D 9H JS 3D")
    events = play(state, (3, AllIn()), (0, Call()), (1, AllIn()), (2, AllIn()))
    awards = [e for e in events if isinstance(e, PotAwarded)]
    assert [(a.amount, a.winners) for a in awards] == [(400, (1,)), (600, (2,)), (600, (3,))]
    assert settled_stacks(stacks, events) == [400, 400, 600, 600]


def test_folded_chips_stay_in_the_pot_but_folded_players_cannot_win() -> None:
    stacks = [1000, 1000, 1000]
    # Seat 0 has the best cards but folds after putting chips in.
    state = table(stacks, {0: "AH AD", 1: "KH KD", 2: "3C 4C"})
    play(state, (0, Raise(100)), (1, Call()), (2, Call()))
    events = play(state, (1, Bet(200)), (2, Call()), (0, Fold()))
    events += play(state, (1, Check()), (2, Check()), (1, Check()), (2, Check()))
    assert settled_stacks(stacks, events) == [900, 1400, 700]


def test_board_plays_tie_splits_the_pot() -> None:
    state = table([1000, 1000], {0: "4H 6S", 1: "4C 5C"}, board=ROYAL)
    events = play(state, (0, AllIn()), (1, Call()))
    award = first(events, PotAwarded)
    assert isinstance(award, PotAwarded) and award.winners == (0, 1)
    assert settled_stacks([1000, 1000], events) == [1000, 1000]


def test_sixth_and_seventh_cards_never_break_a_tie() -> None:
    # Both play A-A-K-Q-J with the board's pair of aces; the other hole cards do not count.
    state = table([1000, 1000], {0: "KH 9C", 1: "KD 3C"}, board="AH AD QS JC 5D")
    events = play(state, (0, AllIn()), (1, Call()))
    award = first(events, PotAwarded)
    assert isinstance(award, PotAwarded) and award.winners == (0, 1)


def test_split_pot_odd_chip_to_first_winner_after_button() -> None:
    # Blinds 5/10; seat 1 (small blind) folds its 5: pot 25 split by seats 0 and 2.
    state = table([1000] * 3, board=ROYAL, sb=5, bb=10)
    events = play(state, (0, Call()), (1, Fold()), (2, Check()))
    events += play(state, *[(s, Check()) for _ in range(3) for s in (2, 0)])
    award = first(events, PotAwarded)
    assert isinstance(award, PotAwarded) and award.amount == 25
    # After the button (seat 0): seat 1 (folded), then seat 2 gets the odd chip.
    assert dict(zip(award.winners, award.shares, strict=True)) == {0: 12, 2: 13}


def test_two_odd_chips_in_three_way_split_go_one_each() -> None:
    state = table([1000] * 4, board=ROYAL, sb=5, bb=10)
    events = play(state, (3, Call()), (0, Call()), (1, Fold()), (2, Check()))
    for _ in range(3):
        events += play(state, (2, Check()), (3, Check()), (0, Check()))
    award = first(events, PotAwarded)
    assert isinstance(award, PotAwarded) and award.amount == 35
    assert dict(zip(award.winners, award.shares, strict=True)) == {0: 11, 2: 12, 3: 12}


# After the hand --------------------------------------------------------------------------------


def test_stacks_carry_over_and_a_fresh_shuffle_each_hand() -> None:
    state = HoldemState(HoldemConfig(seats=2), random.Random(8))
    commitments = [e.commitment for e in state.opening_events if isinstance(e, DealStarted)]
    events = play(state, (0, Raise(100)), (1, Fold()))
    commitments += [e.commitment for e in events if isinstance(e, DealStarted)]
    assert len(set(commitments)) == 2 and None not in commitments
    view = state.view(None)
    assert [s.stack + s.bet for s in view.seats] == [1020, 980]


def test_match_ends_when_one_player_has_all_the_chips() -> None:
    state = table([500, 500], {0: "AH AD", 1: "8C 4S"})
    events = play(state, (0, AllIn()), (1, Call()))
    ended = first(events, MatchEnded)
    assert isinstance(ended, MatchEnded) and ended.winners == (0,) and ended.totals == (1000, 0)
    assert state.finished and state.to_act is None and state.legal_actions(0) == []
    with pytest.raises(IllegalAction) as info:
        state.apply(0, Check())
    assert info.value.code == "match_over"


def test_restart_is_a_new_match_with_1000_each() -> None:
    state = SPEC.new_state(SPEC.make_config(seats=3), random.Random(2))
    view = state.view(None)
    assert [s.stack for s in view.seats] == [1000, 990, 980]
    assert [s.stack + s.bet for s in view.seats] == [1000, 1000, 1000]


def test_snapshot_restores_exactly_and_play_continues_identically() -> None:
    state = table([1000, 1000, 300], {0: "AH AD"})
    play(state, (0, Raise(60)), (1, Call()))
    copy = SPEC.restore(state.snapshot())
    assert copy.snapshot() == state.snapshot()
    for s in (state, copy):
        play(s, (2, Call()), (1, Check()))
    assert copy.snapshot() == state.snapshot()
    assert copy.view(0) == state.view(0)


def test_parse_action_round_trip_and_timeout_default() -> None:
    for text in ("fold", "check", "call", "bet 60", "raise 120", "allin"):
        assert str(SPEC.parse_action(text)) == text
    state = table([1000] * 4)
    assert SPEC.timeout_action(state.view(3)) == Fold()
    play(state, (3, Call()), (0, Call()), (1, Call()))
    assert SPEC.timeout_action(state.view(2)) == Check()


def test_opening_events_record_every_buy_in_then_the_first_hand() -> None:
    from engines.base import ChipsBought

    state = HoldemState(HoldemConfig(seats=3), random.Random(1))
    bought = [e for e in state.opening_events if isinstance(e, ChipsBought)]
    assert [(e.seat, e.amount, e.reason) for e in bought] == [(s, 1000, "buy-in") for s in range(3)]
    assert isinstance(state.opening_events[3], DealStarted)


def test_simulation_config_restores_stacks_and_ends_after_max_hands() -> None:
    config = SPEC.sim.config(2)
    assert isinstance(config, HoldemConfig) and config.reset_stacks and config.max_hands == 50
    state = HoldemState(HoldemConfig(seats=2, reset_stacks=True, max_hands=3), random.Random(1))
    events = play(state, (0, Raise(300)), (1, Fold()))
    assert [s.stack + s.bet for s in state.view(None).seats] == [1000, 1000]
    events += play(state, (1, Fold()))
    events += play(state, (0, Fold()))
    ended = [e for e in events if isinstance(e, MatchEnded)]
    assert state.finished and len(ended) == 1
    assert sum(isinstance(e, DealSettled) for e in events) == 3
