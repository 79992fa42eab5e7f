"""The web front's settings: what configures the Activity and the browser links, and the
clear refusal of a bad public URL or application id."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.discord.web_offer import WebOffer, configure, offered
from bot.process.settings import describe_error, load_settings
from tests.bot.test_cli_refusals import deucebot, environment, one_line

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


@pytest.mark.parametrize("value", ["short", "k" * 31, " shortish-secret-with-spaces "])
def test_a_weak_link_secret_is_refused_without_being_shown(value: str) -> None:
    """A short key makes links and sessions forgeable by trying keys: fewer than 32
    characters (spaces aside) are refused, and the refusal line never shows the value."""
    with pytest.raises(ValidationError) as refused:
        load_settings(DEUCEBOT_LINK_SECRET=value)
    line = describe_error(refused.value)
    assert line.startswith("DEUCEBOT_LINK_SECRET=(not shown) is not allowed: use 32 or more")
    assert value.strip() not in line


def test_a_strong_link_secret_is_kept() -> None:
    secret = "k" * 32
    assert load_settings(DEUCEBOT_LINK_SECRET=f" {secret} ").link_secret == secret
    assert load_settings(DEUCEBOT_LINK_SECRET="").link_secret is None


def test_settings_never_show_their_secrets() -> None:
    """Printing or logging the settings (a repr in a traceback) shows no secret."""
    settings = load_settings(**FULL)
    shown = repr(settings) + str(settings)
    for name in ("DISCORD_TOKEN", "DEUCEBOT_LINK_SECRET", "DEUCEBOT_ACTIVITY_CLIENT_SECRET"):
        assert FULL[name] not in shown, name


def test_the_bot_refuses_a_weak_link_secret_at_start_without_showing_it(tmp_path: Path) -> None:
    env = environment(DISCORD_TOKEN="x", DEUCEBOT_LINK_SECRET="hunter2-but-longer")
    result = deucebot(["bot"], tmp_path, env)
    line = one_line(result)
    assert line.startswith("deucebot: DEUCEBOT_LINK_SECRET=(not shown) is not allowed: use 32")
    assert "hunter2" not in result.stderr + result.stdout
    assert list(tmp_path.iterdir()) == [], "nothing was created"
