"""The hold'em renderer: board and hand text from views, event lines, typed input, catalogs."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot.i18n import explain, t
from bot.render import get_renderer
from engines.base import IllegalAction
from engines.holdem import HoldemConfig, HoldemState
from engines.poker.actions import AllIn, Bet, Call, Check, Fold, Raise

LOCALES = Path(__file__).resolve().parents[3] / "bot" / "locales"
NAMES = ["Ann", "Bob", "Cat", "Dan"]


def test_catalogs_have_the_same_keys_in_english_french_and_ukrainian() -> None:
    keys = [
        set(json.loads((LOCALES / lang / "holdem.json").read_text(encoding="utf-8")))
        for lang in ("en", "fr", "uk")
    ]
    assert keys[0] == keys[1] == keys[2]
    assert "holdem.help" in keys[0]


def test_board_shows_blinds_button_stacks_bets_and_turn() -> None:
    state = HoldemState(HoldemConfig(seats=4), random.Random(1))
    renderer = get_renderer("holdem")
    text = renderer.board(state.view(None), NAMES, "en")
    assert "blinds 10/20" in text and "pot 30" in text
    assert "Ann: 1000 chips (button)" in text
    assert "Bob: 990 chips, bet 10 (small blind)" in text
    assert "Cat: 980 chips, bet 20 (big blind)" in text
    assert "Dan to act." in text
    state.apply(3, Call())
    state.apply(0, Call())
    state.apply(1, Call())
    state.apply(2, Check())
    text = renderer.board(state.view(None), NAMES, "fr")
    assert "pot principal 80" in text and "Tableau" in text


def test_hand_shows_own_cards_and_options_only() -> None:
    state = HoldemState(HoldemConfig(seats=4), random.Random(1))
    renderer = get_renderer("holdem")
    view = state.view(3)
    assert view.hole is not None
    text = renderer.hand(view, "en")
    assert all(card.pretty in text for card in view.hole)
    assert "raise 40-1000" in text and "call" in text
    other = state.view(1)
    assert other.hole is not None
    assert not any(card.pretty in text for card in other.hole)
    assert renderer.hand(state.view(None), "en") == ""


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("check", Check()),
        ("CALL", Call()),
        ("fold", Fold()),
        ("raise 120", Raise(120)),
        ("bet 60", Raise(60)),  # a bet exists pre-flop: read as a raise to 60
        ("allin", AllIn()),
        ("all in", AllIn()),
    ],
)
def test_parse_input(typed: str, expected: object) -> None:
    state = HoldemState(HoldemConfig(seats=4), random.Random(1))
    assert get_renderer("holdem").parse_input(typed, state.view(3)) == expected


def test_parse_input_bet_when_nothing_bet_and_bad_input() -> None:
    state = HoldemState(HoldemConfig(seats=2), random.Random(1))
    state.apply(0, Call())
    state.apply(1, Check())
    renderer = get_renderer("holdem")
    assert renderer.parse_input("raise 40", state.view(1)) == Bet(40)
    with pytest.raises(IllegalAction) as info:
        renderer.parse_input("jump 20", state.view(1))
    assert "jump 20" in str(info.value)
    with pytest.raises(IllegalAction) as info:
        renderer.parse_input("raise", state.view(1))
    assert info.value.code == "missing_amount"


def test_refusals_are_explained_in_each_language() -> None:
    state = HoldemState(HoldemConfig(seats=4), random.Random(1))
    with pytest.raises(IllegalAction) as info:
        state.apply(3, Raise(35))
    assert explain(info.value, "en") == "raise 35 is below the minimum raise to 40."
    assert "40" in explain(info.value, "fr") and "relance" in explain(info.value, "fr")
    assert "40" in explain(info.value, "uk")
    assert t("holdem.help", "uk") != t("holdem.help", "en")


def test_event_lines_for_a_hand() -> None:
    state = HoldemState(HoldemConfig(seats=2), random.Random(3))
    renderer = get_renderer("holdem")
    lines = [renderer.event(e, NAMES, "en") for e in state.opening_events]
    assert "Hand 1: Ann has the button." in lines
    assert "Ann posts the small blind 10, Bob the big blind 20." in lines
    events = state.apply(0, AllIn()) + state.apply(1, Call())
    text = "\n".join(filter(None, (renderer.event(e, NAMES, "en") for e in events)))
    assert "Ann raises to 1000. All-in." in text
    # "call N" is the chips added; the round's total when the caller had chips in already.
    assert "Bob calls 980 (to 1000). All-in." in text
    assert "Showdown:" in text and "River:" in text


@pytest.mark.parametrize("text", ["raise 99999999999999999999999", "raise to 1" + "0" * 400])
def test_a_huge_raise_is_more_than_you_have(text: str) -> None:
    state = HoldemState(HoldemConfig(), random.Random(1))
    seat = state.to_act
    assert seat is not None
    action = get_renderer("holdem").parse_input(text, state.view(seat))
    with pytest.raises(IllegalAction) as info:
        state.check(seat, action)
    assert info.value.code == "more_than_stack"
    assert explain(info.value).endswith("at most 1000 this round (allin).")
