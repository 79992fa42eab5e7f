"""Playing Big Two through the stand-in the way people do: reading the board, clicking."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from bot.discord.client import Deucebot
from bot.runtime.table import Table
from deucebot_dev.discord_standin import FakeDiscord, Message, Response, User
from engines.cards import Card, parse_card
from tests.e2e.conftest import settle

MENTION = re.compile(r"<@(\d+)>")
CANONICAL = re.compile(r"(?<![0-9A-Za-z])(10|[2-9TJQKA])([DCHS])(?![0-9A-Za-z])")


BOARD_COLOUR = 0x155E38
"""The colour of every board's embed (bot.discord.board.BOARD_COLOUR)."""


def boards(fake: FakeDiscord) -> list[Message]:
    """Public board messages (live or replaced: their embed has the board's colour),
    oldest first."""
    return [
        m for m in fake.public_messages() if m.embeds and m.embeds[0].get("color") == BOARD_COLOUR
    ]


def live_boards(fake: FakeDiscord) -> list[Message]:
    """Boards that still carry buttons (the "My hand" button)."""
    return [m for m in boards(fake) if any(c.startswith("db:hand:") for c in m.custom_ids())]


def board(fake: FakeDiscord) -> Message:
    """The newest board."""
    found = boards(fake)
    assert found, "no board was posted"
    return found[-1]


def first_embed(version: dict[str, Any]) -> dict[str, Any]:
    """The first embed of one version of a message ({} without one)."""
    embed: dict[str, Any] = (version.get("embeds") or [{}])[0] or {}
    return embed


def version_image(version: dict[str, Any]) -> str:
    """The picture URL of one version of a message's first embed ("" without one)."""
    return str((first_embed(version).get("image") or {}).get("url") or "")


def mentioned(fake: FakeDiscord) -> int | None:
    """Whose turn the newest board announces (a user id), if a human's; None before any
    board is posted."""
    found = boards(fake)
    if not found:
        return None
    match = MENTION.search(found[-1].content)
    return int(match.group(1)) if match else None


def cards_in_text(text: str) -> set[Card]:
    """Every card written in `text`, canonical (``TS``) or with suit symbols (``10♠``)."""
    found = {parse_card(m.group(0)) for m in CANONICAL.finditer(text)}
    for match in re.finditer(r"(10|[2-9JQKA])([♦♣♥♠])", text):
        found.add(parse_card(match.group(0)))
    return found


def privacy_hook(bot: Deucebot) -> Any:
    """A stand-in hook failing when a public message shows a card before it was played.

    It records, from the events the runtime hands the front, the turn after which each
    card was played in each deal. A board version says its deal (title) and turn
    (footer): every card it shows must have been played in that deal by that turn. A
    message without them (results) may only show cards played in the current or the
    previous deal (never the cards losers still hold)."""
    played: dict[int, dict[Card, int]] = {}
    current = {"deal": -1}
    original = bot.front.public

    async def public(table: Any, events: Any) -> None:
        for event in events:
            if event.kind == "deal_started":
                current["deal"] = event.deal
                played[event.deal] = {}
            elif event.kind == "bigtwo.played":
                for card in event.cards:
                    played[current["deal"]][card] = table.turn
        await original(table, events)

    bot.front.public = public  # type: ignore[method-assign]

    def check(message: Message) -> None:
        text = message.text()
        shown = cards_in_text(text)
        if not shown:
            return
        stamp = re.search(r"(?:deal|hand) (\d+) · turn (\d+)", text)
        if stamp:
            seen = played.get(int(stamp.group(1)), {})
            allowed = {c for c, t in seen.items() if t <= int(stamp.group(2))}
        else:
            allowed = set(played.get(current["deal"], {})) | set(
                played.get(current["deal"] - 1, {})
            )
        # The rules name the card the opening play must contain; that says nothing
        # about who holds it.
        allowed.add(parse_card("3D"))
        leaked = shown - allowed
        assert not leaked, f"shows unplayed {sorted(map(str, leaked))}: {text!r}"

    return check


async def open_hand(fake: FakeDiscord, user: User) -> Message:
    """Click the newest board's "My hand"; the ephemeral answer."""
    response = await fake.click(user, board(fake), "db:hand:")
    assert response.kind == 4 and response.ephemeral, response
    assert response.message is not None
    return response.message


