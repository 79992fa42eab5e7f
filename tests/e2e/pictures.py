"""Checks of the pictures a channel was shown (what tests of whole matches call)."""

from __future__ import annotations

import re

from bot.devtools.discord_standin import FakeDiscord
from tests.e2e.helpers import BOARD_COLOUR

DEALT = re.compile(r"deal (\d+) · turn")


def check_pictures(fake: FakeDiscord) -> int:
    """Every version of every board of a dealt match carries its table picture, named by the
    embed and described (alt text, at most 1,024 characters); results carry theirs likewise.
    Returns how many result pictures there were."""
    results = boards = 0
    for message in fake.public_messages():
        if not message.embeds:
            continue
        board = message.embeds[0].get("color") == BOARD_COLOUR
        for version in message.history:
            names = version["attachments"]
            about = version.get("descriptions") or []
            assert len(about) == len(names)
            assert all(0 < len(text) <= 1024 for text in about), about
            embed = (version.get("embeds") or [{}])[0] or {}
            url = str((embed.get("image") or {}).get("url") or "")
            if url:
                assert url.removeprefix("attachment://") in names, (url, names)
            footer = str((embed.get("footer") or {}).get("text") or "")
            dealt = DEALT.search(footer)
            live = "db:hand:" in str(version.get("components"))
            if board and live and dealt and int(dealt.group(1)) > 0:
                assert any(n.startswith("table-") for n in names), (footer, names)
                boards += 1
        if not board and message.attachments:
            results += 1
    assert boards > 0, "no live board of a dealt match"
    return results
