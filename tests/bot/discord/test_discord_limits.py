"""The stand-in's rate limits on interaction webhooks: outside the global limit, but a
bucket of their own per token (follow-ups and their edits)."""

from __future__ import annotations

from deucebot_dev.discord_limits import DiscordLimits

APP = "/api/v10/webhooks/1"


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_tokens_follow_ups_and_edits_share_a_bucket_of_five_per_two_seconds() -> None:
    clock = _Clock()
    limits = DiscordLimits(clock=clock)
    calls = [("POST", f"{APP}/tokA"), ("PATCH", f"{APP}/tokA/messages/5")] * 3
    verdicts = [limits.check(method, path) for method, path in calls]
    assert [v.refusal is None for v in verdicts] == [True] * 5 + [False]
    refusal = verdicts[-1].refusal
    assert refusal is not None and refusal["global"] is False
    assert limits.check("POST", f"{APP}/tokB").refusal is None  # another token's bucket
    clock.now += 2.0
    assert limits.check("POST", f"{APP}/tokA").refusal is None  # the window passed


def test_webhooks_never_count_against_the_global_limit() -> None:
    clock = _Clock()
    limits = DiscordLimits(clock=clock, global_per_second=3)
    for n in range(20):
        assert limits.check("POST", f"{APP}/tok{n}").refusal is None
    assert limits.check("POST", "/api/v10/interactions/9/tok/callback").refusal is None
    for _ in range(3):
        assert limits.check("GET", "/api/v10/users/@me").refusal is None
    refused = limits.check("GET", "/api/v10/users/@me").refusal
    assert refused is not None and refused["global"] is True


def test_without_route_buckets_a_token_is_held_to_no_bucket() -> None:
    limits = DiscordLimits(clock=_Clock(), channel_buckets=False)
    assert all(limits.check("PATCH", f"{APP}/tokA/messages/5").refusal is None for _ in range(50))
