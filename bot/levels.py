"""The AI level of a table, as people read it (board, `/table status`, the terminal)."""

from __future__ import annotations

from bot.i18n import t
from bot.runtime.options import TableOptions


def level_text(options: TableOptions, lang: str) -> str:
    """ "AI: hard" in `lang`; a table whose AI seats play a named policy shows that name."""
    if options.ai_policy is not None:
        return t("levels.ai_policy", lang, policy=options.ai_policy)
    return t("levels.ai_level", lang, level=t(f"levels.{options.ai_level}", lang))
