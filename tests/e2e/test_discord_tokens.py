"""Boards riding on members' interaction tokens (issue 25): a deal's board is a follow-up of
a member's recent interaction, edited through that token (outside Discord's global limit)
while it lives, and through the bot's budgeted REST once it expired; nothing is lost or
posted twice either way. In process, through the stand-in, which enforces the 15-minute
token lifetime (401 / 50027) and that a webhook edits only what its own token made."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import aiohttp

from bot.i18n import t
from deucebot_dev.discord_standin import INTERACTION, REST, FakeDiscord, Message, version_text
from tests.e2e.conftest import ai_warm, bot_running, settle
from tests.e2e.deliveries import check_match
from tests.e2e.helpers import board, boards, open_hand, play_until


def _footer(message: Message) -> list[int]:
    """The numbers of a board's footer: table, deal, turn."""
    return [int(n) for n in re.findall(r"\d+", message.embeds[0]["footer"]["text"])]


def _footer_of(version: dict[str, Any]) -> list[int]:
    """The numbers of the footer of one of a board's versions (`Message.history`)."""
    return [int(n) for n in re.findall(r"\d+", version["embeds"][0]["footer"]["text"])]


async def _ends_in_order(standin: FakeDiscord, bot: Any) -> None:
    """The channel's all-AI match plays to its end, and its posts match its log."""
    table = bot.tables.find(str(standin.channel_id))
    assert table is not None and table.match is not None
    await standin.wait_for(lambda: table.status == "finished", 60)
    await settle(bot)
    await check_match(standin, bot.storage, table.match.id, table.names)
    assert not standin.errors, standin.errors


