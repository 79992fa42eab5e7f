"""Events every poker game emits the same way."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.base import Event


@dataclass(frozen=True, kw_only=True, slots=True)
class UncalledReturned(Event):
    """Chips nobody matched went back to their owner (an uncalled bet, or the duel's
    unmatched excess)."""

    kind: ClassVar[str] = "uncalled_returned"
    seat: int
    amount: int
