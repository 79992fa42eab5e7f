"""How a deal's or a match's result reads: the lines of the events that ended it, each
seat's net amount or penalty as the ledger sums it, the final standings and the line
that reveals the match's seeds (Discord's result posts)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import t
from bot.render import GameRenderer, get_renderer
from bot.render.fair import fair_line
from bot.render.runtime_events import RuntimeWording, runtime_line, seat_label
from bot.runtime import TableSnapshot
from engines.base import DealSettled, Event, MatchEnded


def renderer_of(table: TableSnapshot) -> GameRenderer | None:
    """The renderer of `table`'s game (None: a game without one)."""
    try:
        return get_renderer(table.game)
    except ImportError:
        return None


def result_text(
    table: TableSnapshot,
    events: Sequence[Event],
    names: Sequence[str],
    lang: str,
    wording: RuntimeWording,
) -> str:
    """The text of a deal's or the match's result from the `events` that ended it: their
    lines (the last play, hands shown, pots won, chips returned; the runtime's own as
    `wording` says them), then each seat's net amount in the deal exactly as the ledger
    sums it, or the final standings and the line that reveals the match's seeds."""
    renderer = renderer_of(table)
    lines: list[str] = []
    settled = [e for e in events if isinstance(e, DealSettled)]
    ended = [e for e in events if isinstance(e, MatchEnded)]
    for event in events:
        if isinstance(event, MatchEnded):
            continue
        line = renderer.event(event, names, lang) if renderer else None
        if line is None:
            line = runtime_line(event, names, lang, renderer, wording)
        if line is not None:
            lines.append(line)
    if settled:
        lines.append(settled_line(settled, names, lang))
    for end in ended:
        line = renderer.event(end, names, lang) if renderer else None
        if line is not None:
            lines.append(line)
        lines.append(standings_line(table, end, names, lang))
        revealed = fair_line(end, lang, table.game)  # the match's seeds, now public
        if revealed is not None:
            lines.append(revealed)
    return "\n".join(lines)


def settled_line(settled: Sequence[DealSettled], names: Sequence[str], lang: str) -> str:
    """Each seat's chip change (signed) or penalty in the deal, summed over its settlements:
    the ledger's rows (a seat dealt in, even at zero; a seat left out only if chips came
    back to it)."""
    if any(event.chips is not None for event in settled):
        size = max(len(event.chips or ()) for event in settled)
        totals = [
            sum((e.chips or ())[s] if s < len(e.chips or ()) else 0 for e in settled)
            for s in range(size)
        ]
        dealt = [any(e.was_dealt(s) and e.chips is not None for e in settled) for s in range(size)]
        parts = [
            f"{seat_label(names, s)} {amount:+d}"
            for s, amount in enumerate(totals)
            if dealt[s] or amount
        ]
        return t("discord.result.net", lang, amounts=" · ".join(parts))
    event = settled[-1]
    parts = [f"{seat_label(names, s)} {amount}" for s, amount in enumerate(event.penalties or ())]
    return t("discord.result.penalties", lang, amounts=" · ".join(parts))


def standings_line(table: TableSnapshot, event: MatchEnded, names: Sequence[str], lang: str) -> str:
    """Seats ranked by their final totals (lowest penalty first in a penalty game)."""
    low_wins = table.spec.scoring == "penalty"
    order = sorted(
        range(len(event.totals)), key=lambda s: event.totals[s] if low_wins else -event.totals[s]
    )
    parts = [f"{rank}. {seat_label(names, s)} {event.totals[s]}" for rank, s in enumerate(order, 1)]
    return t("discord.result.standings", lang, standings="\n".join(parts))
