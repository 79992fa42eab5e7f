"""Per-member cooldowns (`bot.discord.cooldowns`) and how their refusal reads."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from typing import Any

import pytest
from discord import app_commands

from bot.discord.cooldowns import Cooldowns
from bot.discord.replies import refusal_text
from bot.settings import load_settings

START = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)


def use(user: int, at: float) -> Any:
    """What `Cooldowns.hit` reads from an interaction: its user and its time."""
    return SimpleNamespace(
        user=SimpleNamespace(id=user), created_at=START + dt.timedelta(seconds=at)
    )


def refused(cooldowns: Cooldowns, kind: Any, user: int, at: float) -> float | None:
    try:
        cooldowns.hit(kind, use(user, at))
    except app_commands.CommandOnCooldown as error:
        return error.retry_after
    return None


def test_one_use_per_period_per_member_and_kind() -> None:
    cooldowns = Cooldowns({"stats": 30, "hint": 5})
    assert refused(cooldowns, "stats", 1, 0) is None
    assert refused(cooldowns, "stats", 1, 10) == pytest.approx(20)
    assert refused(cooldowns, "stats", 2, 10) is None  # another member
    assert refused(cooldowns, "hint", 1, 10) is None  # another kind
    # A refused use does not push the next allowed one back.
    assert refused(cooldowns, "stats", 1, 29) == pytest.approx(1)
    assert refused(cooldowns, "stats", 1, 30.5) is None
    assert refused(cooldowns, "stats", 1, 31) == pytest.approx(29.5)


def test_zero_or_unknown_means_no_cooldown() -> None:
    cooldowns = Cooldowns({"stats": 0})
    for at in range(5):
        assert refused(cooldowns, "stats", 1, at) is None
        assert refused(cooldowns, "create", 1, at) is None


def test_buckets_of_members_who_may_use_it_again_are_forgotten() -> None:
    cooldowns = Cooldowns({"hint": 5})
    for user in range(100):
        cooldowns.hit("hint", use(user, 0))
    cooldowns.hit("hint", use(1000, 60))
    assert len(cooldowns._buckets) == 1


def test_the_settings_choose_the_seconds() -> None:
    settings = load_settings(
        DEUCEBOT_STATS_COOLDOWN=12, DEUCEBOT_HINT_COOLDOWN=3, DEUCEBOT_CREATE_COOLDOWN=0
    )
    assert Cooldowns.from_settings(settings).seconds == {
        "stats": 12,
        "leaderboard": 12,
        "hint": 3,
        "create": 0,
    }


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "again in 4 s"), ("fr", "dans 4 s"), ("uk", "через 4 с")]
)
def test_the_refusal_says_when_to_try_again(lang: str, words: str) -> None:
    error = app_commands.CommandOnCooldown(app_commands.Cooldown(1, 5), 3.2)
    text = refusal_text(error, lang)
    assert text.startswith("⏳") and words in text
