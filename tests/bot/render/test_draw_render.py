"""The draw poker renderer: every line exists in English, French and Ukrainian, hands stay
private, and what people type becomes the right action."""

from __future__ import annotations

import random
import re

import pytest

from bot.i18n import LANGUAGES, catalog, explain, t
from bot.render import get_renderer
from engines.base import IllegalAction
from engines.cards import parse_card
from engines.draw import DrawConfig, DrawState, parse_action
from engines.draw.actions import STAND, Draw

RENDERER = get_renderer("draw")
NAMES = ["Ann", "Bob", "Cy", "Di"]


def test_the_three_catalogs_have_the_same_keys() -> None:
    keys = [{k for k in catalog(lang) if k.startswith("draw.")} for lang in LANGUAGES]
    assert keys[0] and keys[0] == keys[1] == keys[2]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_board_and_hand_renders_without_a_missing_key(lang: str) -> None:
    rng = random.Random(4)
    policies = [random.Random(i) for i in range(4)]
    state = DrawState(DrawConfig(deals=30), random.Random(2))
    kinds = set()
    lines = [RENDERER.event(e, NAMES, lang) for e in state.opening_events]
    while not state.finished:
        seat = state.to_act
        assert seat is not None
        lines.append(RENDERER.board(state.view(None), NAMES, lang))
        lines.append(RENDERER.hand(state.view(seat), lang))
        action = policies[seat].choice(state.legal_actions(seat))
        if rng.random() < 0.5 and "check" in {str(a) for a in state.legal_actions(seat)}:
            action = parse_action("check")
        for event in state.apply(seat, action):
            kinds.add(event.kind)
            lines.append(RENDERER.event(event, NAMES, lang))
    for line in lines:
        if line is not None:
            assert not re.search(r"draw\.[a-z]", line) and "{" not in line, line
    assert {"draw_shown", "draw_pot_won", "draw_drew", "draw_posted"} <= kinds


def test_the_board_never_shows_a_hand_and_the_hand_shows_only_ones_own() -> None:
    state = DrawState(DrawConfig(), random.Random(9))
    seat = state.to_act
    assert seat is not None
    state.apply(seat, parse_action("no"))
    board = RENDERER.board(state.view(None), NAMES, "en")
    for s in range(4):
        for card in state.hands[s]:
            assert card.pretty not in board
    mine = RENDERER.hand(state.view(0), "en")
    assert all(card.pretty in mine for card in state.hands[0])


def test_typing_cards_or_positions_at_the_draw() -> None:
    state = DrawState(DrawConfig(), random.Random(9))
    seat = state.to_act
    assert seat is not None
    state.apply(seat, parse_action("no"))
    view = state.view(0)
    view = view.__class__(
        **{**{f: getattr(view, f) for f in view.__dataclass_fields__}, "phase": "draw"}
    )
    second, fifth = view.hand[1], view.hand[4]
    assert RENDERER.parse_input(f"draw {fifth} {second}", view) == Draw((2, 5))
    assert RENDERER.parse_input("draw 5 2", view) == Draw((2, 5))
    assert RENDERER.parse_input("1 3", view) == Draw((1, 3))
    assert RENDERER.parse_input("pat", view) == STAND
    missing = next(
        c for c in map(parse_card, ["AS", "KS", "2D", "3C", "4H", "5S"]) if c not in view.hand
    )
    with pytest.raises(IllegalAction, match="you do not hold"):
        RENDERER.parse_input(f"draw {missing}", view)


@pytest.mark.parametrize("lang", ["fr", "uk"])
def test_refusals_are_translated(lang: str) -> None:
    state = DrawState(DrawConfig(), random.Random(9))
    seat = state.to_act
    assert seat is not None
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, parse_action("rebuy 1"))
    text = explain(info.value, lang)
    assert text != info.value.message and "{" not in text


def _draw_step() -> tuple[DrawState, int]:
    """A 3-seat blind deal at the draw (nobody doubled, one came in, both others called)."""
    state = DrawState(DrawConfig(seats=3), random.Random(1))
    for text in ("no", "raise 4", "call", "call"):
        seat = state.to_act
        assert seat is not None
        state.apply(seat, parse_action(text))
    assert state.phase == "draw" and state.to_act is not None
    return state, state.to_act


