"""Opening the table of `deucebot play GAME`, for the terminal and for `--web` alike.

One function reads the flags (`--seed`, `--ai`, `--deals`, `--seats`, `--turn-seconds`,
`--name`) into a table at the place ``terminal:<game>``: the saved match resumed (`--db`),
a finished one followed by a new match, else a new table with the flags' settings, dealt.
Both fronts call it, so a flag means the same in the browser as in the terminal (`--deals`
sets each game's own field: hold'em's `max_hands`).
"""

from __future__ import annotations

import argparse
import contextlib
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.i18n import t
from bot.process.settings import Settings
from bot.runtime import Player, RuntimeConfig, Table, TableManager
from engines.registry import LEVELS, GameSpec

HUMAN_ID = "terminal"
GUILD = "terminal"


def place_of(game: str) -> str:
    """Where the terminal's table of `game` lives in storage."""
    return f"terminal:{game}"


def player_name(args: argparse.Namespace, lang: str) -> str:
    """The player's name at a new table: `--name` as given, else the word for "you" in the
    table's language `lang` (a saved match keeps the name its seat was stored with)."""
    return str(args.name) if args.name is not None else t("console.default_name", lang)


@contextlib.contextmanager
def play_database(db: str | None) -> Iterator[str]:
    """Where `deucebot play` keeps its table: `--db` as given, else a file in a temporary
    directory, removed on leaving. None is made when `--db` names the database (a process
    killed there would leave an empty one behind)."""
    if db:
        yield db
        return
    with tempfile.TemporaryDirectory(prefix="deucebot-") as tmp:
        yield str(Path(tmp) / "play.sqlite3")


def play_config(args: argparse.Namespace, settings: Settings) -> RuntimeConfig:
    """The runtime's configuration for `deucebot play`: the AI delay (`--ai-delay`, else
    the setting), AI turns in a thread, turn timers only with `--turn-seconds`."""
    delay = settings.ai_delay if args.ai_delay is None else args.ai_delay
    return RuntimeConfig(ai_delay=delay, ai_in_thread=True, timers=bool(args.turn_seconds))


@dataclass(frozen=True)
class Opened:
    """A table `open_table` opened, and what the player is told about it."""

    table: Table
    was: str | None
    """The saved table's status before it was opened (``"playing"``: resumed as saved,
    ``"finished"``: a new match follows), None for a new table."""
    kept: str | None
    """The flags asking for other settings than the saved match keeps, worded (None: none)."""

    @property
    def name(self) -> str | None:
        """The player's name at the table (None: they have no seat there)."""
        seat = self.table.seat_of(HUMAN_ID)
        return None if seat is None else self.table.seats[seat].name

    def news(self, lang: str) -> str | None:
        """What the player is told of a saved table in `lang`: resumed at its turn, or a
        new match after a finished one (None: a new table)."""
        if self.was == "playing":
            return t("console.resumed", lang, turn=self.table.turn)
        if self.was == "finished":
            return t("console.new_match", lang)
        return None


async def open_table(manager: TableManager, args: argparse.Namespace, lang: str) -> Opened:
    """The table of `args.game` in `manager` (restored from storage beforehand): its saved
    match resumed, a finished one followed by a new match (`--seed`), else a new table
    with the flags' settings and options, dealt. `lang` words the kept settings."""
    spec = manager.spec(args.game)
    place = place_of(spec.name)
    table = manager.find(place)
    if table is not None:
        was, kept = table.status, ignored_flags(table, args, lang)
        if table.status != "playing":
            await table.restart(seed=args.seed) if table.match else await table.start(args.seed)
        return Opened(table, was, kept)
    fields = spec.config_type.model_fields
    settings: dict[str, Any] = {}
    deals = spec.option("deals")  # the game's own field (hold'em: hands)
    if args.deals is not None and deals is not None:
        settings[deals.field] = args.deals
    if args.seats is not None and "seats" in fields:
        settings["seats"] = args.seats
    options: dict[str, Any] = {"turn_seconds": args.turn_seconds or 0, "lang": lang}
    if args.seats is not None:
        options["seats"] = args.seats
    if args.ai:
        options["ai_level" if args.ai in LEVELS else "ai_policy"] = args.ai
    table = await manager.create(
        guild=GUILD,
        place=place,
        game=spec.name,
        settings=settings,
        options=options,
        owner=Player(HUMAN_ID, player_name(args, lang)),
    )
    await table.start(seed=args.seed)
    return Opened(table, None, None)


def ignored_flags(table: Table, args: argparse.Namespace, lang: str) -> str | None:
    """A saved table keeps its settings: each flag asking for another value, named in
    `lang` (None when every flag agrees or none was given)."""
    config = table.spec.make_config(**table.settings)
    policy = table.options.ai_policy or table.options.ai_level
    asked: list[tuple[str, object, object]] = [
        ("--seats", args.seats, len(table.seats)),
        ("--deals", args.deals, _deals_of(table.spec, config, args.deals)),
        ("--ai", args.ai, policy),
        ("--turn-seconds", args.turn_seconds, table.options.turn_seconds),
    ]
    ignored = [
        t("console.kept_setting", lang, flag=flag, saved=saved, asked=wanted)
        for flag, wanted, saved in asked
        if wanted is not None and wanted != saved
    ]
    return t("console.kept_settings", lang, settings="; ".join(ignored)) if ignored else None


def _deals_of(spec: GameSpec, config: Any, asked: object) -> object:
    """The deals a saved match plays (its declared `deals` option), else what was asked."""
    deals = spec.option("deals")
    return asked if deals is None else getattr(config, deals.field, asked)
