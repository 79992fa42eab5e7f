"""Per-member cooldowns (`bot.discord.cooldowns`) and how their refusal reads."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from typing import Any

import pytest
from discord import app_commands
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord.cooldowns import Cooldowns
from bot.discord.replies import refusal_text
from bot.process.settings import load_settings

START = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)


def use(user: int, at: float, guild: int | None = None) -> Any:
    """What `Cooldowns.hit` reads from an interaction: its user, server and time."""
    return SimpleNamespace(
        user=SimpleNamespace(id=user),
        guild_id=guild,
        created_at=START + dt.timedelta(seconds=at),
    )


def refused(
    cooldowns: Cooldowns, kind: Any, user: int, at: float, guild: int | None = None
) -> float | None:
    try:
        cooldowns.hit(kind, use(user, at, guild))
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


def test_a_use_given_back_is_as_if_it_had_not_been_counted() -> None:
    cooldowns = Cooldowns({"hint": 5})
    give_back = cooldowns.hit("hint", use(1, 0))
    give_back()
    assert refused(cooldowns, "hint", 1, 0.5) is None  # a first use given back: no record
    # The use before comes back: 60 s in the strict server run from it, not from the
    # use given back.
    servers = two_servers()
    servers.hit("stats", use(1, 0, LENIENT))
    servers.hit("stats", use(1, 15, LENIENT))()
    assert refused(servers, "stats", 1, 20, STRICT) == pytest.approx(40)


def test_a_use_given_back_after_a_later_one_was_counted_changes_nothing() -> None:
    cooldowns = Cooldowns({"hint": 5})
    give_back = cooldowns.hit("hint", use(1, 0))
    cooldowns.hit("hint", use(1, 10))
    give_back()
    assert refused(cooldowns, "hint", 1, 12) == pytest.approx(3)


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
    assert len(cooldowns._last) == 1


STRICT, LENIENT = 1, 2


def two_servers(strict: float = 60, lenient: float = 10) -> Cooldowns:
    """Stats cooldowns of `lenient` seconds (the process's) and `strict` in one server."""
    cooldowns = Cooldowns({"stats": lenient})
    own = {str(STRICT): float(strict)}
    cooldowns.guild_seconds = lambda guild, kind: own.get(guild)
    cooldowns.longest = 3600
    return cooldowns


def test_alternating_servers_gives_no_extra_use() -> None:
    """Issue 40, item 3: 100 uses alternating two servers in 10 s made 100 go through."""
    cooldowns = two_servers()
    through = [
        at
        for at in range(100)
        if refused(cooldowns, "stats", 1, at / 10, (STRICT, LENIENT)[at % 2]) is None
    ]
    assert through == [0]
    # Each server's own seconds count from the member's last use anywhere.
    assert refused(cooldowns, "stats", 1, 9.9, LENIENT) == pytest.approx(0.1)
    assert refused(cooldowns, "stats", 1, 10, LENIENT) is None
    assert refused(cooldowns, "stats", 1, 30, STRICT) == pytest.approx(40)
    assert refused(cooldowns, "stats", 1, 70, STRICT) is None
    assert refused(cooldowns, "stats", 2, 70, LENIENT) is None  # another member


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from([STRICT, LENIENT]), st.integers(0, 400)),
        min_size=1,
        max_size=60,
    ),
    st.integers(10, 100),
)
def test_a_use_goes_through_exactly_when_the_server_s_seconds_have_passed(
    uses: list[tuple[int, float]], strict: int
) -> None:
    """Whatever the order of servers: a use is counted if and only if this server's seconds
    have passed since the member's last counted use in any server (times in tenths)."""
    cooldowns = two_servers(strict=strict)
    per = {STRICT: strict * 10, LENIENT: 100}
    at, last = 0, None
    for guild, step in uses:
        at += step
        wait = refused(cooldowns, "stats", 7, at / 10, guild)
        if last is None or at - last >= per[guild]:
            assert wait is None
            last = at
        else:
            assert wait == pytest.approx((per[guild] - (at - last)) / 10, abs=1e-5)


def test_the_settings_choose_the_seconds() -> None:
    settings = load_settings(
        DEUCEBOT_STATS_COOLDOWN=12, DEUCEBOT_HINT_COOLDOWN=3, DEUCEBOT_CREATE_COOLDOWN=0
    )
    assert Cooldowns.from_settings(settings).seconds == {
        "stats": 12,
        "leaderboard": 12,
        "hint": 3,
        "create": 0,
        "history": 12,
    }


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "again in 4 s"), ("fr", "dans 4 s"), ("uk", "через 4 с")]
)
def test_the_refusal_says_when_to_try_again(lang: str, words: str) -> None:
    error = app_commands.CommandOnCooldown(app_commands.Cooldown(1, 5), 3.2)
    text = refusal_text(error, lang)
    assert text.startswith("⏳") and words in text
