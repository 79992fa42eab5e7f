"""The replay's steps: one per action, the lines each caused, whose private lines show, and
the board when the file has the match seed."""

from __future__ import annotations

import pytest

from bot.history.build import HistoryError, build_match_history
from bot.history.replay import frames
from tests.bot.history.helpers import GAMES, engine_match, random_legal


def test_an_omniscient_file_shows_every_seats_private_lines_and_the_board() -> None:
    log = engine_match("holdem", GAMES["holdem"], 8, random_legal)
    match = build_match_history(log)
    deal = match.deals[0]
    steps = frames(match, deal, None, "en")
    assert len(steps) == len(deal.actions) + 1
    assert sum(f.new for f in steps) == len(steps[-1].lines)
    private = [line for line in steps[0].lines if line.startswith("[")]
    assert deal.result is not None and len(private) == len(deal.result.dealt or [])
    assert all(f.board is not None and "Board:" in f.board for f in steps)
    one_seat = frames(match, deal, 1, "en")
    assert not any(line.startswith("[") for line in one_seat[-1].lines)
    assert sum("Your cards" in line for line in one_seat[0].lines) == 1
    # Without the earlier deals the match cannot be replayed: the log is still shown.
    later = match.model_copy(update={"deals": match.deals[1:]})
    if later.deals:
        assert all(f.board is None for f in frames(later, later.deals[0], 1, "en"))


def test_a_members_file_shows_only_their_lines_and_refuses_another_seat() -> None:
    log = engine_match("duel", GAMES["duel"], 3, random_legal, players=["u0", "u1"])
    mine = build_match_history(log, seat=1)
    deal = mine.deals[0]
    steps = frames(mine, deal, 1, "en")
    assert all(f.board is None for f in steps)
    assert steps[-1].lines and not any(line.startswith("[") for line in steps[-1].lines)
    with pytest.raises(HistoryError) as refused:
        frames(mine, deal, 0, "en")
    assert refused.value.code == "history_other_seat"
    with pytest.raises(HistoryError) as refused:
        frames(mine, deal, 5, "en")
    assert refused.value.code == "history_no_seat"


def test_replaying_another_seat_calls_only_that_seat_you() -> None:
    log = engine_match("holdem", GAMES["holdem"], 8, random_legal)
    match = build_match_history(log)
    # The terminal stores its human under the default name "You" (seat 1).
    seats = [s.model_copy(update={"name": "You" if s.seat == 0 else s.name}) for s in match.seats]
    match = match.model_copy(update={"seats": seats})
    deal = match.deals[0]
    lines = frames(match, deal, 1, "en")[-1].lines
    you = [line for line in lines if line.startswith(("You ", "Your "))]
    others = [line for line in lines if line.startswith("Seat 1 ")]
    assert you, lines  # seat 2 is "you" (second-person lines)
    assert not any(line.startswith("You ") and "Seat" in line for line in you)
    board = frames(match, deal, 1, "en")[-1].board or ""
    assert "Seat 1:" in board and "\n  You:" not in board and "▶ You:" not in board, board
    assert others or "Seat 1" in board


def test_a_full_replay_calls_nobody_you() -> None:
    # An omniscient file of a terminal match: its human is stored as "You", but the replay
    # of every seat is nobody's, so "You sits down" / "You has the button" never appear.
    log = engine_match("holdem", GAMES["holdem"], 8, random_legal)
    match = build_match_history(log)
    seats = [s.model_copy(update={"name": "You" if s.seat == 0 else s.name}) for s in match.seats]
    match = match.model_copy(update={"seats": seats})
    steps = frames(match, match.deals[0], None, "en")
    lines = [line.removeprefix("[Seat 1] ") for line in steps[-1].lines]
    assert not any(line.startswith("You ") or "[You]" in line for line in lines), lines
    assert any(line.startswith("Seat 1 ") for line in lines), lines
    board = steps[-1].board or ""
    assert "Seat 1:" in board and "You:" not in board, board
