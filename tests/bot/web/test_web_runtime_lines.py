"""The runtime's own events on the page (`bot.web.frames.event_lines`), worded by the one
`runtime_line` the terminal and Discord share: a timed-out move is public, so it names no
hidden card (the duel's locked card, draw's discards), as the Discord channel's line does;
only a game whose moves are cards played face up (Big Two) names them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.i18n import LANGUAGES
from bot.runtime import SeatAway, TurnTimedOut
from bot.web.frames import event_lines
from engines.cards import FULL_DECK, Card

NAMES = ["Ann", "AI 2"]


@given(st.sampled_from(FULL_DECK), st.sampled_from(LANGUAGES))
def test_a_timed_out_lock_does_not_show_the_locked_card(card: Card, lang: str) -> None:
    event = TurnTimedOut(seat=0, action=f"lock {card}", in_a_row=1)
    (line,) = event_lines("duel", [event], NAMES, lang)
    assert "Ann" in line
    assert card.pretty not in line and str(card) not in line, line


def test_a_timed_out_play_in_big_two_names_its_cards_played_face_up() -> None:
    event = TurnTimedOut(seat=0, action="play 3d", in_a_row=1)
    assert event_lines("bigtwo", [event], NAMES, "en") == [
        "Ann ran out of time: play 3♦ was played for them."
    ]


def test_a_seat_event_names_whom_it_carries() -> None:
    event = SeatAway(seat=1, name="Bo", reason="timeouts")
    assert event_lines("duel", [event], NAMES, "en") == [
        "Bo is away; an AI plays their seat until they are back."
    ]
