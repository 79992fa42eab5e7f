"""What a table's channel posts and edits, as messages: the board of a deal (live, over,
or one that began and ended within one action), a result post, the board's recent lines
(a deal's commitment first), what a board shows (to tell an edit that changes nothing)
and whether people wait for an edit. Pure: no sending, no state of its own but the lines.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import discord

from bot.discord.board import (
    BOARD_COLOUR,
    attach,
    board_message,
    fresh_file,
    result_message,
    seat_names,
)
from bot.discord.effects import Effect
from bot.discord.recovery import RESULT_COLOUR
from bot.discord.textlimits import fit_message
from bot.discord.transport import send_kwargs
from bot.discord.wording import CHANNEL
from bot.i18n import t
from bot.pictures.model import Picture
from bot.render.fair import fair_line
from bot.render.phrases import deal_word
from bot.render.results import renderer_of, result_text
from bot.render.runtime_events import runtime_line
from bot.runtime import SeedsRevealed, TableSnapshot
from engines.base import DealStarted, Event

RECENT_LINES = 5
KEEP_DEALS = 3
"""Snapshots and commitments of the last few deals kept per table."""


class BoardLines:
    """The lines a table's board shows under it: the recent events of its deal, the deal's
    fairness commitment first, and a restart's reveal of the abandoned match's seeds on
    the new match's first board (never pushed out by the recent lines)."""

    def __init__(self) -> None:
        """No lines yet."""
        self.recent: collections.deque[str] = collections.deque(maxlen=RECENT_LINES)
        self.commitments: dict[int, str] = {}
        """Deal -> its fairness commitment line, shown first on that deal's board."""
        self.revealed: tuple[int, str] | None = None
        """A restart's line revealing the abandoned match's seeds, and the deal of the new
        match's board that shows it first."""

    def handed(
        self,
        table: TableSnapshot,
        events: Sequence[Event],
        found: Sequence[Effect],
        loose: Sequence[Event],
        lang: str,
    ) -> None:
        """Committed public `events` were handed over (`found`: their effects; `loose`:
        those with a line of their own): a new deal's board starts its lines afresh."""
        names = seat_names(table)
        renderer = renderer_of(table)
        if any(effect.kind == "board" for effect in found):
            self.recent.clear()
            self.revealed = None
            for event in events:  # the commitment, on the new board before any card
                committed = (
                    fair_line(event, lang, table.game) if isinstance(event, DealStarted) else None
                )
                if committed is not None and isinstance(event, DealStarted):
                    self.commitments[event.deal] = committed
                    for old in [d for d in self.commitments if d <= event.deal - KEEP_DEALS]:
                        del self.commitments[old]
        for event in loose:
            line = renderer.event(event, names, lang) if renderer else None
            if line is None:
                line = runtime_line(event, names, lang, renderer, CHANNEL)
            if line is not None and isinstance(event, SeedsRevealed) and found:
                self.revealed = (found[-1].deal, line)  # a restart: on the new match's board
            elif line is not None:
                self.recent.append(line)

    def of(self, deal: int, recent: list[str] | None = None) -> list[str]:
        """The board's lines for `deal`: a restart's reveal and the deal's commitment
        first, then `recent` (default: the recent lines)."""
        shown = list(self.recent) if recent is None else recent
        committed = self.commitments.get(deal)
        if committed is not None:
            shown = [committed, *shown]
        if self.revealed is not None and self.revealed[0] == deal:
            shown = [self.revealed[1], *shown]
        return shown


def board_view(
    live: TableSnapshot,
    match: int | None,
    deal_snaps: Mapping[int, TableSnapshot],
    effect: Effect,
) -> tuple[TableSnapshot | None, bool]:
    """The snapshot a board of `effect.deal` is drawn from, and whether its deal is over
    (None: no view of that deal exists, it began and ended within one action)."""
    if live.deal == effect.deal and live.match == match:
        return live, False
    shown = deal_snaps.get(effect.deal)
    if shown is not None:
        return shown, True
    if effect.view is None:
        return None, True
    return (
        live._replace(
            deal=effect.deal, public_view=effect.view, to_act=None, deadline=None, turn=0
        ),
        True,
    )


def keep_deal_snapshot(
    snaps: dict[int, TableSnapshot], table: TableSnapshot, owed: Iterable[Effect]
) -> None:
    """Keep `table` as its deal's last snapshot in `snaps` (to draw a late board of its own
    deal), forgetting those of older deals but one whose result is still `owed` (the
    result's picture is drawn on its last view), however far behind delivery runs."""
    snaps[table.deal] = table
    old = [d for d in snaps if d <= table.deal - KEEP_DEALS]
    results = {e.deal for e in owed if e.kind == "result"} if old else set()
    for deal in old:
        if deal not in results:
            del snaps[deal]


def _deal_over(game: str, deal: int, lang: str) -> str:
    unit = deal_word(game, lang)
    return t("discord.board.deal_over", lang, deal=deal, unit=unit, unit_title=unit.capitalize())


