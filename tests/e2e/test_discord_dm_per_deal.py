"""A member's hand reaches them by DM once per deal (issue 19, item 3): at the deal, and
again only after a move someone else made for their seat (away, timed out). The answer
to their own move (a play, a bet, a draw, a lock) already shows the new hand."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from pathlib import Path

import pytest

from bot.discord.client import Deucebot
from bot.i18n import t
from bot.runtime import Table
from deucebot_dev.discord_standin import FakeDiscord, Message, User
from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import open_hand, play_turn
from tests.e2e.poker_helpers import buttons, wait_turn

DEAL = re.compile(r"\d+ · [^\d·]+ (\d+) · [^\d·]+ \d+\s*$", re.MULTILINE)
"""A hand's footer in any language (``Table n°1 · donne 2 · tour 14``): its deal."""
OPTIONS = {
    "bigtwo": {"deals": 2},
    "holdem": {"deals": 4},
    "draw": {"deals": 3},
    "duel": {},
}

PREFER = ("Call", "Suivre", "Min", "Check", "Parole")
"""The betting buttons a member clicks, first found first (the members are en and fr)."""


def _deal_of(message: Message) -> int:
    """The deal of a hand message (from its footer)."""
    stamp = DEAL.search(message.text())
    assert stamp, message.text()
    return int(stamp.group(1))


def dm_deals(fake: FakeDiscord, user: User) -> list[int]:
    """The deal of each hand DMed to `user`, in order (from the hand's footer). Notices
    (plain text, no hand: "you are out of chips") are not hands."""
    return [_deal_of(message) for message in fake.dms(user) if message.embeds]


async def own_move(fake: FakeDiscord, bot: Deucebot, user: User, hand: Message) -> str:
    """`user` moves from their hand: a pick of cards when the game asks for one (draw's
    discards, the duel's lock: the first card), else a betting button (`PREFER`: on to the
    draw), or a Big Two turn by the menu. What kind of move it was."""
    ids = hand.custom_ids()
    if any(i.startswith("db:pick:") for i in ids):
        first = hand.component("db:sel:")["options"][0]["value"]
        await fake.select(user, hand, "db:sel:", [first])
        await fake.click(user, hand, "db:pick:")
        assert hand.content.startswith("✅"), hand.content
        return "pick"
    labels = buttons(hand)
    if labels:
        label = next((lab for want in PREFER for lab in labels if lab.startswith(want)), None)
        await fake.click(user, hand, labels[label or next(iter(labels))])
        assert hand.content.startswith("✅"), hand.content
        return "bet"
    await play_turn(fake, bot, user, "menu")
    return "play"


async def started(fake: FakeDiscord, bot: Deucebot, game: str, ana: User) -> Table:
    """The owner's table of `game` with Ana seated too, dealt."""
    await fake.command(fake.owner, "table create", game=game, **OPTIONS[game])
    await fake.command(ana, "table join")
    await fake.command(fake.owner, "table start")
    table = bot.tables.find(str(fake.channel_id))
    assert table is not None
    await settle(bot)
    return table


@pytest.mark.parametrize("game", list(OPTIONS))
async def test_one_dm_per_deal_and_none_after_an_own_move(
    game: str, standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.add_user("Ana", locale="fr")
    members = [standin.owner, ana]
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        table = await started(standin, bot, game, ana)
        moves: Counter[str] = Counter()
        for _ in range(80):
            who = await wait_turn(standin, bot, table, members)
            if who is None or table.deal > 4:
                break
            hand = await open_hand(standin, who)
            before = {m.id: dm_deals(standin, m) for m in members}
            deal = table.deal
            moves[await own_move(standin, bot, who, hand)] += 1
            await settle(bot)
            # After an own move a DM only ever brings a deal's first hand (draw poker shows
            # the cards of a blind deal once the blinds are settled, maybe by this move).
            for member in members:
                new = dm_deals(standin, member)[len(before[member.id]) :]
                fresh = all(d >= deal and d not in before[member.id] for d in new)
                assert fresh and len(set(new)) == len(new), (member.name, deal, new)
        assert sum(moves.values()) >= 4, moves
        if game in ("draw", "duel"):
            assert moves["pick"] >= 1, moves
        for member in members:
            deals = dm_deals(standin, member)
            assert deals, f"{member.name} got no hand by DM"
            assert len(deals) == len(set(deals)) and deals == sorted(deals), (member.name, deals)


async def test_the_duel_dms_the_hand_after_the_ai_locked_for_an_away_member(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.add_user("Ana")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        table = await started(standin, bot, "duel", ana)
        while await wait_turn(standin, bot, table, [standin.owner, ana]) != ana:
            await own_move(standin, bot, standin.owner, await open_hand(standin, standin.owner))
        deal, seat = table.deal, table.seat_of(str(ana.id))
        assert table.view(seat).phase == "lock", table.view(seat).phase
        assert dm_deals(standin, ana).count(deal) == 1
        await standin.command(ana, "table leave")  # away: the AI locks for her seat
        await standin.wait_for(lambda: dm_deals(standin, ana).count(deal) == 2)
        await settle(bot)
        assert table.seats[seat].away
        locked = standin.dms(ana)[-1].text()
        assert str(table.view(seat).my_lock.pretty) in locked or table.deal > deal, locked


async def test_the_duel_dms_the_hand_after_a_timeout_locked_for_the_member(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.add_user("Ana")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(standin.owner, "table create", game="duel", turn_seconds=1)
        await standin.command(ana, "table join")
        await standin.command(standin.owner, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        await settle(bot)
        deal, seat = table.deal, table.to_act
        assert seat is not None
        owner = table.seats[seat].owner
        member = standin.owner if owner and owner.id == str(standin.owner.id) else ana
        # Judged by what the DMs show, not by when they are read: on a loaded machine the
        # 1-second timer may have locked for the seat before this line runs.
        async with asyncio.timeout(10):  # nobody moves: the timer locks for the seat
            while table.seats[seat].timeouts == 0:
                await asyncio.sleep(0.05)
        await standin.wait_for(lambda: dm_deals(standin, member).count(deal) >= 2)
        # The deal's hand, then the hand after the lock (later timeouts, in the betting, may
        # DM it again: the timer keeps playing for the seat).
        hands = [m.text() for m in standin.dms(member) if m.embeds and _deal_of(m) == deal]
        lock = t("duel.hand.locked", "en", card="").rstrip(" .")  # "You locked"
        assert lock not in hands[0] and lock in hands[1], hands[:2]
