"""Big Two (docs/bigtwo.md), one test (or a small group) per rule line, worked examples included."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from pydantic import ValidationError

from engines.base import DealSettled, DealStarted, IllegalAction, MatchEnded
from engines.bigtwo import (
    PASS,
    SPEC,
    BigTwoConfig,
    BigTwoState,
    CardsDealt,
    Pass,
    Passed,
    Play,
    Played,
    TableCleared,
    classify,
    parse_action,
    penalty,
    timeout_action,
)
from engines.cards import FULL_DECK, deck_order, parse_card, parse_cards
from engines.fair import DealSource
from engines.play import play_out


def cards(text: str) -> list[Any]:
    return parse_cards(text)


def combo(text: str) -> Any:
    found = classify(parse_cards(text))
    assert found is not None, text
    return found


def play(text: str) -> Play:
    return Play(tuple(parse_cards(text)))


def crafted(
    hands: list[str],
    turn: int,
    table: str | None = None,
    table_seat: int | None = None,
    passes: int = 0,
    opening: bool = False,
    deals: int = 1,
) -> BigTwoState:
    """A state in the middle of a deal, built through the snapshot format."""
    data = BigTwoState(BigTwoConfig(deals=deals), random.Random(0)).snapshot()
    trick = []
    if table is not None:
        assert table_seat is not None
        trick = [[table_seat, table]] + [[(table_seat + 1 + i) % 4, ""] for i in range(passes)]
    data.update(
        hands=hands,
        turn=turn,
        leader=table_seat if table is not None else turn,
        table=table,
        table_seat=table_seat,
        passes=passes,
        opening=opening,
        trick=trick,
        played="",
    )
    return BigTwoState.restore(data)


def refused(state: BigTwoState, seat: int, action: Any, code: str) -> IllegalAction:
    """Assert `action` is refused with `code`, by check and apply, and changes nothing."""
    before = state.snapshot()
    with pytest.raises(IllegalAction) as checked:
        state.check(seat, action)
    with pytest.raises(IllegalAction) as applied:
        state.apply(seat, action)
    assert checked.value.code == applied.value.code == code
    assert state.snapshot() == before
    return applied.value


def new(seed: int, deals: int = 4) -> BigTwoState:
    return BigTwoState(BigTwoConfig(deals=deals), random.Random(seed))


# Cards: one 52-card deck, no jokers; 13 each.


def test_a_deal_gives_13_distinct_cards_to_each_of_four_seats_from_one_deck() -> None:
    state = new(1)
    dealt = [e for e in state.opening_events if isinstance(e, CardsDealt)]
    assert sorted(e.seat for e in dealt) == [0, 1, 2, 3]
    assert all(len(e.cards) == 13 and e.to == e.seat for e in dealt)
    everything = [c for e in dealt for c in e.cards]
    assert sorted(everything, key=lambda c: c.code) == list(FULL_DECK)


# Rank order 3 ... A 2; suit order ♦ < ♣ < ♥ < ♠ (not the Pusoy Dos order).


def test_single_rank_order_is_three_low_two_high() -> None:
    order = ["3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD", "2D"]
    for low, high in itertools.pairwise(order):
        assert combo(high).beats(combo(low)), (high, low)
        assert not combo(low).beats(combo(high))


def test_single_suit_order_is_diamonds_clubs_hearts_spades() -> None:
    assert combo("3C").beats(combo("3D"))
    assert combo("3H").beats(combo("3C"))
    assert combo("3S").beats(combo("3H"))
    # Pusoy Dos would put diamonds on top: here 3♦ is the lowest card.
    assert not combo("3D").beats(combo("3S"))


def test_rank_outweighs_suit_for_singles() -> None:
    assert combo("4D").beats(combo("3S"))
    assert combo("2D").beats(combo("AS"))


# Deal: first dealer drawn at random, afterwards the previous winner deals.


def test_first_dealer_is_drawn_from_the_injected_rng() -> None:
    dealers = {new(seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert new(7).dealer == new(7).dealer


def test_the_winner_of_a_deal_deals_the_next_one() -> None:
    state = crafted(["3D", "4D 5D", "6D 7D", "8D 9D"], turn=0, opening=True, deals=2)
    events = state.apply(0, play("3D"))
    started = [e for e in events if isinstance(e, DealStarted)]
    assert len(started) == 1 and started[0].dealer == 0 and started[0].deal == 2
    assert state.dealer == 0


@pytest.mark.parametrize("stack", [False, True])
def test_cards_are_dealt_one_at_a_time_from_the_dealers_next_seat(stack: bool) -> None:
    source = DealSource(bytes(range(32)))
    seed = source.seed(1)
    assert seed is not None
    order = deck_order(seed.seed)
    if stack:
        order = list(reversed(FULL_DECK))  # an explicit deck order, as replays use
        source = source.stacked(1, order)
    state = BigTwoState(BigTwoConfig(deals=4), random.Random(3), source)
    started = state.opening_events[0]
    assert isinstance(started, DealStarted)
    assert started.commitment == source.commitment(1)
    for event in state.opening_events[1:]:
        assert isinstance(event, CardsDealt)
        position = (event.seat - state.dealer - 1) % 4
        assert set(event.cards) == set(order[position::4])


# Lead: the holder of 3♦ opens every deal with a combination containing 3♦.


def test_holder_of_three_of_diamonds_is_first_to_act() -> None:
    for seed in range(10):
        state = new(seed)
        seat = state.to_act
        assert seat is not None
        assert parse_card("3D") in state.view(seat).hand


def test_opening_play_must_contain_three_of_diamonds() -> None:
    state = crafted(["3D 3S 5C", "4D", "6D", "7D"], turn=0, opening=True)
    error = refused(state, 0, play("5C"), "bigtwo.missing_three")
    assert "3D" in str(error)
    assert all(parse_card("3D") in a.cards for a in state.legal_actions(0) if isinstance(a, Play))
    state.apply(0, play("3D 3S"))
    assert state.table is not None and state.table.kind == "pair"


def test_opening_rule_applies_to_every_deal() -> None:
    state = crafted(["3D", "4D 5D", "6D 7D", "8D 9D"], turn=0, opening=True, deals=2)
    state.apply(0, play("3D"))
    seat = state.to_act
    assert seat is not None and parse_card("3D") in state.view(seat).hand
    assert state.view(seat).must_include == parse_card("3D")
    other = next(a for a in state.view(seat).hand if str(a) != "3D")
    refused(state, seat, Play((other,)), "bigtwo.missing_three")


def test_later_leads_may_be_any_combination() -> None:
    state = crafted(["3D 9C", "4D 8S", "6D 7H", "7D 7S"], turn=0, opening=True)
    state.apply(0, play("3D"))
    for seat in (1, 2, 3):
        state.apply(seat, PASS)
    assert state.to_act == 0 and state.table is None
    state.apply(0, play("9C"))  # no 3♦ needed any more


def test_cannot_pass_when_leading() -> None:
    state = crafted(["3D 5C", "4D", "6D", "7D"], turn=0, opening=True)
    refused(state, 0, PASS, "bigtwo.must_open")
    state = crafted(["5C 6C", "4D", "6D", "7D"], turn=0)
    error = refused(state, 0, PASS, "bigtwo.must_lead")
    assert "lead" in str(error)
    assert Pass() not in state.legal_actions(0)


# Play: same number of cards that beats the table, or pass.


def test_an_answer_must_beat_the_table() -> None:
    state = crafted(["3D 5C", "4D 4S", "6D", "7D"], turn=1, table="4C", table_seat=0)
    error = refused(state, 1, play("4D"), "bigtwo.too_low")
    assert "4D" in str(error) and "4C" in str(error)
    state.apply(1, play("4S"))
    assert state.table_seat == 1


def test_you_may_pass_even_when_you_could_beat_the_table() -> None:
    state = crafted(["3D 5C", "KD 2S", "6D", "7D"], turn=1, table="4C", table_seat=0)
    assert play("2S") in state.legal_actions(1)
    events = state.apply(1, PASS)
    assert events == [Passed(seat=1)]
    assert state.to_act == 2


def test_a_player_who_passed_may_play_again_when_the_turn_comes_back() -> None:
    state = crafted(["3D 5C 9C", "KD 2S", "6D 8D", "7D JD"], turn=1, table="4C", table_seat=0)
    state.apply(1, PASS)
    state.apply(2, play("6D"))
    state.apply(3, play("7D"))
    state.apply(0, play("9C"))
    state.apply(1, play("KD"))  # seat 1 passed this trick and plays again
    assert state.table_seat == 1


def test_three_passes_in_a_row_clear_the_table_for_the_last_player_who_played() -> None:
    state = crafted(["3D 5C 9C", "KD 2S", "6D 8D", "7D JD"], turn=1, table="4C", table_seat=0)
    state.apply(1, play("KD"))
    state.apply(2, PASS)
    state.apply(3, PASS)
    events = state.apply(0, PASS)
    assert events[-1] == TableCleared(leader=1)
    assert state.table is None and state.to_act == 1 and state.passes == 0
    view = state.view(1)
    assert view.leader == 1 and view.trick == ()
    state.apply(1, play("2S"))  # leads anything


def test_passes_that_are_not_in_a_row_do_not_clear_the_table() -> None:
    state = crafted(["3D 5C 9C", "KD 2S", "6D 8D", "7D JD"], turn=1, table="4C", table_seat=0)
    state.apply(1, PASS)
    state.apply(2, PASS)
    state.apply(3, play("7D"))
    state.apply(0, PASS)
    assert state.table is not None and state.passes == 1


def test_cards_left_are_public() -> None:
    state = crafted(["3D 5C 9C", "KD 2S", "6D 8D", "7D JD QS"], turn=1, table="4C", table_seat=0)
    state.apply(1, play("KD"))
    spectator = state.view(None)
    assert spectator.cards_left == (3, 1, 2, 3)
    assert spectator.hand == ()
    assert state.view(2).cards_left == (3, 1, 2, 3)


# Legal combinations and their comparisons.


def test_pairs_compare_by_rank_then_the_higher_suit() -> None:
    assert combo("9S 9D").beats(combo("9H 9C"))  # the worked example
    assert not combo("9H 9C").beats(combo("9S 9D"))
    assert combo("TD TC").beats(combo("9S 9H"))


def test_triples_compare_by_rank() -> None:
    assert combo("4D 4C 4H").beats(combo("3C 3H 3S"))
    assert combo("2D 2C 2H").beats(combo("AC AH AS"))


def test_five_card_categories_rank_straight_flush_full_house_quads_straight_flush() -> None:
    straight = combo("TS JS QS KS AD")  # the highest straight
    flush = combo("3D 4D 5D 6D 8D")  # the lowest flush
    full_house = combo("3D 3C 3H 4D 4C")
    quads = combo("3D 3C 3H 3S 4D")
    straight_flush = combo("AD 2D 3D 4D 5D")  # the lowest straight flush
    ordered = [straight, flush, full_house, quads, straight_flush]
    assert [c.kind for c in ordered] == [
        "straight",
        "flush",
        "full_house",
        "four_of_a_kind",
        "straight_flush",
    ]
    for i, low in enumerate(ordered):
        for high in ordered[i + 1 :]:
            assert high.beats(low) and not low.beats(high)


def test_straights_run_from_a2345_lowest_to_tjqka_highest() -> None:
    ladder = [
        "AS 2S 3D 4D 5D",
        "2S 3D 4D 5D 6D",
        "3D 4D 5D 6D 7C",
        "4D 5D 6D 7D 8C",
        "5D 6D 7D 8D 9C",
        "6D 7D 8D 9D TC",
        "7D 8D 9D TD JC",
        "8D 9D TD JD QC",
        "9D TD JD QD KC",
        "TD JD QD KD AC",
    ]
    combos = [combo(text) for text in ladder]
    assert all(c.kind == "straight" for c in combos)
    for low, high in itertools.pairwise(combos):
        assert high.beats(low) and not low.beats(high)


@pytest.mark.parametrize("text", ["JD QD KD AC 2C", "QD KD AC 2C 3C", "KD AC 2C 3C 4C"])
def test_nothing_wraps_through_k_a_2(text: str) -> None:
    assert classify(cards(text)) is None


def test_straights_compare_by_top_card_then_its_suit() -> None:
    # A-2-3-4-5's top card is its 5, so the 2♠ in it does not help.
    assert combo("2D 3D 4D 5D 6C").beats(combo("AS 2S 3S 4S 5H"))
    assert combo("AD 2D 3D 4C 5S").beats(combo("AS 2S 3S 4S 5H"))
    assert combo("3S 4S 5S 6S 7H").beats(combo("3D 4D 5D 6C 7D"))
    assert not combo("3S 4S 5S 6S 7C").beats(combo("3D 4D 5D 6C 7H"))


def test_flushes_compare_by_suit_first_then_cards_from_the_highest_down() -> None:
    assert combo("3S 4S 5S 6S 8S").beats(combo("9H JH KH AH 2H"))
    assert combo("3D 4D 5D 6D 2D").beats(combo("9D JD KD AD QD"))  # 2 is high
    assert combo("3D 4D 5D 8D 2D").beats(combo("3D 4D 5D 7D 2D"))
    assert combo("3C 5C 6C 7C 9C").beats(combo("3C 4C 6C 7C 9C"))


def test_full_houses_compare_by_the_triple() -> None:
    assert combo("4D 4C 4H 3D 3C").beats(combo("3H 3S 3D 2D 2S"))
    assert not combo("3H 3S 3D 2D 2S").beats(combo("4D 4C 4H 5D 5C"))


def test_four_of_a_kind_compares_by_the_four_and_needs_a_kicker() -> None:
    assert combo("5D 5C 5H 5S 3D").beats(combo("4D 4C 4H 4S 2S"))
    assert classify(cards("5D 5C 5H 5S")) is None


def test_straight_flushes_compare_as_straights() -> None:
    assert combo("4C 5C 6C 7C 8C").beats(combo("3S 4S 5S 6S 7S"))
    assert combo("3S 4S 5S 6S 7S").beats(combo("3H 4H 5H 6H 7H"))
    assert combo("TD JD QD KD AD").beats(combo("9S TS JS QS KS"))


def test_sizes_must_match() -> None:
    three = combo("3D")
    assert not combo("4D 4C").beats(three)  # a pair cannot answer a single 3♦
    assert not combo("2S").beats(combo("3D 3C"))
    assert not combo("3D 3C 3H 4D 4C").beats(combo("3S"))
    assert not combo("2S 2H").beats(combo("3D 4D 5D 6D 7C"))
    state = crafted(["3D 5C", "4D 4S", "6D", "7D"], turn=1, table="3D", table_seat=0)
    error = refused(state, 1, play("4D 4S"), "bigtwo.wrong_size")
    assert error.params["need"] == 1 and error.params["got"] == 2


@pytest.mark.parametrize(
    "text",
    [
        "5D 5C 5H 5S",
        "5D 5C 6H 6S",
        "5D 6C 7H 8S",
        "5D 5C 6H",
        "3D 4D",
        "3D 4C 5H 6S 8D",
        "3D 3C 3H 3S 4D 4C",
    ],
)
def test_illegal_sets_are_refused(text: str) -> None:
    assert classify(cards(text)) is None
    hand = f"{text} 2S"
    state = crafted([hand, "4D", "6D", "7D"], turn=0)
    refused(state, 0, play(text), "bigtwo.not_a_combination")


def test_two_is_highest_in_every_combination() -> None:
    assert combo("2D").beats(combo("AS"))
    assert combo("2D 2C").beats(combo("AS AH"))
    assert combo("2D 2C 2H").beats(combo("AS AH AD"))
    assert combo("2D 2C 2H 2S 3D").beats(combo("AS AH AD AC KD"))
    assert combo("3D 4D 5D 6D 2D").beats(combo("9D JD QD KD AD"))


# Refusals: specific message, stable code, nothing changes.


def test_not_your_turn_is_refused() -> None:
    state = crafted(["3D 5C", "4D", "6D", "7D"], turn=0, opening=True)
    error = refused(state, 2, play("6D"), "not_your_turn")
    assert "seat 2" in str(error) and "seat 0" in str(error)


def test_cards_you_do_not_hold_are_refused() -> None:
    state = crafted(["3D 5C", "4D", "6D", "7D"], turn=0, opening=True)
    error = refused(state, 0, play("3D 4D"), "bigtwo.not_your_cards")
    assert "4D" in str(error)


def test_repeated_cards_and_empty_plays_are_refused() -> None:
    state = crafted(["3D 5C", "4D", "6D", "7D"], turn=0, opening=True)
    refused(state, 0, Play((parse_card("3D"), parse_card("3D"))), "bigtwo.repeated_cards")
    refused(state, 0, Play(()), "bigtwo.empty_play")
    refused(state, 0, "pass", "bigtwo.unknown_action")  # a string is not an action
    refused(state, 0, Play(("3D",)), "bigtwo.unknown_action")  # type: ignore[arg-type]
    refused(state, 7, PASS, "no_such_seat")


# End of a deal and penalties.


@pytest.mark.parametrize(
    ("left", "expected"),
    [(0, 0), (1, 1), (5, 5), (9, 9), (10, 20), (11, 22), (12, 24), (13, 39)],
)
def test_penalty_table(left: int, expected: int) -> None:
    assert penalty(left) == expected


@pytest.mark.parametrize("bad", [-1, 14])
def test_penalty_refuses_impossible_counts(bad: int) -> None:
    with pytest.raises(ValueError, match="0 to 13"):
        penalty(bad)


def test_emptying_the_hand_wins_the_deal_at_once_and_scores_the_others() -> None:
    eleven = "4D 4C 4H 4S 5D 5C 5H 5S 6D 6C 6H"
    state = crafted(
        ["3D", eleven, "7D 7C 7H 7S 8D 8C 8H 8S 9D 9C 9H 9S TD", "JD"], turn=0, opening=True
    )
    events = state.apply(0, play("3D"))
    settled = [e for e in events if isinstance(e, DealSettled)]
    assert settled and settled[0].penalties == (0, 22, 39, 1)
    assert state.totals == [0, 22, 39, 1]


# Match: N deals chosen at creation, lowest total wins, ties share.


def test_a_match_lasts_the_number_of_deals_chosen() -> None:
    state = new(11, deals=3)
    policy = SPEC.make_policy("greedy", random.Random(0))
    events = play_out(state, [policy] * 4).events
    settled = sum(isinstance(event, DealSettled) for event in events)
    ended = [event for event in events if isinstance(event, MatchEnded)]
    assert settled == 3 and len(ended) == 1
    assert state.to_act is None
    best = min(ended[0].totals)
    assert ended[0].winners == tuple(s for s in range(4) if ended[0].totals[s] == best)


def test_the_lowest_total_wins_and_a_tie_shares_the_win() -> None:
    state = crafted(["3D", "4D", "5D", "6D 7D"], turn=0, opening=True)
    events = state.apply(0, play("3D"))
    seeds = state.source.revealed(1)  # the match's end reveals its seeds
    assert events[-1] == MatchEnded(winners=(0,), totals=(0, 1, 1, 2), seeds=seeds)
    state = crafted(["3D", "4D", "5D", "6D 7D"], turn=0, opening=True, deals=2)
    state.totals = [5, 0, 1, 1]  # earlier deals: seat 1 is ahead by 5
    state.apply(0, play("3D"))
    assert state.totals == [5, 1, 2, 3]
    seat = state.to_act
    assert seat is not None
    # Play the last deal to its end with greedy players; the winners share the lowest total.
    policy = SPEC.make_policy("greedy", random.Random(0))
    ended = play_out(state, [policy] * 4).events[-1]
    assert isinstance(ended, MatchEnded)
    assert ended.winners == tuple(s for s in range(4) if state.totals[s] == min(state.totals))


def test_tied_totals_share_the_win() -> None:
    state = crafted(["3D", "4D 5D", "5C", "6D"], turn=0, opening=True, deals=2)
    state.totals = [1, 0, 0, 0]
    state.penalties = [(1, 0, 0, 0)]
    state.deal = 2
    events = state.apply(0, play("3D"))
    seeds = state.source.revealed(2)
    assert events[-1] == MatchEnded(winners=(0, 2, 3), totals=(1, 2, 1, 1), seeds=seeds)


def test_config_is_validated() -> None:
    assert BigTwoConfig().deals == 4
    with pytest.raises(ValidationError, match="deals"):
        BigTwoConfig(deals=0)
    with pytest.raises(ValidationError, match="seats"):
        BigTwoConfig(seats=5)  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        BigTwoConfig(deals=4, jokers=True)  # type: ignore[call-arg]


# Actions as text, the timeout default.


def test_action_text_round_trips() -> None:
    action = play("3S 3D")
    assert str(action) == "play 3D 3S"
    assert parse_action(str(action)) == action
    assert parse_action("pass") == PASS and str(PASS) == "pass"
    with pytest.raises(IllegalAction) as error:
        parse_action("play 3D 1X")
    assert "1X" in str(error.value)


def test_timeout_plays_pass_or_the_lowest_single() -> None:
    state = crafted(["3D 5C", "4D", "6D", "7D"], turn=0, opening=True)
    assert timeout_action(state.view(0)) == play("3D")
    state.apply(0, play("3D"))
    assert timeout_action(state.view(1)) == PASS
    for seat in (1, 2, 3):
        state.apply(seat, PASS)
    assert timeout_action(state.view(0)) == play("5C")


def test_played_event_names_the_combination_and_cards_left() -> None:
    state = crafted(["3D 3S 5C", "4D", "6D", "7D"], turn=0, opening=True)
    events = state.apply(0, play("3D 3S"))
    assert events == [Played(seat=0, cards=tuple(cards("3D 3S")), combo="pair", cards_left=1)]


def test_actions_after_the_match_are_refused() -> None:
    state = crafted(["3D", "4D", "5D", "6D 7D"], turn=0, opening=True)
    state.apply(0, play("3D"))
    assert state.finished and state.to_act is None and state.legal_actions(1) == []
    error = refused(state, 1, PASS, "bigtwo.match_over")
    assert "over" in str(error)
