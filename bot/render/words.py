"""The words people type and read for moves, per language, from the catalogs.

Each game's catalog holds a move-word table: ``<area>.word.<verb>`` is ``"shown|alias|..."``
(the first form is the one shown, every form is accepted when typed), for example
``"poker.word.fold": "se coucher|coucher"`` in French. The betting words of the three poker
games live in the shared area ``poker``; a game adds its own (``draw.word.pat``).

`read_move` turns what someone typed in any catalog language (or English) into the canonical
English text the engines read; `say_move` writes a canonical move in the reader's language,
with cards as hands show them (10♠).
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Collection, Sequence

from bot.i18n import LANGUAGES, catalog, t
from bot.render.text import describe
from engines.base import IllegalAction


@functools.cache
def move_words(areas: tuple[str, ...], lang: str) -> dict[str, list[str]]:
    """Canonical verb -> its forms in `lang` (shown form first) for the catalog `areas`; English
    fills a verb the language lacks."""
    words: dict[str, list[str]] = {}
    for source in ("en", lang):
        messages = catalog(source)
        for area in areas:
            prefix = f"{area}.word."
            for key, value in messages.items():
                if key.startswith(prefix):
                    forms = [form.strip().lower() for form in value.split("|") if form.strip()]
                    words[key[len(prefix) :]] = forms
    return words


@functools.cache
def _readings(areas: tuple[str, ...]) -> list[tuple[str, str]]:
    """Every (typed form, canonical verb) of every language, longest form first."""
    found: dict[str, str] = {}
    for lang in LANGUAGES:
        for verb, forms in move_words(areas, lang).items():
            for form in [verb, *forms]:
                found.setdefault(form, verb)
    return sorted(found.items(), key=lambda item: -len(item[0]))


def read_move(text: str, areas: Sequence[str]) -> str:
    """`text` with its leading move word, in any language, made canonical English
    (``relancer 40`` -> ``raise 40``, ``скинути`` -> ``fold``); other text unchanged."""
    typed = " ".join(text.strip().split())
    lowered = typed.lower()
    for form, verb in _readings(tuple(areas)):
        if lowered == form or lowered.startswith(form + " "):
            return verb + typed[len(form) :]
    return typed


_VERB = re.compile(r"^(\S+)(.*)$")


def say_move(text: str, areas: Sequence[str], lang: str) -> str:
    """A canonical move for people reading `lang`: its verb translated, cards with suit
    symbols (``raise 40`` -> ``relancer 40``, ``lock TS`` -> ``bloquer 10♠``)."""
    shown = describe(text)
    match = _VERB.match(shown)
    if match is None:
        return shown
    forms = move_words(tuple(areas), lang).get(match.group(1))
    return (forms[0] + match.group(2)) if forms else shown


def words_help(areas: Sequence[str], lang: str, verbs: Collection[str] | None = None) -> str:
    """The move words people may type in `lang` (for /rules and the terminal's help); only
    those of `verbs` (canonical) when given: what can be typed at this moment."""
    listed = ", ".join(
        " / ".join(forms[:2])
        for verb, forms in move_words(tuple(areas), lang).items()
        if forms and (verbs is None or verb in verbs)
    )
    return t("common.words_help", lang, words=listed)


UNREAD = frozenset(
    {
        "bad_input",
        "draw_bad_input",
        "bigtwo.bad_action_text",
        "bigtwo.unknown_action",
        "duel_bad_lock",
    }
)
"""Codes of refusals for text that was not read as a move at all (a near miss may be
suggested instead)."""


def near_miss(text: str, areas: Sequence[str]) -> str | None:
    """`text` with its first word replaced by the move word it nearly is (``rasie 60`` ->
    ``raise 60``, ``relacner 40`` -> ``relancer 40``), in the language it was typed in; None
    when no move word is close enough."""
    typed = text.strip().split()
    if not typed:
        return None
    forms = [form for form, _ in _readings(tuple(areas)) if " " not in form]
    found = closest(typed[0], forms)
    if found is None:
        return None
    return " ".join([found, *typed[1:]])


def _swapped(word: str, form: str) -> bool:
    """Whether `word` is `form` with two neighbouring letters swapped (``mni``, ``pto``)."""
    if len(word) != len(form) or word == form:
        return False
    differ = [i for i, (a, b) in enumerate(zip(word, form, strict=True)) if a != b]
    return (
        len(differ) == 2
        and differ[1] == differ[0] + 1
        and word[differ[0]] == form[differ[1]]
        and word[differ[1]] == form[differ[0]]
    )


def closest(word: str, forms: Sequence[str]) -> str | None:
    """The form of `forms` that `word` nearly is (a typo: a letter missing, extra or wrong,
    two neighbouring letters swapped), or None when none is close enough or `word` is one."""
    word = word.lower()
    if word in forms:
        return None
    swapped = [form for form in forms if _swapped(word, form)]
    if swapped:
        return swapped[0]
    found = difflib.get_close_matches(word, forms, n=1, cutoff=0.75)
    return found[0] if found else None


def suggest(error: IllegalAction, text: str, areas: Sequence[str]) -> IllegalAction:
    """`error`, or, when it refuses text not read as a move whose first word is a near miss,
    a refusal asking "did you mean ...?" (code ``did_you_mean``)."""
    if error.code not in UNREAD:
        return error
    meant = near_miss(text, areas)
    if meant is None:
        return error
    return IllegalAction(
        f"{text.strip()!r} is not a move: did you mean {meant}?",
        code="did_you_mean",
        text=text.strip(),
        meant=meant,
    )
