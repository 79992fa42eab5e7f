"""Hold'em on Discord as people play it: the hand's betting buttons and the "Raise..." form,
whole matches through the controls only, the board's figures, privacy, other languages."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.discord.client import Deucebot
from bot.runtime import Table
from deucebot_dev.discord_standin import FakeDiscord, Message
from engines.cards import Card
from engines.holdem import BoardDealt, Showdown
from tests.e2e.conftest import bot_running
from tests.e2e.helpers import board, cards_in_text, open_hand
from tests.e2e.poker_helpers import buttons, form_input, wait_turn
from tests.e2e.process_play import HOLDEM_SEAT


def check_board_figures(fake: FakeDiscord, table: Table) -> bool:
    """The newest board, when it shows the table's current turn, has the engine's stacks,
    bets (its picture's alt text) and pot (True when it was checked)."""
    shown = board(fake).text()
    if f"turn {table.turn}" not in shown:
        return False
    view = table.view(None)
    seats = list(HOLDEM_SEAT.finditer(shown))
    assert len(seats) == len(view.seats), shown
    for seat, match in zip(view.seats, seats, strict=True):
        assert int(match["stack"]) == seat.stack, (match.group(0), seat)
        assert int(match["bet"] or 0) == seat.bet, (match.group(0), seat)
    assert f"pot {view.pot_total}" in shown, shown
    return True


def public_cards_hook(bot: Deucebot) -> set[Card]:
    """The cards the match made public (board cards, hands shown down), filled as the runtime
    hands events to the front."""
    public: set[Card] = set()
    original = bot.front.public

    async def record(table: Any, events: Any) -> None:
        for event in events:
            if isinstance(event, BoardDealt):
                public.update(event.cards)
            elif isinstance(event, Showdown):
                for hand in event.hands:
                    public.update(hand.cards)
        await original(table, events)

    bot.front.public = record  # type: ignore[method-assign]
    return public


async def test_the_raise_form_refuses_bad_amounts_and_plays_a_good_one(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game="holdem", seats=3)
        await standin.command(ana, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        assert await wait_turn(standin, bot, table, [ana]) is ana
        seat = table.seat_of(str(ana.id))
        view = table.view(seat)
        hand = await open_hand(standin, ana)
        labels = buttons(hand)
        owed = "Check" if view.to_call == 0 else f"Call {view.to_call}"
        assert owed in labels and f"All-in {view.max_to}" in labels, labels
        assert f"Min {view.min_to}" in labels and "Raise…" in labels, labels
        log = len(await bot.storage.actions(table.match.id))
        turn = table.turn

        async def submit(typed: str) -> Message:
            opened = await standin.click(ana, hand, labels["Raise…"])
            text_input = form_input(opened)
            assert f"({view.min_to}-{view.max_to})" in text_input["label"], text_input
            answer = await standin.submit_modal(ana, opened, {text_input["custom_id"]: typed})
            final = answer.message  # a deal's result may ride on an accepted raise
            assert final is not None
            return final

        for typed, says in (
            ("lots", f"is not a whole number of chips: type a total from {view.min_to}"),
            (str(view.min_to - 1), f"is below the minimum raise to {view.min_to}"),
            (str(view.max_to + 1), f"at most {view.max_to} this round"),
        ):
            refused = await submit(typed)
            assert refused.ephemeral and refused.content.startswith("⛔"), refused.content
            assert says in refused.content, refused.content
            assert table.turn == turn and len(await bot.storage.actions(table.match.id)) == log

        # A form opened for this turn and submitted after it was played is refused.
        opened = await standin.click(ana, hand, labels["Raise…"])
        await standin.command(ana, "act", action="allin" if view.to_call >= view.max_to else "call")

        async def ana_moves() -> int:  # the AI seats may play on meanwhile (no AI delay)
            logged = await bot.storage.actions(table.match.id)
            return sum(a.seat == seat and a.actor == "human" for a in logged)

        moved = await ana_moves()
        late = await standin.submit_modal(ana, opened, {form_input(opened)["custom_id"]: "100"})
        final = late.final()
        assert final is not None and final.ephemeral and "turn" in final.content, final.content
        assert await ana_moves() == moved

        assert await wait_turn(standin, bot, table, [ana]) is ana
        view = table.view(seat)
        hand = await open_hand(standin, ana)
        labels = buttons(hand)
        if "Raise…" in labels or "Bet…" in labels:
            more = labels.get("Raise…") or labels["Bet…"]
            opened = await standin.click(ana, hand, more)
            await standin.submit_modal(
                ana, opened, {form_input(opened)["custom_id"]: str(view.min_to)}
            )
            assert hand.content.startswith("✅") and str(view.min_to) in hand.content, hand.content
            # What was played, from the log (the AI seats may have ended the street since).
            logged = await bot.storage.actions(table.match.id)
            last = [a.action for a in logged if a.seat == seat and a.actor == "human"][-1]
            assert last.split()[-1] == str(view.min_to) and last.split()[0] in ("bet", "raise")


async def test_two_members_play_a_whole_match_through_the_controls(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana, bo = standin.owner, standin.add_user("Bo")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        public = public_cards_hook(bot)
        await standin.command(
            ana,
            "table create",
            game="holdem",
            seats=4,
            stack=200,
            small_blind=10,
            big_blind=20,
            deals=6,
        )
        await standin.command(bo, "table join")
        await standin.command(ana, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        moves = forms = checked = 0
        kinds: set[str] = set()
        while (who := await wait_turn(standin, bot, table, [ana, bo])) is not None:
            checked += check_board_figures(standin, table)
            hand = await open_hand(standin, who)
            labels = buttons(hand)
            turn = table.turn
            # Vary the controls: the form (at the first chance from the second move on:
            # the random deals may end the match early), the sized raises, calls and
            # checks, a fold.
            form_now = moves % 5 == 2 or (forms == 0 and moves >= 1)
            order = ["Raise…", "Bet…"] if form_now else []
            order += ["Pot", "½ pot"] if moves % 4 == 1 else []
            order += ["Fold"] if moves % 9 == 8 else []
            order += ["Check", "Call", "All-in"]
            label = next(
                (lab for want in order for lab in labels if lab.startswith(want)),
                next(iter(labels)),
            )
            kinds.add(label.split(" ")[0])
            if label.endswith("…"):
                forms += 1
                opened = await standin.click(who, hand, labels[label])
                text_input = form_input(opened)
                low = re.search(r"\((\d+)-", text_input["label"])
                assert low is not None
                await standin.submit_modal(who, opened, {text_input["custom_id"]: low.group(1)})
            else:
                await standin.click(who, hand, labels[label])
            assert hand.content.startswith("✅"), hand.content
            assert table.turn > turn
            moves += 1
            assert moves < 300
        assert table.status == "finished"
        assert moves >= 4 and forms >= 1 and kinds & {"Call", "Check"}, (moves, forms, kinds)
        assert checked == moves  # the board was current at every member's turn
        assert "The match is over" in board(standin).text()
        # Privacy: no public version ever showed a card that was not made public.
        for version in standin.public_versions():
            assert cards_in_text(version) <= public, version


async def test_a_french_and_a_ukrainian_member_play_in_their_words(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.add_user("Anaïs", locale="fr")
    oksana = standin.add_user("Оксана", locale="uk")
    words = {
        ana.id: ("Suivre", "Parole", "suivre", "parole", "C'est fait"),
        oksana.id: ("Колл", "Чек", "колл", "чек", "Зроблено"),
    }
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game="holdem", seats=3)
        await standin.command(oksana, "table join")
        await standin.command(ana, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        played = {ana.id: 0, oksana.id: 0}
        while min(played.values()) < 2:
            who = await wait_turn(standin, bot, table, [ana, oksana])
            if who is None:
                break
            call_label, check_label, call_word, check_word, done = words[who.id]
            view = table.view(table.seat_of(str(who.id)))
            turn = table.turn
            if played[who.id] == 0:  # through the translated buttons
                hand = await open_hand(standin, who)
                labels = buttons(hand)
                wanted = check_label if view.to_call == 0 else f"{call_label} {view.to_call}"
                assert wanted in labels, labels
                await standin.click(who, hand, labels[wanted])
                assert hand.content.startswith("✅ " + done), hand.content
            else:  # typed in their own language
                typed = check_word if view.to_call == 0 else call_word
                answer = (await standin.command(who, "act", action=typed)).message
                assert answer is not None and answer.content.startswith("✅ " + done), answer
                assert typed in answer.content, answer.content
            assert table.turn > turn
            played[who.id] += 1
        assert min(played.values()) >= 1
        rules = (await standin.command(ana, "rules", game="holdem")).final()
        assert rules is not None and "relancer" in rules.text() and "se coucher" in rules.text()
