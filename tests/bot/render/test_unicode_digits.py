"""Numbers typed with digits other than ASCII ones (``²``, ``٣``, ``３``: `str.isdigit`
accepts them, `int` cannot read ``²``) are refused like any word that is not a number, in
every game's parser (the terminal's and `/act`'s), never a crash; ASCII numbers still read.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.i18n import LANGUAGES, explain
from bot.render import get_renderer
from engines.base import IllegalAction
from engines.cards import CardParseError
from engines.draw.actions import parse_action as parse_draw
from engines.numbers import is_number
from engines.poker.actions import parse_betting_action
from engines.registry import get_game
from tests.bot.render.test_draw_render import _draw_step
from tests.bot.render.test_input_traps import betting_spot

odd_digits = st.text(st.characters(categories=("Nd", "No")), min_size=1, max_size=3).filter(
    lambda text: text.isdigit() and not text.isascii()
)
"""Digits `str.isdigit` accepts that are not all ASCII (superscripts, Arabic-Indic, full
width...)."""
numbers = st.tuples(st.sampled_from(["", "1", "12"]), odd_digits).map("".join)
"""Such digits, alone or after ASCII ones (``1²``)."""


def first_view(game: str) -> Any:
    """The view of the seat to act at a new match of `game`."""
    spec = get_game(game)
    state = spec.new_state(spec.make_config(), random.Random(3))
    return state.view(state.to_act)


def views() -> dict[str, Any]:
    """A view per game where numbers are typed: Big Two (card positions), the poker games
    facing a bet (amounts, call N), the draw (positions), the duel's lock (#positions)."""
    draw_state, seat = _draw_step()
    return {
        "bigtwo": first_view("bigtwo"),
        "holdem": betting_spot("holdem"),
        "draw": betting_spot("draw"),
        "draw at the draw": draw_state.view(seat),
        "duel": first_view("duel"),
        "duel betting": betting_spot("duel"),
    }


VIEWS = views()
TYPED = {
    "bigtwo": ("{n}", "{n} 1", "1 {n}"),
    "holdem": ("call {n}", "raise {n}", "bet {n}", "raise to {n}"),
    "draw": ("call {n}", "raise {n}", "open {n}", "rebuy {n}"),
    "draw at the draw": ("draw {n}", "{n}", "draw 1 {n}", "draw #{n}", "#{n}"),
    "duel": ("#{n}", "{n}", "lock #{n}"),
    "duel betting": ("call {n}", "raise {n}"),
}


def refused(where: str, typed: str) -> BaseException:
    """The refusal of `typed` at the view `where`; fails on anything else (a crash)."""
    game = where.split()[0]
    try:
        action = get_renderer(game).parse_input(typed, VIEWS[where])
    except (IllegalAction, CardParseError) as error:
        return error
    raise AssertionError(f"{typed!r} read as {action!r} at {where}")


@pytest.mark.parametrize("where", list(TYPED))
@given(number=numbers)
def test_odd_digits_are_refused_in_every_parser(where: str, number: str) -> None:
    for pattern in TYPED[where]:
        error = refused(where, pattern.format(n=number))
        if isinstance(error, IllegalAction):
            for lang in LANGUAGES:
                assert explain(error, lang)


@pytest.mark.parametrize("typed", ["²", "٣", "３", "1²", "٣٣"])
def test_the_engines_read_ascii_numbers_only(typed: str) -> None:
    assert not is_number(typed)
    for text in (f"raise {typed}", f"bet {typed}"):
        with pytest.raises(IllegalAction):
            parse_betting_action(text)
    for text in (f"open {typed}", f"rebuy {typed}", f"draw {typed}"):
        with pytest.raises(IllegalAction):
            parse_draw(text)


def test_ascii_numbers_still_read() -> None:
    assert is_number("0") and is_number("120") and not is_number("") and not is_number("-1")
    assert str(parse_betting_action("raise 120")) == "raise 120"
    assert str(parse_draw("draw 1 3")) == "draw 1 3"
    assert str(get_renderer("bigtwo").parse_input("1", VIEWS["bigtwo"])).startswith("play ")
