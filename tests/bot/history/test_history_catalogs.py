"""The history messages exist in every language with the same placeholders, and every
refusal code the history code raises has its translated message."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

from bot.history.build import HistoryError
from bot.i18n import LANGUAGES, explain

ROOT = Path(__file__).resolve().parents[3]
LOCALES = ROOT / "bot" / "locales"


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_language_has_every_history_message() -> None:
    english = json.loads((LOCALES / "en" / "history.json").read_text(encoding="utf-8"))
    for lang in LANGUAGES:
        other = json.loads((LOCALES / lang / "history.json").read_text(encoding="utf-8"))
        assert set(other) == set(english), lang
        for key, text in english.items():
            assert _fields(other[key]) == _fields(text), (lang, key)


def test_every_history_refusal_is_translated() -> None:
    codes = set()
    for path in (ROOT / "bot" / "history").glob("*.py"):
        codes |= set(re.findall(r'code="(history_\w+)"', path.read_text(encoding="utf-8")))
    assert len(codes) >= 8
    for code in sorted(codes):
        error = HistoryError(
            "english",
            code=code,
            match=3,
            player="p",
            game="duel",
            deal=2,
            path="f",
            reason="r",
            seat=2,
            seats=4,
        )
        for lang in LANGUAGES:
            assert explain(error, lang) != "english", (code, lang)