async def play_turn(fake: FakeDiscord, bot: Deucebot, user: User, style: str) -> None:
    """One turn of `user`, in one of the ways people play:

    - ``menu``: open the hand; when leading, choose the lowest card in the menu and
      Play; else Hint, then Play what it selected (or Pass if it suggests passing);
    - ``command``: `/play` with the first autocomplete suggestion, `/pass` when refused;
    - ``pass``: lead the lowest card with the menu, else the board's Pass button.
    """
    hand = await open_hand(fake, user)
    select = hand.component("db:sel:")
    leading = _leading(bot, user)
    if style == "command":
        choices = await fake.autocomplete(user, "play", "cards", cards="")
        assert choices, "autocomplete offered nothing"
        response = await fake.command(user, "play", cards=choices[0]["value"])
        final = response.message  # its own answer: a board or result may ride after it
        assert final is not None and final.ephemeral
        if final.content.startswith("⛔"):
            assert not leading, final.content
            response = await fake.command(user, "pass")
            assert response.message is not None and response.message.content.startswith("✅")
        return
    if leading:
        lowest = select["options"][0]["value"]
        chosen = await fake.select(user, hand, "db:sel:", [lowest])
        assert chosen.kind == 7
        result = await fake.click(user, hand, "db:play:")
        await _answered_in_place(fake, result, hand)
        return
    if style == "pass":
        shown = board(fake)
        edits = shown.edits
        result = await fake.click(user, shown, "db:pass:")
        if result.kind == 6:  # deferred: then the board edited, or a private "done"
            await fake.wait_for(lambda: result.followups or shown.edits > edits, 5)
        if result.kind in (6, 7) and not result.followups:
            # Answered with the board itself, the pass on it.
            assert result.message is not None and result.message.id == shown.id
            assert shown.edits > edits and shown.via == "interaction", result
            return
        # The private "done", not a board or a deal's result that rode on the click after it.
        final = (
            result.message
            if result.kind == 4
            else next((m for m in result.followups if m.ephemeral), None)
        )
        assert final is not None and final.ephemeral and final.content.startswith("✅"), final
        return
    hinted = await fake.click(user, hand, "db:hint:")
    assert hinted.kind == 6, hinted  # deferred: the AI thinks off the event loop
    await fake.wait_for(lambda: "💡" in hand.content)
    play = hand.component("db:play:")
    if play.get("disabled"):
        result = await fake.click(user, hand, "db:pass:")
    else:
        result = await fake.click(user, hand, "db:play:")
    await _answered_in_place(fake, result, hand)


async def _answered_in_place(fake: FakeDiscord, result: Response, hand: Message) -> None:
    """The move clicked on `hand` is confirmed on it: at once (an update, type 7) or, when
    the commit was slow and the click deferred (type 6), by the edit that follows, which
    the member waits for as they would for the spinning button."""
    assert result.kind in (6, 7), result
    if result.kind == 6:
        await fake.wait_for(lambda: "✅" in hand.content, 10)
    assert "✅" in hand.content, hand.content


def _leading(bot: Deucebot, user: User) -> bool:
    for table in bot.tables.tables.values():
        seat = table.seat_of(str(user.id))
        if seat is not None and table.view(seat) is not None:
            return table.view(seat).table is None
    return False


async def play_until(
    fake: FakeDiscord,
    bot: Deucebot,
    styles: dict[int, tuple[User, str]],
    *,
    done: Any,
    limit: int = 400,
) -> int:
    """Play the humans' turns (by the board's mention) until `done()`; returns turns played."""
    turns = 0
    while turns < limit:
        await settle(bot)
        if done():
            return turns
        who = mentioned(fake)
        assert who is not None, f"nobody mentioned on the board: {board(fake).content!r}"
        user, style = styles[who]
        await play_turn(fake, bot, user, style)
        turns += 1
    raise AssertionError(f"not done after {limit} turns")


async def ai_plays_to_the_end(
    fake: FakeDiscord, bot: Deucebot, owner: User, game: str, **options: Any
) -> Table:
    """Create a table of `game` with `options` as `owner`, start it, and leave it to the AI
    (her seat too) until the match is over and everything it posted is delivered."""
    await fake.command(owner, "table create", game=game, **options)
    await fake.command(owner, "table start")
    await fake.command(owner, "table leave")  # the AI plays her seat: all AI to the end
    table = bot.tables.find(str(fake.channel_id))
    assert table is not None
    async with asyncio.timeout(120):
        while table.status != "finished":
            await settle(bot)
            await asyncio.sleep(0.05)
    await settle(bot)
    return table
