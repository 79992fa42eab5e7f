"""Hold'em pictures: the table at any board state and each hand's showdown, built from the
spectator's `HoldemView` (never a hole card: a spectator view has none) and the table's
facts, drawn by `bot.pictures.poker`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.i18n import join_names, t
from bot.pictures.model import Facts, pot_text, settled_deal, word
from bot.pictures.poker import PokerSeat, PokerTable, owed_line
from bot.pictures.sheet import Sheet, SheetRow
from bot.render.phrases import hand_name
from engines.base import Event
from engines.cards import Card
from engines.holdem import BoardDealt, HoldemView, PotAwarded, Showdown


def _tags(view: HoldemView, seat: int, facts: Facts) -> tuple[str, ...]:
    info = view.seats[seat]
    tags = []
    if info.eliminated:
        tags.append("out")
    elif info.folded:
        tags.append("fold")
    elif info.all_in:
        tags.append("allin")
    if facts.is_away(seat):
        tags.append("away")
    return tuple(tags)


def _marks(view: HoldemView, seat: int) -> tuple[str, ...]:
    info = view.seats[seat]
    marks = []
    if seat == view.button:
        marks.append("dealer")
    if info.in_hand and seat == view.small_blind_seat and not view.finished:
        marks.append("small_blind")
    if info.in_hand and seat == view.big_blind_seat and not view.finished:
        marks.append("big_blind")
    return tuple(marks)


def _pot_label(index: int, lang: str) -> str:
    return word("pot.main", lang) if index == 0 else word("pot.side", lang, n=index)


def short_blinds(view: HoldemView) -> tuple[tuple[str, int], ...]:
    """The blinds of the hand running that were posted short: (small_blind or big_blind,
    chips), for a blind seat all-in with less in the hand than its blind (all it had)."""
    found = []
    for mark, seat, nominal in (
        ("small_blind", view.small_blind_seat, view.small_blind),
        ("big_blind", view.big_blind_seat, view.big_blind),
    ):
        info = view.seats[seat] if 0 <= seat < len(view.seats) else None
        if info is not None and info.in_hand and info.all_in and info.invested < nominal:
            found.append((mark, info.invested))
    return tuple(found)


def owed(view: HoldemView, seat: int) -> int:
    """The chips `seat` must add to call: the highest bet of the round less its own bet,
    up to its stack (after a short big blind, what the others enter for)."""
    info = view.seats[seat]
    return max(0, min(view.current_bet - info.bet, info.stack))


def stakes(view: HoldemView, facts: Facts, lang: str) -> tuple[str, ...]:
    """The picture's lines under the pots while a hand runs: a blind posted short (so that
    a small pot and a call below the big blind read as what they are), then what the seat
    to act owes."""
    if view.finished:
        return ()
    lines = [
        word(f"holdem.short_blind.{mark}", lang, n=chips) for mark, chips in short_blinds(view)
    ]
    if view.to_act is not None:
        lines.append(owed_line(facts.name(view.to_act), owed(view, view.to_act), lang))
    return tuple(lines)


def board(view: HoldemView, facts: Facts, lang: str) -> PokerTable:
    """The table picture of a public hold'em view."""
    header = word(
        "holdem.header",
        lang,
        hand=view.hand,
        street=t(f"holdem.street.{view.street}", lang),
        sb=view.small_blind,
        bb=view.big_blind,
    )
    seats = tuple(
        PokerSeat(
            name=facts.name(info.seat),
            stack=info.stack,
            bet=info.bet,
            tags=_tags(view, info.seat, facts),
            marks=_marks(view, info.seat),
            holding=2 if info.in_hand and not info.folded and not view.finished else 0,
            to_act=view.to_act == info.seat and not view.finished,
            seconds=facts.seconds if view.to_act == info.seat else None,
            winner=view.finished and info.seat in view.winners,
        )
        for info in view.seats
    )
    pots = tuple(
        (_pot_label(i, lang), pot.amount, tuple(facts.name(s) for s in pot.eligible))
        for i, pot in enumerate(view.pots)
    )
    banner = ""
    if view.finished:
        banner = word("over", lang, names=join_names(facts.name(s) for s in view.winners))
    return PokerTable(
        lang=lang,
        header=header,
        seats=seats,
        board=tuple(view.board),
        slots=5,
        pots=pots,
        stakes=stakes(view, facts, lang),
        banner=banner,
    )


def result(events: Sequence[Event], view: Any, facts: Facts, lang: str) -> Sheet | None:
    """The showdown picture of a hand's result: the board, each shown hand with its name,
    what each winner took, each pot with who won it; None when no pot was awarded."""
    board_cards: tuple[Card, ...] = tuple(view.board) if isinstance(view, HoldemView) else ()
    shown: dict[int, tuple[tuple[Card, ...], str]] = {}
    won: dict[int, int] = {}
    pots: list[str] = []
    for event in events:
        if isinstance(event, BoardDealt) and len(event.board) >= len(board_cards):
            board_cards = tuple(event.board)
        elif isinstance(event, Showdown):
            for hand in event.hands:
                shown[hand.seat] = (tuple(hand.cards), hand_name(hand.value, lang))
        elif isinstance(event, PotAwarded):
            names = join_names(facts.name(s) for s in event.winners)
            pot = pot_text(_pot_label(event.pot, lang), event.amount)
            pots.append(word("pot_won", lang, pot=pot, names=names))
            for seat, share in zip(event.winners, event.shares, strict=True):
                won[seat] = won.get(seat, 0) + share
    if not pots:
        return None
    order = sorted(set(shown) | set(won))
    rows = tuple(
        SheetRow(
            name=facts.name(seat),
            cards=shown.get(seat, ((), ""))[0],
            label=shown.get(seat, ((), ""))[1],
            figure=f"+{won[seat]:,}" if seat in won else "",
            winner=seat in won,
        )
        for seat in order
    )
    number = settled_deal(events, view.hand if isinstance(view, HoldemView) else 0)
    return Sheet(
        lang=lang,
        title=word("holdem.result_header", lang, hand=number),
        rows=rows,
        middle=board_cards,
        pots=tuple(pots),
    )
