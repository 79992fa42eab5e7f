"""What the public board and the private hand look like on Discord (embeds, images, components).

Built from a `TableSnapshot`, never the live table. Everything public is built
from the spectator's view (`table.view(None)`), so a board can never show a
hidden card; the hand is built from a snapshot holding the owner's view and only
ever sent to its owner (DM or ephemeral). Views are read only through the game's
renderer (`bot.render`); texts come from it and the i18n catalogs.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import io
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import discord

from bot.discord.rebuy import rebuy_controls, rebuy_offer
from bot.discord.replies import frozen_view
from bot.discord.safe_text import NO_PINGS, pinging, safe_name
from bot.discord.table_setup import options_in_force
from bot.discord.views import (
    ActButton,
    AutoPassButton,
    BrowserButton,
    CardSelect,
    HandButton,
    HintButton,
    OpenTableButton,
    PassButton,
    PickButton,
    PlayButton,
    RaiseButton,
    RebuyButton,
    SortButton,
)
from bot.discord.web_offer import offered
from bot.i18n import t
from bot.pictures import (
    Facts,
    Picture,
    board_model,
    cached,
    draw_picture,
    hand_model,
    hand_picture,
    remember,
    result_model,
    result_picture,
    table_key,
    table_picture,
)
from bot.pictures.worker import PictureDrawer
from bot.render import get_renderer
from bot.render.betting import CardPick, bet_choices
from bot.render.phrases import deal_word
from bot.render.words import say_move
from bot.runtime import TableSnapshot
from engines.cards import Card

log = logging.getLogger("deucebot.discord")
T = TypeVar("T")

MAX_ACTION_BUTTONS = 20
"""Games not played with a card menu (`GameRenderer.plays_cards`) get one button per legal
action, at most this many (and `/act` for amounts)."""
BOARD_COLOUR = discord.Colour.from_rgb(21, 94, 56)
HAND_COLOUR = discord.Colour.from_rgb(40, 70, 150)


def seat_names(table: TableSnapshot, *, raw: bool = False) -> list[str]:
    """Display names in play order, with a robot badge for seats the AI plays: made safe
    for Discord text (`safe_name`: no markdown, no mention) unless `raw` (pictures)."""
    return [
        ("🤖 " if seat.ai_plays else "") + (seat.name if raw else safe_name(seat.name))
        for seat in table.seats
    ]


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
    return ordered_hand(table.game, table.view(seat), sort)


def ordered_hand(game: str, view: Any, sort: str) -> list[Card]:
    """The hand of a seat's `view` in the game's order (`r`) or grouped by suit (`s`)."""
    hand = [] if view is None else get_renderer(game).hand_cards(view)
    if sort == "s":
        order = {card: i for i, card in enumerate(hand)}
        hand.sort(key=lambda c: (int(c.suit), order[c]))
    return hand


COPY = "#"
"""Between a card's code and its copy number in a menu option's value (``7C#2``)."""


def card_options(
    cards: Sequence[Card], selected: Sequence[str], most: int = 25
) -> tuple[list[discord.SelectOption], list[Card]]:
    """The menu options of a hand's `cards` (at most 25) and the cards chosen among them.

    Each option's value is unique within the menu, as Discord requires: the card's code,
    then ``#2``, ``#3``... for further copies of the same card (the duel deals from two
    decks, so a hand may hold two 7♣). Identical cards are interchangeable, so the value
    does not depend on the order shown. `selected` holds option values (a choice made in
    the menu) or card codes (a hint's suggestion); each takes the first copy of its card
    not taken yet; at most `most` are chosen."""
    shown = list(cards[:25])
    values: list[str] = []
    copies: dict[Card, int] = {}
    for card in shown:
        copies[card] = copies.get(card, 0) + 1
        values.append(str(card) if copies[card] == 1 else f"{card}{COPY}{copies[card]}")
    taken: list[int] = []
    for wanted in selected:
        free = [i for i in range(len(shown)) if i not in taken]
        exact = [i for i in free if values[i] == wanted]
        same = [i for i in free if str(shown[i]) == wanted.split(COPY, 1)[0]]
        if exact or same:
            taken.append((exact or same)[0])
    taken = taken[:most]
    options = [
        discord.SelectOption(label=card.pretty, value=values[i], default=i in taken)
        for i, card in enumerate(shown)
    ]
    return options, [shown[i] for i in taken]


def board_message(
    table: TableSnapshot,
    lang: str,
    recent: Sequence[str],
    with_image: bool,
    *,
    brief: bool | None = None,
) -> dict[str, Any]:
    """The board's message: content (turn mention), embed, image and buttons (kwargs for
    `send`/`edit`). Built from the spectator view only. `brief`: whether the text leaves
    each seat's figures to a picture (None: when there is one, drawn now or kept from the
    last upload)."""
    spec = table.spec
    view = table.view(None)
    names = seat_names(table)
    embed = discord.Embed(colour=BOARD_COLOUR)
    picture: Picture | None = None
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
        # Beside the table's picture (drawn now, or kept from the last upload) the text
        # leaves each seat's figures to it and its alt text.
        picture = board_picture(table, lang) if with_image else None
        if brief is None:
            brief = picture is not None if with_image else bool(board_image_name(table))
        embed.description = renderer.board(view, names, lang, brief=brief)[:4000]
    if table.status == "stopped":
        embed.set_footer(text=t("discord.board.stopped", lang, table=table.id))
    else:
        embed.set_footer(text=footer(table, lang))
    embed.add_field(
        name=t("discord.setup.title", lang), value=options_in_force(table, lang), inline=False
    )
    if recent:
        embed.add_field(
            name=t("discord.board.recent", lang), value="\n".join(recent)[-1000:], inline=False
        )
    content = ""
    message_pings = NO_PINGS
    to_act = table.to_act
    if to_act is not None and table.status == "playing":
        who = owner_id(table, to_act)
        name = names[to_act]
        if who is not None and not table.seats[to_act].ai_plays:
            content = t("discord.board.turn_human", lang, mention=f"<@{who}>")
            message_pings = pinging(who)
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
    message: dict[str, Any] = {
        "content": content,
        "embed": embed,
        "allowed_mentions": message_pings,
    }
    if table.status in ("playing", "finished", "lobby"):
        items: list[discord.ui.Item[Any]] = [
            HandButton(table.id, table.turn, t("discord.button.hand", lang))
        ]
        if table.status == "playing" and get_renderer(table.game).plays_cards:
            items.append(PassButton(table.id, table.turn, "r", t("discord.button.pass", lang)))
        offer = rebuy_offer(table, view)
        if offer is not None:
            items.append(
                RebuyButton(table.id, table.turn, offer.seat, t("discord.rebuy.button", lang))
            )
        if offered().activity:
            items.append(
                OpenTableButton(table.id, table.turn, t("discord.button.open_table", lang))
            )
        message["view"] = frozen_view(*items)
    else:
        message["view"] = None
    if picture is not None:
        attach(message, embed, picture, board_image_name(table))
    return message


def picture_facts(table: TableSnapshot, now: float | None = None) -> Facts:
    """The table facts a picture shows besides the view: names, AI and away seats, and the
    seconds left to the seat to act (when its turn has a deadline)."""
    seconds = None
    timed = table.deadline is not None and table.deadline_turn == table.turn
    if timed and table.deadline is not None and table.to_act is not None:
        seconds = max(0, int(table.deadline - (time.time() if now is None else now)))
    return Facts(
        tuple(seat.name for seat in table.seats), tuple(seat.away for seat in table.seats), seconds
    )


def board_picture(table: TableSnapshot, lang: str) -> Picture | None:
    """The board's table picture (from the spectator view only), None before the first deal
    (or if it could not be drawn: the board goes out without it). The picture drawn ahead
    for this turn (`draw_ahead`) if only the clock's seconds moved on since: not drawn
    again on the event loop for a second less."""
    facts = picture_facts(table)
    model = _drawn_or_none(board_model, table.game, table.view(None), facts, lang)
    if model is None:
        return None
    found = cached(model, "table")
    if found is not None:
        return found
    ahead = _ahead.get(_turn_of(table, lang))
    if ahead is not None and ahead[0] == _timeless(table, facts, lang):
        return ahead[1]
    return _drawn_or_none(table_picture, table.game, table.view(None), facts, lang)


def _timeless(table: TableSnapshot, facts: Facts, lang: str) -> Any:
    """The board picture's model without the seconds left (what `_ahead` compares)."""
    return board_model(table.game, table.view(None), dataclasses.replace(facts, seconds=None), lang)


_ahead: collections.OrderedDict[tuple[Any, ...], tuple[Any, Picture]] = collections.OrderedDict()
"""The last picture drawn ahead for each (table, match, turn, language): the board built
next finds it even if the seconds left changed meanwhile."""
AHEAD_KEPT = 256
DRAW_SECONDS = 10.0
"""How long a message waits for the picture worker (a stuck worker must not hold the
boards back: the picture is then drawn in a thread)."""


def _turn_of(table: TableSnapshot, lang: str) -> tuple[Any, ...]:
    return (table.id, table.match, table.deal, table.turn, lang)


def _drawn_or_none(make: Callable[..., T | None], *args: Any) -> T | None:
    """`make(*args)` (a picture or its model), or None (logged) if that failed: a message
    never waits on a picture."""
    try:
        return make(*args)
    except Exception:
        log.exception("could not draw a picture")
        return None


async def draw_ahead(table: TableSnapshot, lang: str, drawer: PictureDrawer | None) -> None:
    """Draw the board's picture off the event loop (by `drawer`'s worker process; None: a
    thread), then cached, so that building the message on the event loop finds it ready."""
    facts = picture_facts(table)
    model = _drawn_or_none(board_model, table.game, table.view(None), facts, lang)
    if model is None:
        return
    picture = await _drawn_off_loop(drawer, model, "table")
    if picture is not None:
        _ahead[_turn_of(table, lang)] = (_timeless(table, facts, lang), picture)
        _ahead.move_to_end(_turn_of(table, lang))
        while len(_ahead) > AHEAD_KEPT:
            _ahead.popitem(last=False)


async def _drawn_off_loop(
    drawer: PictureDrawer | None, model: Any, kind: str, *, urgent: bool = False
) -> Picture | None:
    """The picture of `model` drawn by `drawer` (None: in a thread; in a thread too when
    the worker takes over `DRAW_SECONDS`: so slow a worker means a full machine, and the
    loop is what answers people), or None (logged) if drawing failed: the message then
    goes out without it."""
    found = cached(model, kind)
    if found is not None:  # at once: no task, no turn of the event loop
        return found
    try:
        if drawer is not None:
            try:
                async with asyncio.timeout(DRAW_SECONDS):
                    return await drawer.picture(model, kind, urgent=urgent)
            except TimeoutError:
                log.error(
                    "the picture worker took over %s s for a picture; drawn in a thread",
                    DRAW_SECONDS,
                )
        found = cached(model, kind)
        if found is None:
            found = await asyncio.to_thread(draw_picture, model, kind)
            remember(model, kind, found)
        return found
    except Exception:
        log.exception("could not draw a picture")
        return None


_IMAGE_NAMES = 1024
"""How many snapshots' picture names `board_image_name` remembers (a few per busy table)."""
_image_names: dict[int, tuple[TableSnapshot, str]] = {}


def board_image_name(table: TableSnapshot) -> str:
    """The file name of the board's picture: the same while the picture shows the same
    table (the seconds left aside), so an edit keeps an unchanged picture by this name.
    Remembered per snapshot: an edit asks for it more than once, and the key builds the
    picture's whole model."""
    known = _image_names.get(id(table))
    if known is not None and known[0] is table:
        return known[1]
    key = table_key(table.game, table.view(None), picture_facts(table))
    name = f"table-{key}.png" if key else ""
    if len(_image_names) >= _IMAGE_NAMES:
        del _image_names[next(iter(_image_names))]  # the oldest
    _image_names[id(table)] = (table, name)
    return name


def attach(message: dict[str, Any], embed: discord.Embed, picture: Picture, name: str) -> None:
    """Put `picture` in `message` (its file, with the alt text as the attachment's
    description) and show it in `embed`."""
    message["file"] = picture_file(picture, name)
    message["image_name"] = name
    message["picture"] = picture
    embed.set_image(url=f"attachment://{name}")


def picture_file(picture: Picture, name: str) -> discord.File:
    """`picture` as a file to upload named `name`, its alt text as the description (a new
    one for each request: discord.py closes a file once sent)."""
    return discord.File(io.BytesIO(picture.png), filename=name, description=picture.alt)


def fresh_file(message: dict[str, Any]) -> discord.File | None:
    """A new file of the picture `message` carries (`attach`), for another try of the same
    request without building the message again; None if it carries none."""
    picture = message.get("picture")
    return None if picture is None else picture_file(picture, message["image_name"])


async def draw_result_ahead(
    table: TableSnapshot,
    deal_view: Any,
    events: Sequence[Any],
    lang: str,
    drawer: PictureDrawer | None,
) -> None:
    """Draw a result's picture off the event loop (then cached; see `result_message`)."""
    facts = picture_facts(table)
    model = _drawn_or_none(result_model, table.game, events, deal_view, facts, lang)
    if model is not None:
        await _drawn_off_loop(drawer, model, "result")


async def draw_hand_ahead(
    table: TableSnapshot, seat: int, lang: str, sort: str, deck: str, drawer: PictureDrawer | None
) -> None:
    """Draw the picture of `seat`'s hand off the event loop (urgent: its owner waits for
    it; then cached, so that `hand_message` finds it ready)."""
    await draw_cards_ahead(hand_cards(table, seat, sort), lang, deck, drawer)


async def draw_cards_ahead(
    cards: Sequence[Card], lang: str, deck: str, drawer: PictureDrawer | None
) -> None:
    """Draw the hand picture of `cards` off the event loop (urgent), then cached."""
    if cards:
        await _drawn_off_loop(drawer, hand_model(cards, lang, deck), "hand", urgent=True)


async def done_within(task: asyncio.Future[Any], seconds: float) -> bool:
    """Wait `seconds` at most for `task` (a picture being drawn): whether it is done. A
    task not done goes on; it is cancelled if the wait is."""
    try:
        done, _ = await asyncio.wait({task}, timeout=seconds)
    except asyncio.CancelledError:
        task.cancel()
        raise
    return task in done


HAND_PICTURE_WAIT = 0.025
"""Seconds an answer showing a member's hand waits at most for the hand's picture; one
drawn later follows by an edit of that answer, through the member's own interaction
(`LiveHands.pictured`). A hand picture takes 2 ms to draw and is mostly drawn before the
click (the hand a play leaves is drawn while the play commits), but while 1,000 tables
open at once the picture worker, drawing their first boards and hands, took up to 230 ms
(p99) for the first hands, and every answer waited for it."""
_LATE_HANDS: set[asyncio.Future[None]] = set()


async def draw_hand_within(
    table: TableSnapshot,
    seat: int,
    lang: str,
    sort: str,
    deck: str,
    drawer: PictureDrawer | None,
) -> asyncio.Future[None] | None:
    """Draw `seat`'s hand picture as `draw_hand_ahead` does, waiting `HAND_PICTURE_WAIT`
    at most: None once it is ready (or there is none to draw), else the drawing, which
    goes on (its failures are logged; `hand_message(..., draw=False)` leaves the picture
    out meanwhile)."""
    cards = hand_cards(table, seat, sort)
    if not cards or cached(hand_model(cards, lang, deck), "hand") is not None:
        return None  # at once: no task, no turn of the event loop
    drawing = asyncio.ensure_future(draw_cards_ahead(cards, lang, deck, drawer))
    if await done_within(drawing, HAND_PICTURE_WAIT):
        return None
    _LATE_HANDS.add(drawing)
    drawing.add_done_callback(_LATE_HANDS.discard)
    return drawing


def result_message(
    table: TableSnapshot, deal_view: Any, events: Sequence[Any], embed: discord.Embed, lang: str
) -> dict[str, Any]:
    """A result post (kwargs for `send`): `embed` with the picture of what the deal's public
    `events` showed, drawn on its last public view `deal_view` (None: not known)."""
    message: dict[str, Any] = {"embed": embed}
    picture = _drawn_or_none(
        result_picture, table.game, events, deal_view, picture_facts(table), lang
    )
    if picture is not None:
        attach(message, embed, picture, picture.name)
    return message


def last_play_key(table: TableSnapshot) -> tuple[str, ...]:
    """What the board's picture shows now, as its file name (to re-upload it only when it
    changed); empty before the first deal."""
    name = board_image_name(table)
    return (name,) if name else ()


def footer(table: TableSnapshot, lang: str) -> str:
    """The board's and the hand's footer: table, deal (hold'em: hand) and turn."""
    unit = deal_word(table.game, lang)
    return t(
        "discord.board.footer", lang, table=table.id, unit=unit, deal=table.deal, turn=table.turn
    )


def hand_message(
    table: TableSnapshot,
    seat: int,
    lang: str,
    sort: str,
    *,
    selected: Sequence[str] = (),
    note: str = "",
    controls: bool = True,
    deck: str = "two",
    draw: bool = True,
) -> dict[str, Any]:
    """The private hand of `seat` (from a snapshot holding that seat's view): text, the hand's
    picture (in the owner's `deck` colours; with `draw` False, only if it is drawn
    already) and (for ephemeral use) the controls."""
    renderer = get_renderer(table.game)
    view = table.view(seat)
    cards = hand_cards(table, seat, sort)
    embed = discord.Embed(
        colour=HAND_COLOUR, title=t("discord.hand.title", lang, game=table.spec.title)
    )
    embed.description = renderer.hand(view, lang, cards, menu=controls)[:4000]
    embed.set_footer(text=footer(table, lang))
    message: dict[str, Any] = {"content": note, "embed": embed}
    if cards:
        # The name says which cards are drawn, so an edit can keep an unchanged picture.
        name = f"hand-{deck}-" + "".join(str(card) for card in cards) + ".png"
        picture = (
            _drawn_or_none(hand_picture, cards, lang, deck)
            if draw
            else cached(hand_model(cards, lang, deck), "hand")
        )
        if picture is not None:
            attach(message, embed, picture, name)
    if not controls:
        return message
    extra = _browser(table, lang)
    if not renderer.plays_cards:
        pick = renderer.card_pick(view) if table.status == "playing" else None
        offer = rebuy_offer(table, view)
        if offer is not None and offer.seat == seat:
            message["view"] = frozen_view(*rebuy_controls(table, offer, lang), *extra)
        elif pick is None:
            message["view"] = frozen_view(*_action_buttons(table, seat, view, lang, sort), *extra)
        else:
            message["view"] = frozen_view(
                *_pick_controls(table, cards, selected, pick, lang, sort), *extra
            )
            warning = split_warning(table, view, card_options(cards, selected)[1], lang)
            message["content"] = "\n".join(line for line in (note, warning) if line)
        return message
    options, picked = card_options(cards, selected)
    chosen = [str(card) for card in picked]
    items: list[discord.ui.Item[Any]] = []
    if cards:
        select = CardSelect(table.id, table.turn, sort, options, t("discord.hand.choose", lang))
        select.row = 0
        items.append(select)
    my_turn = table.to_act == seat and table.status == "playing"
    play_label = t("discord.button.play", lang)
    if chosen:
        play_label = t(
            "discord.button.play_cards",
            lang,
            cards=" ".join(card.pretty for card in picked),
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
        _autopass_toggle(table, seat, lang, sort),
    ]
    for button in buttons:
        button.row = 1
    items.extend(buttons)
    message["view"] = frozen_view(*items, *extra)
    return message


def _browser(table: TableSnapshot, lang: str) -> list[discord.ui.Item[Any]]:
    """The hand's "Open in browser" (on the last row: the hand's own controls keep their
    places), when this bot offers browser links."""
    if not offered().links:
        return []
    button = BrowserButton(table.id, table.turn, t("discord.button.open_browser", lang))
    button.row = 4
    return [button]


def _autopass_toggle(table: TableSnapshot, seat: int, lang: str, sort: str) -> AutoPassButton:
    """The seat owner's auto-pass toggle, saying its state ("Auto-pass: off")."""
    owner = table.seats[seat].owner
    on = owner is not None and owner.id in table.autopass
    state = t(f"discord.autopass.{'on' if on else 'off'}", lang)
    label = t("discord.button.autopass", lang, state=state)
    return AutoPassButton(table.id, table.turn, sort, "off" if on else "on", label)


def split_warning(table: TableSnapshot, view: Any, discards: Sequence[Card], lang: str) -> str:
    """Before the move: which of the chosen `discards` would be set aside (an opener splitting
    their openers, told only to them), or ""."""
    aside = get_renderer(table.game).set_aside_by(view, discards)
    if not aside:
        return ""
    return "✂️ " + t("discord.pick.split_warning", lang, cards=" ".join(c.pretty for c in aside))


def _pick_controls(
    table: TableSnapshot,
    cards: Sequence[Card],
    selected: Sequence[str],
    pick: CardPick,
    lang: str,
    sort: str,
) -> list[discord.ui.Item[Any]]:
    """A move made by choosing cards (draw's discards, the duel's lock): the menu of the
    hand's cards (`card_options`), the move's button armed with the chosen cards (by code),
    the other moves (stand pat), Hint and Sort."""
    areas = get_renderer(table.game).move_areas
    options, picked = card_options(cards, selected, pick.most)
    chosen = [str(card) for card in picked]
    menu = CardSelect(
        table.id, table.turn, sort, options, t(f"discord.pick.{pick.verb}", lang), most=pick.most
    )
    menu.row = 0
    label = say_move(" ".join([pick.verb, *chosen]), areas, lang)
    play = PickButton(
        table.id,
        table.turn,
        sort,
        pick.verb,
        ".".join(chosen),
        label[:1].upper() + label[1:],
        disabled=not chosen,
    )
    items: list[discord.ui.Item[Any]] = [menu, play]
    for text in pick.other:
        other = say_move(text, areas, lang)
        items.append(ActButton(table.id, table.turn, sort, text, other[:1].upper() + other[1:]))
    for button in items[1:]:
        button.row = 1
    return items + _hint_and_sort(table, sort, lang, row=2)


def _hint_and_sort(
    table: TableSnapshot, sort: str, lang: str, *, row: int
) -> list[discord.ui.Item[Any]]:
    """The hand's Hint and Sort buttons, on `row`."""
    items: list[discord.ui.Item[Any]] = [
        HintButton(table.id, table.turn, sort, t("discord.button.hint", lang)),
        SortButton(table.id, table.turn, sort, t("discord.button.sort", lang)),
    ]
    for item in items:
        item.row = row
    return items


def action_labels(table: TableSnapshot, view: Any, lang: str) -> list[tuple[str, str]]:
    """The (canonical action, label) of each action button of the view's seat: for a betting
    decision (`GameRenderer.bet_spot`) Fold, Check or Call with its amount, Min raise, Half
    pot, Pot and All-in; otherwise one per legal action, in the reader's words."""
    renderer = get_renderer(table.game)
    spot = renderer.bet_spot(view)
    if spot is not None:
        return [
            (choice.action, t(f"discord.bet.{choice.kind}", lang, n=choice.amount))
            for choice in bet_choices(spot)
        ]
    return [
        (text, say_move(text, renderer.move_areas, lang)) for text in renderer.legal_moves(view)
    ]


def _action_buttons(
    table: TableSnapshot, seat: int, view: Any, lang: str, sort: str
) -> list[discord.ui.Item[Any]]:
    """The action buttons (up to four rows; "Raise..." when any amount may be bet), then
    Hint and Sort."""
    items: list[discord.ui.Item[Any]] = []
    if table.to_act == seat and table.status == "playing":
        labels = [(a, label) for a, label in action_labels(table, view, lang) if 0 < len(a) <= 80]
        for i, (text, label) in enumerate(x for x in labels if ":" not in x[0]):
            if i == MAX_ACTION_BUTTONS:
                break
            button = ActButton(table.id, table.turn, sort, text, label)
            button.row = i // 5
            items.append(button)
        spot = get_renderer(table.game).bet_spot(view)
        if spot is not None and spot.raise_verb is not None and len(items) < MAX_ACTION_BUTTONS:
            more = RaiseButton(
                table.id, table.turn, sort, t(f"discord.bet.more.{spot.raise_verb}", lang)
            )
            more.row = len(items) // 5
            items.append(more)
    return items + _hint_and_sort(table, sort, lang, row=4)
