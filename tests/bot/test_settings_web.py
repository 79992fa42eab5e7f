"""The web front's settings: what configures the Activity and the browser links, and the
clear refusal of a bad public URL or application id."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.discord.web_offer import WebOffer, configure, offered
from bot.settings import describe_error, load_settings

FULL = {
    "DISCORD_TOKEN": "bot-token",
    "DEUCEBOT_PUBLIC_URL": "https://deuce.example.org/",
    "DEUCEBOT_LINK_SECRET": "k" * 32,
    "DEUCEBOT_ACTIVITY_CLIENT_ID": "123456789012345678",
    "DEUCEBOT_ACTIVITY_CLIENT_SECRET": "shh",
}


def test_the_activity_needs_all_five_settings_and_links_two() -> None:
    full = load_settings(**FULL)
    assert full.public_url == "https://deuce.example.org"
    assert full.activity_ready and full.links_ready
    for missing in FULL:
        partial = load_settings(**{k: v for k, v in FULL.items() if k != missing})
        assert not partial.activity_ready, missing
        links_kept = missing.startswith("DEUCEBOT_ACTIVITY_") or missing == "DISCORD_TOKEN"
        assert partial.links_ready == links_kept, missing


def test_the_offer_follows_the_settings_of_the_bot_built_last() -> None:
    try:
        assert configure(load_settings(**FULL)) == WebOffer(activity=True, links=True)
        links_only = {k: v for k, v in FULL.items() if not k.startswith("DEUCEBOT_ACTIVITY_")}
        links_only.pop("DISCORD_TOKEN")
        assert configure(load_settings(**links_only)) == WebOffer(activity=False, links=True)
        assert offered() == WebOffer(activity=False, links=True)
    finally:
        configure(load_settings(DEUCEBOT_PUBLIC_URL="", DEUCEBOT_LINK_SECRET=""))
    assert offered() == WebOffer()


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DEUCEBOT_PUBLIC_URL", "deuce.example.org"),
        ("DEUCEBOT_PUBLIC_URL", "https://deuce.example.org/?x=1"),
        ("DEUCEBOT_ACTIVITY_CLIENT_ID", "my-app"),
        ("DEUCEBOT_ACTIVITY_CLIENT_ID", "0"),
    ],
)
def test_bad_values_are_refused_by_name(name: str, value: str) -> None:
    with pytest.raises(ValidationError) as refused:
        load_settings(**{name: value})
    line = describe_error(refused.value)
    assert line.startswith(f"{name}={value} is not allowed: use ")
