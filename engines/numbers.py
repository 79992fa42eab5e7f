"""Whole numbers as people type them (amounts, card positions, caves): ASCII digits only.

`str.isdigit` also accepts ``²``, ``٣`` or ``３``, which `int` cannot read (``²``) or reads
as a number nobody meant to type in a card game (``٣`` is 3): every parser of typed text
(the engines', the renderers', the Discord forms) reads numbers through this module, so
such text is refused like any other word that is not a number.
"""

from __future__ import annotations

DIGITS = "[0-9]"
"""One digit in a regular expression (``\\d`` matches every Unicode decimal digit)."""


def is_number(word: str) -> bool:
    """True when `word` is a whole number in ASCII digits (``0``, ``120``); `int(word)` then
    reads it."""
    return word.isascii() and word.isdigit()
