"""Hold'em levels against the sparring pool on duplicate deals (bot.commands.holdem_pool)."""

from __future__ import annotations

import json
import random

import pytest

from bot.cli import main
from bot.commands.holdem_pool import Lineup, duplicate, table
from bot.commands.simulate import Interval
from engines.base import DealSettled
from engines.cards import Card
from engines.holdem import HoldemConfig, HoldemState
from engines.poker.actions import Check, Fold


def _holes_by_position(button: int, seats: int, hands: int) -> list[list[tuple[Card, ...] | None]]:
    """Per hand, the hole cards listed from the button round the table."""
    config = HoldemConfig(seats=seats, reset_stacks=True, max_hands=hands, button=button)
    state = HoldemState(config, random.Random(7))
    seen = []
    for _ in range(hands):
        order = [(state.button + k) % seats for k in range(seats)]
        seen.append([state.holes[s] for s in order])
        while True:  # everyone folds to the big blind
            seat = state.to_act
            assert seat is not None
            legal = state.legal_actions(seat)
            done = state.apply(seat, Check() if Check() in legal else Fold())
            if any(isinstance(e, DealSettled) for e in done):
                break
    return seen


def test_duplicate_matches_deal_each_position_the_same_cards() -> None:
    # Every match is dealt from the same seed with the button moved one seat on: hand k
    # brings the same cards to each position, so each seat holds every position's cards.
    first = _holes_by_position(0, 4, 5)
    for button in (1, 2, 3):
        assert _holes_by_position(button, 4, 5) == first


def test_hard_beats_the_rock_and_the_station_on_duplicate_deals() -> None:
    # Heads-up, 150 deals each played from both seats. Against the rock the win is clear of
    # the noise; the station's calls make every pot big, so there only the sign is asked.
    rock = duplicate("hard", "rock", seats=2, deals=150, seed=5)
    assert rock.hands == 300
    assert rock.result.low > 0, rock.result
    station = duplicate("hard", "station", seats=2, deals=150, seed=5)
    assert station.result.mean > 0, station.result


def test_hard_beats_normal_on_duplicate_deals() -> None:
    # 150 deals at 6 seats, each played from every seat (900 hands), all-in adjusted.
    line = duplicate("hard", "normal", seats=6, deals=150, seed=1)
    assert line.hands == 900
    assert line.result.mean > 0, line.result


def test_the_report_has_levels_as_rows_and_opponents_as_columns() -> None:
    lines = [
        Lineup("hard", "tag", 6, Interval(12.0, 2.0, 22.0, 10), 60, 3.0),
        Lineup("hard", "rock", 6, Interval(5.0, -1.0, 11.0, 10), 60, 4.0),
        Lineup("normal", "tag", 6, Interval(-3.0, -9.0, 3.0, 10), 60, 2.0),
    ]
    text = table(lines).splitlines()
    assert text[0] == "| level | seats | `tag` | `rock` | p99 ms |"
    assert text[2].startswith("| `hard` | 6 | +12.0 [+2.0, +22.0] (60) | +5.0 [-1.0, +11.0] (60)")
    assert text[3].endswith("| - | 2.0 |")


def test_simulate_measures_a_holdem_candidate_against_a_pool(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["simulate", "holdem", "-n", "4", "--players", "hard", "--against", "rock,station"]
    assert main([*argv, "--seats", "3", "--seed", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [line["opponent"] for line in data["lineups"]] == ["rock", "station"]
    for line in data["lineups"]:
        assert line["seats"] == 3 and line["hands"] == 12
        interval = line["bb_per_100"]
        assert interval["low"] <= interval["mean"] <= interval["high"]
