"""French draw poker and Deuce Duel on Discord: cards chosen by card in a menu (discards,
the lock), betting buttons, refusals answered plainly with nothing applied."""

from __future__ import annotations

import re
from pathlib import Path

from bot.discord.client import Deucebot
from bot.render import get_renderer
from bot.runtime import Table
from bot.runtime.replay import replay
from deucebot_dev.discord_standin import FakeDiscord, Message, User
from engines.cards import parse_card
from engines.draw.events import NewCards
from tests.e2e.conftest import bot_running
from tests.e2e.helpers import board, open_hand
from tests.e2e.poker_helpers import buttons, form_input, wait_turn
from tests.e2e.process_play import DUEL_SEAT


async def bet_or_speak(
    fake: FakeDiscord, who: User, hand: Message, prefer: tuple[str, ...]
) -> None:
    """Click the first button whose label starts with one of `prefer` (else the first)."""
    labels = buttons(hand)
    label = next((lab for want in prefer for lab in labels if lab.startswith(want)), None)
    await fake.click(who, hand, labels[label] if label else next(iter(labels.values())))
    assert hand.content.startswith("✅"), hand.content


async def refused(fake: FakeDiscord, bot: Deucebot, table: Table, who: User, typed: str) -> str:
    """Type `typed` with /act; it must be refused privately with nothing applied."""
    turn, log = table.turn, len(await bot.storage.actions(table.match.id))
    answer = (await fake.command(who, "act", action=typed)).message
    assert answer is not None and answer.ephemeral and answer.content.startswith("⛔"), answer
    assert table.turn == turn and len(await bot.storage.actions(table.match.id)) == log
    return answer.content


async def hand_after_draw(bot: Deucebot, table: Table, turn: int, seat: int) -> set[str]:
    """`seat`'s hand right after its draw, the action of `turn`: what the draw's private
    `NewCards` event says when the logged action is replayed. (The state after it may
    already be past the deal: when the players left are all in, no betting follows the
    draw, and the same action shows the hands down and ends the deal.)"""
    match = table.match
    assert match is not None
    logged = [a.action for a in await bot.storage.actions(match.id)]
    before = turn - match.first_seq
    state, _ = replay(table.spec, match, logged[:before])
    assert state.to_act == seat, (state.to_act, seat)
    events = state.apply(seat, table.spec.parse_action(logged[before]))
    drawn = [e for e in events if isinstance(e, NewCards) and e.seat == seat]
    assert len(drawn) == 1, events
    return {str(card) for card in drawn[0].hand}


async def test_draw_discards_are_chosen_by_card_even_sorted_by_suit(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game="draw", seats=3)
        await standin.command(ana, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        # The outbox posts the deal's board on its own time (after recording its intent).
        await standin.wait_for(lambda: "Blind 2" in board(standin).text())
        # The board text's stakes as they stand before the surblind is settled: the blind
        # only (no unposted surblind, no "entry 0").
        text = str(board(standin).embeds[0].get("description", ""))
        assert "Blind 2" in text and "surblind 4" not in text and "entry 0" not in text
        drew = False
        trace = []
        for _ in range(60):
            if await wait_turn(standin, bot, table, [ana]) is None:
                trace.append(("end", table.status))
                break
            seat = table.seat_of(str(ana.id))
            view = table.view(seat)
            hand = await open_hand(standin, ana)
            trace.append((view.phase, tuple(buttons(hand)), table.deal))
            if get_renderer("draw").card_pick(view) is None:
                if not drew and view.phase in ("bet1", "bet2"):
                    says = await refused(standin, bot, table, ana, "rebuy 1")
                    assert "between deals" in says, says
                await bet_or_speak(standin, ana, hand, ("Check", "Call", "no", "No", "Min"))
                continue
            # The draw: sort by suit, choose the two last cards shown, discard them.
            assert "Stand pat" in buttons(hand), buttons(hand)
            says = await refused(standin, bot, table, ana, "draw 1 2 3 4 5 6")
            assert "There is no card 6" in says, says
            await standin.click(ana, hand, "db:sort:")
            shown = [o["value"] for o in hand.component("db:sel:")["options"]]
            assert sorted(shown) == sorted(str(c) for c in view.hand)
            chosen = shown[-2:]
            await standin.select(ana, hand, "db:sel:", chosen)
            pick = hand.component("db:pick:")
            assert pick["custom_id"].endswith(".".join(chosen)) and not pick.get("disabled")
            assert all(parse_card(c).pretty in str(pick["label"]) for c in chosen), pick
            turn = table.turn
            await standin.click(ana, hand, "db:pick:")
            assert hand.content.startswith("✅") and table.turn > turn, hand.content
            # The hand after the draw, from the log (the AI seats may have ended the deal
            # and dealt the next one meanwhile).
            after = await hand_after_draw(bot, table, turn, seat)
            assert len(after) == 5 and not after & set(chosen), (chosen, after)
            assert {str(c) for c in view.hand} - set(chosen) <= after
            drew = True
            break
        assert drew, trace


async def test_a_whole_duel_through_the_lock_menu_and_the_betting_buttons(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game="duel", stack=5, ante=1)
        await standin.command(ana, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        locks = bets = 0
        twice = False
        while await wait_turn(standin, bot, table, [ana]) is not None:
            seat = table.seat_of(str(ana.id))
            view = table.view(seat)
            shown = board(standin).text()
            seats = list(DUEL_SEAT.finditer(shown))  # in the picture's alt text
            assert [s["up"] is not None for s in seats] == [True, True], shown  # signals
            if f"turn {table.turn}" in shown:
                chips = [int(s["chips"]) for s in seats]
                assert chips == list(table.view(None).chips), (chips, shown)
            hand = await open_hand(standin, ana)
            turn = table.turn
            if get_renderer("duel").card_pick(view) is not None:
                options = [o["value"] for o in hand.component("db:sel:")["options"]]
                # A second copy of a card (two decks) is told apart by "#2" in its value.
                cards = [value.split("#")[0] for value in options]
                assert sorted(cards) == sorted(str(c) for c in view.hand)
                await standin.select(ana, hand, "db:sel:", [options[locks % 2]])
                await standin.click(ana, hand, "db:pick:")
                assert hand.content.startswith("✅") and table.turn > turn, hand.content
                now = table.view(seat)
                if now.deal == view.deal and now.phase in ("lock", "bet"):  # (not yet over)
                    assert now.my_lock == parse_card(cards[locks % 2])
                locks += 1
                continue
            if not twice:  # at a betting turn: locking twice is refused plainly
                says = await refused(standin, bot, table, ana, f"lock {view.hand[0]}")
                assert "already locked" in says, says
                twice = True
            labels = buttons(hand)
            if bets % 3 == 1 and ("Raise…" in labels or "Bet…" in labels):
                opened = await standin.click(ana, hand, labels.get("Raise…") or labels["Bet…"])
                field = form_input(opened)
                low = re.search(r"\((\d+)-", field["label"])
                assert low is not None
                await standin.submit_modal(ana, opened, {field["custom_id"]: low.group(1)})
                assert hand.content.startswith("✅"), hand.content
            else:
                await bet_or_speak(standin, ana, hand, ("Check", "Call", "All-in"))
            assert table.turn > turn
            bets += 1
            assert locks + bets < 400
        assert table.status == "finished" and locks >= 1 and bets >= 1 and twice
