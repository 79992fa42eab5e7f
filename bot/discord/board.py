"""What the public board and the private hand look like on Discord (embeds, images, components).

Built from a `TableSnapshot`, never the live table. Everything public is built
from the spectator's view (`table.view(None)`), so a board can never show a
hidden card; the hand is built from a snapshot holding the owner's view and only
ever sent to its owner (DM or ephemeral). Views are read only through the game's
renderer (`bot.render`); texts come from it and the i18n catalogs.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import discord

from bot.discord.images import cards_png
from bot.discord.replies import frozen_view
from bot.discord.views import (
    ActButton,
    CardSelect,
    HandButton,
    HintButton,
    PassButton,
    PlayButton,
    SortButton,
)
from bot.i18n import t
from bot.render import get_renderer
from bot.render.text import describe
from bot.runtime import TableSnapshot
from engines.cards import Card

MAX_ACTION_BUTTONS = 20
"""Games not played with a card menu (`GameRenderer.plays_cards`) get one button per legal
action, at most this many (and `/act` for amounts)."""
BOARD_COLOUR = discord.Colour.from_rgb(21, 94, 56)
HAND_COLOUR = discord.Colour.from_rgb(40, 70, 150)


def seat_names(table: TableSnapshot) -> list[str]:
    """Display names in play order, with a robot badge for seats the AI plays."""
    return [("🤖 " if seat.ai_plays else "") + seat.name for seat in table.seats]


def owner_id(table: TableSnapshot, seat: int | None) -> int | None:
    """The Discord user id of the human who owns `seat` (None for AI seats)."""
    if seat is None or not 0 <= seat < len(table.seats):
        return None
    owner = table.seats[seat].owner
    if owner is None or not owner.id.isdigit():
        return None
    return int(owner.id)


def table_cards(table: TableSnapshot) -> list[Card]:
    """The cards on the table in the public view (the board's picture), by the game's
    renderer; none before the first match."""
    view = table.view(None)
    return [] if view is None else get_renderer(table.game).table_cards(view)


def hand_cards(table: TableSnapshot, seat: int, sort: str) -> list[Card]:
    """The hand of `seat` (the snapshot's own seat), in the game's order (`r`) or grouped by
    suit (`s`)."""
    view = table.view(seat)
    hand = [] if view is None else get_renderer(table.game).hand_cards(view)
    if sort == "s":
        order = {card: i for i, card in enumerate(hand)}
        hand.sort(key=lambda c: (int(c.suit), order[c]))
    return hand


def board_message(
    table: TableSnapshot, lang: str, recent: Sequence[str], with_image: bool
) -> dict[str, Any]:
    """The board's message: content (turn mention), embed, image and buttons (kwargs for
    `send`/`edit`). Built from the spectator view only."""
    spec = table.spec
    view = table.view(None)
    names = seat_names(table)
    embed = discord.Embed(colour=BOARD_COLOUR)
    if view is None:
        embed.title = t("discord.board.lobby_title", lang, game=spec.title)
        lines = [
            t("discord.board.seat_line", lang, seat=i + 1, name=name)
            for i, name in enumerate(names)
        ]
        embed.description = "\n".join(lines) + "\n\n" + t("discord.board.lobby_help", lang)
    else:
        renderer = get_renderer(table.game)
        embed.title = t("discord.board.title", lang, game=spec.title, deal=table.deal)
        embed.description = renderer.board(view, names, lang)[:4000]
    if table.status == "stopped":
        embed.set_footer(text=t("discord.board.stopped", lang, table=table.id))
    else:
        embed.set_footer(
            text=t("discord.board.footer", lang, table=table.id, deal=table.deal, turn=table.turn)
        )
    if recent:
        embed.add_field(
            name=t("discord.board.recent", lang), value="\n".join(recent)[-1000:], inline=False
        )
    content = ""
    to_act = table.to_act
    if to_act is not None and table.status == "playing":
        who = owner_id(table, to_act)
        name = names[to_act]
        if who is not None and not table.seats[to_act].ai_plays:
            content = t("discord.board.turn_human", lang, mention=f"<@{who}>")
            if table.deadline is not None and table.deadline_turn == table.turn:
                content += " " + t(
                    "discord.board.deadline", lang, stamp=f"<t:{int(table.deadline)}:R>"
                )
        else:
            content = t("discord.board.turn_ai", lang, name=name)
    elif table.status == "finished":
        content = t("discord.board.finished", lang)
    elif table.status == "lobby":
        content = t("discord.board.lobby", lang)
    message: dict[str, Any] = {"content": content, "embed": embed}
    if table.status in ("playing", "finished", "lobby"):
        items: list[discord.ui.Item[Any]] = [
            HandButton(table.id, table.turn, t("discord.button.hand", lang))
        ]
        if table.status == "playing" and get_renderer(table.game).plays_cards:
            items.append(PassButton(table.id, table.turn, "r", t("discord.button.pass", lang)))
        message["view"] = frozen_view(*items)
    else:
        message["view"] = None
    if with_image:
        cards = table_cards(table)
        if cards:
            message["file"] = discord.File(_bytes(cards), filename="table.png")
            embed.set_image(url="attachment://table.png")
    return message


def _bytes(cards: Sequence[Card | None]) -> io.BytesIO:
    return io.BytesIO(cards_png(cards))


def last_play_key(table: TableSnapshot) -> tuple[str, ...]:
    """What the board image shows now (to re-upload it only when it changed)."""
    return tuple(str(c) for c in table_cards(table))


def hand_message(
    table: TableSnapshot,
    seat: int,
    lang: str,
    sort: str,
    *,
    selected: Sequence[str] = (),
    note: str = "",
    controls: bool = True,
) -> dict[str, Any]:
    """The private hand of `seat` (from a snapshot holding that seat's view): text, image and
    (for ephemeral use) the controls."""
    renderer = get_renderer(table.game)
    view = table.view(seat)
    cards = hand_cards(table, seat, sort)
    embed = discord.Embed(
        colour=HAND_COLOUR, title=t("discord.hand.title", lang, game=table.spec.title)
    )
    embed.description = renderer.hand(view, lang)[:4000]
    embed.set_footer(
        text=t("discord.board.footer", lang, table=table.id, deal=table.deal, turn=table.turn)
    )
    message: dict[str, Any] = {"content": note, "embed": embed}
    if cards:
        # The name says which cards are drawn, so an edit can keep an unchanged picture.
        name = "hand-" + "".join(str(card) for card in cards) + ".png"
        message["file"] = discord.File(_bytes(cards), filename=name)
        message["image_name"] = name
        embed.set_image(url=f"attachment://{name}")
    if not controls:
        return message
    if not renderer.plays_cards:
        message["view"] = frozen_view(*_action_buttons(table, seat, view, lang, sort))
        return message
    chosen = [c for c in selected if any(str(card) == c for card in cards)]
    items: list[discord.ui.Item[Any]] = []
    if cards:
        options = [
            discord.SelectOption(label=card.pretty, value=str(card), default=str(card) in chosen)
            for card in cards[:25]
        ]
        select = CardSelect(table.id, table.turn, sort, options, t("discord.hand.choose", lang))
        select.row = 0
        items.append(select)
    my_turn = table.to_act == seat and table.status == "playing"
    play_label = t("discord.button.play", lang)
    if chosen:
        play_label = t(
            "discord.button.play_cards",
            lang,
            cards=" ".join(next(card.pretty for card in cards if str(card) == c) for c in chosen),
        )[:80]
    buttons: list[discord.ui.Item[Any]] = [
        PlayButton(
            table.id,
            table.turn,
            sort,
            ".".join(chosen),
            play_label,
            disabled=not (chosen and my_turn),
        ),
        PassButton(table.id, table.turn, sort, t("discord.button.pass", lang)),
        HintButton(table.id, table.turn, sort, t("discord.button.hint", lang)),
        SortButton(table.id, table.turn, sort, t("discord.button.sort", lang)),
    ]
    for button in buttons:
        button.row = 1
    items.extend(buttons)
    message["view"] = frozen_view(*items)
    return message


def _action_buttons(
    table: TableSnapshot, seat: int, view: Any, lang: str, sort: str
) -> list[discord.ui.Item[Any]]:
    """One button per legal action (up to four rows), then Hint and Sort."""
    items: list[discord.ui.Item[Any]] = []
    if table.to_act == seat and table.status == "playing":
        texts = get_renderer(table.game).legal_moves(view)
        for i, text in enumerate(x for x in texts if 0 < len(x) <= 80 and ":" not in x):
            if i == MAX_ACTION_BUTTONS:
                break
            button = ActButton(table.id, table.turn, sort, text, describe(text))
            button.row = i // 5
            items.append(button)
    for extra in (
        HintButton(table.id, table.turn, sort, t("discord.button.hint", lang)),
        SortButton(table.id, table.turn, sort, t("discord.button.sort", lang)),
    ):
        extra.row = 4
        items.append(extra)
    return items