async def test_boards_go_through_tokens_and_through_rest_once_they_expire(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    styles = {ana.id: (ana, "menu")}
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game="bigtwo", deals=3)
        await standin.command(ana, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.match is not None
        await play_until(standin, bot, styles, done=lambda: table.deal >= 2)
        await settle(bot)
        second = board(standin)
        assert _footer(second)[1] == 2  # the second deal's board
        # Posted as a follow-up of Ana's click, its edits through her token too.
        assert second.via == INTERACTION, second.via
        hooked_edits = standin.calls("PATCH", "/webhooks/")
        turn = table.turn
        await play_until(standin, bot, styles, done=lambda: table.turn > turn + 2)
        await settle(bot)
        assert standin.calls("PATCH", "/webhooks/") > hooked_edits
        assert board(standin).id == second.id and board(standin).via == INTERACTION

        # Every token expires mid-deal (as 15 minutes would): the board stays the same
        # message, edited through the bot's REST from now on; nothing refused, lost or twice.
        standin.expire_tokens()
        rest_edits = standin.calls("PATCH", "/channels/(?P<channel>")
        turn = table.turn
        await play_until(standin, bot, styles, done=lambda: table.turn > turn + 1)
        await settle(bot)
        assert board(standin).id == second.id
        assert board(standin).via == REST
        assert standin.calls("PATCH", "/channels/(?P<channel>") > rest_edits
        assert _footer(board(standin))[1:] == [table.deal, table.turn]
        assert not standin.errors, standin.errors

        # Ana's clicks after the expiry lend fresh tokens: the next deal's board rides again.
        await play_until(standin, bot, styles, done=lambda: table.status != "playing")
        await settle(bot)
        assert any(b.via == INTERACTION for b in boards(standin)[-2:])
        await check_match(standin, bot.storage, table.match.id, table.names)
        assert not standin.errors, standin.errors


async def test_a_restart_mid_deal_edits_the_board_its_token_posted_through_rest(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    styles = {ana.id: (ana, "menu")}
    db = tmp_path / "db.sqlite3"
    async with bot_running(standin, db) as bot:
        await standin.command(ana, "table create", game="bigtwo", deals=2)
        await standin.command(ana, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        await play_until(standin, bot, styles, done=lambda: table.deal >= 2)
        await settle(bot)
        second = board(standin)
        assert _footer(second)[1] == 2 and second.via == INTERACTION
        posted = len(boards(standin))
    # A new process: the token went with the old one; the recorded message id did not.
    async with bot_running(standin, db) as bot:
        await settle(bot)
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.match is not None and table.deal == 2
        turn = table.turn
        await play_until(standin, bot, styles, done=lambda: table.turn > turn + 1)
        await settle(bot)
        assert len(boards(standin)) == posted  # the deal's board was not posted again
        assert board(standin).id == second.id and board(standin).via == REST
        assert _footer(board(standin))[1:] == [table.deal, table.turn]
        await play_until(standin, bot, styles, done=lambda: table.status != "playing")
        await settle(bot)
        await check_match(standin, bot.storage, table.match.id, table.names)
        assert not standin.errors, standin.errors


async def test_the_standin_refuses_what_discord_refuses_of_an_interaction_webhook(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    """Only the token's own messages (else 404, 10008); nothing after 15 minutes (401,
    50027); the lobby board, a follow-up of `/table create`, is not a click's token's to
    edit."""
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3"):
        await standin.command(ana, "table create", game="bigtwo", deals=1)
        await standin.wait_for(lambda: bool(boards(standin)), 10)
        lobby = board(standin)
        assert lobby.via == INTERACTION  # through the command's token, outside the budget
        answered = await standin.click(ana, lobby, "db:hand:")  # answered (refused: no match)
        token = next(t for t, iid in standin.tokens.items() if iid == answered.interaction_id)
        hook = f"{standin.api_base}/webhooks/{standin.app_id}/{token}"
        async with aiohttp.ClientSession() as http:
            made = await http.post(f"{hook}?wait=true", json={"content": "follow-up"})
            assert made.status == 200
            mine = (await made.json())["id"]
            edited = await http.patch(f"{hook}/messages/{mine}", json={"content": "edited"})
            assert edited.status == 200 and standin.messages[int(mine)].content == "edited"
            other = await http.patch(f"{hook}/messages/{lobby.id}", json={"content": "x"})
            assert other.status == 404 and (await other.json())["code"] == 10008
            standin.expire_tokens()
            late = await http.post(f"{hook}?wait=true", json={"content": "too late"})
            assert late.status == 401 and (await late.json())["code"] == 50027
            late_edit = await http.patch(f"{hook}/messages/{mine}", json={"content": "y"})
            assert late_edit.status == 401
        assert lobby.content != "x" and standin.messages[int(mine)].content == "edited"


async def test_a_new_board_is_edited_while_the_one_it_replaced_waits_to_be_marked(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    """Marking the previous board replaced may wait (in the REST budget, on a busy
    route): the new board's edits do not wait behind it. The old board's edit is held
    `held` seconds; AI moves shown on the new board meanwhile show they did not wait
    (by the order of the two, not by a time: on a loaded machine a move may take a
    second)."""
    ana = standin.owner
    replaced = t("discord.board.replaced", "en")
    held = 12.0
    async with bot_running(standin, tmp_path / "db.sqlite3", ai_delay=0.2) as bot:
        await ai_warm(bot)  # the AI workers' start-up is not the moves'
        await standin.command(ana, "table create", game="bigtwo", deals=1)
        await standin.wait_for(lambda: bool(boards(standin)), 10)
        lobby = board(standin)
        standin.slow.append(("PATCH", rf"/messages/{lobby.id}$", held))
        await standin.command(ana, "table start")
        await standin.command(ana, "table leave")  # the AI plays every seat from now on
        await standin.wait_for(lambda: board(standin).id != lobby.id, 10)
        first = board(standin)
        turn = _footer(first)[2]

        def moved_or_marked() -> bool:
            return _footer(first)[2] >= turn + 3 or lobby.content == replaced

        await standin.wait_for(moved_or_marked, held + 10)
        assert _footer(first)[2] >= turn + 3  # AI moves shown on the new board...
        assert lobby.content != replaced  # ...while the old board's own edit is still held
        await standin.wait_for(lambda: lobby.content == replaced, held + 10)
        assert not lobby.custom_ids()
        await _ends_in_order(standin, bot)


async def test_a_paced_ai_plays_on_only_once_the_board_showed_its_last_move(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    """Board edits slower than the AI's pace (a busy bot): the AI waits for each of its
    moves to be shown, so the board skips none of them."""
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3", ai_delay=0.02) as bot:
        await standin.command(ana, "table create", game="bigtwo", deals=1)
        await standin.command(ana, "table start")
        await standin.wait_for(lambda: _footer(board(standin))[1] == 1, 10)
        standin.slow.append(("PATCH", r"/webhooks/", 0.25))
        await standin.command(ana, "table leave")  # the AI plays every seat from now on
        first = board(standin)
        start = _footer(first)[2]
        await standin.wait_for(lambda: _footer(first)[2] >= start + 8, 30)
        shown = sorted({_footer_of(v)[2] for v in first.history if v["embeds"]})
        shown = [turn for turn in shown if turn >= start]
        assert shown == list(range(start, shown[-1] + 1)), shown  # every move, in turn
        standin.slow.clear()
        await _ends_in_order(standin, bot)


def _to_act_following(bot: object, table: object, user: int) -> bool:
    """Whether member `user` is to act at `table` with a play to beat (Pass is open)."""
    seat = table.seat_of(str(user))  # type: ignore[attr-defined]
    view = table.view(seat) if seat is not None else None  # type: ignore[attr-defined]
    return view is not None and table.to_act == seat and view.table is not None  # type: ignore[attr-defined]


async def _until_ana_may_pass(standin: FakeDiscord, bot: Any, deals: int) -> Any:
    """A Big Two table of Ana and three AIs, played (Ana through her hand's menu) until she
    is to act with a play to beat; the table."""
    ana = standin.owner
    await standin.command(ana, "table create", game="bigtwo", deals=deals)
    await standin.command(ana, "table start")
    table = bot.tables.find(str(standin.channel_id))
    assert table is not None and table.match is not None
    styles = {ana.id: (ana, "menu")}
    await play_until(standin, bot, styles, done=lambda: _to_act_following(bot, table, ana.id))
    await settle(bot)
    return table


async def test_a_pass_on_the_board_is_answered_with_the_board_itself(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    styles = {ana.id: (ana, "menu")}
    async with bot_running(standin, tmp_path / "db.sqlite3", ai_delay=0.05) as bot:
        table = await _until_ana_may_pass(standin, bot, deals=1)
        shown = board(standin)
        rest_edits = standin.calls("PATCH", "/channels/(?P<channel>")
        turn = table.turn
        clicked = await standin.click(ana, shown, "db:pass:")
        # The click's own answer is the board brought up to date (UPDATE_MESSAGE): Ana's
        # pass is on it at once, outside the global budget; no private "done" besides.
        assert clicked.kind == 7, clicked
        assert clicked.message is not None and clicked.message.id == shown.id
        assert clicked.followups == []
        after = shown.history[-1] if shown.via == INTERACTION else None
        assert after is not None
        assert f"{ana.name} passed." in version_text(after)
        assert _turn_of(after) == turn + 1
        await settle(bot)
        assert bot.front.answer_updates == 1
        # The outbox does not edit the board again to show the same turn.
        at_pass = [v for v in shown.history if _turn_of(v) == turn + 1]
        assert len(at_pass) == 1, [_turn_of(v) for v in shown.history]
        assert standin.calls("PATCH", "/channels/(?P<channel>") == rest_edits
        await play_until(standin, bot, styles, done=lambda: table.status != "playing")
        await settle(bot)
        await check_match(standin, bot.storage, table.match.id, table.names)
        assert not standin.errors, standin.errors


def _turn_of(version: dict[str, object]) -> int:
    embeds = version["embeds"]
    assert isinstance(embeds, list)
    return int(re.findall(r"\d+", embeds[0]["footer"]["text"])[2])


async def test_the_hand_a_member_looks_at_follows_the_table_through_their_own_interaction(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3", ai_delay=0.05) as bot:
        table = await _until_ana_may_pass(standin, bot, deals=2)
        seat = table.seat_of(str(ana.id))
        standin.keep_files = True
        hand = await open_hand(standin, ana)
        picture = hand.attachments[0]
        uploaded = len(standin.files)
        edits = bot.front.hands.edits
        passed_at = table.turn
        passed = await standin.click(ana, hand, "db:pass:")
        assert passed.kind == 7
        # The AI seats play on; when it is Ana's turn again, the hand she is looking at shows
        # that turn and its controls, edited through her own interaction (never the budget).
        await standin.wait_for(lambda: table.to_act == seat and table.status == "playing", 20)
        await settle(bot)
        assert hand.ephemeral and hand.via == INTERACTION
        assert _turn_of(hand.history[-1]) == table.turn
        assert any(
            c.split(":")[3] == str(table.turn) for c in hand.custom_ids() if c.count(":") >= 3
        )
        assert table.turn > passed_at + 1 and bot.front.hands.edits > edits
        assert not standin.errors, standin.errors
        # A pass changes no card: the hand's picture was uploaded once, with "My hand", and
        # both the answer to the pass and the edit through her interaction kept it.
        assert hand.history[-1]["attachments"] == [picture]
        assert hand.embeds[0]["image"]["url"] == f"attachment://{picture}"
        assert [name for name, _ in standin.files[uploaded:]].count(picture) == 0


async def test_a_deferred_command_lends_its_token_once_its_thinking_message_is_answered(
    standin: FakeDiscord, tmp_path: Path, monkeypatch: Any
) -> None:
    """A busy database defers `/table create` and `/table start` ("thinking..."). Once
    that message holds its answer, a follow-up is a public message of its own: the lobby
    and the deal's board still ride on the commands' tokens, outside the budget."""
    import bot.discord.replies as replies

    monkeypatch.setattr(replies, "DEFER_AFTER", 0.0)  # every command is deferred
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        created = await standin.command(ana, "table create", game="bigtwo", deals=1)
        started = await standin.command(ana, "table start")
        assert created.kind == started.kind == 5
        await standin.wait_for(lambda: _footer(board(standin))[1] == 1, 10)
        await settle(bot)
        deal = board(standin)
        assert deal.via == INTERACTION and not deal.ephemeral
        # /table start's thinking message got its private answer; the board went as a
        # public message of its own through a command's token: /table start's once its
        # thinking message held that answer, or /table create's if the deal's first board
        # came sooner (a busy machine: the two race, and the thinking message must never
        # become the board).
        assert started.followups[0].ephemeral
        assert [started.followups[1:], created.followups[2:]] in ([[deal], []], [[], [deal]])
        # /table create's answered publicly; then the lobby (since marked replaced).
        opened, lobby = created.followups[:2]
        assert not opened.ephemeral and not lobby.ephemeral
        assert lobby.content == t("discord.board.replaced", "en")
        assert not standin.errors, standin.errors
