"""Draw a picture of a Big Two board as Discord shows it (for the README: docs/board.png).

    python -m bot.discord.preview docs/board.png

It plays a few turns of a seeded all-AI deal, builds the board exactly as the
bot posts it (`board.board_message` from the spectator view) and paints the
message, the embed, the card image and the buttons. It needs a TrueType font
with the suit symbols (DejaVu Sans is used when installed).
"""

from __future__ import annotations

import io
import random
import sys
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.discord.board import board_message, table_cards
from bot.discord.images import cards_png
from bot.render import get_renderer
from bot.runtime import Player, Seat, TableOptions, TableSnapshot
from engines.base import GameState
from engines.registry import GameSpec, get_game

BG = (49, 51, 56)
EMBED_BG = (43, 45, 49)
TEXT = (219, 222, 225)
MUTED = (148, 155, 164)
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


@dataclass
class SampleTable:
    """A sample deal (engine state and seats) that `snapshot()` freezes like the runtime."""

    state: GameState[Any, Any]
    seats: list[Seat]
    id: int = 7
    game: str = "bigtwo"
    turn: int = 0
    deal: int = 1
    deadline: float | None = None
    deadline_turn: int | None = None
    recent: list[str] = field(default_factory=list)

    @property
    def to_act(self) -> int | None:
        """The seat to act."""
        seat: int | None = self.state.to_act
        return seat

    @property
    def spec(self) -> GameSpec:
        """The game's spec."""
        return get_game(self.game)

    def view(self, seat: int | None) -> Any:
        """The engine's view of `seat` (None: a spectator)."""
        return self.state.view(seat)

    def snapshot(self, seat: int | None = None) -> TableSnapshot:
        """The sample frozen as the runtime hands tables to fronts."""
        return TableSnapshot(
            id=self.id,
            guild="1",
            place="2",
            game=self.game,
            spec=self.spec,
            options=TableOptions(),
            seats=tuple(self.seats),
            status="playing",
            turn=self.turn,
            deal=self.deal,
            deadline=self.deadline,
            deadline_turn=self.deadline_turn,
            to_act=self.to_act,
            public_view=self.state.view(None),
            seat=seat,
            seat_view=None if seat is None else self.state.view(seat),
        )


def _font(path: str, size: int) -> Any:
    try:
        return ImageFont.truetype(path, size)
    except OSError:
        return ImageFont.load_default(size=size)


def sample_table(seed: int = 4, turns: int = 9) -> SampleTable:
    """A seeded deal a few turns in, one human (seat 1) and three AI players."""
    spec = get_game("bigtwo")
    state = spec.new_state(spec.make_config(deals=4), random.Random(seed))
    rng = random.Random(seed)
    names = ["Ana", "strong AI 2", "strong AI 3", "strong AI 4"]
    seats = [Seat(0, Player("111", "Ana"), "strong", "Ana")]
    seats += [Seat(i, None, "strong", n) for i, n in enumerate(names) if i]
    badged = [("🤖 " if s.ai_plays else "") + s.name for s in seats]
    renderer = get_renderer("bigtwo")
    recent: list[str] = []
    for _ in range(turns):
        seat = state.to_act
        assert seat is not None
        for event in state.apply(seat, spec.make_policy("greedy", rng).decide(state.view(seat))):
            line = renderer.event(event, badged, "en") if event.to is None else None
            if line:
                recent.append(line)
    return SampleTable(state, seats, turn=turns, recent=recent[-3:])


def draw(table: SampleTable) -> Image.Image:
    """Paint the board message of `table`."""
    shown = table.snapshot()
    message = board_message(shown, "en", table.recent, with_image=True)
    embed = message["embed"]
    cards = Image.open(io.BytesIO(cards_png(table_cards(shown)))) if "file" in message else None
    regular, bold, small = _font(FONT, 17), _font(BOLD, 18), _font(FONT, 14)
    width = 760
    lines = _plain(embed.description or "").splitlines()
    fields = [(f.name, _plain(f.value or "").splitlines()) for f in embed.fields]
    height = 120 + 24 * len(lines) + sum(30 + 22 * len(v) for _, v in fields)
    height += (cards.height + 20 if cards else 0) + 90
    canvas = Image.new("RGB", (width, height), BG)
    pen = ImageDraw.Draw(canvas)
    pen.ellipse((16, 14, 56, 54), fill=(21, 94, 56))
    pen.text((26, 22), "♠", font=bold, fill=TEXT)
    pen.text((70, 14), "Deucebot", font=bold, fill=TEXT)
    pen.text((160, 17), "APP", font=small, fill=(88, 101, 242))
    content = _plain(message["content"] or "").replace("<@111>", "@Ana")
    pen.text((70, 40), content, font=regular, fill=TEXT)
    top = 72
    pen.rounded_rectangle((70, top, width - 20, height - 70), 6, fill=EMBED_BG)
    pen.rectangle((70, top, 74, height - 70), fill=(21, 94, 56))
    y = top + 12
    pen.text((88, y), embed.title or "", font=bold, fill=TEXT)
    y += 30
    for line in lines:
        pen.text((88, y), line, font=regular, fill=TEXT)
        y += 24
    for name, values in fields:
        y += 8
        pen.text((88, y), name, font=bold, fill=TEXT)
        y += 24
        for value in values:
            pen.text((88, y), value, font=regular, fill=TEXT)
            y += 22
    if cards is not None:
        canvas.paste(cards, (88, y + 10))
        y += cards.height + 20
    pen.text((88, y + 4), embed.footer.text or "", font=small, fill=MUTED)
    x = 70
    for label, colour in (("My hand", (88, 101, 242)), ("Pass", (78, 80, 88))):
        w = int(pen.textlength(label, font=regular)) + 28
        pen.rounded_rectangle((x, height - 56, x + w, height - 20), 4, fill=colour)
        pen.text((x + 14, height - 48), label, font=regular, fill=(255, 255, 255))
        x += w + 10
    return canvas


def _plain(text: str) -> str:
    """Text the font can draw: the robot badge becomes a gear (no colour emoji font)."""
    return text.replace("🤖", "⚙")


def main(argv: list[str] | None = None) -> int:
    """Write the picture to the path given (default docs/board.png)."""
    args = sys.argv[1:] if argv is None else argv
    path = args[0] if args else "docs/board.png"
    draw(sample_table()).save(path)
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
