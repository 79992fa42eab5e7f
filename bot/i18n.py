"""Message catalogs: English, French and Ukrainian for everything a person reads.

Catalogs are JSON files `bot/locales/<lang>/<area>.json` (one area per game
plus `common`), merged per language, then those of the folders a game registered from its
own package (`add_catalogs`, e.g. the test suite's fifth game). `t(key, lang, **params)` formats the
message of `key` in `lang`, falling back to English, then to the key itself,
so a missing translation is visible but never crashes a front.

A name that is the reader themself (the terminal's player, whose default name is
"You") is passed as an `Addressee`: `t` then prefers the second-person form of the
line, `<key>.you.<param>` or `<key>.you` ("You sit down", "Vous vous asseyez"),
so no line reads "You sits down".

Counts agree with their noun: an integer param takes its plural forms as a format
spec, ``{n} {n:card|cards}`` (English and French: one|other; Ukrainian:
one|few|many, e.g. ``{n:карта|карти|карт}``), so no line reads "1 cards".
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from bot.errors import REFUSALS
from engines.cards import parse_card
from engines.registry import load_extra_games

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


_EXTRA_LOCALES: list[Path] = []
"""Locale folders (`<lang>/*.json` inside) that games registered from their own packages."""


def add_catalogs(folder: Path) -> None:
    """Add the catalogs of `folder` (`<lang>/<area>.json`, as `bot/locales`): what a game
    registered from its own package calls beside `engines.registry.register`."""
    if folder not in _EXTRA_LOCALES:
        _EXTRA_LOCALES.append(folder)
        catalog.cache_clear()
        _lookup.cache_clear()


@cache
def catalog(lang: str) -> dict[str, str]:
    """Every message of `lang`, merged from its area files (the product's, then those of
    registered games' folders)."""
    load_extra_games()
    merged: dict[str, str] = {}
    for root in (_LOCALES, *_EXTRA_LOCALES):
        folder = root / lang
        if folder.is_dir():
            for path in sorted(folder.glob("*.json")):
                merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


class Addressee(str):
    """A person's name when that person is the reader: lines about them take the catalog's
    second-person form (see the module docstring)."""

    __slots__ = ()


def join_names(names: Iterable[str]) -> str:
    """Names joined by commas; a lone name is returned as it is (an `Addressee` stays one)."""
    listed = list(names)
    return listed[0] if len(listed) == 1 else ", ".join(listed)


def plural_index(count: int, lang: str) -> int:
    """Which plural form `count` takes in `lang` (the CLDR cardinal rules): English 1 -> 0,
    else 1; French 0 and 1 -> 0, else 1; Ukrainian one 0, few 1 (2-4, not 12-14), many 2."""
    n = abs(count)
    if lang == "fr":
        return 0 if n < 2 else 1
    if lang == "uk":
        if n % 10 == 1 and n % 100 != 11:
            return 0
        return 1 if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else 2
    return 0 if n == 1 else 1


class _Count(int):
    """An integer param: ``{n:form|forms}`` picks the plural form for `lang`; any other
    format spec is the integer's own."""

    lang: str

    def __format__(self, spec: str) -> str:
        if "|" in spec:
            forms = spec.split("|")
            return forms[min(plural_index(int(self), self.lang), len(forms) - 1)]
        return int(self).__format__(spec)


def _counted(value: Any, lang: str) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        count = _Count(value)
        count.lang = lang
        return count
    return value


def _template(key: str, lang: str, params: dict[str, Any]) -> str | None:
    you = tuple(name for name, value in params.items() if isinstance(value, Addressee))
    return _lookup(key, lang, you)


@lru_cache(maxsize=8192)  # bounded: a key may be built from something typed
def _lookup(key: str, lang: str, you: tuple[str, ...]) -> str | None:
    """The template of `key` in `lang` (else English), its second-person form for the
    params in `you` if the catalog has one; looked up once (boards ask thousands of times)."""
    keys = [*(f"{key}.you.{name}" for name in you), *([f"{key}.you"] if you else []), key]
    for language in (lang, DEFAULT_LANGUAGE):
        messages = catalog(language)
        for candidate in keys:
            if candidate in messages:
                return messages[candidate]
    return None


def t(key: str, lang: str = DEFAULT_LANGUAGE, /, **params: Any) -> str:
    """The message `key` in `lang` with `params` filled in (English, then the key, as fallback);
    its second-person form when a param is an `Addressee`."""
    template = _template(key, lang, params)
    if template is None:
        return key
    params = {name: _counted(value, lang) for name, value in params.items()}
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
    if isinstance(error, REFUSALS):
        key = f"error.{error.code}"
        if key in catalog(lang) or key in catalog(DEFAULT_LANGUAGE):
            params = {
                name: pretty_cards(value) if isinstance(value, str) and name != "text" else value
                for name, value in error.params.items()
            }
            return t(key, lang, **params)
        return pretty_cards(error.message)
    return str(error)
