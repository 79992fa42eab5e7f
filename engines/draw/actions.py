"""Draw poker actions: small frozen dataclasses whose `str()` is the canonical text.

Canonical texts: ``surblind``, ``no``, ``open 4``, and the shared poker
betting actions of `engines.poker.actions` (``check``, ``call``, ``bet 6``,
``raise 12``, ``allin``, ``fold``; amounts are the player's total stake for the
betting round), ``draw 1 3 4`` (1-based positions in the hand as the view
lists it), ``stand``, ``rebuy 1``, ``sitout``. `parse_action` reads them back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engines.base import IllegalAction
from engines.numbers import DIGITS
from engines.poker.actions import (
    AMOUNT_DIGITS,
    BETTING_WORDS,
    AllIn,
    Bet,
    BettingAction,
    Call,
    Check,
    Fold,
    Raise,
    parse_betting_action,
)

HAND_SIZE = 5
"""Cards in a draw poker hand; the draw names them by position 1 to 5."""

__all__ = [
    "STAND",
    "AllIn",
    "Bet",
    "BettingAction",
    "Call",
    "Check",
    "Draw",
    "DrawAction",
    "Fold",
    "NoSurblind",
    "Open",
    "Raise",
    "Rebuy",
    "SitOut",
    "Surblind",
    "parse_action",
]


@dataclass(frozen=True, slots=True)
class Surblind:
    """Double the blind, before looking at one's cards."""

    def __str__(self) -> str:
        return "surblind"


@dataclass(frozen=True, slots=True)
class NoSurblind:
    """Decline the surblind."""

    def __str__(self) -> str:
        return "no"


@dataclass(frozen=True, slots=True)
class Open:
    """Open a jackpot deal: the first bet, to a total stake of `amount`."""

    amount: int

    def __str__(self) -> str:
        return f"open {self.amount}"


@dataclass(frozen=True, slots=True)
class Draw:
    """Discard the cards at these 1-based positions (sorted, distinct) and draw as many."""

    positions: tuple[int, ...]

    def __str__(self) -> str:
        if not self.positions:
            return "stand"
        return "draw " + " ".join(str(p) for p in self.positions)


@dataclass(frozen=True, slots=True)
class Rebuy:
    """Buy back in by `units` cave units (only at 0 chips, only between deals)."""

    units: int

    def __str__(self) -> str:
        return f"rebuy {self.units}"


@dataclass(frozen=True, slots=True)
class SitOut:
    """Stay out of the next deal instead of buying back in."""

    def __str__(self) -> str:
        return "sitout"


DrawAction = Surblind | NoSurblind | Open | BettingAction | Draw | Rebuy | SitOut
"""Every draw poker action."""

STAND = Draw(())
"""Standing pat: drawing no card."""

_WORDS: dict[str, DrawAction] = {
    "surblind": Surblind(),
    "no": NoSurblind(),
    "stand": STAND,
    "sitout": SitOut(),
}


def _bad(text: str, why: str) -> IllegalAction:
    return IllegalAction(
        f"{text!r} is not a draw poker action: {why}", code="draw_bad_input", text=text
    )


def parse_action(text: str) -> DrawAction:
    """Parse the canonical text (spacing and case are forgiven) into an action."""
    words = text.strip().lower().split()
    if not words:
        raise _bad(text, "it is empty")
    head, rest = words[0], words[1:]
    if head in _WORDS and not rest:
        return _WORDS[head]
    if head == "open":
        if len(rest) != 1 or not re.fullmatch(AMOUNT_DIGITS, rest[0]):
            raise _bad(text, "write open and one whole amount, e.g. 'open 4'")
        return Open(int(rest[0]))
    if head in BETTING_WORDS:
        return parse_betting_action(text)
    if head == "rebuy":
        if len(rest) != 1 or not re.fullmatch(rf"{DIGITS}{{1,4}}", rest[0]):
            raise _bad(text, "write rebuy and a number of cave units, e.g. 'rebuy 1'")
        return Rebuy(int(rest[0]))
    if head == "draw":
        if not all(re.fullmatch(rf"{DIGITS}{{1,4}}", w) for w in rest):
            raise _bad(text, "write draw and the positions 1-5 of the cards to change")
        positions = tuple(int(w) for w in rest)
        for position in positions:
            if not 1 <= position <= HAND_SIZE:
                raise IllegalAction(
                    f"draw: there is no card {position}; your cards are numbered 1 to {HAND_SIZE}",
                    code="draw_no_such_position",
                    position=position,
                    count=HAND_SIZE,
                )
        repeated = sorted({p for p in positions if positions.count(p) > 1})
        if repeated:
            raise IllegalAction(
                f"draw: card {repeated[0]} is named twice; name each card to change once",
                code="draw_position_twice",
                position=repeated[0],
            )
        return Draw(tuple(sorted(positions)))
    raise _bad(
        text,
        "choose one of surblind, no, open N, check, call, bet N, raise N, allin, fold, "
        "draw 1 3 4, stand, rebuy N, sitout",
    )
