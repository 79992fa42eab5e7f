"""Every refusal path of the poker games' controls (issue 12, "Tests"): the amount form of the
duel and of draw poker out of range, discards and locks forged with a wrong count or a card
not in the hand, a second lock, a challenge answered twice or made over a running table.
Each is answered privately with its reason and nothing is applied."""

from __future__ import annotations

import copy
import re
from pathlib import Path

from bot.discord.client import Deucebot
from bot.render import get_renderer
from bot.runtime import Table
from deucebot_dev.discord_standin import FakeDiscord, Message, User
from tests.e2e.conftest import bot_running
from tests.e2e.helpers import open_hand
from tests.e2e.poker_helpers import buttons, form_input, started_table, wait_turn


def forge(message: Message, prefix: str, custom_id: str) -> str:
    """Rewrite the component `prefix` of `message` as `custom_id`, enabled (what a hostile
    client can send); returns the id."""
    comp = message.component(prefix)
    comp["custom_id"] = custom_id
    comp.pop("disabled", None)
    return custom_id


async def refused_click(
    fake: FakeDiscord, bot: Deucebot, table: Table, who: User, hand: Message, custom_id: str
) -> str:
    """Click `custom_id` on `hand`: refused privately, nothing applied; the refusal text."""
    assert table.match is not None
    turn, log = table.turn, len(await bot.storage.actions(table.match.id))
    answer = await fake.click(who, hand, custom_id)
    final = answer.final()
    assert final is not None and final.ephemeral, answer
    assert final.content.startswith("⛔"), final.content
    assert table.turn == turn and len(await bot.storage.actions(table.match.id)) == log
    return final.content


async def refused_amounts(
    fake: FakeDiscord,
    bot: Deucebot,
    table: Table,
    who: User,
    hand: Message,
    amounts: dict[str, str],
) -> None:
    """Open the amount form for each typed amount (a form is submitted once): each is
    refused privately with the expected words, nothing applied."""
    labels = buttons(hand)
    more = labels.get("Raise…") or labels["Bet…"]
    assert table.match is not None
    for typed, says in amounts.items():
        turn, log = table.turn, len(await bot.storage.actions(table.match.id))
        opened = await fake.click(who, hand, more)
        field = form_input(opened)
        answer = (await fake.submit_modal(who, opened, {field["custom_id"]: typed})).final()
        assert answer is not None and answer.ephemeral, typed
        assert answer.content.startswith("⛔") and says in answer.content, (typed, answer.content)
        assert table.turn == turn and len(await bot.storage.actions(table.match.id)) == log


def pick_base(hand: Message) -> str:
    """The hand's pick button id without its cards (``db:pick:T:N:S:VERB``)."""
    return str(hand.component("db:pick:")["custom_id"]).rsplit(":", 1)[0]


def not_held(mine: list[str]) -> str:
    """A card code that is not in `mine`."""
    return next(c for c in ("2C", "3D", "4H", "5S", "6C", "7D") if c not in mine)


