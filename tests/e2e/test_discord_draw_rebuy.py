"""Draw poker's rebuy on Discord: a broke member buys back in between deals through the
Rebuy control (a choice of caves, each with its chips) or sits out; every refusal is private,
in the member's language, with nothing applied; `/stats` shows the cave ledger."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.discord.client import Deucebot
from bot.runtime import Table
from deucebot_dev.discord_standin import FakeDiscord, Message, Response, User
from tests.e2e.conftest import bot_running
from tests.e2e.helpers import board, open_hand
from tests.e2e.poker_helpers import wait_turn

PREFERRED = ("allin", "call", "check", "surblind", "stand")
"""What a member who wants the match over soon plays (canonical texts of the hand's buttons)."""

WORDS = {
    "en": {
        "rebuy": "Rebuy",
        "sit_out": "Sit out",
        "caves": ("1 cave (8 chips)", "2 caves (16 chips)", "10 caves (80 chips)"),
        "has_chips": "You still have",
        "not_seated": "not seated",
        "other_seat": "That rebuy is for seat",
        "most": "1 to 10 cave units",
        "typed": ("rebuy", "sit out"),
        "stale": "earlier turn",
        "during": "between deals",
        "done": "Done: rebuy 2",
        "stats": ("Caves: 3 caves bought for 24 chips", "1 rebuy", "in caves"),
    },
    "fr": {
        "rebuy": "Se recaver",
        "sit_out": "S'absenter",
        "caves": ("1 cave (8 jetons)", "2 caves (16 jetons)", "10 caves (80 jetons)"),
        "has_chips": "Il vous reste",
        "not_seated": "pas assis",
        "other_seat": "Cette recave est pour la place",
        "most": "de 1 à 10 unités de cave",
        "typed": ("recaver", "s'absenter"),
        "stale": "tour précédent",
        "during": "entre deux coups",
        "done": "recaver 2",
        "stats": ("Caves : 3 caves achetées pour 24 jetons", "1 recave", "en caves"),
    },
    "uk": {
        "rebuy": "Докупитися",
        "sit_out": "Пропустити",
        "caves": ("1 одиниця (8 фішок)", "2 одиниці (16 фішок)", "10 одиниць (80 фішок)"),
        "has_chips": "У вас ще є",
        "not_seated": "не сидите",
        "other_seat": "Ця докупівля для місця",
        "most": "1–10 одиниць",
        "typed": ("докупити", "пропустити"),
        "stale": "попереднього ходу",
        "during": "між роздачами",
        "done": "Зроблено: докупити 2",
        "stats": ("Одиниці: куплено 3 на 24 фішки", "1 докупівля", "в одиницях"),
    },
}


@contextlib.asynccontextmanager
async def draw_for_two(
    fake: FakeDiscord, tmp_path: Path, ana: User, bo: User, stack: int = 8
) -> AsyncIterator[tuple[Deucebot, Table]]:
    """The bot with a started two-seat draw table of Ana and Bo, caves of `stack` chips (8:
    busts come fast)."""
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        await fake.command(ana, "table create", game="draw", seats=2, stack=stack)
        await fake.command(bo, "table join")
        await fake.command(ana, "table start")
        table = bot.tables.find(str(fake.channel_id))
        assert table is not None
        yield bot, table


def forged(fake: FakeDiscord, message: Message, old: str, new: str) -> Message:
    """A copy of `message` whose custom ids read `new` where they read `old` (a control made
    up by hand), registered with the stand-in so it can be clicked."""
    components = json.loads(json.dumps(message.components).replace(old, new))
    copy = Message(fake.snowflake(), message.channel_id, "", [], components, [], message.flags)
    fake.messages[copy.id] = copy
    return copy


async def play_aggressively(fake: FakeDiscord, who: User, hand: Message) -> None:
    """Play the first of `PREFERRED` the hand offers (all-in first), else its first move."""
    ids = [c for c in hand.custom_ids() if c.startswith("db:act:")]
    assert ids, hand.text()
    chosen = next((c for want in PREFERRED for c in ids if c.rsplit(":", 1)[1] == want), ids[0])
    await fake.click(who, hand, chosen)
    assert hand.content.startswith("✅"), hand.content


async def until_broke(fake: FakeDiscord, bot: Deucebot, table: Table, users: list[User]) -> User:
    """Play all-in poker until a member is broke between deals; that member."""
    for _ in range(300):
        who = await wait_turn(fake, bot, table, users)
        assert who is not None, "the match ended before anyone went broke"
        if table.view(None).phase == "rebuy":
            return who
        await play_aggressively(fake, who, await open_hand(fake, who))
    raise AssertionError("nobody went broke")


async def refused_click(
    fake: FakeDiscord, bot: Deucebot, table: Table, answer: Response, *says: str
) -> str:
    """`answer` is a private refusal saying each of `says`; nothing was applied."""
    assert table.match is not None
    shown = answer.final()
    assert shown is not None and shown.ephemeral, answer
    assert shown.content.startswith("⛔") and not shown.components, shown.content
    for words in says:
        assert words in shown.content, (words, shown.content)
    return shown.content


@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
async def test_a_broke_member_rebuys_two_caves_through_the_control(
    standin: FakeDiscord, tmp_path: Path, lang: str
) -> None:
    words = WORDS[lang]
    locale = "en-US" if lang == "en" else lang
    ana, bo = standin.add_user("Ana", locale=locale), standin.add_user("Bo", locale=locale)
    cy = standin.add_user("Cy", locale=locale)
    standin.locale = locale  # the server's language: the board's
    async with draw_for_two(standin, tmp_path, ana, bo) as (bot, table):
        assert table.match is not None
        broke = await until_broke(standin, bot, table, [ana, bo])
        rich = bo if broke is ana else ana
        seat, other = table.seat_of(str(broke.id)), table.seat_of(str(rich.id))
        assert seat is not None and other is not None
        turn = table.turn
        logged = len(await bot.storage.actions(table.match.id))
        shared = board(standin)
        rebuy = shared.component("db:rebuy:")
        assert rebuy["label"] == words["rebuy"] and rebuy["custom_id"].endswith(f":{seat}")

        # Refusals, each private and in the member's language, nothing applied.
        chips = table.view(other).stacks[other]
        says = await refused_click(
            standin, bot, table, await standin.click(rich, shared, "db:rebuy:"), words["has_chips"]
        )
        assert str(chips) in says
        await refused_click(
            standin, bot, table, await standin.click(cy, shared, "db:rebuy:"), words["not_seated"]
        )
        mine = f"db:rebuy:{table.id}:{turn}:{seat}"
        theirs = forged(standin, shared, mine, f"db:rebuy:{table.id}:{turn}:{other}")
        answer = await standin.click_copy(broke, theirs, "db:rebuy:", channel_id=shared.channel_id)
        await refused_click(standin, bot, table, answer, words["other_seat"], str(other + 1))
        typed = (await standin.command(broke, "act", action=f"{words['typed'][0]} 99")).message
        assert typed is not None and typed.ephemeral and words["most"] in typed.content, typed
        assert table.turn == turn
        assert len(await bot.storage.actions(table.match.id)) == logged

        # The broke member's hand offers Rebuy and Sit out (no move buttons).
        hand = await open_hand(standin, broke)
        labels = {str(c.get("label")) for row in hand.components for c in row["components"]}
        assert {words["rebuy"], words["sit_out"]} <= labels, labels
        assert not any(c.startswith("db:act:") and "rebuy" in c for c in hand.custom_ids())

        # The hand's Rebuy turns it into the choice (kept aside here, used once stale).
        await standin.click(broke, hand, "db:rebuy:")
        assert hand.component("db:caves:") and hand.ephemeral
        # The board's Rebuy: the choice of caves, each with its chips; then two caves.
        opened = await standin.click(broke, shared, "db:rebuy:")
        choice = opened.final()
        assert choice is not None and choice.ephemeral and not choice.content.startswith("⛔")
        options = choice.component("db:caves:")["options"]
        assert [o["value"] for o in options] == [str(n) for n in range(1, 11)]
        shown = [o["label"] for o in options]
        assert shown[0] == words["caves"][0] and shown[1] == words["caves"][1], shown
        assert shown[-1] == words["caves"][2]
        assert any(c.endswith(":sitout") for c in choice.custom_ids())
        await standin.select(broke, choice, "db:caves:", ["2"])
        assert choice.content.startswith("✅") and words["done"] in choice.content, choice.content
        assert table.turn > turn and table.view(seat).bought[seat] == 8 + 16
        entries = await bot.storage.chip_entries(table.match.id)
        assert [(e.player_id, e.delta) for e in entries if e.reason == "rebuy"] == [
            (str(broke.id), 16)
        ]
        # The same choice again, now that the table moved on: stale, nothing applied.
        moved, logged = table.turn, len(await bot.storage.actions(table.match.id))
        again = await standin.select(broke, hand, "db:caves:", ["1"])
        await refused_click(standin, bot, table, again, words["stale"])
        assert table.turn == moved and table.view(seat).bought[seat] == 24
        assert len(await bot.storage.actions(table.match.id)) == logged

        # During a deal, a typed rebuy is refused with the rule.
        while (who := await wait_turn(standin, bot, table, [ana, bo])) is not None:
            if table.view(None).phase in ("bet1", "bet2", "draw", "surblind"):
                typed = (await standin.command(who, "act", action="rebuy 1")).message
                assert typed is not None and typed.ephemeral and words["during"] in typed.content
                break
            await play_aggressively(standin, who, await open_hand(standin, who))

        # /rules lists the words typed for a rebuy and for sitting out.
        rules = (await standin.command(broke, "rules", game="draw")).final()
        assert rules is not None
        assert all(word in rules.text() for word in words["typed"]), rules.text()

        # /stats: the caves bought (buy-in and rebuy) and the net in chips and caves.
        stats = (await standin.command(broke, "stats")).final()
        assert stats is not None
        text = stats.text()
        for part in words["stats"]:
            assert part in text, (part, text)
        # The net is the settled deals' (the chip ledger's "hand" rows), in chips and caves.
        entries = await bot.storage.chip_entries(table.match.id)
        net = sum(e.delta for e in entries if e.player_id == str(broke.id) and e.reason == "hand")
        caves = f"{net / 8:+.2f}".rstrip("0").rstrip(".")
        assert f" {net:+d} " in text and f"{caves} " in text.replace(",", "."), (net, text)
