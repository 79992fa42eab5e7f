"""Command localisation: every command string has French and Ukrainian text Discord accepts."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot.discord.translator import CatalogTranslator
from bot.i18n import LANGUAGES, catalog

NAME = re.compile(r"^[-_\w]{1,32}$")


LOCALES = Path(__file__).resolve().parents[3] / "bot" / "locales"


def _discord_keys(lang: str) -> dict[str, str]:
    """The keys of the Discord front's own catalogs (discord.json and common.json)."""
    merged: dict[str, str] = {}
    for area in ("common", "discord"):
        merged.update(json.loads((LOCALES / lang / f"{area}.json").read_text(encoding="utf-8")))
    return merged


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_language_has_every_key_with_the_same_placeholders() -> None:
    english = _discord_keys("en")
    assert english
    for lang in LANGUAGES:
        other = _discord_keys(lang)
        missing = sorted(set(english) - set(other))
        assert not missing, f"{lang} lacks {missing}"
        for key, text in english.items():
            assert _fields(other[key]) == _fields(text), (lang, key)


@pytest.mark.parametrize("lang", ["fr", "uk"])
def test_command_and_option_names_are_valid_discord_names(lang: str) -> None:
    for key, text in catalog(lang).items():
        if key.startswith(("discord.cmd.", "discord.opt.")) and not key.endswith(".desc"):
            assert NAME.match(text) and text == text.lower(), (key, text)
        if key.endswith(".desc") and key.startswith(("discord.cmd.", "discord.opt.")):
            assert 1 <= len(text) <= 100, (key, text)


async def test_translator_answers_french_and_ukrainian_and_keeps_english() -> None:
    translator = CatalogTranslator()
    text = app_commands.locale_str("create", key="discord.cmd.table.create")
    context = app_commands.TranslationContext(
        location=app_commands.TranslationContextLocation.command_name, data=None
    )
    assert await translator.translate(text, discord.Locale.french, context) == "créer"
    assert await translator.translate(text, discord.Locale.ukrainian, context) == "створити"
    assert await translator.translate(text, discord.Locale.american_english, context) is None
    assert await translator.translate(text, discord.Locale.german, context) is None
    unknown = app_commands.locale_str("x")
    assert await translator.translate(unknown, discord.Locale.french, context) is None
