"""The poker table picture hold'em and draw poker share, made to be read on a phone: the
felt with the board (hold'em), the pots and side pots and the table's stakes, then the
seats' plates in play order, two to a row (name, stack, cards held as small backs, and
as tags: the dealer button and blinds, the bet with a chip, folded / all-in / away / out,
how many cards were drawn), the seat to act framed in gold with its time left.
`PokerTable` is what is drawn: built by `bot.pictures.holdem` or `bot.pictures.draw` from
the spectator view only; its alt text says the same in words.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import join_names
from bot.pictures.cards import TABLE
from bot.pictures.fonts import fit, text_width
from bot.pictures.kit import (
    CHIP,
    DISC,
    MARGIN,
    PHONE_WIDTH,
    TAG_ALL_IN,
    TAG_AWAY,
    TAG_FOLD,
    TEXT,
    TURN,
    Canvas,
    Colour,
    Plate,
    pill,
    row,
    seat_grid,
    slots,
    table_canvas,
)
from bot.pictures.kit import POT_BG as POT
from bot.pictures.model import ALT_LIMIT, cards_text, fit_alt, pot_text, to_act_words, word
from engines.cards import Card

TAG_COLOURS = {"fold": TAG_FOLD, "allin": TAG_ALL_IN, "away": TAG_AWAY, "out": TAG_FOLD}
POT_SIZE = 23
LINE_SIZE = 23
STAKES_WIDTH = PHONE_WIDTH - 2 * (MARGIN + 14) - 24
"""How wide a stakes line on the felt may be."""


def owed_line(seat_name: str, chips: int, lang: str, kind: str = "") -> str:
    """The felt's line of what the seat to act owes: "Ann to call 40", "Nothing for Ann to
    call", (`kind` "entry") "Entry for Ann: 40"; a long name is shortened so that the
    line's figure always shows."""
    key = f"owed.{kind or ('call' if chips else 'check')}"
    line = word(key, lang, name=seat_name, n=chips)
    over = text_width(line, LINE_SIZE, True) - STAKES_WIDTH
    if over > 0:
        room = max(48, text_width(seat_name, LINE_SIZE, True) - over)
        line = word(key, lang, name=fit(seat_name, LINE_SIZE, room, True), n=chips)
    return line


@dataclass(frozen=True, slots=True)
class PokerSeat:
    """One seat as the picture shows it (public facts only)."""

    name: str
    stack: int
    bet: int = 0
    tags: tuple[str, ...] = ()
    """Status keys, in order: fold, allin, away, out."""
    marks: tuple[str, ...] = ()
    """Disc keys: dealer, small_blind, big_blind (hold'em), blind, surblind (draw)."""
    holding: int = 0
    """Cards held face down (drawn as small backs)."""
    drew: int | None = None
    to_act: bool = False
    seconds: int | None = None
    winner: bool = False
    notes: tuple[str, ...] = ()
    """Facts the alt text says after the others, in words (draw: chips bought, put in)."""
    net: int | None = None
    """The figure that ranks the seat at the match's end where it is not the stack (draw:
    chips held minus chips bought), shown signed instead of the stack."""


@dataclass(frozen=True, slots=True)
class PokerTable:
    """A poker table picture: header, board cards (with `slots` places), pots, stakes lines,
    seats, an end-of-match banner, in the reader's language `lang`."""

    lang: str
    header: str
    seats: tuple[PokerSeat, ...]
    board: tuple[Card, ...] = ()
    slots: int = 0
    pots: tuple[tuple[str, int, tuple[str, ...]], ...] = ()
    """(label, amount, the names of the seats that may win it)."""
    stakes: tuple[str, ...] = ()
    banner: str = ""

    def draw(self) -> Canvas:
        """The picture."""
        return draw_table(self)

    def alt(self) -> str:
        """The picture in words."""
        return table_alt(self)


def _pot_lines(table: PokerTable) -> list[list[str]]:
    """The pots' labels, as many to a line as fit on the felt."""
    lines: list[list[str]] = []
    room = 0
    for label, amount, _ in table.pots:
        text = pot_text(label, amount)
        width = text_width(text, POT_SIZE, True) + POT_SIZE + 8
        if not lines or width > room:
            lines.append([])
            room = PHONE_WIDTH - 80
        lines[-1].append(text)
        room -= width
    return lines


