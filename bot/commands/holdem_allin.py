"""All-in EV adjustment for measuring hold'em players (a variance reduction; no decision
changes).

When the betting is over before the river because everyone still in the hand but at most
one is all-in, the rest of the board is dealt without a choice left to anyone. The
run-out's luck is then pure noise in a measurement: `HandTally` credits a seat, instead of
what the run-out gave it, its expected result over every run-out the unseen cards allow
(every board exactly on the flop and turn, `PREFLOP_BOARDS` boards drawn at random when
all-in before the flop), paid pot by pot exactly as the engine pays (side pots, ties, odd
chips). Every hole card of the hand is known to the tally (the engine's `HoleCards`
events), so the unseen cards are uniformly distributed and the expectation is exact: the
adjusted figure has the same mean as the raw one and a smaller spread.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engines.base import DealSettled, DealStarted, Event
from engines.cards import FULL_DECK, Card
from engines.holdem import BoardDealt, HoleCards, PlayerActed, PotAwarded, Showdown
from engines.poker.pots import best_of, build_pots, odd_chip_order, payouts, settle
from engines.poker.ranking import rank_hand

PREFLOP_BOARDS = 1000
"""Boards sampled for an all-in before the flop (the flop and turn are enumerated)."""


def allin_expectation(
    seat: int,
    holes: dict[int, tuple[Card, ...]],
    live: Sequence[int],
    board: Sequence[Card],
    invested: Sequence[int],
    button: int,
    rng: random.Random,
) -> float:
    """`seat`'s expected net chips over the rest of the board: `holes` are every dealt
    seat's cards (folded ones included, as dead cards), `live` the seats at showdown,
    `board` the cards out when the betting ended, `invested` each seat's chips in the pot."""
    n = len(invested)
    alive = [s in live for s in range(n)]
    pots = build_pots(list(invested), alive)
    order = odd_chip_order(button, n)
    seen = set(board).union(*holes.values())
    unseen = [c for c in FULL_DECK if c not in seen]
    need = 5 - len(board)
    runouts: Iterable[Sequence[Card]]
    if need <= 2:
        runouts = itertools.combinations(unseen, need)
    else:
        runouts = (rng.sample(unseen, need) for _ in range(PREFLOP_BOARDS))
    total = 0
    count = 0
    for extra in runouts:
        full = [*board, *extra]
        values = {s: int(rank_hand([*holes[s], *full])) for s in live}
        total += payouts(settle(pots, best_of(values), order), n)[seat]
        count += 1
    return total / count - invested[seat]


@dataclass
class HandTally:
    """Reads a match's events in order and gives `seat`'s result of each finished hand,
    raw (the chips the engine paid) and all-in adjusted (see the module docstring)."""

    seat: int
    rng: random.Random
    raw: list[int] = field(default_factory=list)
    adjusted: list[float] = field(default_factory=list)
    _button: int = 0
    _holes: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    _board: list[Card] = field(default_factory=list)
    _known: int | None = None
    _live: list[int] = field(default_factory=list)
    _paid: dict[int, int] = field(default_factory=dict)

    def feed(self, events: Iterable[Event]) -> None:
        """Take the next events of the match (every event, private ones included)."""
        for event in events:
            if isinstance(event, DealStarted):
                self._button = event.dealer
                self._holes, self._board, self._known = {}, [], None
                self._live, self._paid = [], {}
            elif isinstance(event, HoleCards):
                self._holes[event.seat] = event.cards
            elif isinstance(event, PlayerActed):
                self._known = None
            elif isinstance(event, BoardDealt):
                if self._known is None:  # the first card dealt with no action since
                    self._known = len(self._board)
                self._board = list(event.board)
            elif isinstance(event, Showdown):
                self._live = [hand.seat for hand in event.hands]
            elif isinstance(event, PotAwarded):
                for winner, share in zip(event.winners, event.shares, strict=True):
                    self._paid[winner] = self._paid.get(winner, 0) + share
            elif isinstance(event, DealSettled) and event.to is None and event.chips:
                self._settled(event.chips)

    def _settled(self, chips: Sequence[int]) -> None:
        mine = chips[self.seat]
        self.raw.append(mine)
        if self._known is None or self.seat not in self._live:
            self.adjusted.append(float(mine))
            return
        invested = [self._paid.get(s, 0) - chips[s] for s in range(len(chips))]
        board = self._board[: self._known]
        self.adjusted.append(
            allin_expectation(
                self.seat, self._holes, self._live, board, invested, self._button, self.rng
            )
        )
