"""The betting buttons (`bot.render.betting`) and the move words (`bot.render.words`)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.i18n import LANGUAGES
from bot.render import get_renderer
from bot.render.betting import BetSpot, bet_choices
from bot.render.words import move_words, read_move, say_move
from engines.registry import get_game


def test_a_poker_rooms_buttons_from_the_figures() -> None:
    spot = BetSpot(("call", "fold", "raise 40", "allin"), 20, 20, 30, 40, 1000)
    shown = [(c.kind, c.action, c.amount) for c in bet_choices(spot)]
    assert shown == [
        ("fold", "fold", None),
        ("call", "call", 20),
        ("min", "raise 40", 40),
        ("half_pot", "raise 45", 45),  # 20 + (30 + 20) / 2
        ("pot", "raise 70", 70),  # 20 + 30 + 20
        ("allin", "allin", 1000),
    ]


def test_sized_raises_beyond_the_stack_or_equal_to_the_minimum_are_left_out() -> None:
    spot = BetSpot(("check", "bet 20", "allin"), 0, 0, 30, 20, 50)
    kinds = [c.kind for c in bet_choices(spot)]
    assert kinds == ["check", "min", "pot", "allin"]  # half pot (15) is below the minimum
    spot = BetSpot(("check", "bet 20", "allin"), 0, 0, 60, 20, 50)
    # half pot is 30; pot (60) is past all-in (50)
    assert [c.action for c in bet_choices(spot)] == ["check", "bet 20", "bet 30", "allin"]


CONFIGS = {
    "holdem": lambda seats: {"seats": seats, "starting_chips": 300},
    "draw": lambda seats: {"seats": seats},
    "duel": lambda seats: {},
}


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(CONFIGS)), st.integers(0, 10_000), st.integers(2, 6))
def test_every_button_of_every_decision_is_an_action_the_engine_accepts(
    game: str, seed: int, seats: int
) -> None:
    spec = get_game(game)
    renderer = get_renderer(game)
    rng = random.Random(seed)
    state = spec.new_state(spec.make_config(**CONFIGS[game](seats)), rng)
    spots = 0
    for _ in range(150):
        if state.finished:
            break
        seat = state.to_act
        view = state.view(seat)
        legal = [str(a) for a in view.legal]
        spot = renderer.bet_spot(view)
        if spot is None:  # not a betting decision: one button per move
            assert game != "holdem"
            state.apply(seat, spec.parse_action(rng.choice(legal)))
            continue
        spots += 1
        choices = bet_choices(spot)
        assert set(legal) <= {c.action for c in choices}
        for choice in choices:
            state.check(seat, spec.parse_action(choice.action))
        state.apply(seat, spec.parse_action(rng.choice(choices).action))
    assert spots > 0


def test_typed_words_of_every_language_read_as_the_english_move() -> None:
    for lang in LANGUAGES:
        for verb, forms in move_words(("poker",), lang).items():
            for form in forms:
                assert read_move(f"{form} 40", ("poker",)) == f"{verb} 40"
                assert read_move(form.upper(), ("poker",)) == verb
    assert read_move("relancer   60", ("poker",)) == "raise 60"
    assert read_move("3d 3s", ("bigtwo",)) == "3d 3s"


def test_moves_read_in_the_readers_words_with_cards_as_hands_show_them() -> None:
    assert say_move("raise 40", ("poker",), "fr") == "relancer 40"
    assert say_move("fold", ("poker",), "uk") == "скинути"
    assert say_move("play TS TD", ("bigtwo",), "fr") == "jouer 10♠ 10♦"
    assert say_move("lock QH", ("poker", "duel"), "en") == "lock Q♥"
