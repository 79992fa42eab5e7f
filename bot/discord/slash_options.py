"""Slash-command options declared once: their names, descriptions and choices.

An option's English name and description are its English catalog entries
(`discord.opt.<key>`, `discord.opt.<key>.desc`), which are also the keys the translator looks
up for French and Ukrainian, so a command names its options by catalog key only
(`@slash_options("game", "seats", kind="history_format")`) and never restates their texts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

from discord import app_commands

from bot.discord.translator import tr
from bot.i18n import catalog
from bot.render import get_face
from engines.registry import DEFAULT_GAME, LEVELS, available_games, get_game

T = TypeVar("T")


def playable_games() -> list[str]:
    """Games with an engine and a renderer (the ones a table can be created for)."""
    names = []
    for name in available_games():
        try:
            get_face(name)
        except ImportError:
            continue
        names.append(name)
    return names


def game_choices() -> list[app_commands.Choice[str]]:
    """The `game` option's choices, titled and localised."""
    return [
        app_commands.Choice(name=tr(get_game(name).title, f"discord.game.{name}"), value=name)
        for name in playable_games()
    ] or [app_commands.Choice(name=DEFAULT_GAME, value=DEFAULT_GAME)]


def _formats() -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name="JSON", value="json"),
        app_commands.Choice(name="PHH", value="phh"),
    ]


def _ranked_by() -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=tr("totals", "discord.by.totals"), value="totals"),
        app_commands.Choice(name=tr("rating", "discord.by.rating"), value="rating"),
    ]


def _levels() -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(
            name=tr(catalog("en")[f"levels.{level}"], f"levels.{level}"), value=level
        )
        for level in LEVELS
    ]


CHOICES: Mapping[str, Callable[[], list[app_commands.Choice[str]]]] = {
    "game": game_choices,
    "ai": _levels,
    "history_format": _formats,
    "by": _ranked_by,
}
"""The options (by catalog key) that offer a fixed list of choices."""


def option_text(key: str) -> app_commands.locale_str:
    """A command string declared by its catalog key, its English text read from the catalog."""
    return tr(catalog("en")[key], key)


def slash_options(*params: str, **keyed: str) -> Callable[[T], T]:
    """Describe, name (localised) and give the choices of a command's options: each of
    `params` is a parameter named as its catalog key; `keyed` maps a parameter to its key."""
    keys = {param: param for param in params} | keyed

    def declare(command: T) -> T:
        command = app_commands.describe(
            **{param: option_text(f"discord.opt.{key}.desc") for param, key in keys.items()}
        )(command)
        command = app_commands.rename(
            **{param: option_text(f"discord.opt.{key}") for param, key in keys.items()}
        )(command)
        choices = {param: CHOICES[key]() for param, key in keys.items() if key in CHOICES}
        return app_commands.choices(**choices)(command) if choices else command

    return declare
