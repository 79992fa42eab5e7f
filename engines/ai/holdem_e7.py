"""eval7's card for each of our card codes, for the hold'em AIs' hot loops (one table for
`engines.ai.holdem`, `engines.ai.holdem_ranges` and the push/fold trainer: none need
import another)."""

from __future__ import annotations

import eval7

from engines.cards import FULL_DECK

E7: list[eval7.Card] = [eval7.Card(c.rank.char + c.suit.letter.lower()) for c in FULL_DECK]
"""eval7's card for each card code (`Card.code`: 0..51)."""
