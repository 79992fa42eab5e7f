"""No public message ever shows a card its owner holds unseen, whatever members do (issue
19, item 1): seeded random sequences of every command the bot synced and every control on
the messages it sent, by seated members, an unseated one, in two channels, through every
game and phase. Pictures are read from their pixels, file names as written."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from bot.discord import replies
from deucebot_dev.discord_standin import FakeDiscord
from engines.registry import available_games, get_game
from tests.e2e.conftest import bot_running, running_standin, settle
from tests.e2e.surface import (
    hand_of,
    leaves,
    option_values,
    privacy_check,
    use_control,
    visible_controls,
    watch_secrets,
)

STEPS = 70
SEATS = {"bigtwo": 3, "holdem": 3, "draw": 3, "duel": 2}
SEATS.update(
    {name: min(3, get_game(name).max_seats) for name in available_games() if name not in SEATS}
)
"""Members seated at the start (the AI takes the other seats); a game registered besides
the four (`DEUCEBOT_EXTRA_GAMES`, e.g. the test suite's fifth game) is walked too."""
PICTURED = {"bigtwo", "holdem"}
"""Games whose boards show cards in a picture (the last play, the community cards)."""


@pytest.mark.parametrize(("game", "seed"), [(g, s) for g in SEATS for s in (1, 2)])
async def test_random_members_never_make_a_hand_public(
    game: str, seed: int, tmp_path: Path
) -> None:
    rng = random.Random(f"{game}-{seed}")
    async with running_standin(channels=2) as fake:
        fake.keep_files = True
        members = [fake.owner, *(fake.add_user(n) for n in ("Ana", "Ben", "Cy"))]
        members[2].locale = "fr"
        members[3].locale = "uk"
        async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
            secrets = watch_secrets(bot)
            fake.public_hook = privacy_check(secrets)
            commands = leaves(fake.commands)
            assert {"hint", "hand", "play", "table create"} <= {c.path for c in commands}
            main = fake.channel_ids[0]
            await fake.command(fake.owner, "table create", channel_id=main, game=game)
            for member in members[1 : SEATS[game]]:
                await fake.command(member, "table join", channel_id=main)
            await fake.command(fake.owner, "table start", channel_id=main)
            await settle(bot)
            used: dict[str, int] = {}
            # Commands Discord lists only for the server's admins (/config, /deucebot) are
            # typed by the owner after the members' walk.
            admin = [c for c in commands if not all(fake.sees(m, c.path) for m in members)]
            walked = [c for c in commands if c not in admin]
            unused = rng.sample(walked, len(walked))  # each command at least once
            for step in range(STEPS):
                user = rng.choice(members)
                table = bot.tables.find(str(main))
                if table is not None and table.to_act is not None and rng.random() < 0.5:
                    owner = table.seats[table.to_act].owner  # often the member to act
                    user = next((m for m in members if owner and str(m.id) == owner.id), user)
                channel = main if rng.random() < 0.85 else fake.channel_ids[1]
                cards = hand_of(bot, user, channel)
                controls = visible_controls(fake, user)
                due = len(unused) >= STEPS - step  # the last steps type what is left
                if controls and not due and rng.random() < 0.55:
                    message, comp = rng.choice(controls)
                    kind = str(comp["custom_id"]).split(":")[1]
                    used[kind] = used.get(kind, 0) + 1
                    await use_control(fake, rng, user, message, comp, cards)
                else:
                    leaf = unused.pop() if unused else rng.choice(walked)
                    used["/" + leaf.path] = used.get("/" + leaf.path, 0) + 1
                    values = await option_values(fake, rng, user, leaf, channel, members, cards)
                    await fake.command(user, leaf.path, channel_id=channel, values=values)
                await settle(bot)
            for leaf in admin:
                used["/" + leaf.path] = used.get("/" + leaf.path, 0) + 1
                cards = hand_of(bot, fake.owner, main)
                values = await option_values(fake, rng, fake.owner, leaf, main, members, cards)
                if leaf.path == "season" and values.get("name"):
                    secrets.named.add(str(values["name"]))
                await fake.command(fake.owner, leaf.path, channel_id=main, values=values)
                await settle(bot)
            assert secrets.checked > 3, secrets
            table_shown = any(len(cards) > 1 for cards in secrets.revealed.values())
            if game in PICTURED and table_shown:
                assert secrets.pictures > 0, "cards were on the table, yet no picture was read"
            assert {"/" + c.path for c in commands} <= set(used), used
            assert used.get("hand", 0) > 0, used  # the board's controls were used too
            assert fake.errors == [], fake.errors


async def test_a_refusal_after_a_public_deferral_is_answered_privately(
    standin: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`/table create` defers publicly when slow (its answer is for the channel); refused
    after that (a table is already there), the refusal still reaches only its author: the
    public "thinking" message gets a line of its own, the refusal is ephemeral."""
    monkeypatch.setattr(replies, "DEFER_AFTER", 0.01)
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(standin.owner, "table create", game="holdem")
        create = bot.tables.create

        async def slow_create(*args: Any, **kwargs: Any) -> Any:
            await asyncio.sleep(0.1)  # a slow database: the answer is deferred first
            return await create(*args, **kwargs)

        monkeypatch.setattr(bot.tables, "create", slow_create)
        ana = standin.add_user("Ana")
        answer = await standin.command(ana, "table create", game="draw")
        refusal = await standin.wait_for(
            lambda: next((m for m in answer.followups if m.content.startswith("⛔")), None)
        )
        assert refusal.ephemeral, refusal.content
        thinking = answer.message
        assert thinking is not None and thinking is not refusal and not thinking.ephemeral
        assert thinking.content == "🔒 Answered privately."
