"""French draw poker pictures: the table at any board state (stacks, stakes in front, the
blind and surblind, the opener, cards held face down and how many each seat drew, the pot,
the carried pot and the deal's stakes, its phase and what the seat to act owes; at the
match's end each seat's net, what ranks it) and each deal's result (hands shown with their
names, who won what, a carried pot). Built from the spectator's `DrawView`, drawn by
`bot.pictures.poker` and `bot.pictures.sheet`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.i18n import join_names, t
from bot.pictures.model import Facts, pot_text, settled_deal, word
from bot.pictures.poker import PokerSeat, PokerTable, owed_line
from bot.pictures.sheet import Sheet, SheetRow
from bot.render.phrases import hand_name
from engines.base import Event
from engines.draw.events import Carried, PotReturned, PotWon, Shown
from engines.draw.view import DrawView
from engines.poker.ranking import hand_value


def _tags(view: DrawView, seat: int, facts: Facts) -> tuple[str, ...]:
    tags = []
    if view.finished:  # the last deal's folds and outs no longer matter
        pass
    elif not view.in_deal[seat]:
        tags.append("out")
    elif view.folded[seat]:
        tags.append("fold")
    elif view.stacks[seat] == 0 and view.phase != "rebuy" and not view.finished:
        tags.append("allin")
    if facts.is_away(seat):
        tags.append("away")
    return tuple(tags)


def _marks(view: DrawView, seat: int) -> tuple[str, ...]:
    if not view.in_deal[seat] or view.finished:
        return ()
    roles = (
        ("dealer", view.dealer),
        ("blind", view.blind_seat),
        ("surblind", view.surblind_seat),
        ("opener", view.opener),
    )
    return tuple(mark for mark, holder in roles if holder == seat)


def _kind(view: DrawView, lang: str) -> str:
    if view.deal_kind == "jackpot":
        rank = t(f"draw.rank.{view.requirement}", lang) if view.requirement else ""
        return word("draw.jackpot", lang, rank=rank)
    return word("draw.blind_deal", lang)


def stakes(view: DrawView, facts: Facts, lang: str) -> tuple[str, ...]:
    """The deal's stakes as short lines: blind, surblind and entry price (blind deals), the
    jackpot level and carried pot, the opener once known."""
    lines = []
    if view.deal_kind != "jackpot":
        # As they stand: the surblind once posted, the entry price once there is one.
        parts = [word("draw.blind", lang, blind=view.blind_unit)]
        if view.surblind_seat is not None:
            parts.append(word("draw.surblind", lang, surblind=2 * view.blind_unit))
        if view.entry > 0:
            parts.append(word("draw.entry", lang, entry=view.entry))
        lines.append(" · ".join(parts))
    else:
        lines.append(word("draw.level", lang, n=view.unopened))
    if view.carried:
        lines.append(word("draw.carried", lang, n=view.carried))
    if view.opener is not None:
        lines.append(word("draw.opened_by", lang, name=facts.name(view.opener)))
    return (*lines, *turn_lines(view, facts, lang))


def owed(view: DrawView, seat: int) -> tuple[str, int]:
    """What `seat` must put in now to stay in the betting round: ("entry", chips) while
    nobody came in over the blinds (coming in is a raise to the entry price), else ("call",
    chips), up to its stack; ("check", 0) when nothing is owed."""
    if view.entry > 0:
        return "entry", max(0, min(view.entry - view.stakes[seat], view.stacks[seat]))
    chips = max(0, min(view.highest - view.stakes[seat], view.stacks[seat]))
    return ("call", chips) if chips else ("check", 0)


def turn_lines(view: DrawView, facts: Facts, lang: str) -> tuple[str, ...]:
    """The phase of the deal (surblind, betting before or after the draw, the draw, rebuys)
    and, in a betting round, what the seat to act owes."""
    if view.finished or view.phase not in PHASES:
        return ()
    phase = word(f"draw.phase.{view.phase}", lang)
    if view.phase in ("bet1", "bet2") and view.to_act is not None:
        kind, chips = owed(view, view.to_act)
        return phase, owed_line(facts.name(view.to_act), chips, lang, kind)
    return (phase,)


PHASES = ("surblind", "bet1", "draw", "bet2", "rebuy")


def board(view: DrawView, facts: Facts, lang: str) -> PokerTable:
    """The table picture of a public draw poker view; at the match's end each seat shows
    its net (chips held minus chips bought: what ranks it), the leaders framed in gold."""
    dealt = view.phase not in ("surblind", "rebuy") and not view.finished
    best = max(view.stacks[s] - view.bought[s] for s in range(view.seats))
    leaders = {s for s in range(view.seats) if view.stacks[s] - view.bought[s] == best}
    seats = tuple(
        PokerSeat(
            name=facts.name(seat),
            stack=view.stacks[seat],
            bet=view.stakes[seat],
            tags=_tags(view, seat, facts),
            marks=_marks(view, seat),
            holding=5 if dealt and view.in_deal[seat] and not view.folded[seat] else 0,
            drew=None if view.finished else view.drawn[seat],
            to_act=view.to_act == seat and not view.finished,
            seconds=facts.seconds if view.to_act == seat else None,
            winner=view.finished and seat in leaders,
            net=view.stacks[seat] - view.bought[seat] if view.finished else None,
            notes=(
                word("alt.bought", lang, n=view.bought[seat]),
                word("alt.in_deal", lang, n=view.stakes[seat] + view.put_in[seat]),
            ),
        )
        for seat in range(view.seats)
    )
    live = tuple(facts.name(s) for s in range(view.seats) if view.in_deal[s] and not view.folded[s])
    pots = ((word("pot.main", lang), view.pot, live),) if view.pot else ()
    banner = ""
    if view.finished:
        banner = word("over", lang, names=join_names(facts.name(s) for s in sorted(leaders)))
    header = word("draw.header", lang, deal=view.deal, kind=_kind(view, lang))
    return PokerTable(
        lang=lang,
        header=header,
        seats=seats,
        pots=pots,
        stakes=(word("draw.net", lang),) if view.finished else stakes(view, facts, lang),
        banner=banner,
    )


def result(events: Sequence[Event], view: Any, facts: Facts, lang: str) -> Sheet | None:
    """A deal's result: each hand shown with its name, who won each pot, a pot carried to
    the next deal or handed back; None when there is nothing of that."""
    shown: dict[int, Shown] = {}
    won: dict[int, int] = {}
    pots: list[str] = []
    for event in events:
        if isinstance(event, Shown):
            shown[event.seat] = event
        elif isinstance(event, PotWon):
            pot = pot_text(word("pot.main", lang), event.amount)
            pots.append(word("pot_won", lang, pot=pot, names=facts.name(event.seat)))
            won[event.seat] = won.get(event.seat, 0) + event.amount
        elif isinstance(event, Carried):
            pots.append(word("draw.carried", lang, n=event.amount))
        elif isinstance(event, PotReturned) and any(event.amounts):
            pots.append(word("draw.returned", lang, n=sum(event.amounts)))
    if not pots:
        return None
    rows = tuple(
        SheetRow(
            name=facts.name(seat),
            cards=tuple(shown[seat].cards) if seat in shown else (),
            label=hand_name(hand_value(shown[seat].cards), lang) if seat in shown else "",
            figure=f"+{won[seat]:,}" if seat in won else "",
            winner=seat in won,
        )
        for seat in sorted(set(shown) | set(won))
    )
    deal = settled_deal(events, view.deal if isinstance(view, DrawView) else 0)
    return Sheet(
        lang=lang, title=word("draw.result_header", lang, deal=deal), rows=rows, pots=tuple(pots)
    )
