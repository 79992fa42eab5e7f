"""Localised slash-command names, descriptions and choices (discord.py `app_commands.Translator`).

Every command string is declared with `tr(english, key)`; the translator looks
the key up in the French and Ukrainian catalogs (`bot/locales/<lang>/discord.json`).
English is the default text itself, so nothing is looked up for it (options take theirs from
the English catalog: `slash_options`).
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import LANGUAGES, catalog, normalise_language


def tr(english: str, key: str) -> app_commands.locale_str:
    """A command string: its English text and the catalog key of its translations."""
    return app_commands.locale_str(english, key=key)


class CatalogTranslator(app_commands.Translator):
    """Translates command strings from the i18n catalogs (fr, uk); English stays as declared."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The translation of `string` for `locale`, or None to keep the English text."""
        key = string.extras.get("key")
        lang = normalise_language(locale.value, default="")
        if not key or lang not in LANGUAGES or lang == "en":
            return None
        return catalog(lang).get(key)