async def test_duel_locks_forged_or_repeated_and_amounts_out_of_range_are_refused(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        table = await started_table(standin, bot, ana, game="duel", stack=8, ante=1)
        assert await wait_turn(standin, bot, table, [ana]) is ana
        seat = table.seat_of(str(ana.id))
        view = table.view(seat)
        assert view.phase == "lock"
        hand = await open_hand(standin, ana)
        mine = [str(c) for c in view.hand]
        base = pick_base(hand)
        for cards, says in (
            (".".join(mine), "Lock one card only, not 2"),
            (not_held(mine), "You do not hold"),
            ("", "Choose your cards in the menu first"),
        ):
            cid = forge(hand, "db:pick:", f"{base}:{cards}")
            text = await refused_click(standin, bot, table, ana, hand, cid)
            assert says in text, text
        # "Raise..." forged at the lock step: nothing to bet yet.
        cid = forge(hand, "db:pick:", f"db:raise:{table.id}:{table.turn}:r")
        text = await refused_click(standin, bot, table, ana, hand, cid)
        assert "You cannot bet or raise now" in text, text
        # A real lock from a fresh hand, then the same card forged again at her next turn.
        hand = await open_hand(standin, ana)
        await standin.select(ana, hand, "db:sel:", [mine[0]])
        await standin.click(ana, hand, "db:pick:")
        assert hand.content.startswith("✅"), hand.content
        checked = False
        while not checked and await wait_turn(standin, bot, table, [ana]) is ana:
            view = table.view(seat)
            hand = await open_hand(standin, ana)
            if view.phase != "bet" or not ({"Raise…", "Bet…"} & set(buttons(hand))):
                await standin.click(ana, hand, next(iter(buttons(hand).values())))
                continue
            kept = [str(c) for c in view.hand]
            forged = f"db:pick:{table.id}:{table.turn}:r:lock:{kept[0]}"
            cid = forge(hand, next(iter(buttons(hand).values())), forged)
            text = await refused_click(standin, bot, table, ana, hand, cid)
            assert "already locked" in text, text
            hand = await open_hand(standin, ana)
            low = view.min_raise_to if view.to_call else view.min_bet
            amounts = {
                "lots": f"type a total from {low}",
                "0": "positive whole number",
                str(view.max_total + 1): f"at most {view.max_total}",
            }
            if view.to_call and low - 1 > max(view.bets):
                amounts[str(low - 1)] = f"below the minimum raise to {low}"
            await refused_amounts(standin, bot, table, ana, hand, amounts)
            checked = True
        assert checked


async def test_draw_discards_forged_and_amounts_out_of_range_are_refused(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        table = await started_table(standin, bot, ana, game="draw", seats=3)
        formed = drew = False
        for _ in range(80):
            if (formed and drew) or await wait_turn(standin, bot, table, [ana]) is None:
                break
            view = table.view(table.seat_of(str(ana.id)))
            hand = await open_hand(standin, ana)
            labels = buttons(hand)
            if get_renderer("draw").card_pick(view) is not None:
                mine = [str(c) for c in view.hand]
                base = pick_base(hand)
                for cards, says in (
                    (".".join([*mine, not_held(mine)]), "You do not hold"),
                    (f"{mine[0]}.{mine[0]}", "is named twice"),
                    ("", "Choose your cards in the menu first"),
                ):
                    cid = forge(hand, "db:pick:", f"{base}:{cards}")
                    text = await refused_click(standin, bot, table, ana, hand, cid)
                    assert says in text, text
                drew = True
            elif not formed and ("Raise…" in labels or "Bet…" in labels):
                more = labels.get("Raise…") or labels["Bet…"]
                label = form_input(await standin.click(ana, hand, more))["label"]
                found = re.search(r"\((\d+)-", label)
                assert found is not None, label
                low = int(found.group(1))
                minimum = f"raise to {low}" if "Raise…" in labels else f"bet of {low}"
                high = view.stakes[view.seat] + view.stacks[view.seat]
                await refused_amounts(
                    standin,
                    bot,
                    table,
                    ana,
                    hand,
                    {
                        "x": f"type a total from {low}",
                        "0": "positive whole number",
                        str(low - 1): f"below the minimum {minimum}",
                        str(high + 1): f"at most {high}",
                    },
                )
                formed = True
            hand = await open_hand(standin, ana)
            labels = buttons(hand)
            if get_renderer("draw").card_pick(view) is not None:
                await standin.click(ana, hand, labels["Stand pat"])
            else:
                prefer = ("Check", "Call", "No", "no")
                label = next((x for w in prefer for x in labels if x.startswith(w)), None)
                await standin.click(ana, hand, labels[label or next(iter(labels))])
        assert formed and drew


async def test_a_challenge_over_a_running_duel_or_accepted_twice_is_refused(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana, bo, cy = standin.owner, standin.add_user("Bo"), standin.add_user("Cy", locale="fr")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "duel challenge", member=bo)
        challenge = next(
            m for m in standin.public_messages() if "db:duel:yes:" in str(m.custom_ids())
        )
        offered = copy.deepcopy(challenge.components)
        await standin.click(bo, challenge, "db:duel:yes:")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and not challenge.custom_ids()
        seats, turn = [s.owner for s in table.seats], table.turn
        # Accept clicked again, or Decline after it (a double click, a client that kept the
        # buttons): refused privately, the challenge still reads accepted, one table.
        accepted = challenge.content
        for answer in ("db:duel:yes:", "db:duel:no:"):
            challenge.components = copy.deepcopy(offered)
            again = (await standin.click(bo, challenge, answer)).final()
            assert again is not None and again.ephemeral, answer
            assert "already accepted" in again.content, again.content
            assert challenge.content == accepted
        # A new challenge in the channel of a running duel, to a member or to the AI.
        for member in (ana, None):
            options = {"member": member} if member else {}
            answer = (await standin.command(cy, "duel challenge", **options)).final()
            assert answer is not None and answer.ephemeral and answer.content.startswith("⛔")
            assert "existe déjà" in answer.content, answer.content  # in Cy's language
        assert bot.tables.find(str(standin.channel_id)) is table
        assert [s.owner for s in table.seats] == seats and table.status == "playing"
        assert table.turn >= turn and len(bot.tables.tables) == 1
