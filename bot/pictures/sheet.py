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

WIDTH = 720
MARGIN = 14
TITLE_H = 46
ROW_H = 96
MIDDLE_H = TABLE.height + 48
POTS_H = 44
NAME_W = 160
CARDS_X = MARGIN + NAME_W + 12


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
        return TITLE_H + middle + ROW_H * len(self.rows) + POTS_H * len(self.pot_lines()) + MARGIN

    def pot_lines(self) -> list[list[str]]:
        """The pots' labels, as many to a line as fit in the picture's width."""
        lines: list[list[str]] = []
        room = 0
        for text in self.pots:
            width = text_width(text, 22, True) + 22 + 8
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
                    20,
                    TEXT,
                    anchor="mm",
                    condensed=True,
                    width=WIDTH - 4 * MARGIN,
                )
            y += MIDDLE_H
        for line in self.rows:
            self._row(canvas, line, y)
            y += ROW_H
        for pots in self.pot_lines():
            x = MARGIN
            for text in pots:
                box = pill(canvas, (x, y + POTS_H / 2), text, 22, POT_BG, TURN, anchor="l")
                x = box[2] + 8
            y += POTS_H
        return canvas

    @staticmethod
    def _row(canvas: Canvas, line: SheetRow, y: int) -> None:
        box = (MARGIN, y + 4, WIDTH - MARGIN, y + ROW_H - 6)
        canvas.draw.rounded_rectangle(
            box,
            12,
            fill=PLATE_DIM if line.dim else PLATE,
            outline=WIN if line.winner else PLATE_EDGE,
            width=4 if line.winner else 2,
        )
        mid = (box[1] + box[3]) / 2
        ink = MUTED if line.dim else TEXT
        canvas.text(
            (MARGIN + 14, mid), line.name, 24, ink, anchor="lm", condensed=True, width=NAME_W
        )
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
        right = WIDTH - MARGIN - 14
        if line.figure:
            canvas.text((right, mid), line.figure, 26, TURN if line.winner else ink, anchor="rm")
        if line.label:
            canvas.text(
                (x, mid), line.label, 20, ink, anchor="lm", condensed=True, width=right - x - 84
            )

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
