"""Limits per member and per table on the commands that cost other members
(`bot.discord.table_limits`), and how their refusals read."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from typing import Any

import pytest
from discord import app_commands
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord.replies import refusal_text
from bot.discord.table_limits import WINDOW, TableBusy, TableLimits
from bot.process.settings import load_settings

START = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)


def use(user: int, table: int, at: float) -> Any:
    """What `TableLimits.hit` reads from an interaction: user, channel and time."""
    return SimpleNamespace(
        user=SimpleNamespace(id=user),
        channel_id=table,
        created_at=START + dt.timedelta(seconds=at),
    )


def refused(limits: TableLimits, user: int, at: float, table: int = 1, kind: Any = "match") -> Any:
    """None if the use went through, else the refusal."""
    try:
        limits.hit(kind, use(user, table, at))
    except app_commands.CommandOnCooldown as error:
        return error
    return None


def test_a_member_gets_their_uses_per_minute_then_a_wait() -> None:
    limits = TableLimits(3)
    assert [refused(limits, 1, at) for at in (0, 1, 2)] == [None, None, None]
    fourth = refused(limits, 1, 10)
    assert type(fourth) is app_commands.CommandOnCooldown
    assert fourth.retry_after == pytest.approx(50)  # the first use leaves the window at 60
    assert refused(limits, 2, 10) is None  # another member
    assert refused(limits, 1, 10, kind="seat") is None  # another kind
    assert refused(limits, 1, 10, table=2) is not None  # a member's count spans tables
    assert refused(limits, 1, 60) is None
    assert refused(limits, 1, 60.5).retry_after == pytest.approx(0.5)


def test_a_table_s_members_together_get_twice_a_member_s_uses() -> None:
    limits = TableLimits(2)
    for user in range(4):
        assert refused(limits, user, user) is None  # each member once, under their 2
    busy = refused(limits, 9, 5)
    assert type(busy) is TableBusy and busy.retry_after == pytest.approx(55)
    assert type(refused(limits, 0, 5)) is TableBusy
    assert refused(limits, 9, 5, table=2) is None  # another table
    assert "members" in refusal_text(busy, "en")


def test_a_refused_use_counts_nowhere() -> None:
    limits = TableLimits(2)
    assert refused(limits, 1, 0) is None
    assert refused(limits, 2, 0) is None
    assert refused(limits, 2, 1) is None
    for at in range(2, 30):
        assert refused(limits, 2, at) is not None  # member 2 is over: the table not charged
    assert refused(limits, 1, 30) is None

    def cooldown() -> None:
        raise app_commands.CommandOnCooldown(app_commands.Cooldown(1, 10), 10)

    other = TableLimits(1)
    with pytest.raises(app_commands.CommandOnCooldown):
        other.hit("match", use(1, 1, 0), cooldown)
    assert refused(other, 1, 0) is None  # the refused use was not counted


def test_zero_means_no_limit_and_old_uses_are_forgotten() -> None:
    free = TableLimits(0)
    assert all(refused(free, 1, at / 100) is None for at in range(300))
    limits = TableLimits(6)
    for user in range(50):
        refused(limits, user, 0, table=user)
    assert refused(limits, 1000, WINDOW, table=1000) is None
    assert len(limits._uses) == 2  # only the latest member and table


def test_the_clock_can_be_set() -> None:
    limits = TableLimits(1)
    limits.clock = lambda: 100.0
    assert refused(limits, 1, 0) is None
    assert refused(limits, 1, 1000) is not None  # the interaction's time is not read


def test_the_setting_chooses_the_limits() -> None:
    limits = TableLimits.from_settings(load_settings(DEUCEBOT_TABLE_COMMANDS_PER_MINUTE=4))
    assert (limits.per_member, limits.per_table) == (4, 8)
    assert TableLimits.from_settings(load_settings()).per_member == 6


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 1), st.integers(0, 150)),
        min_size=1,
        max_size=80,
    )
)
def test_a_use_goes_through_exactly_when_both_windows_have_room(
    uses: list[tuple[int, int, int]],
) -> None:
    """Any members at any tables (times in tenths of a second): a use is counted if and
    only if the member and the table each made fewer than their limit in the last minute."""
    limits = TableLimits(3, 5)
    counted: list[tuple[int, int, int]] = []
    at = 0
    for user, table, step in uses:
        at += step
        recent = [(u, t) for u, t, when in counted if at - when < 600]
        mine = sum(1 for u, _ in recent if u == user)
        theirs = sum(1 for _, t in recent if t == table)
        error = refused(limits, user, at / 10, table=table)
        if mine < 3 and theirs < 5:
            assert error is None
            counted.append((user, table, at))
        else:
            assert isinstance(error, TableBusy) == (mine < 3)


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "try again in 7 s"), ("fr", "réessayez dans 7 s"), ("uk", "через 7 с")],
)
def test_the_table_s_refusal_says_when_to_try_again(lang: str, words: str) -> None:
    error = TableBusy(app_commands.Cooldown(12, 60), 6.2)
    text = refusal_text(error, lang)
    assert text.startswith("⏳") and words in text
    assert text != refusal_text(app_commands.CommandOnCooldown(error.cooldown, 6.2), lang)
