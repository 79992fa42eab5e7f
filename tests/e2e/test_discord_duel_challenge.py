"""`/duel challenge`: Accept / Decline for the challenged member only, a timeout declines,
oneself and bots are refused, and without a member the AI takes the other seat."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import bot.discord.actions as handlers
from deucebot_dev.discord_standin import FakeDiscord, Message
from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import board


def challenge_message(fake: FakeDiscord) -> Message:
    """The newest public message with Accept / Decline."""
    found = [
        m for m in fake.public_messages() if any(c.startswith("db:duel:") for c in m.custom_ids())
    ]
    assert found, "no challenge was posted"
    return found[-1]


async def test_the_challenged_member_accepts_and_the_duel_is_dealt(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana, bo, cy = standin.owner, standin.add_user("Bo", locale="fr"), standin.add_user("Cy")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        posted = await standin.command(ana, "duel challenge", member=bo)
        assert not posted.ephemeral
        challenge = challenge_message(standin)
        assert f"<@{bo.id}>" in challenge.content and f"<@{ana.id}>" in challenge.content
        # Someone else's click is refused privately; nothing changes.
        other = (await standin.click(cy, challenge, "db:duel:yes:")).final()
        assert other is not None and other.ephemeral and "is for" in other.content
        assert bot.tables.find(str(standin.channel_id)) is None
        await standin.click(bo, challenge, "db:duel:yes:")
        assert "accepted" in challenge.content and not challenge.custom_ids()
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.game == "duel" and table.status == "playing"
        assert [s.owner.id if s.owner else None for s in table.seats] == [str(ana.id), str(bo.id)]
        assert not any(s.ai_plays for s in table.seats)
        await settle(bot)
        assert "Deuce Duel" in board(standin).text()


async def test_decline_a_timeout_oneself_and_a_bot(
    standin: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ana, bo = standin.owner, standin.add_user("Bo", locale="uk")
    monkeypatch.setattr(handlers, "CHALLENGE_SECONDS", 1)
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        for member, says in (
            (ana, "cannot challenge yourself"),
            (standin.bot_user, "A bot cannot"),
        ):
            refused = (await standin.command(ana, "duel challenge", member=member)).final()
            assert refused is not None and refused.ephemeral and says in refused.content
        assert not standin.public_messages()
        await standin.command(ana, "duel challenge", member=bo)
        declined = challenge_message(standin)
        await standin.click(bo, declined, "db:duel:no:")
        assert "відхилив" not in declined.content  # public text follows the server, not Bo
        assert "declined" in declined.content and not declined.custom_ids()
        await standin.command(ana, "duel challenge", member=bo)
        late = challenge_message(standin)
        await asyncio.sleep(1.8)
        await standin.wait_for(lambda: not late.custom_ids(), 5)
        assert "no answer" in late.content
        assert bot.tables.find(str(standin.channel_id)) is None


async def test_without_a_member_the_ai_takes_the_other_seat(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        answer = await standin.command(ana, "duel challenge")
        assert not answer.ephemeral
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.status == "playing" and table.game == "duel"
        assert table.seats[0].owner is not None and table.seats[0].owner.id == str(ana.id)
        assert table.seats[1].ai_plays
