"""Message catalogs: English, French and Ukrainian for everything a person reads.

Catalogs are JSON files `bot/locales/<lang>/<area>.json` (one area per game
plus `common`), merged per language. `t(key, lang, **params)` formats the
message of `key` in `lang`, falling back to English, then to the key itself,
so a missing translation is visible but never crashes a front.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from engines.base import IllegalAction
from engines.cards import parse_card

LANGUAGES = ("en", "fr", "uk")
DEFAULT_LANGUAGE = "en"
_LOCALES = Path(__file__).with_name("locales")


def normalise_language(locale: str | None, default: str = DEFAULT_LANGUAGE) -> str:
    """Map a Discord locale ("fr", "en-US", "uk") to one of LANGUAGES."""
    if locale:
        short = str(locale).split("-")[0].split("_")[0].lower()
        if short in LANGUAGES:
            return short
    return default


@cache
def catalog(lang: str) -> dict[str, str]:
    """Every message of `lang`, merged from its area files."""
    merged: dict[str, str] = {}
    folder = _LOCALES / lang
    if folder.is_dir():
        for path in sorted(folder.glob("*.json")):
            merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def t(key: str, lang: str = DEFAULT_LANGUAGE, /, **params: Any) -> str:
    """The message `key` in `lang` with `params` filled in (English, then the key, as fallback)."""
    template = catalog(lang).get(key) or catalog(DEFAULT_LANGUAGE).get(key)
    if template is None:
        return key
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


_CANONICAL_CARD = re.compile(r"\b[2-9TJQKA][DCHS]\b")


def pretty_cards(text: str) -> str:
    """`text` with every canonical card (``TS``, ``3D``) written as hands show it (``10♠``,
    ``3♦``); engines speak canonical text, people read the pretty form."""
    return _CANONICAL_CARD.sub(lambda match: parse_card(match.group()).pretty, text)


def explain(error: Exception, lang: str = DEFAULT_LANGUAGE) -> str:
    """A refused action's message in `lang`: the catalog's `error.<code>` if there is one,
    else the engine's own English message. Cards are written as hands show them (10♠, not
    TS), except in the `text` a person typed, which is quoted as typed."""
    if isinstance(error, IllegalAction):
        key = f"error.{error.code}"
        if key in catalog(lang) or key in catalog(DEFAULT_LANGUAGE):
            params = {
                name: pretty_cards(value) if isinstance(value, str) and name != "text" else value
                for name, value in error.params.items()
            }
            return t(key, lang, **params)
        return pretty_cards(error.message)
    return str(error)