def seat_plate(seat: PokerSeat, lang: str) -> Plate:
    """What `seat`'s plate shows: name, stack, then its discs (dealer, blinds), its bet,
    its status and how many cards it drew, as tags."""
    tags: list[tuple[str, Colour]] = [(word(f"mark.{mark}", lang), DISC) for mark in seat.marks]
    if seat.bet:
        tags.append((f"{seat.bet:,}", CHIP))
    tags += [(word(f"tag.{tag}", lang), TAG_COLOURS[tag]) for tag in seat.tags]
    if seat.drew is not None:
        tags.append((word("drew", lang, n=seat.drew), POT))
    return Plate(
        seat.name,
        f"{seat.stack:,}" if seat.net is None else f"{seat.net:+,}",
        tuple(tags),
        seat.to_act,
        seat.seconds,
        dim="fold" in seat.tags or "out" in seat.tags,
        winner=seat.winner,
        lang=lang,
    )


def draw_table(table: PokerTable) -> Canvas:
    """The picture of `table`: the header, the felt (the board, the pots, the stakes, the
    end-of-match banner), then the seats' plates in play order, two to a row."""
    lang = table.lang
    plates = [seat_plate(seat, lang) for seat in table.seats]
    pot_lines = _pot_lines(table)
    inner = 16 + (TABLE.height + 14 if table.slots else 0) + 40 * len(pot_lines)
    inner += 28 * len(table.stakes) + (48 if table.banner else 0)
    backs = [seat.holding for seat in table.seats]
    canvas, box, plates_top = table_canvas(table.header, max(inner, 60), plates, backs)
    mid_x = PHONE_WIDTH / 2
    y = box[1] + 12 if inner > 60 else box[1] + (box[3] - box[1] - inner) / 2 + 12
    if table.slots:
        board_y = y + TABLE.height / 2
        slots(canvas, table.slots, TABLE, (mid_x, board_y))
        if table.board:
            left = mid_x - (TABLE.width * table.slots + 6 * (table.slots - 1)) / 2
            width = TABLE.width * len(table.board) + 6 * (len(table.board) - 1)
            row(canvas, table.board, TABLE, (left + width / 2, board_y))
        y += TABLE.height + 14
    for line in pot_lines:
        widths = [text_width(text, POT_SIZE, True) + POT_SIZE + 8 for text in line]
        x = mid_x - sum(widths) / 2
        for text, w in zip(line, widths, strict=True):
            pill(canvas, (x + w / 2, y + 18), text, POT_SIZE, POT, TURN)
            x += w
        y += 40
    for stake in table.stakes:
        canvas.text(
            (mid_x, y + 14),
            stake,
            LINE_SIZE,
            TEXT,
            anchor="mm",
            condensed=True,
            width=box[2] - box[0] - 24,
        )
        y += 28
    if table.banner:
        pill(canvas, (mid_x, y + 24), table.banner, POT_SIZE, TURN, (0, 0, 0))
    seat_grid(canvas, plates_top, plates, backs)
    return canvas


def table_alt(table: PokerTable) -> str:
    """The alt text of `table`: board cards, pots, stakes, then each seat in order (the
    pots without who may win them when the whole would not fit Discord's limit: every
    seat's figures go first)."""
    full = _alt_parts(table, with_names=True)
    if len(" ".join(full)) <= ALT_LIMIT:
        return fit_alt(full)
    return fit_alt(_alt_parts(table, with_names=False))


def _alt_parts(table: PokerTable, *, with_names: bool) -> list[str]:
    lang = table.lang
    parts = [table.header + "."]
    if table.slots:
        board = cards_text(table.board) if table.board else word("alt.no_board", lang)
        parts.append(word("alt.board", lang, cards=board))
    if table.pots:
        pots = "; ".join(
            word("alt.pot_for", lang, pot=pot_text(label, amount), names=join_names(names))
            if with_names
            else pot_text(label, amount)
            for label, amount, names in table.pots
        )
        parts.append(word("alt.pots", lang, pots=pots))
    parts.extend(line + "." for line in table.stakes)
    if table.banner:
        parts.append(table.banner + ".")
    for seat in table.seats:
        facts = [word("alt.stack", lang, n=seat.stack)]
        if seat.net is not None:
            facts.insert(0, word("alt.net", lang, n=f"{seat.net:+,}"))
        if seat.bet:
            facts.append(word("alt.bet", lang, n=seat.bet))
        facts += [word(f"alt.mark.{mark}", lang) for mark in seat.marks]
        facts += [word(f"alt.tag.{tag}", lang) for tag in seat.tags]
        if seat.drew is not None:
            facts.append(word("alt.drew", lang, n=seat.drew))
        facts += seat.notes
        if seat.to_act:
            facts.append(to_act_words(seat.seconds, lang))
        if seat.winner:
            facts.append(word("alt.winner", lang))
        parts.append(f"{seat.name}: {', '.join(facts)}.")
    return parts
