"""`bot.commands.draw_pool`: the levels' table against the draw poker sparring pool."""

from __future__ import annotations

import pytest

from bot.commands.draw_pool import Duplicate, level_table, margin


def lineup(level: str, opponent: str, groups: list[float]) -> Duplicate:
    return Duplicate(level, opponent, groups, deals=100 * len(groups), decision_ms=[1.0])


def test_the_margin_is_paired_group_by_group() -> None:
    hard = lineup("hard", "rock", [3.0, 5.0, 1.0])
    normal = lineup("normal", "rock", [2.0, 6.0, 0.0])
    # Differences 1, -1, 1: mean 1/3, sample sd 1.1547 over three groups.
    paired = margin(hard, normal)
    assert paired.mean == pytest.approx(1 / 3)
    assert paired.high - paired.mean == pytest.approx(1.96 * 1.1547005 / 3**0.5)
    with pytest.raises(ValueError):
        margin(hard, lineup("normal", "rock", [1.0]))


def test_levels_are_rows_and_opponents_columns_with_the_margin_last() -> None:
    results = {
        ("hard", "tag"): lineup("hard", "tag", [2.0, 4.0]),
        ("normal", "tag"): lineup("normal", "tag", [1.0, 1.0]),
        ("hard", "rock"): lineup("hard", "rock", [0.0, 0.0]),
        ("normal", "rock"): lineup("normal", "rock", [1.0, 1.0]),
    }
    rows = level_table(results, ["hard", "normal"], ["tag", "rock"])
    assert rows[0] == "| level | vs 3 tag | vs 3 rock |"
    assert rows[2].startswith("| hard | +3.00 [") and rows[3].startswith("| normal | +1.00 [")
    assert rows[4].startswith("| hard - normal | +2.00 [") and "| -1.00 [" in rows[4]
