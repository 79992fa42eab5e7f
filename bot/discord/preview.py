"""A sample Big Two table for tests and docs: a seeded all-AI deal a few turns in, frozen
as the runtime hands tables to fronts (`SampleTable.snapshot`). The pictures people see are
drawn by `bot.pictures` (`deucebot gallery DIR` draws every game's).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bot.render import get_renderer
from bot.runtime import Player, Seat, TableOptions, TableSnapshot
from engines.base import GameState
from engines.registry import DEFAULT_GAME, GameSpec, get_game


@dataclass
class SampleTable:
    """A sample deal (engine state and seats) that `snapshot()` freezes like the runtime."""

    state: GameState[Any, Any]
    seats: list[Seat]
    id: int = 7
    game: str = DEFAULT_GAME
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


def sample_table(seed: int = 4, turns: int = 9) -> SampleTable:
    """A seeded deal a few turns in, one human (seat 1) and three AI players."""
    spec = get_game(DEFAULT_GAME)
    state = spec.new_state(spec.make_config(deals=4), random.Random(seed))
    rng = random.Random(seed)
    names = ["Ana", "strong AI 2", "strong AI 3", "strong AI 4"]
    seats = [Seat(0, Player("111", "Ana"), "strong", "Ana")]
    seats += [Seat(i, None, "strong", n) for i, n in enumerate(names) if i]
    badged = [("🤖 " if s.ai_plays else "") + s.name for s in seats]
    renderer = get_renderer(DEFAULT_GAME)
    recent: list[str] = []
    for _ in range(turns):
        seat = state.to_act
        assert seat is not None
        for event in state.apply(seat, spec.make_policy("greedy", rng).decide(state.view(seat))):
            line = renderer.event(event, badged, "en") if event.to is None else None
            if line:
                recent.append(line)
    return SampleTable(state, seats, turn=turns, recent=recent[-3:])
