"""The result picture every game shares (a deal's result message): a title, the cards in
the middle (hold'em's board, Big Two's last play) with what they are, then one row per
seat (name, the cards it showed or the backs it still holds, the hand's name, what it won
or paid), the winners framed in gold, and each pot with who won it.

Drawn from a result's public events only; `Sheet.alt` says it in words."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from bot.pictures.cards import MINI, SMALL, TABLE
from bot.pictures.fonts import text_width
from bot.pictures.kit import (
    BACKGROUND,
    MUTED,
    PHONE_WIDTH,
    PLATE,
    PLATE_DIM,
    PLATE_EDGE,
    POT_BG,
    TEXT,
    TURN,
    WIN,
    Canvas,
    pill,
    row,
)
from bot.pictures.model import cards_text, fit_alt, word
from engines.cards import Card

POT_SIZE = 23
LABEL_SIZE = 23
WIDTH = PHONE_WIDTH
MARGIN = 10
TITLE_H = 44
ROW_H = 40 + SMALL.height + 14
"""A seat's row: its name and figure on a line, its cards and the hand's name under it."""
BARE_ROW_H = 50
"""A row with only a name and a figure (nothing shown, nothing left)."""


def row_height(line: SheetRow) -> int:
    """How tall `line`'s row is."""
    return ROW_H if line.cards or line.backs or line.label else BARE_ROW_H


MIDDLE_H = TABLE.height + 48
POTS_H = 44
CARDS_X = MARGIN + 14


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One seat's line: its name, the cards it showed (face up), the backs it still holds
    (a count), the hand's name, what it won or paid (`figure`), and if it won."""

    name: str
    cards: tuple[Card, ...] = ()
    backs: int = 0
    label: str = ""
    figure: str = ""
    winner: bool = False
    dim: bool = False


@dataclass(frozen=True, slots=True)
class Sheet:
    """A result picture in the reader's language `lang` (see the module docstring)."""

    lang: str
    title: str
    rows: tuple[SheetRow, ...]
    middle: tuple[Card, ...] = ()
    middle_label: str = ""
    pots: tuple[str, ...] = ()

    def height(self) -> int:
        """The picture's height for its rows."""
        middle = MIDDLE_H if self.middle else 0
        rows = sum(row_height(line) for line in self.rows)
        return TITLE_H + middle + rows + POTS_H * len(self.pot_lines()) + MARGIN

    def pot_lines(self) -> list[list[str]]:
        """The pots' labels, as many to a line as fit in the picture's width."""
        lines: list[list[str]] = []
        room = 0
        for text in self.pots:
            width = text_width(text, POT_SIZE, True) + POT_SIZE + 8
            if not lines or width > room:
                lines.append([])
                room = WIDTH - 2 * MARGIN
            lines[-1].append(text)
            room -= width
        return lines

    def draw(self) -> Canvas:
        """The picture."""
        canvas = Canvas(Image.new("RGB", (WIDTH, self.height()), BACKGROUND))
        canvas.text((MARGIN, 12), self.title, 26, TEXT, condensed=True, width=WIDTH - 2 * MARGIN)
        y = TITLE_H
        if self.middle:
            canvas.draw.rounded_rectangle(
                (MARGIN, y, WIDTH - MARGIN, y + MIDDLE_H - 8), 14, fill=(24, 100, 60)
            )
            row(canvas, self.middle, TABLE, (WIDTH / 2, y + 8 + TABLE.height / 2))
            if self.middle_label:
                canvas.text(
                    (WIDTH / 2, y + MIDDLE_H - 22),
                    self.middle_label,
                    LABEL_SIZE,
                    TEXT,
                    anchor="mm",
                    condensed=True,
                    width=WIDTH - 4 * MARGIN,
                )
            y += MIDDLE_H
        for line in self.rows:
            self._row(canvas, line, y)
            y += row_height(line)
        for pots in self.pot_lines():
            x = MARGIN
            for text in pots:
                box = pill(canvas, (x, y + POTS_H / 2), text, POT_SIZE, POT_BG, TURN, anchor="l")
                x = box[2] + 8
            y += POTS_H
        return canvas

    @staticmethod
    def _row(canvas: Canvas, line: SheetRow, y: int) -> None:
        box = (MARGIN, y + 4, WIDTH - MARGIN, y + row_height(line) - 6)
        canvas.draw.rounded_rectangle(
            box,
            12,
            fill=PLATE_DIM if line.dim else PLATE,
            outline=WIN if line.winner else PLATE_EDGE,
            width=4 if line.winner else 2,
        )
        ink = MUTED if line.dim else TEXT
        right = WIDTH - MARGIN - 14
        top = box[1] + 20
        figure_w = text_width(line.figure, 26) + 12 if line.figure else 0
        canvas.text(
            (MARGIN + 14, top),
            line.name,
            24,
            ink,
            anchor="lm",
            condensed=True,
            width=right - MARGIN - 14 - figure_w,
        )
        if line.figure:
            canvas.text((right, top), line.figure, 26, TURN if line.winner else ink, anchor="rm")
        mid = box[1] + 38 + SMALL.height / 2
        x = CARDS_X
        if line.cards:
            step = SMALL.width + 4 if len(line.cards) <= 2 else SMALL.step
            width = SMALL.width + step * (len(line.cards) - 1)
            row(canvas, line.cards, SMALL, (x + width / 2, mid), step=step)
            x += width + 14
        elif line.backs:
            step = 12
            width = MINI.width + step * (line.backs - 1)
            row(canvas, [None] * line.backs, MINI, (x + width / 2, mid), step=step)
            canvas.text((x + width + 10, mid), str(line.backs), 26, TEXT, anchor="lm")
            x += width + 52
        if line.label:
            lines = _two_lines(line.label, LABEL_SIZE, right - x)
            for i, text in enumerate(lines):
                at = (x, mid + (i - (len(lines) - 1) / 2) * (LABEL_SIZE + 6))
                canvas.text(at, text, LABEL_SIZE, ink, anchor="lm", condensed=True, width=right - x)

    def alt(self) -> str:
        """The result in words: the title, the middle cards, each row, the pots."""
        parts = [self.title + "."]
        if self.middle:
            label = f" ({self.middle_label})" if self.middle_label else ""
            parts.append(f"{cards_text(self.middle)}{label}.")
        for line in self.rows:
            facts = []
            if line.cards:
                facts.append(cards_text(line.cards))
            if line.backs:
                facts.append(word("alt.cards_left", self.lang, n=line.backs))
            if line.label:
                facts.append(line.label)
            if line.figure:
                facts.append(line.figure)
            if line.winner:
                facts.append(word("alt.winner", self.lang))
            parts.append(f"{line.name}: {', '.join(facts) or '—'}.")
        parts.extend(text + "." for text in self.pots)
        return fit_alt(parts)


def _two_lines(text: str, size: int, width: int) -> list[str]:
    """`text` on one line if it fits in `width`, else cut at a word into two."""
    if text_width(text, size, True) <= width or " " not in text:
        return [text]
    words = text.split(" ")
    first = words[0]
    for i in range(1, len(words)):
        longer = " ".join(words[: i + 1])
        if text_width(longer, size, True) > width:
            break
        first = longer
    return [first, text[len(first) :].strip()]
