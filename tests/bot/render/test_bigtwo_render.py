"""The Big Two renderer: board and hand text from views, event lines, typed input, catalogs."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from bot.i18n import LANGUAGES, explain, pretty_cards, t
from bot.render import get_renderer
from engines.base import IllegalAction
from engines.bigtwo import PASS, BigTwoConfig, BigTwoState, Play
from engines.cards import CardParseError, parse_cards

LOCALES = Path(__file__).resolve().parents[3] / "bot" / "locales"
NAMES = ["Ann", "Bob", "Cyd", "Dee"]
R = get_renderer("bigtwo")


def state_from(hands: list[str], turn: int, opening: bool = True) -> BigTwoState:
    data = BigTwoState(BigTwoConfig(deals=2), random.Random(0)).snapshot()
    data.update(
        hands=hands,
        turn=turn,
        leader=turn,
        opening=opening,
        table=None,
        table_seat=None,
        passes=0,
        trick=[],
        played="",
        dealer=3,
    )
    return BigTwoState.restore(data)


def test_board_shows_seats_in_order_cards_left_dealer_table_and_turn() -> None:
    state = state_from(["3D 5C 9C", "KD 2S", "6D 8D", "7D JD QS"], turn=0)
    state.apply(0, Play(tuple(parse_cards("3D"))))
    text = R.board(state.view(None), NAMES, "en")
    lines = text.splitlines()
    assert "Ann → Bob → Cyd → Dee" in text
    seat_lines = [line for line in lines if re.search(r"cards left \d+", line)]
    assert [line.strip("▶ ").split(":")[0] for line in seat_lines] == [
        "Ann",
        "Bob",
        "Cyd",
        "Dee (dealer)",
    ]
    assert "cards left 2" in seat_lines[0] and "cards left 3" in seat_lines[3]
    assert seat_lines[1].startswith("▶")  # Bob's turn
    assert "3♦" in text and "Ann" in text.split("To beat:")[1]
    assert "Bob to play" in text
    # Nothing private on the public board.
    assert "K♦" not in text and "2♠" not in text


def test_board_at_the_opening_names_the_three_of_diamonds() -> None:
    state = state_from(["3D 5C 9C", "KD 2S", "6D 8D", "7D JD QS"], turn=0)
    assert "must contain 3♦" in R.board(state.view(None), NAMES, "en")


def test_hand_is_sorted_and_numbered_with_options() -> None:
    state = state_from(["2S 3D 9C 5C", "KD", "6D 8D", "7D"], turn=0)
    text = R.hand(state.view(0), "en")
    assert "#1 3♦  #2 5♣  #3 9♣  #4 2♠" in text
    assert "contains 3♦" in text
    state.apply(0, Play(tuple(parse_cards("3D"))))
    assert "Beat 3♦" in R.hand(state.view(1), "en")
    state.apply(1, PASS)
    state.apply(2, Play(tuple(parse_cards("8D"))))
    assert "Nothing in your hand beats 8♦" in R.hand(state.view(3), "en")  # 7♦ only


def test_parse_input_accepts_cards_numbers_and_pass() -> None:
    state = state_from(["2S 3D 3S 5C", "KD", "6D 8D", "7D"], turn=0)
    view = state.view(0)
    assert R.parse_input("3d 3s", view) == Play(tuple(parse_cards("3D 3S")))
    assert R.parse_input("1, 2", view) == Play(tuple(parse_cards("3D 3S")))
    assert R.parse_input("play 3♠ 3♦", view) == Play(tuple(parse_cards("3D 3S")))
    assert R.parse_input("  PASS ", view) == PASS
    assert R.parse_input("4", view) == Play(tuple(parse_cards("2S")))


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "bigtwo.empty_input"),
        ("9", "bigtwo.bad_number"),
        ("0", "bigtwo.bad_number"),
        ("play", "bigtwo.empty_input"),
        ("3d pass", "bigtwo.pass_with_cards"),
    ],
)
def test_parse_input_refuses_bad_input_specifically(text: str, code: str) -> None:
    state = state_from(["2S 3D 3S 5C", "KD", "6D 8D", "7D"], turn=0)
    before = state.snapshot()
    with pytest.raises(IllegalAction) as error:
        R.parse_input(text, state.view(0))
    assert error.value.code == code
    assert state.snapshot() == before
    for lang in LANGUAGES:
        assert explain(error.value, lang) != f"error.{code}"


def test_parse_input_names_a_bad_card() -> None:
    state = state_from(["2S 3D 3S 5C", "KD", "6D 8D", "7D"], turn=0)
    with pytest.raises(CardParseError, match="'1x'"):
        R.parse_input("3d 1x", state.view(0))


def test_events_of_a_whole_match_render_in_every_language() -> None:
    state = BigTwoState(BigTwoConfig(deals=1), random.Random(4))
    from engines.ai.bigtwo import GreedyPolicy

    policy = GreedyPolicy(random.Random(0))
    events = list(state.opening_events)
    while not state.finished:
        seat = state.to_act
        assert seat is not None
        events += state.apply(seat, policy.decide(state.view(seat)))
    for lang in LANGUAGES:
        lines = [R.event(e, NAMES, lang) for e in events]
        shown = [line for line in lines if line]
        assert len(shown) >= len(events) - 1  # only DealSettled is left out
        assert not any("bigtwo." in line for line in shown), shown
    won = next(R.event(e, NAMES, "en") for e in events if e.kind == "bigtwo.deal_won")
    assert won is not None and "wins the deal" in won
    assert "Match over" in R.board(state.view(None), NAMES, "en")


def test_catalogs_have_the_same_keys_and_placeholders_in_every_language() -> None:
    catalogs = {
        lang: json.loads((LOCALES / lang / "bigtwo.json").read_text(encoding="utf-8"))
        for lang in LANGUAGES
    }
    english = catalogs["en"]
    for lang, catalog in catalogs.items():
        assert set(catalog) == set(english), lang
        for key, text in catalog.items():
            assert set(re.findall(r"{(\w+)", text)) == set(re.findall(r"{(\w+)", english[key])), (
                lang,
                key,
            )


def test_every_engine_error_code_has_a_message() -> None:
    source = (Path(__file__).resolve().parents[3] / "engines" / "bigtwo.py").read_text()
    codes = set(re.findall(r'code="(bigtwo\.\w+)"', source))
    assert len(codes) >= 10
    for lang in LANGUAGES:
        for code in codes:
            assert t(f"error.{code}", lang) != f"error.{code}", (lang, code)


def test_input_help_in_every_language() -> None:
    texts = {R.input_help(lang) for lang in LANGUAGES}
    assert len(texts) == 3 and all("3d 3s" in text for text in texts)


def test_refusals_write_cards_as_the_hand_shows_them() -> None:
    # The engine speaks canonical text (TS); people read 10♠ in every language.
    state = state_from(["3D 4C", "TS", "6D 8D", "7D"], turn=0)
    with pytest.raises(IllegalAction) as error:
        state.check(0, Play(tuple(parse_cards("3D TS"))))
    assert error.value.code == "bigtwo.not_your_cards"
    for lang in LANGUAGES:
        text = explain(error.value, lang)
        assert "10♠" in text and "TS" not in text and "3♦" in text


def test_pretty_cards_rewrites_canonical_cards_only() -> None:
    assert pretty_cards("play 3D TS") == "play 3♦ 10♠"
    assert pretty_cards("lock AS, then KH") == "lock A♠, then K♥"
    assert pretty_cards("raise 40 as a TEST of 10S") == "raise 40 as a TEST of 10S"