def board_kwargs(
    shown: TableSnapshot, lang: str, recent: Sequence[str], pictured: bool, over: int | None
) -> dict[str, Any]:
    """The post of a deal's board drawn from `shown` (its picture if `pictured`); `over`:
    the deal, when it is over (said so, no buttons)."""
    message = board_message(
        shown, lang, recent, with_image=pictured, brief=None if pictured else False
    )
    if over is not None:
        message["content"] = _deal_over(shown.game, over, lang)
        message["view"] = None
    return send_kwargs(message)


def bare_board(table: TableSnapshot, deal: int, result: Effect | None, lang: str) -> dict[str, Any]:
    """The board of a deal that began and ended within one action (no view of it was ever
    committed): its `result`'s lines, no picture, no buttons."""
    embed = discord.Embed(
        colour=BOARD_COLOUR,
        title=t("discord.board.title", lang, game=table.spec.title, deal=deal),
        description=channel_result_text(table, result, lang) if result else None,
    )
    unit = deal_word(table.game, lang)
    embed.set_footer(
        text=t("discord.board.footer", lang, table=table.id, unit=unit, deal=deal, turn=0)
    )
    return fit_message({"content": _deal_over(table.game, deal, lang), "embed": embed})


def channel_result_text(table: TableSnapshot, effect: Effect, lang: str) -> str:
    """The text of the result `effect` posts (`bot.render.results`), names made safe."""
    return result_text(table, effect.events, seat_names(table), lang, CHANNEL)


def result_kwargs(
    table: TableSnapshot, view: Any, effect: Effect, lang: str, summary: Picture | None
) -> dict[str, Any]:
    """The post of a deal's or the match's result (with the match summary picture)."""
    if effect.kind == "match_result":
        title = t("discord.result.match_title", lang, game=table.spec.title)
    else:
        unit = deal_word(table.game, lang)
        title = t(
            "discord.result.deal_title", lang, game=table.spec.title, unit=unit, deal=effect.deal
        )
    text = channel_result_text(table, effect, lang)
    embed = discord.Embed(title=title, description=text, colour=RESULT_COLOUR)
    message = result_message(table, view, effect.events, embed, lang)
    if summary is not None:  # the match summary picture (bot.charts.match)
        attach(message, embed, summary, summary.name)
    return send_kwargs(message)


def board_edit(
    shown: TableSnapshot,
    lang: str,
    lines: Sequence[str],
    image: bool,
    had: tuple[str, ...] | None,
    key: tuple[str, ...] | None,
) -> tuple[Callable[[], dict[str, Any]], str]:
    """The edit bringing a board to `shown` with `lines` (a function building its keyword
    arguments for each try: its new picture uploaded when `image`, else the picture it
    `had` kept) and what it shows (`seen`, with the key of the picture it shows)."""
    brief = None if image or had else False  # False: no picture at all yet
    message = board_message(shown, lang, lines, with_image=image, brief=brief)
    kwargs: dict[str, Any] = {
        "content": message["content"],
        "embed": message["embed"],
        "view": message["view"],
        "allowed_mentions": message["allowed_mentions"],
    }
    if not image and had:
        message["embed"].set_image(url=f"attachment://{had[0]}")

    def edit() -> dict[str, Any]:
        if image:  # a file of its own for each try (a sent one is closed)
            file = fresh_file(message)
            kwargs["attachments"] = [file] if file is not None else []
        elif not had:
            # A picture the channel never knew (posted before a restart) would stay beside
            # the full text, out of the embed: the text stands alone until the new picture
            # follows.
            kwargs["attachments"] = []
        return fit_message(kwargs)

    return edit, seen(message, key)


def seen(message: dict[str, Any], key: tuple[str, ...] | None) -> str:
    """What a board message shows (its text, embed and picture), to compare two of them."""
    embed = message["embed"].to_dict()
    embed.pop("image", None)
    return repr((message.get("content"), sorted(embed.items()), key))


def table_cards(shown: TableSnapshot) -> tuple[str, ...]:
    """The cards on the table at `shown` (Big Two's play to beat, poker's board)."""
    renderer = renderer_of(shown)
    view = shown.view(None) if shown.started else None
    if renderer is None or view is None:
        return ()
    return tuple(str(card) for card in renderer.table_cards(view))


def human_to_act(shown: TableSnapshot) -> bool:
    """Whether the seat to act at `shown` is a person who is there (not an AI, not away):
    someone is waiting for this board."""
    seat = shown.to_act
    if seat is None or not 0 <= seat < len(shown.seats):
        return False
    return not shown.seats[seat].ai_plays


def waited_for(shown: TableSnapshot, before: tuple[str, ...]) -> bool:
    """Whether a board edit to `shown` is one people wait for: a person is to act
    (`human_to_act`), or the change is a new trick or street: the cards on the table were
    cleared (a trick won, a new one to lead) or more were dealt to them (a poker street),
    against `before`, the cards the board showed."""
    if human_to_act(shown):
        return True
    now = table_cards(shown)
    return bool(before) and (not now or (set(before) < set(now)))