@pytest.mark.parametrize(
    ("text", "code", "english"),
    [
        ("draw 6", "draw_no_such_position", "There is no card 6: your cards are numbered 1 to 5."),
        ("6", "draw_no_such_position", "There is no card 6: your cards are numbered 1 to 5."),
        ("draw 0", "draw_no_such_position", "There is no card 0: your cards are numbered 1 to 5."),
        (
            "draw 1 5 5",
            "draw_position_twice",
            "Card 5 is named twice: name each card to change once.",
        ),
        (
            "check",
            "draw_now",
            "It is the draw: change cards with draw and their positions (draw 1 2), or stand.",
        ),
        (
            "fold",
            "draw_now",
            "It is the draw: change cards with draw and their positions (draw 1 2), or stand.",
        ),
    ],
)
def test_draw_step_refusals_name_the_mistake(text: str, code: str, english: str) -> None:
    state, seat = _draw_step()
    before = state.snapshot()
    with pytest.raises(IllegalAction) as info:
        state.check(seat, RENDERER.parse_input(text, state.view(seat)))
    assert info.value.code == code
    assert explain(info.value, "en") == english
    assert all("{" not in explain(info.value, lang) for lang in LANGUAGES)
    assert state.snapshot() == before


def test_a_card_named_twice_at_the_draw_is_named() -> None:
    state, seat = _draw_step()
    card = state.view(seat).hand[0]
    with pytest.raises(IllegalAction) as info:
        RENDERER.parse_input(f"draw {card} {card}", state.view(seat))
    assert info.value.code == "draw_card_twice"
    assert explain(info.value, "en").startswith(f"{card.pretty} is named twice")


def test_check_before_anyone_came_in_says_to_come_in_not_to_call() -> None:
    state = DrawState(DrawConfig(seats=3), random.Random(1))
    state.apply(state.to_act or 0, parse_action("no"))
    seat = state.to_act
    assert seat is not None
    with pytest.raises(IllegalAction) as info:
        state.check(seat, parse_action("check"))
    assert info.value.code == "check_before_entry"
    assert explain(info.value, "en") == (
        "You cannot check: nobody has come in over the blind yet. "
        "Come in with a raise to at least 4, or fold."
    )


@pytest.mark.parametrize("text", ["raise 99999999999999999999999", "open 99999999999999999999"])
def test_a_huge_amount_is_more_than_you_have(text: str) -> None:
    state = DrawState(DrawConfig(seats=3), random.Random(1))
    state.apply(state.to_act or 0, parse_action("no"))
    seat = state.to_act
    assert seat is not None
    action = parse_action(text)
    with pytest.raises(IllegalAction) as info:
        state.check(seat, action)
    expected = "open_not_now" if text.startswith("open") else "more_than_stack"
    assert info.value.code == expected


def test_to_call_is_shown_only_when_something_is_owed_in_a_betting_round() -> None:
    state, seat = _draw_step()
    assert "to call" not in RENDERER.hand(state.view(seat), "en")  # the draw
    fresh = DrawState(DrawConfig(seats=3), random.Random(1))
    surblind = fresh.to_act
    assert surblind is not None and fresh.phase == "surblind"
    assert "to call" not in RENDERER.hand(fresh.view(surblind), "en")
    fresh.apply(surblind, parse_action("no"))
    speaker = fresh.to_act
    assert speaker is not None
    # Nobody may just match the blind: the price to come in is shown, not a refused call.
    first = RENDERER.hand(fresh.view(speaker), "en")
    assert "to call" not in first and "to come in 4" in first
    fresh.apply(speaker, parse_action("raise 4"))
    after = fresh.to_act
    assert after is not None
    assert "to call 4" in RENDERER.hand(fresh.view(after), "en")


