"""Big Two end to end through the Discord stand-in: commands, boards, hands, DMs, refusals."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.discord.client import Deucebot
from deucebot_dev.discord_standin import FakeDiscord, User
from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import board, boards, mentioned, open_hand, play_until, privacy_hook


async def test_four_members_play_a_whole_deal_with_commands_and_the_menu(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    bo = standin.add_user("Bo", locale="fr")
    cy = standin.add_user("Cy", locale="uk")
    di = standin.add_user("Di")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        standin.public_hook = privacy_hook(bot)
        created = await standin.command(ana, "table create", game="bigtwo", deals=1)
        assert not created.ephemeral and "Big Two" in created.message.content
        again = await standin.command(bo, "table create", game="bigtwo")
        assert again.ephemeral and "existe déjà" in again.message.content
        for user in (bo, cy, di):
            joined = await standin.command(user, "table join")
            assert joined.ephemeral
        french = (await standin.command(bo, "table join")).message
        assert french.ephemeral and "déjà" in french.content  # refused in Bo's language
        started = await standin.command(ana, "table start")
        assert started.ephemeral
        await settle(bot)
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.status == "playing"
        # Every player got their 13 cards by DM, as text and as an image.
        for user in (ana, bo, cy, di):
            dms = standin.dms(user)
            assert dms and dms[0].attachments[0].startswith("hand-"), user.name
            seat = table.seat_of(str(user.id))
            assert {str(c) for c in table.view(seat).hand} <= {
                str(c) for c in _cards(dms[-1].text())
            }
        styles = {
            ana.id: (ana, "menu"),
            bo.id: (bo, "command"),
            cy.id: (cy, "pass"),
            di.id: (di, "menu"),
        }
        turns = await play_until(standin, bot, styles, done=lambda: table.status == "finished")
        assert turns > 4
        results = [m for m in standin.public_messages() if m.embeds and not m.components]
        texts = "\n".join(m.text() for m in results)
        assert results, "no result message was posted"
        winners = [i for i, total in enumerate(table.state.view(None).totals) if total == 0]
        assert any(table.names[w] in texts for w in winners)
        # Bo's ephemeral hand speaks French; the board speaks the guild's English.
        hand = await open_hand(standin, bo)
        assert hand.component("db:play:")["label"] == "Jouer"
        assert board(standin).component("db:hand:")["label"] == "My hand"
    assert len(boards(standin)) >= 1


def _cards(text: str) -> set:
    from tests.e2e.helpers import cards_in_text

    return cards_in_text(text)


async def test_one_member_and_three_ai_finish_a_match_and_the_leaderboard_shows_it(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        standin.public_hook = privacy_hook(bot)
        await standin.command(ana, "table create", game="bigtwo", deals=2)
        await standin.command(ana, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        await play_until(
            standin, bot, {ana.id: (ana, "pass")}, done=lambda: table.status == "finished"
        )
        await settle(bot)
        assert len(boards(standin)) == 3  # the lobby, then one board per deal
        for old in boards(standin)[:-1]:  # older boards point to the newest, without buttons
            assert old.content == "Play has moved on to the newest board below."
            assert old.custom_ids() == []
        # In log order: each deal's board, then its result (its last play and penalties),
        # then the next deal's board; the match result last.
        titles = [
            (m.embeds[0].get("title") or "") if m.embeds else m.content
            for m in standin.public_messages()
        ]
        assert titles[2:] == [
            "Big Two",
            "Big Two · deal 1: result",
            "Big Two",
            "Big Two · deal 2: result",
            "Big Two: match result",
        ], titles
        results = [
            m
            for m in standin.public_messages()
            if m.embeds and ": result" in (m.embeds[0].get("title") or "")
        ]
        assert len(results) == 2
        for deal, message in zip((1, 2), results, strict=True):
            penalties = [
                row for row in await bot.storage.penalty_entries(table.match.id) if row.deal == deal
            ]
            text = message.text()
            assert "plays" in text or "played" in text, text  # the deal's last play is shown
            for row in penalties:
                name = table.seats[row.seat].name
                assert f"{name} {row.penalty}" in text, (row, text)
        assert "🤖" in board(standin).text()  # the AI seats wear their badge
        totals = table.state.view(None).totals
        wins = 1 if totals[0] == min(totals) else 0
        expected = f"{totals[0] / 2:.2f} penalty per deal, {wins} wins in 1 matches (2 deals)"
        response = await standin.command(ana, "leaderboard", game="bigtwo")
        final = response.final()
        assert final is not None and not final.ephemeral
        owner = [line for line in final.text().splitlines() if "Owner:" in line]
        assert len(owner) == 1 and expected in owner[0], final.text()
        assert "AI players" in final.text()
        mine = (await standin.command(ana, "stats")).final()
        assert mine is not None and mine.ephemeral
        assert "Big Two" in mine.text() and expected in mine.text()


async def test_refusals_are_private_specific_and_change_nothing(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    eve = standin.add_user("Eve")
    bo = standin.add_user("Bo")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        standin.public_hook = privacy_hook(bot)
        await standin.command(ana, "table create", game="bigtwo", deals=1)
        await standin.command(bo, "table join")
        await standin.command(ana, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        await settle(bot)
        humans = {ana.id: ana, bo.id: bo}
        await standin.wait_for(lambda: mentioned(standin) in humans)
        to_act = humans[mentioned(standin) or 0]
        other = bo if to_act is ana else ana
        before = table.state.snapshot()
        turn = table.turn

        # A stranger: not seated, told so privately.
        stranger = await standin.click(eve, board(standin), "db:hand:")
        assert stranger.ephemeral and "not seated" in stranger.message.content
        stranger = await standin.click(eve, board(standin), "db:pass:")
        assert stranger.ephemeral and "not seated" in stranger.message.content
        # Text that is not a card, in /play.
        typo = await standin.command(to_act, "play", cards="3D zz")
        assert typo.ephemeral and "'zz' is not a card" in typo.message.content
        # A seated player out of turn.
        early = await standin.click(other, board(standin), "db:pass:")
        assert early.ephemeral and "not your turn" in early.message.content
        # An illegal play: two cards of different ranks are no combination.
        hand = await open_hand(standin, to_act)
        options = [o["value"] for o in hand.component("db:sel:")["options"]]
        bad = [options[0], next(v for v in options if v[:-1] != options[0][:-1])]
        uploads = standin.uploads
        await standin.select(to_act, hand, "db:sel:", bad)
        assert standin.uploads == uploads and hand.attachments  # same hand: picture kept
        refused = await standin.click(to_act, hand, "db:play:")
        assert refused.kind == 4 and refused.ephemeral
        assert refused.message.content.startswith("⛔"), refused.message.content
        assert table.state.snapshot() == before and table.turn == turn
        older_hand = await open_hand(standin, to_act)
        resorted = await standin.click(to_act, older_hand, "db:sort:")
        assert resorted.kind == 7
        values = [o["value"] for o in older_hand.component("db:sel:")["options"]]
        suits = ["DCHS".index(v[-1]) for v in values]
        assert sorted(values) == sorted(options) and suits == sorted(suits)
        assert older_hand.component("db:sort:")["custom_id"].endswith(":s")
        # The right move, clicked twice at once: applied once, the second is stale.
        leading = table.view(table.seat_of(str(to_act.id))).table is None
        if leading:
            await standin.select(to_act, hand, "db:sel:", [options[0]])
        button = "db:play:" if leading else "db:pass:"
        results = await asyncio.gather(
            standin.click(to_act, hand, button), standin.click(to_act, hand, button)
        )
        texts = [(r.message.content if r.kind == 4 else "") for r in results] + [hand.content]
        assert sum(t.startswith("✅") for t in texts) == 1, texts
        assert sum("earlier turn" in t for t in texts) == 1, texts
        assert table.turn == turn + 1 or table.turn > turn
        # A button from an earlier turn (a hand opened before) is refused as stale.
        await settle(bot)
        stale = await standin.click(to_act, older_hand, "db:pass:")
        final = stale.final()
        assert final is not None and final.ephemeral and "earlier turn" in final.content


async def test_closed_dms_are_announced_once_and_the_ephemeral_hand_still_works(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    shy = standin.add_user("Shy", dms_open=False)
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        standin.public_hook = privacy_hook(bot)
        await standin.command(ana, "table create", game="bigtwo", deals=1)
        await standin.command(shy, "table join")
        await standin.command(ana, "table start")
        await _finish_with(standin, bot, ana, shy)
        assert _dm_notices(standin, shy) == 1
        assert standin.dms(shy) == []
        assert standin.dms(ana)


async def test_slow_work_is_deferred_inside_the_window_and_answered_after(
    standin: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.discord import replies

    monkeypatch.setattr(replies, "DEFER_AFTER", 0.0)  # as if every database write were slow
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        created = await standin.command(ana, "table create", game="bigtwo", deals=1)
        assert created.kind == 5 and not created.ephemeral  # public "thinking"
        assert created.followups  # the member waited on "thinking..." before typing on
        # Its thinking message holds the answer; the lobby may follow through its token.
        answer = created.followups[0]
        assert not answer.ephemeral and "Big Two" in answer.content
        started = await standin.command(ana, "table start")
        assert started.kind == 5 and started.ephemeral
        assert started.followups
        answer = started.followups[0]  # then the deal's board, public, through its token
        assert answer.ephemeral and "dealt" in answer.content
        await settle(bot)
        await standin.wait_for(lambda: mentioned(standin) == ana.id)
        hand = await open_hand(standin, ana)
        button = (
            "db:pass:" if bot.tables.find(str(standin.channel_id)).view(0).table else "db:play:"
        )
        if button == "db:play:":
            lowest = hand.component("db:sel:")["options"][0]["value"]
            await standin.select(ana, hand, "db:sel:", [lowest])
        clicked = await standin.click(ana, hand, button)
        assert clicked.kind == 6  # deferred update, then the hand is edited in place
        await standin.wait_for(lambda: hand.content.startswith("✅"))


async def test_only_the_creator_or_a_channel_manager_stops_or_restarts_the_table(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    boss = standin.add_user("Boss")
    mod = standin.add_user("Mod", manage_channels=True)
    guest = standin.add_user("Guest")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(boss, "table create", game="bigtwo", deals=1)
        # The creator leaves and the guest takes seat 1: the guest still is not the creator.
        await standin.command(boss, "table leave")
        await standin.command(guest, "table join")
        table = bot.tables.find(str(standin.channel_id))
        assert table.seats[0].owner is not None and table.seats[0].owner.id == str(guest.id)
        rules = await standin.command(guest, "rules", game="bigtwo")
        assert rules.ephemeral and "3♦" in rules.message.text()
        status = await standin.command(guest, "table status")
        assert status.ephemeral and "Guest" in status.message.text()
        for line in ("table stop", "table restart"):
            refused = await standin.command(guest, line)
            assert refused.ephemeral and "Manage Channels" in refused.message.content
        assert bot.tables.find(str(standin.channel_id)).status == "lobby"
        await standin.command(boss, "table join")
        await standin.command(boss, "table start")
        restarted = (await standin.command(boss, "table restart")).final()
        assert restarted is not None and not restarted.ephemeral
        stopped = (await standin.command(mod, "table stop")).final()
        assert stopped is not None and not stopped.ephemeral and "closed" in stopped.content
        await settle(bot)
        assert bot.tables.find(str(standin.channel_id)) is None
        # The last board says the table is closed and has no buttons left.
        last = board_or_closed(standin)
        assert "closed" in last.text() and last.components == []
        # Boards posted before were marked replaced, without buttons: nothing live is left.
        assert all(old.custom_ids() == [] for old in boards(standin))
        # A new table can be opened in the channel again.
        again = await standin.command(boss, "table create", game="bigtwo")
        assert again.final() is not None and not again.final().ephemeral


def board_or_closed(standin: FakeDiscord):  # type: ignore[no-untyped-def]
    """The newest message that ever was a board or the closed table's board (its footer
    names the table; a table stopped before its new match's board went out has only the
    closed one)."""
    was_board = [
        m
        for m in standin.public_messages()
        if any(
            str(e.get("footer", {}).get("text", "")).startswith("Table #")
            for v in m.history
            for e in v["embeds"]
        )
    ]
    return was_board[-1]


async def test_closed_dms_are_announced_once_even_across_a_restart(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    shy = standin.add_user("Shy", dms_open=False)
    db = tmp_path / "db.sqlite3"
    async with bot_running(standin, db) as bot:
        await standin.command(ana, "table create", game="bigtwo", deals=2)
        await standin.command(shy, "table join")
        await standin.command(ana, "table start")
        await settle(bot)
        assert _dm_notices(standin, shy) == 1
    async with bot_running(standin, db) as bot:  # a restart: the table is restored
        await _finish_with(standin, bot, ana, shy)
        await settle(bot)
    assert (
        _dm_notices(standin, shy) == 1
    )  # deal 2's cards were refused too, and nobody was told again
    assert standin.dms(shy) == []
    # Nobody is DMed an empty hand (the deal's winner has none left).
    assert standin.dms(ana) and all("(0)" not in m.text() for m in standin.dms(ana))


async def test_dms_that_reopen_and_close_again_are_announced_again(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    shy = standin.add_user("Shy", dms_open=False)
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game="bigtwo", deals=3)
        await standin.command(shy, "table join")
        await standin.command(ana, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        await settle(bot)
        assert _dm_notices(standin, shy) == 1 and standin.dms(shy) == []
        moves = {ana.id: (ana, "pass"), shy.id: (shy, "menu")}
        shy.dms_open = True  # deal 2's hand reaches them, and the record is cleared
        await play_until(standin, bot, moves, done=lambda: table.deal == 2)
        await settle(bot)
        assert standin.dms(shy) and _dm_notices(standin, shy) == 1
        shy.dms_open = False  # closed again: said again, once
        await play_until(standin, bot, moves, done=lambda: table.deal == 3)
        await settle(bot)
        assert _dm_notices(standin, shy) == 2


async def _finish_with(standin: FakeDiscord, bot: Deucebot, ana: User, shy: User) -> None:
    """Play the channel's match to its end, Ana passing, Shy with the card menu."""
    table = bot.tables.find(str(standin.channel_id))
    assert table is not None
    await play_until(
        standin,
        bot,
        {ana.id: (ana, "pass"), shy.id: (shy, "menu")},
        done=lambda: table.status == "finished",
    )


def _dm_notices(standin: FakeDiscord, user: User) -> int:
    """How many public messages say `user`'s DMs are closed."""
    return sum(
        f"<@{user.id}>" in m.content and "DM" in m.content for m in standin.public_messages()
    )
