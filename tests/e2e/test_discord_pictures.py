"""Pictures through the stand-in: whole matches of every game post boards and results that
carry valid PNG pictures with alt text (each attachment's description), and a board's
picture is uploaded again only when it changed."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.discord.one_write import OneWriteRequest
from deucebot_dev.discord_standin import FakeDiscord, Message
from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import BOARD_COLOUR, ai_plays_to_the_end, boards, open_hand

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("bigtwo", {"deals": 1}),
    ("holdem", {"seats": 3, "stack": 60, "small_blind": 10, "big_blind": 20}),
    ("draw", {"seats": 3, "deals": 2}),
    ("duel", {"stack": 3, "ante": 1}),
]


def _results(fake: FakeDiscord) -> list[Message]:
    """Result posts: public embeds that are not boards."""
    return [
        m
        for m in fake.public_messages()
        if m.embeds and m.embeds[0].get("color") != BOARD_COLOUR and m.attachments
    ]


def _table_names(message: Message) -> list[str]:
    """The table picture's name in each version of a board (None-free, in order)."""
    names = []
    for version in message.history:
        shown = [a for a in version["attachments"] if a.startswith("table-")]
        assert len(shown) <= 1, version["attachments"]
        names.append(shown[0] if shown else "")
    return names


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
async def test_whole_matches_carry_pictures_with_alt_text_uploaded_once_per_change(
    standin: FakeDiscord, tmp_path: Path, game: str, options: dict[str, Any]
) -> None:
    standin.keep_files = True
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        # Pictures go out in one write per request (`one_write`), read whole by the stand-in.
        assert bot.http._HTTPClient__session._request_class is OneWriteRequest
        await ai_plays_to_the_end(standin, bot, ana, game, **options)
    uploads = [(name, data) for name, data in standin.files if name.startswith("table-")]
    assert uploads, "no table picture was uploaded"
    for name, data in standin.files:
        image = Image.open(io.BytesIO(data))
        image.load()
        assert image.format == "PNG" and len(data) <= 150_000, name
    changes = 0
    for message in boards(standin):
        for version in message.history:
            about = version.get("descriptions") or []
            assert len(about) == len(version["attachments"])
            assert all(0 < len(text) <= 1024 for text in about), about
            for embed in version["embeds"]:
                url = (embed.get("image") or {}).get("url", "")
                if url:
                    assert url.removeprefix("attachment://") in version["attachments"], url
        names = _table_names(message)
        changes += sum(
            1 for i, name in enumerate(names) if name and name != (names[i - 1] if i else "")
        )
    # one upload per board version whose picture changed, none for an unchanged picture
    assert len(uploads) == changes
    results = _results(standin)
    assert results, "no result carried a picture"
    for message in results:
        assert message.descriptions and all(message.descriptions)
        url = message.embeds[0]["image"]["url"]
        assert url == f"attachment://{message.attachments[0]}"


@pytest.mark.parametrize("game", ["bigtwo", "holdem"])
async def test_an_edit_that_changes_no_picture_uploads_none(
    standin: FakeDiscord, tmp_path: Path, game: str
) -> None:
    """Stopping the table edits its board (the footer says so) but shows the same table:
    the picture is kept by its name, not uploaded again."""
    standin.keep_files = True
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game=game)
        await standin.command(ana, "table start")
        await settle(bot)
        live = boards(standin)[-1]
        before = len(standin.files)
        shown = _table_names(live)[-1]
        assert shown
        await standin.command(ana, "table stop")
        await settle(bot)
    assert live.edits >= 1 and len(live.history) >= 2
    assert _table_names(live)[-1] == shown
    assert (live.history[-1].get("descriptions") or [""])[0]
    assert len(standin.files) == before


def _colours(data: bytes) -> set[tuple[int, int, int]]:
    image = Image.open(io.BytesIO(data)).convert("RGB")
    return {colour for _, colour in image.getcolors(1 << 16) or []}


async def test_a_member_chooses_four_colours_for_their_own_pictures_across_a_restart(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    """/deck four: the member's hand (the "My hand" answer and the DM) is drawn in four
    colours, remembered in the database across a restart; the board keeps two colours."""
    standin.keep_files = True
    ana = standin.owner
    db = tmp_path / "db.sqlite3"
    async with bot_running(standin, db):
        chosen = await standin.command(ana, "deck", colours="four")
        answer = chosen.final()
        assert answer is not None and answer.ephemeral
        assert answer.attachments == ["deck-four.png"] and answer.descriptions[0]
        assert "A♠" in answer.descriptions[0]
    blue, green = (22, 86, 200), (16, 128, 52)
    async with bot_running(standin, db) as bot:  # a new process reads the choice back
        await standin.command(ana, "table create", game="bigtwo")
        await standin.command(ana, "table start")
        await settle(bot)
        hand = await open_hand(standin, ana)
        dms = [m for m in standin.dms(ana) if m.attachments]
        assert dms, "no hand DM"
        for message in (hand, dms[-1]):
            assert message.attachments[0].startswith("hand-four-"), message.attachments
            assert message.descriptions[0]
    uploads = dict(standin.files)
    drawn = _colours(uploads[hand.attachments[0]])
    cards = hand.attachments[0].removesuffix(".png").split("-", 2)[2]  # the cards drawn
    assert ("D" in cards) == (blue in drawn) and ("C" in cards) == (green in drawn)
    for name, data in uploads.items():
        if name.startswith("table-"):
            assert not _colours(data) & {blue, green}, name  # boards use the default deck
