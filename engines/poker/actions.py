"""The betting actions shared by hold'em, draw poker and the duel, and their canonical text.

`str(action)` is the canonical text the action log stores ("fold", "check",
"call", "bet 60", "raise 120", "allin"); `parse_betting_action` reads it back
(and also the looser forms people type: "raise to 120", "all-in", "all in").
Amounts are always the player's **total** for the betting round.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from engines.base import IllegalAction
from engines.numbers import DIGITS


@dataclass(frozen=True, slots=True)
class Fold:
    """Give up the hand (refused when checking is free)."""

    verb: ClassVar[str] = "fold"
    kind: ClassVar[str] = "fold"

    def __str__(self) -> str:
        return "fold"


@dataclass(frozen=True, slots=True)
class Check:
    """Pass without putting chips in; only when nothing is owed."""

    verb: ClassVar[str] = "check"
    kind: ClassVar[str] = "check"

    def __str__(self) -> str:
        return "check"


@dataclass(frozen=True, slots=True)
class Call:
    """Match the highest total of the round, or put in every chip left if that is less."""

    verb: ClassVar[str] = "call"
    kind: ClassVar[str] = "call"

    def __str__(self) -> str:
        return "call"


@dataclass(frozen=True, slots=True)
class Bet:
    """Make the first bet of the round: `amount` is the player's total for the round."""

    amount: int
    verb: ClassVar[str] = "bet"
    kind: ClassVar[str] = "bet"

    def __str__(self) -> str:
        return f"bet {self.amount}"


@dataclass(frozen=True, slots=True)
class Raise:
    """Raise an existing bet: `amount` is the player's new total for the round."""

    amount: int
    verb: ClassVar[str] = "raise"
    kind: ClassVar[str] = "raise"

    def __str__(self) -> str:
        return f"raise {self.amount}"


@dataclass(frozen=True, slots=True)
class AllIn:
    """Put in every chip left: a bet, a call or a raise, possibly short of a full raise."""

    verb: ClassVar[str] = "allin"
    kind: ClassVar[str] = "allin"

    def __str__(self) -> str:
        return "allin"


BettingAction = Fold | Check | Call | Bet | Raise | AllIn
"""Any betting action."""

FOLD = Fold()
CHECK = Check()
CALL = Call()
ALL_IN = AllIn()

_SIMPLE: dict[str, BettingAction] = {
    "fold": FOLD,
    "check": CHECK,
    "call": CALL,
    "allin": ALL_IN,
    "all-in": ALL_IN,
    "all in": ALL_IN,
    "all_in": ALL_IN,
    "shove": ALL_IN,
}
BETTING_WORDS = frozenset({"bet", "raise", "all"} | {w.split()[0] for w in _SIMPLE})
"""First words that start a betting action ("all in" starts with "all")."""

# Any whole amount (up to 4000 digits, what `int` reads): the betting round, not the parser,
# refuses an amount above the stack, with "more than you have".
AMOUNT_DIGITS = rf"{DIGITS}{{1,4000}}"
_AMOUNT = re.compile(rf"^(bet|raise)(?:\s+to)?\s+({AMOUNT_DIGITS})$")


def parse_betting_action(text: str) -> BettingAction:
    """Read a betting action from its canonical text (or a close variant people type).

    Raises `IllegalAction` (code ``bad_input``) naming what was not understood.
    """
    words = " ".join(text.strip().lower().split())
    simple = _SIMPLE.get(words)
    if simple is not None:
        return simple
    match = _AMOUNT.match(words)
    if match is None:
        if words in ("bet", "raise"):
            raise IllegalAction(
                f"{words!r} needs an amount: the total you put in this round, e.g. '{words} 60'",
                code="missing_amount",
                verb=words,
            )
        raise IllegalAction(
            f"{text.strip()!r} is not a betting action: "
            "write check, call, fold, bet AMOUNT, raise AMOUNT or allin",
            code="bad_input",
            text=text.strip(),
        )
    amount = int(match.group(2))
    return Bet(amount) if match.group(1) == "bet" else Raise(amount)
