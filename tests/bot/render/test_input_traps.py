"""Typed input that used to trip people up, in every poker game and language: the buttons'
moves typed as the buttons name them (min, half, pot, all-in, call N), near misses answered
"did you mean ...?", a bare draw that asks which cards, the duel's positions and ranks that
are never guessed, a rebuy with no number."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from bot.i18n import LANGUAGES, explain, t
from bot.render import get_renderer
from bot.render.betting import bet_choices
from bot.render.words import move_words
from engines.base import IllegalAction
from engines.cards import parse_card
from engines.registry import get_game
from tests.bot.render.test_draw_render import _draw_step

POKER = ("holdem", "draw", "duel")
BUTTON_WORDS = {"min": "min", "half_pot": "half", "pot": "pot", "allin": "allin"}


def betting_spot(game: str, seed: int = 2) -> Any:
    """A view of the seat to act facing a betting decision where a raise is legal."""
    spec = get_game(game)
    rng = random.Random(seed)
    state = spec.new_state(spec.make_config(), rng)
    renderer = get_renderer(game)
    for _ in range(200):
        view = state.view(state.to_act)
        spot = renderer.bet_spot(view)
        if spot is not None and spot.raise_verb is not None and "call" in spot.legal:
            return view
        legal = [str(a) for a in view.legal]
        pick = next((m for m in ("call", "check", "no", "stand") if m in legal), legal[0])
        if spot is not None and spot.raise_verb is not None:  # bet, so the next one may call
            pick = f"{spot.raise_verb} {spot.low}"
        state.apply(state.to_act, spec.parse_action(pick))
    raise AssertionError(f"no betting spot with a raise in {game}")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", POKER)
def test_the_buttons_moves_typed_as_the_buttons_name_them(game: str, lang: str) -> None:
    view = betting_spot(game)
    renderer = get_renderer(game)
    spot = renderer.bet_spot(view)
    offered = {c.kind: c.action for c in bet_choices(spot)}
    words = move_words(renderer.move_areas, lang)
    checked = 0
    for kind, verb in BUTTON_WORDS.items():
        if kind not in offered:
            continue
        for typed in (verb, words[verb][0]):
            assert str(renderer.parse_input(typed, view)) == offered[kind], (typed, kind)
            checked += 1
    assert checked >= 4
    # "call N" with N the chips the call adds (the figure on the Call button) is the call.
    owed = min(spot.to_call, spot.high)
    assert str(renderer.parse_input(f"{words['call'][0]} {owed}", view)) == "call"
    # Any other N is refused, saying what calling adds (one meaning of "call N").
    with pytest.raises(IllegalAction) as refused:
        renderer.parse_input(f"call {owed + 7}", view)
    assert refused.value.code == "call_amount"
    assert str(owed) in explain(refused.value, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", POKER)
def test_a_near_miss_is_answered_did_you_mean(game: str, lang: str) -> None:
    view = betting_spot(game)
    renderer = get_renderer(game)
    with pytest.raises(IllegalAction) as refused:
        renderer.parse_input("rasie 60", view)
    assert refused.value.code == "did_you_mean"
    assert refused.value.params["meant"] == "raise 60"
    said = explain(refused.value, lang)
    assert said == t("error.did_you_mean", lang, text="rasie 60", meant="raise 60")
    assert "raise 60" in said
    # Misspelt in French, the suggestion is the French word.
    with pytest.raises(IllegalAction) as french:
        renderer.parse_input("relacner 60", view)
    assert french.value.params["meant"] == "relancer 60"


# Each move word the README promises, mistyped the usual ways: a letter swapped with its
# neighbour (even in three-letter words), one missing, one doubled.
TYPOS = {
    "cal": "call",
    "clal": "call",
    "chekc": "check",
    "fodl": "fold",
    "mni": "min",
    "hlaf": "half",
    "pto": "pot",
    "alin": "allin",
    "rasie 120": "raise 120",
    "bte 60": "bet 60",
}


def every_turn(game: str, seed: int = 4) -> list[Any]:
    """The view of the seat to act at every turn of a random match of `game`."""
    spec = get_game(game)
    rng = random.Random(seed)
    state = spec.new_state(spec.make_config(), rng)
    views = []
    for _ in range(300):
        if state.finished or state.to_act is None:
            break
        view = state.view(state.to_act)
        views.append(view)
        state.apply(state.to_act, rng.choice(list(view.legal)))
    return views


@pytest.mark.parametrize("game", POKER)
def test_every_promised_move_word_mistyped_gets_did_you_mean_at_every_step(game: str) -> None:
    renderer = get_renderer(game)
    steps = set()
    for view in every_turn(game):
        steps.add(getattr(view, "phase", ""))
        for typed, meant in TYPOS.items():
            with pytest.raises(IllegalAction) as refused:
                renderer.parse_input(typed, view)
            assert refused.value.code == "did_you_mean", (typed, view.phase, refused.value)
            assert refused.value.params["meant"] == meant
    if game == "duel":
        assert "lock" in steps  # a move word typed while locking is no card either


def test_a_mistyped_lock_is_not_read_as_cards() -> None:
    renderer = get_renderer("duel")
    view = next(v for v in every_turn("duel") if v.phase == "lock")
    card = view.hand[1].pretty
    with pytest.raises(IllegalAction) as refused:
        renderer.parse_input(f"lokc {card}", view)
    assert refused.value.params["meant"] == f"lock {card}"
    assert "menu" not in explain(refused.value, "en")


def test_nonsense_is_not_given_a_guess() -> None:
    view = betting_spot("holdem")
    with pytest.raises(IllegalAction) as refused:
        get_renderer("holdem").parse_input("banana 60", view)
    assert refused.value.code == "bad_input"


def test_big_two_pass_misspelt() -> None:
    spec = get_game("bigtwo")
    state = spec.new_state(spec.make_config(), random.Random(3))
    with pytest.raises(IllegalAction) as refused:
        get_renderer("bigtwo").parse_input("pss", state.view(state.to_act))
    assert refused.value.params["meant"] == "pass"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_bare_draw_asks_which_cards_instead_of_standing_pat(lang: str) -> None:
    state, seat = _draw_step()
    renderer = get_renderer("draw")
    view = state.view(seat)
    draw_word = move_words(renderer.move_areas, lang)["draw"][0]
    for typed in ("draw", draw_word):
        with pytest.raises(IllegalAction) as refused:
            renderer.parse_input(typed, view)
        assert refused.value.code == "draw_which_cards"
        assert explain(refused.value, lang) == t("error.draw_which_cards", lang)
    # Standing pat is still one word away, and drawing still works.
    assert str(renderer.parse_input("stand", view)) == "stand"
    assert str(renderer.parse_input("draw 1 2", view)) == "draw 1 2"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rebuy_without_a_number_says_how(lang: str) -> None:
    state, seat = _draw_step()
    with pytest.raises(IllegalAction) as refused:
        get_renderer("draw").parse_input("rebuy", state.view(seat))
    assert refused.value.code == "rebuy_how_many"
    said = explain(refused.value, lang)
    assert "200" in said and "10" in said


def duel_view_holding(*cards: str) -> Any:
    spec = get_game("duel")
    state = spec.new_state(spec.make_config(), random.Random(1))
    view = state.view(state.to_act)
    assert view.phase == "lock"
    return dataclasses.replace(view, hand=tuple(parse_card(c) for c in cards))


@pytest.mark.parametrize(
    ("typed", "locked"),
    [
        ("#1", "2D"),
        ("#2", "KC"),
        ("lock #2", "KC"),
        ("2d", "2D"),
        ("2♦", "2D"),
        ("K♣", "KC"),
        ("K", "KC"),  # one king: it can mean nothing else
        ("1", "2D"),  # no card of rank 1: a position
    ],
)
def test_duel_positions_and_cards_that_can_mean_one_card(typed: str, locked: str) -> None:
    view = duel_view_holding("2D", "KC")
    assert str(get_renderer("duel").parse_input(typed, view)) == f"lock {locked}"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("typed", ["2", "lock 2"])
def test_duel_a_number_that_is_also_a_rank_in_hand_is_asked_back(typed: str, lang: str) -> None:
    view = duel_view_holding("2D", "KC")
    with pytest.raises(IllegalAction) as refused:
        get_renderer("duel").parse_input(typed, view)
    assert refused.value.code == "duel_which_card"
    said = explain(refused.value, lang)
    assert "#2" in said and "K♣" in said and "2♦" in said


def test_duel_a_position_after_locking_says_the_card_is_locked() -> None:
    view = dataclasses.replace(duel_view_holding("2D", "KC"), phase="bet")
    with pytest.raises(IllegalAction) as refused:
        get_renderer("duel").parse_input("#1", view)
    assert refused.value.code == "duel_already_locked"