def _finished_match() -> DrawState:
    rng = random.Random(1)
    state = DrawState(DrawConfig(seats=3, cave_unit=8, deals=40), random.Random(1))
    while not state.finished:
        seat = state.to_act
        assert seat is not None
        action = rng.choice(state.legal_actions(seat))
        if str(action).startswith(("rebuy", "sitout")):
            action = parse_action("sitout")
        state.apply(seat, action)
    return state


def test_a_finished_match_shows_results_once_and_no_roles_of_the_last_deal() -> None:
    state = _finished_match()
    board = RENDERER.board(state.view(None), NAMES[:3], "en")
    for tag in ("dealer", "blind", "surblind", "sitting out"):
        assert tag not in board.split("\n", 2)[-1], board
    assert "The match is over" not in board
    totals = [state.stacks[s] - state.bought[s] for s in range(3)]
    assert f"Chips minus buy-ins: Ann {totals[0]:+d}, Bob {totals[1]:+d}" in board


def test_a_seat_sitting_out_shows_no_role() -> None:
    # Between deals, a broke seat that sat out keeps no role of the last deal.
    rng = random.Random(5)
    state = DrawState(DrawConfig(seats=3, cave_unit=8), random.Random(5))
    seen = 0
    for _ in range(3000):
        if state.finished:
            break
        seat = state.to_act
        assert seat is not None
        action = rng.choice(state.legal_actions(seat))
        if str(action).startswith("rebuy"):
            action = parse_action("sitout")
        state.apply(seat, action)
        view = state.view(None)
        for line in RENDERER.board(view, NAMES[:3], "en").splitlines():
            if "sitting out" in line:
                seen += 1
                assert line.rstrip().endswith(" (sitting out)"), line
    assert seen, "no seat sat out: the test proved nothing"


def test_the_rebuy_offer_is_read_from_any_view_and_refused_to_a_player_with_chips() -> None:
    state = DrawState(DrawConfig(seats=3, cave_unit=50, max_rebuy_units=4), random.Random(3))
    seat = state.to_act
    assert seat is not None and RENDERER.rebuy_offer(state.view(None)) is None  # a deal
    during = RENDERER.rebuy_refusal(state.view(seat))
    assert during is not None and during.code == "rebuy_during_deal"
    # Test seam: seat 1 broke, then the engine's own way to the turns between deals.
    state.stacks[1] = 0
    state._between_deals(first=False)
    assert state.phase == "rebuy" and state.to_act == 1
    for viewer in (None, 0, 1):
        offer = RENDERER.rebuy_offer(state.view(viewer))
        assert offer is not None and (offer.seat, offer.cave, offer.most) == (1, 50, 4)
        assert offer.chips(3) == 150
    assert RENDERER.rebuy_refusal(state.view(1)) is None
    rich = RENDERER.rebuy_refusal(state.view(0))
    assert rich is not None and rich.code == "rebuy_has_chips"
    assert rich.params["chips"] == state.stacks[0] > 0
    assert "rebuy 1-4" in RENDERER.hand(state.view(1), "en")
    # Games without rebuys offer none and refuse one.
    holdem = get_renderer("holdem")
    assert holdem.rebuy_offer(object()) is None
    refusal = holdem.rebuy_refusal(object())
    assert refusal is not None and refusal.code == "no_rebuy"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rebuy_refusals_are_translated(lang: str) -> None:
    has_chips = IllegalAction("x", code="rebuy_has_chips", action="rebuy 1", chips=1)
    for error in (has_chips, IllegalAction("x", code="no_rebuy")):
        text = explain(error, lang)
        assert text != "x" and "{" not in text
    assert "1 " in explain(has_chips, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_discord_buttons_name_the_entry_price_when_calling_is_refused(lang: str) -> None:
    fresh = DrawState(DrawConfig(seats=3), random.Random(1))
    surblind = fresh.to_act
    assert surblind is not None
    fresh.apply(surblind, parse_action("no"))
    speaker = fresh.to_act
    assert speaker is not None
    shown = RENDERER.hand(fresh.view(speaker), lang, menu=True).splitlines()[-1]
    assert shown == t("phrase.poker.buttons_entry", lang, entry=4, pot=2), shown
