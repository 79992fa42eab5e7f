"""The match summary picture through the stand-in: a finished match's result message
carries a PNG of the standings and each seat's running total, shown in its embed, with a
description (alt text) in the channel's language naming every player and total."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from bot.i18n import t
from bot.pictures.kit import PHONE_WIDTH
from deucebot_dev.discord_standin import FakeDiscord, Message
from engines.registry import get_game
from tests.e2e.conftest import bot_running
from tests.e2e.helpers import ai_plays_to_the_end


def _match_results(fake: FakeDiscord, lang: str, game: str) -> list[Message]:
    title = t("discord.result.match_title", lang, game=get_game(game).title)
    return [m for m in fake.public_messages() if m.embeds and m.embeds[0].get("title") == title]


@pytest.mark.parametrize(
    ("game", "options", "lang"),
    [
        ("bigtwo", {"deals": 2}, "en"),
        ("holdem", {"seats": 3, "stack": 60, "small_blind": 10, "big_blind": 20}, "fr"),
    ],
    ids=["bigtwo-en", "holdem-fr"],
)
async def test_a_finished_match_result_carries_its_summary_picture_with_alt_text(
    standin: FakeDiscord, tmp_path: Path, game: str, options: dict[str, object], lang: str
) -> None:
    standin.keep_files = True
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        if lang != "en":
            answer = await standin.command(ana, "config language", language=lang)
            assert answer.ephemeral
        table = await ai_plays_to_the_end(standin, bot, ana, game, **options)
        match = await bot.storage.current_match(table.id)
        assert match is not None and match.totals is not None
        names = [p.name for p in await bot.storage.match_players(match.id)]
    results = _match_results(standin, lang, game)
    assert len(results) == 1, [m.embeds for m in standin.public_messages()]
    result = results[0]
    summaries = [n for n in result.attachments if n.startswith("summary-")]
    assert len(summaries) == 1, result.attachments
    name = summaries[0]
    assert result.embeds[0]["image"]["url"] == f"attachment://{name}"
    alt = result.descriptions[result.attachments.index(name)]
    assert 0 < len(alt) <= 1024
    heading = "Standings" if lang == "en" else "Classement"
    assert heading in alt, alt
    for seat, total in enumerate(match.totals):
        assert f"{names[seat]} {total:,}" in alt, (names[seat], total, alt)
    data = dict(standin.files)[name]
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG" and image.width == PHONE_WIDTH and len(data) <= 150_000
