"""`replies.answering`: a handler's refusal is answered once, privately, in the member's
language; anything else goes on to the caller."""

from __future__ import annotations

from typing import Any, cast

import discord
import pytest

from bot.discord.replies import answering
from bot.runtime import errors
from engines.cards import CardParseError


class _Response:
    def __init__(self) -> None:
        self.sent: list[tuple[str, bool]] = []

    def is_done(self) -> bool:
        return bool(self.sent)

    async def send_message(self, content: str, *, ephemeral: bool, **_: Any) -> None:
        self.sent.append((content, ephemeral))


class _Interaction:
    id = 1

    def __init__(self) -> None:
        self.response = _Response()
        self.extras: dict[str, object] = {}  # discord.Interaction's per-interaction store


async def test_a_refusal_inside_is_answered_privately_in_the_language_and_stops_there() -> None:
    interaction = _Interaction()
    reached = []
    async with answering(cast(discord.Interaction, interaction), "fr"):
        raise errors.table_stopped()
    reached.append("after")  # the refusal went no further
    assert reached == ["after"]
    [(content, ephemeral)] = interaction.response.sent
    assert ephemeral and content.startswith("⛔") and "fermée" in content, content
    assert interaction.extras, "a refused interaction is marked so no board rides on it"


async def test_only_the_named_extra_kinds_are_answered_the_rest_go_on() -> None:
    interaction = _Interaction()
    async with answering(cast(discord.Interaction, interaction), "en", CardParseError):
        raise CardParseError("ZZ")
    assert "ZZ" in interaction.response.sent[0][0]
    with pytest.raises(CardParseError):
        async with answering(cast(discord.Interaction, _Interaction()), "en"):
            raise CardParseError("ZZ")
    with pytest.raises(ZeroDivisionError):
        async with answering(cast(discord.Interaction, _Interaction()), "en"):
            raise ZeroDivisionError


async def test_nothing_is_said_when_nothing_is_refused() -> None:
    interaction = _Interaction()
    async with answering(cast(discord.Interaction, interaction), "en"):
        pass
    assert interaction.response.sent == []


def test_a_runtime_refusal_repeating_long_input_is_shortened_not_crashed() -> None:
    # `/play` of a long text at a draw table: the runtime's refusal (keyword-only
    # arguments) repeats what was typed; the answer cuts it instead of failing to copy it.
    from bot.discord.replies import refusal_text

    typed = "play " + "8S " * 60
    error = errors.TableError(f"cannot read {typed!r}", code="discord.no_cards", text=typed)
    text = refusal_text(error, "en")
    assert text.startswith("⛔") and len(text) < 2000
    assert error.params["text"] == typed  # the original is left as it was
