"""Result pictures do not depend on how far behind delivery runs (issue 44, items 19 and 20).

The channel's delivery is paused (a permission taken away) while the AI plays a whole
match, then resumed: every deal's result goes out many deals late. Each result's picture
must be the one its deal's committed log gives (its number from the deal's settlement,
its cards from the deal's last view, replayed from the log here), never "Hand 0" for a
view the front no longer held; and draw poker's hands are named in the channel's language,
as hold'em's are. Through the bot's real process and the stand-in, pictures by their
model (`result_model`) and the alt text sent with them."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.discord import effects as fx
from bot.discord.board import picture_facts
from bot.i18n import t
from bot.pictures import result_model
from bot.render.phrases import deal_word, hand_name
from deucebot_dev.discord_standin import FakeDiscord, Message
from engines.draw.events import Shown
from engines.poker.ranking import hand_value
from tests.e2e.conftest import bot_running, settle


def _titled(standin: FakeDiscord, title: str) -> list[Message]:
    """The channel's messages whose embed has `title`."""
    return [m for m in standin.public_messages() if m.embeds and m.embeds[0].get("title") == title]


SEED = 44
HEADER = {"holdem": {"en": "Hand {n}: showdown"}, "draw": {"fr": "Donne {n} : abattage"}}


@pytest.mark.parametrize(
    ("game", "lang", "options"),
    [
        ("holdem", "en", {"seats": 3, "deals": 7, "stack": 20000}),
        ("draw", "fr", {"seats": 3, "deals": 7}),
    ],
)
async def test_results_delivered_many_deals_late_show_their_own_deal(
    standin: FakeDiscord,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    game: str,
    lang: str,
    options: dict[str, int],
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        # Seeded deals and AI: the same match every run (draw's showdowns included).
        monkeypatch.setattr(bot.tables, "_seed_source", lambda: SEED)
        await standin.command(ana, "config language", language=lang)
        await standin.command(ana, "table create", game=game, **options)
        await settle(bot)
        await standin.command(ana, "table start")
        standin.deny_bot(standin.channel_id, "embed_links")  # the next delivery pauses
        await standin.command(ana, "table leave")  # the AI plays every seat to the end
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.match is not None
        await standin.wait_for(lambda: table.status == "finished", 120)
        await settle(bot)
        assert bot.front.paused()
        assert table.deal >= 5  # the delivery is several deals behind: more than kept
        standin.allow_bot(standin.channel_id, "embed_links")
        await standin.command(ana, "table status")  # resumes the delivery
        match_title = t("discord.result.match_title", lang, game=table.spec.title)
        await standin.wait_for(lambda: _titled(standin, match_title), 60)
        await settle(bot)
        assert not bot.front.paused()

        # The results the log gives, replayed from it (each with its deal's last view).
        match = await bot.storage.match(table.match.id)
        assert match is not None
        actions = [a.action for a in await bot.storage.actions(table.match.id)]
        logged = fx.derive(table.spec, match, actions)
        results = [e for e in logged if e.kind == "result"]
        last_views = {e.deal: e.view for e in logged if e.kind == "board"}
        assert len(results) == table.deal >= 5
        facts = picture_facts(table.snapshot())
        named = pictured = 0
        game_title = table.spec.title
        for effect in results:
            unit, deal = deal_word(game, lang), effect.deal
            title = t("discord.result.deal_title", lang, game=game_title, unit=unit, deal=deal)
            found = _titled(standin, title)
            assert len(found) == 1, (effect.deal, len(found))
            message = found[0]
            model = result_model(game, effect.events, last_views[effect.deal], facts, lang)
            if model is None:  # nothing to draw (draw: a deal nobody opened, no pot moved)
                assert message.attachments == [], (effect.deal, message.attachments)
                continue
            pictured += 1
            alt = model.alt()
            assert alt.startswith(HEADER[game][lang].format(n=effect.deal)), alt
            assert message.descriptions[:1] == [alt], (effect.deal, message.descriptions)
            for event in effect.events:
                if isinstance(event, Shown):  # draw's hands, said in the channel's words
                    said = hand_name(hand_value(event.cards), lang)
                    assert said in alt and event.hand_name not in alt, (said, alt)
                    named += 1
        assert pictured >= 5
        assert named > 0 or game != "draw", "no draw showdown: choose another SEED"
        assert not standin.errors, standin.errors
