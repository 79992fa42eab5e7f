"""The Discord stand-in checks link buttons as Discord does (the "Open in browser" answer
is one): a url of at most 512 characters on a link button only, and no custom id on it."""

from __future__ import annotations

import pytest

from deucebot_dev.discord_standin import BotSideError, FakeDiscord

GOOD = {"type": 2, "style": 5, "label": "Open in browser", "url": "https://d.example/link/x"}


def _payload(*buttons: dict[str, object]) -> dict[str, object]:
    return {"content": "x", "components": [{"type": 1, "components": list(buttons)}]}


def test_a_link_button_with_a_url_passes() -> None:
    FakeDiscord()._check_message_payload(_payload(GOOD, {**GOOD, "url": "https://" + "a" * 504}))


@pytest.mark.parametrize(
    "button",
    [
        {**GOOD, "url": None},  # a link button without its url
        {**GOOD, "url": "javascript:alert(1)"},
        {**GOOD, "url": "https://" + "a" * 505},  # 513 characters
        {**GOOD, "custom_id": "db:x"},  # a link button has no custom id
        {"type": 2, "style": 1, "label": "Play", "custom_id": "db:y", "url": GOOD["url"]},
    ],
)
def test_bad_link_buttons_are_refused(button: dict[str, object]) -> None:
    with pytest.raises(BotSideError):
        FakeDiscord()._check_message_payload(_payload(button))
