"""The duel's text renderer: what people read (three languages) and what they type."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot.i18n import LANGUAGES, explain
from bot.render import get_renderer
from engines.base import IllegalAction
from engines.cards import parse_card, parse_cards
from engines.duel import SPEC, DuelConfig, DuelState, Lock, new_state, parse_action
from engines.poker.actions import AllIn, Bet, Call, Check, Fold, Raise

RENDERER = get_renderer("duel")
NAMES = ["Ann", "Bot"]
LOCALES = Path(__file__).resolve().parents[3] / "bot" / "locales"


def locked_state() -> DuelState:
    state = new_state(DuelConfig(), random.Random(3))
    state.hands = [parse_cards("KS 4C"), parse_cards("3D 9H")]
    for seat, card in ((0, "KS"), (1, "3D")):
        state.apply(seat, Lock(parse_card(card)))
    return state


def test_catalogs_have_the_same_keys_in_all_three_languages() -> None:
    keys = [
        set(json.loads((LOCALES / lang / "duel.json").read_text("utf-8"))) for lang in LANGUAGES
    ]
    assert keys[0] == keys[1] == keys[2]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("lock 1", Lock(parse_card("KS"))),
        ("2", Lock(parse_card("4C"))),
        ("4c", Lock(parse_card("4C"))),
        ("lock ♠K", Lock(parse_card("KS"))),
    ],
)
def test_lock_input_by_number_or_card(text: str, action: Lock) -> None:
    state = new_state(DuelConfig(), random.Random(3))
    state.hands[0] = parse_cards("KS 4C")
    assert RENDERER.parse_input(text, state.view(0)) == action


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("lock 3", "duel_bad_lock"),
        ("9h", "duel_not_your_card"),
        ("lock", "duel_bad_lock"),
        # Two cards (a forged lock menu, or typed): one card only, not a betting word.
        ("lock KS 4C", "duel_lock_one"),
        ("lock 1 2", "duel_lock_one"),
    ],
)
def test_bad_lock_input_is_refused_specifically(text: str, code: str) -> None:
    state = new_state(DuelConfig(), random.Random(3))
    state.hands[0] = parse_cards("KS 4C")
    with pytest.raises(IllegalAction) as info:
        RENDERER.parse_input(text, state.view(0))
    assert info.value.code == code


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("check", Check()),
        ("bet 3", Bet(3)),
        ("call", Call()),
        ("raise 6", Raise(6)),
        ("fold", Fold()),
        ("allin", AllIn()),
    ],
)
def test_betting_input(text: str, action: object) -> None:
    assert RENDERER.parse_input(text, locked_state().view(0)) == action


def test_lock_after_locking_is_refused_with_the_reason() -> None:
    with pytest.raises(IllegalAction, match="cannot be changed"):
        RENDERER.parse_input("lock 2", locked_state().view(0))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_board_shows_signals_and_locks_but_no_hidden_card(lang: str) -> None:
    state = locked_state()
    board = RENDERER.board(state.view(None), NAMES, lang)
    assert "Ann" in board and "Bot" in board
    assert "▲1" in board and "▼1" in board
    for card in ("K♠", "4♣", "3♦", "9♥"):
        assert card not in board
    assert "duel." not in board  # every key has a message


@pytest.mark.parametrize("lang", LANGUAGES)
def test_hand_shows_own_cards_lock_and_options(lang: str) -> None:
    state = locked_state()
    text = RENDERER.hand(state.view(0), lang)
    assert "#1 K♠" in text and "#2 4♣" in text
    # The options in the reader's move words (the words they may type).
    check, bet, allin = {
        "en": ("check", "bet", "all-in"),
        "fr": ("parole", "miser", "tapis"),
        "uk": ("чек", "ставка", "ва-банк"),
    }[lang]
    assert f": {check}, {bet} 1-19, {allin}" in text, text
    assert "3♦" not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_of_a_match_renders_in_every_language(lang: str) -> None:
    state = new_state(DuelConfig(), random.Random(8))
    agents = [SPEC.make_policy("random", random.Random(s)) for s in (1, 2)]
    events = list(state.opening_events)
    while not state.finished:
        seat = state.to_act
        assert seat is not None
        events += state.apply(seat, agents[seat].decide(state.view(seat)))
    lines = [RENDERER.event(e, NAMES, lang) for e in events]
    assert all("duel." not in line for line in lines if line)
    kinds_with_lines = {type(e).__name__ for e, line in zip(events, lines, strict=True) if line}
    assert {"Showdown", "Locked", "SignalsShown", "MatchEnded", "DealStarted"} <= kinds_with_lines
    final = RENDERER.board(state.view(None), NAMES, lang)
    assert "▲" not in final  # no signals once the match is over, only the chips
    assert str(state.chips[0]) in final and str(state.chips[1]) in final


def test_showdown_after_fold_names_both_locked_cards() -> None:
    state = locked_state()
    events = state.apply(0, Check()) + state.apply(1, Bet(2)) + state.apply(0, Fold())
    lines = [RENDERER.event(e, NAMES, "en") for e in events]
    showdown = next(line for line in lines if line and line.startswith("Locked cards"))
    assert "K♠" in showdown and "3♦" in showdown
    assert showdown.endswith("Bot wins 2 uncontested (everyone else folded).")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_duel_refusals_are_translated(lang: str) -> None:
    state = locked_state()
    with pytest.raises(IllegalAction) as info:
        state.apply(0, parse_action("lock 4C"))
    message = explain(info.value, lang)
    assert message and "error." not in message
    assert RENDERER.input_help(lang) != "duel.help"


@pytest.mark.parametrize("text", ["fold", "check", "call", "allin", "raise 4"])
def test_betting_during_the_lock_step_says_to_lock_first(text: str) -> None:
    state = new_state(DuelConfig(), random.Random(3))
    seat = state.to_act
    assert seat is not None and state.view(seat).phase == "lock"
    with pytest.raises(IllegalAction) as info:
        state.check(seat, RENDERER.parse_input(text, state.view(seat)))
    assert info.value.code == "duel_lock_first"
