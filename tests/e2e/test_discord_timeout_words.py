"""A turn that times out reads in the channel's words, through the real bot and the Discord
stand-in: the move played for the seat is said as people say moves (``jouer 3♦``,
``passer``), not as its code (``play 3D``); and the duel's locked card, face down until the
showdown, is not named (``bloquer``): no member receives a card hidden from them."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.i18n import t
from bot.render import get_renderer
from bot.render.words import say_move
from deucebot_dev.discord_standin import FakeDiscord
from engines.cards import parse_card
from tests.e2e.conftest import bot_running, settle
from tests.e2e.hidden_cards import hidden_card_check, watch_knowledge


@pytest.mark.parametrize("game", ["bigtwo", "duel"])
async def test_a_timed_out_turn_says_the_move_in_the_channel_s_words(
    game: str, standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    ben = standin.add_user("Ben", locale="uk")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        # Nothing reaches a member that names a card hidden from them (the locked card).
        known = watch_knowledge(bot, standin.channel_id)
        standin.content_hook = hidden_card_check(
            bot, standin, standin.channel_id, known, [ana, ben]
        )
        await standin.command(ana, "config language", language="fr")
        await standin.command(ana, "table create", game=game, turn_seconds=1)
        if game == "duel":
            await standin.command(ben, "table join")
        await standin.command(ana, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.match is not None
        timed_out = []
        async with asyncio.timeout(20):  # nobody moves: the timer plays for the seat
            while not timed_out:
                await asyncio.sleep(0.05)
                actions = await bot.storage.actions(table.match.id)
                timed_out = [a for a in actions if a.actor == "timeout"]
        await settle(bot)
        first = timed_out[0]
        name = table.seats[first.seat].name
        seen = standin.public_versions()
        raw = t("discord.event.turn_timed_out", "fr", name=name, action=first.action)
        assert not any(raw in text for text in seen), first.action
        move = first.action
        if game == "duel":
            verb, card = move.split()
            assert verb == "lock"
            move = verb
            hidden = parse_card(card).pretty
            assert not any(f"{name} a dépassé son temps : bloquer {hidden}" in x for x in seen)
        said = say_move(move, get_renderer(game).move_areas, "fr")
        assert said != move
        line = t("discord.event.turn_timed_out", "fr", name=name, action=said)
        assert any(line in text for text in seen), (line, [x for x in seen if name in x][-3:])
        assert standin.errors == [], standin.errors
        assert known.payloads > 0 and known.cards > 0, known
