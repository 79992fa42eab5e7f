"""Typed positions mean the cards a member sees: after Sort, the draw hand's numbered text
follows the picture and the menu, each card keeping the number `/act draw N M` reads, in
English, French and Ukrainian."""

from __future__ import annotations

import re
from pathlib import Path

from bot.discord.client import Deucebot
from bot.render import get_renderer
from bot.runtime import Table
from deucebot_dev.discord_standin import FakeDiscord, Message, User
from engines.cards import Card, parse_card
from tests.e2e.conftest import bot_running
from tests.e2e.helpers import open_hand
from tests.e2e.poker_helpers import wait_turn

WORDS = {
    "en": {"draw": "draw", "done": "✅"},
    "fr": {"draw": "changer", "done": "✅ C'est"},
    "uk": {"draw": "обміняти", "done": "✅ Зроблено"},
}
"""Each language's word for the draw, and how an accepted move is confirmed."""

NUMBERED = re.compile(r"#(\d) (\S+)")


def numbered(hand: Message) -> list[tuple[int, Card]]:
    """The (number, card) pairs of the hand's text, in the order the text lists them."""
    text = hand.embeds[0]["description"]
    return [(int(n), parse_card(card)) for n, card in NUMBERED.findall(text)]


def menu_order(hand: Message) -> list[Card]:
    """The cards of the hand's card menu, in its order (the picture's order too)."""
    labels = [str(o["label"]) for o in hand.component("db:sel:")["options"]]
    return [parse_card(label.split()[-1]) for label in labels]


async def bet(fake: FakeDiscord, user: User, legal: list[str]) -> None:
    """Stay in the deal cheaply: no surblind, check, call or the smallest raise (typed in
    English, which every language also reads)."""
    move = next(a for v in ("no", "check", "call", "raise") for a in legal if a.split()[0] == v)
    answer = (await fake.command(user, "act", action=move)).message
    assert answer is not None and answer.content.startswith("✅"), (move, answer)


async def sort_then_type_positions(
    fake: FakeDiscord, bot: Deucebot, table: Table, user: User
) -> None:
    """Sort `user`'s hand, read two numbers off its text and discard them by typing: the
    cards that leave the hand are the two labelled with those numbers."""
    seat = table.seat_of(str(user.id))
    view = table.view(seat)
    hand = await open_hand(fake, user)
    await fake.click(user, hand, "db:sort:")
    listed = numbered(hand)
    shown = [card for _, card in listed]
    assert shown == menu_order(hand), (hand.embeds[0]["description"], menu_order(hand))
    picture = hand.attachments[-1]
    assert picture.endswith("-" + "".join(str(c) for c in shown) + ".png"), picture
    assert sorted(n for n, _ in listed) == [1, 2, 3, 4, 5]
    assert all(view.hand[n - 1] == card for n, card in listed), (listed, view.hand)
    # The last two cards shown: after a sort by suit, rarely positions 4 and 5.
    chosen = listed[-2:]
    words = WORDS[user.locale[:2]]
    typed = f"{words['draw']} {chosen[0][0]} {chosen[1][0]}"
    answer = (await fake.command(user, "act", action=typed)).message
    assert answer is not None and answer.content.startswith(words["done"]), answer
    kept = [card for _, card in listed[:-2]]
    after = table.view(seat).hand
    assert all(card in after for card in kept), (kept, after)
    assert not any(card in after for _, card in chosen) or len(set(after)) < 5, (chosen, after)


async def test_after_sort_typed_positions_are_the_numbers_shown(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    members = [
        standin.owner,
        standin.add_user("Anaïs", locale="fr"),
        standin.add_user("Оксана", locale="uk"),
    ]
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(members[0], "table create", game="draw", seats=3)
        for member in members[1:]:
            await standin.command(member, "table join")
        await standin.command(members[0], "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        drew: set[int] = set()
        for _ in range(200):
            if len(drew) == len(members):
                break
            who = await wait_turn(standin, bot, table, members)
            if who is None:
                break
            view = table.view(table.seat_of(str(who.id)))
            if get_renderer("draw").card_pick(view) is not None:
                await sort_then_type_positions(standin, bot, table, who)
                drew.add(who.id)
            else:
                await bet(standin, who, [str(a) for a in view.legal])
        assert len(drew) == len(members), drew
