"""Hold'em levels against the sparring pool on duplicate deals (bot.commands.holdem_pool)."""

from __future__ import annotations

import json
import random

import pytest

from bot.cli import main
from bot.commands.holdem_pool import BLOCK, Lineup, clustered, duplicate, margin, t95, table
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


def test_the_interval_is_taken_over_blocks_not_values() -> None:
    # Four blocks whose means are 1, 3, 5, 7: the interval is that of four samples (their
    # standard error 1.291, Student's t with 3 degrees of freedom), however many values
    # each block holds and however alike they are inside it.
    blocks = [[1.0] * 10, [3.0] * 10, [5.0] * 10, [7.0] * 10]
    result = clustered(blocks)
    assert result.n == 4
    assert result.mean == pytest.approx(4.0)
    half = 3.182 * (20 / 3) ** 0.5 / 2
    assert result.low == pytest.approx(4.0 - half, abs=1e-3)
    assert result.high == pytest.approx(4.0 + half, abs=1e-3)
    # Over the 40 values as if independent, the interval would be far narrower.
    assert Interval.of([v for b in blocks for v in b]).high < result.high - 1


def test_blocks_of_different_sizes_weigh_by_their_values() -> None:
    # The mean is that of every value (13 / 4), not of the block means ((1 + 5) / 2).
    result = clustered([[1.0], [3.0, 4.0, 5.0]])
    assert result.mean == pytest.approx(13 / 4)
    assert result.n == 2
    assert clustered([[2.0, 4.0]]).high == float("inf")


def test_t_quantiles() -> None:
    # Published two-sided 95% values of Student's t.
    for df, value in ((1, 12.706), (3, 3.182), (5, 2.571), (10, 2.228), (30, 2.042)):
        assert t95(df) == pytest.approx(value, abs=3e-3)
    assert t95(10_000) == pytest.approx(1.96, abs=1e-3)


def test_each_block_is_an_independent_sample_of_the_lineup() -> None:
    # 4 seats, 30 deals in blocks of 10: three blocks, each its own cards and players.
    line = duplicate("normal", "frozen", seats=4, deals=30, seed=3, block=10)
    assert line.hands == 120
    assert line.result.n == 3
    assert line.raw is not None and line.raw.n == 3
    assert duplicate("normal", "frozen", seats=4, deals=30, seed=3).result.n == -(-30 // BLOCK)


def test_the_margin_of_two_players_is_paired_deal_by_deal() -> None:
    # Two line-ups on the same deals: the margin is the deal-by-deal difference with the
    # interval over the blocks of differences. Against itself a player's margin is exactly
    # 0 (the same cards, players and draws), however wide its own interval is.
    first = duplicate("normal", "frozen", seats=3, deals=20, seed=4, block=10)
    again = duplicate("normal", "frozen", seats=3, deals=20, seed=4, block=10)
    assert first.result.high - first.result.low > 1
    same = margin(first, again)
    assert (same.mean, same.low, same.high, same.n) == (0.0, 0.0, 0.0, 2)
    blocks = ((1.0, 3.0), (5.0, 7.0))
    a = Lineup("a", "tag", 2, Interval(4.0, 0.0, 8.0, 2), 8, 1.0, blocks=blocks)
    b = Lineup("b", "tag", 2, Interval(1.0, 0.0, 2.0, 2), 8, 1.0, blocks=((1.0, 1.0), (1.0, 1.0)))
    assert margin(a, b) == clustered([[0.0, 2.0], [4.0, 6.0]])
    with pytest.raises(ValueError, match="same deals"):
        margin(a, Lineup("b", "rock", 2, Interval(1.0, 0.0, 2.0, 2), 8, 1.0, blocks=blocks))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_self_match_interval_contains_zero(seed: int) -> None:
    # `normal` plays `strong`, as does `frozen`: every seat the same policy, so the truth is
    # exactly 0 and a calibrated interval holds it (on these fixed seeds; 95% of seeds).
    line = duplicate("normal", "frozen", seats=4, deals=60, seed=seed, block=10)
    assert line.result.n == 6
    assert line.result.low <= 0 <= line.result.high, line.result


def test_hard_beats_the_rock_and_the_station_on_duplicate_deals() -> None:
    # Heads-up, 150 deals each played from both seats, in 10 blocks of 15 (the interval is
    # over the blocks). Against the rock the win is clear of the noise; the station's calls
    # make every pot big, so there only the sign is asked.
    rock = duplicate("hard", "rock", seats=2, deals=150, seed=5, block=15)
    assert rock.hands == 300
    assert rock.result.low > 0, rock.result
    station = duplicate("hard", "station", seats=2, deals=150, seed=5, block=15)
    assert station.result.mean > 0, station.result


def test_hard_beats_normal_at_six_seats_on_fixed_deals() -> None:
    # `hard` in one seat against five of `frozen` (`strong`, which `normal` plays; `normal`
    # there makes exactly 0), 40 deals from each of the 6 positions: only the sign is asked
    # (240 hands are far too few for an interval; docs/benchmarks.md has 36,000).
    line = duplicate("hard", "frozen", seats=6, deals=40, seed=1, block=10)
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
        # 4 hands are one duplicate deal: its interval has no bounds, null in JSON.
        assert interval["low"] is None and interval["high"] is None
        assert isinstance(interval["mean"], float)
