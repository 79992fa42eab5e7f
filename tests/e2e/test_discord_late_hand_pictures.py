"""A hand does not wait for a late picture (`bot.discord.board.HAND_PICTURE_WAIT`): the
answer goes out with the hand's text at once, and its picture follows by an edit through
the member's own interaction; never onto an answer the member has moved on from. In
process, through the stand-in, the hand's first drawing held back."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import bot.discord.board as board_module
from bot.discord.client import Deucebot
from bot.pictures import clear_cache
from deucebot_dev.discord_standin import INTERACTION, FakeDiscord, Message
from tests.e2e.conftest import bot_running
from tests.e2e.helpers import board, cards_in_text, open_hand, version_image

LATE = 0.4
"""Seconds a hand's first drawing takes here (a picture worker busy elsewhere)."""


def _held_back(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """Make each hand's first drawing take `LATE` s (later ones find it drawn, as a picture
    drawn is cached), the wait 0.05 s; the hands held back, in order."""
    drawn = board_module.draw_cards_ahead
    held: list[tuple[str, ...]] = []

    async def slow(cards: Sequence[Any], *args: Any) -> None:
        key = tuple(str(card) for card in cards)
        if key not in held:
            held.append(key)
            await asyncio.sleep(LATE)
        await drawn(cards, *args)

    clear_cache()
    monkeypatch.setattr(board_module, "HAND_PICTURE_WAIT", 0.05)
    monkeypatch.setattr(board_module, "draw_cards_ahead", slow)
    return held


@contextlib.asynccontextmanager
async def _dealt(standin: FakeDiscord, tmp_path: Path) -> AsyncIterator[Deucebot]:
    """The bot with the owner's Big Two deal under way, its board and DMs sent (the AI
    seats wait 30 s: nothing else moves meanwhile)."""
    async with bot_running(standin, tmp_path / "db.sqlite3", ai_delay=30) as bot:
        await standin.command(standin.owner, "table create", game="bigtwo")
        await standin.command(standin.owner, "table start")
        await bot.front.settle()
        yield bot


def _pictured(hand: Message) -> bool:
    return bool(hand.attachments) and hand.attachments[0].startswith("hand-")


async def test_a_late_hand_picture_follows_the_answer_through_the_interaction(
    standin: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ana = standin.owner
    async with _dealt(standin, tmp_path):
        held = _held_back(monkeypatch)
        hand = await open_hand(standin, ana)
        # At once: the whole hand as text and its controls, no picture yet.
        first = hand.history[0]
        assert not first["attachments"] and not version_image(first), first
        written = {str(card) for card in cards_in_text(first["embeds"][0]["description"])}
        assert hand.component("db:sel:")
        assert len(held) == 1 and len(held[0]) == 13 and set(held[0]) <= written
        await standin.wait_for(lambda: _pictured(hand), 5)
        # Then the same ephemeral answer, edited through Ana's interaction: the picture of
        # those very cards, shown in the embed, the text and controls unchanged.
        assert hand.ephemeral and hand.via == INTERACTION
        name = hand.attachments[0]
        assert name == "hand-two-" + "".join(held[0]) + ".png"
        last = hand.history[-1]
        assert version_image(last) == f"attachment://{name}" and hand.descriptions[0]
        assert last["embeds"][0]["description"] == first["embeds"][0]["description"]
        assert len(hand.history) == 2
        assert not standin.errors, standin.errors


async def test_a_late_picture_never_lands_on_a_hand_the_member_moved_on_from(
    standin: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ana = standin.owner
    async with _dealt(standin, tmp_path) as bot:
        held = _held_back(monkeypatch)
        old = await open_hand(standin, ana)
        assert not _pictured(old)
        # Ana opens her hand again before the first picture is drawn: the new answer is
        # what she looks at; it gets the picture (drawn at once, or by its own edit).
        response = await standin.click(ana, board(standin), "db:hand:")
        new = response.message
        assert new is not None and new.id != old.id and len(held) == 1
        await standin.wait_for(lambda: _pictured(new), 5)
        await asyncio.sleep(LATE + 0.2)
        await bot.front.settle()
        assert len(old.history) == 1 and not _pictured(old)
        assert not standin.errors, standin.errors


async def test_a_hand_updated_by_a_click_gets_its_late_picture_by_a_later_edit(
    standin: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ana = standin.owner
    async with _dealt(standin, tmp_path):
        hand = await open_hand(standin, ana)
        assert _pictured(hand)
        first = hand.attachments[0]
        held = _held_back(monkeypatch)
        # Sort by suit: the click's answer updates this ephemeral hand (type 7) in the new
        # order at once, without the old picture (it shows the other order) ...
        response = await standin.click(ana, hand, "db:sort:")
        assert response.kind == 7 and response.message is hand
        sorted_now = hand.history[-1]
        assert not sorted_now["attachments"] and not version_image(sorted_now)
        assert len(held) == 1
        # ... and the picture of the sorted hand follows by an edit through that click.
        await standin.wait_for(lambda: _pictured(hand), 5)
        name = hand.attachments[0]
        assert name != first and name == "hand-two-" + "".join(held[0]) + ".png"
        assert hand.via == INTERACTION and version_image(hand.history[-1]) == f"attachment://{name}"
        assert not standin.errors, standin.errors
