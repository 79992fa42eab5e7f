"""The `deucebot history` and `deucebot replay` sub-commands.

    deucebot history [--db PATH] [--match N] [--player ID] [--format json|phh] [--out FILE]
    deucebot replay FILE [--seat N] [--match N] [--deal N]

`history` without `--player` is the admin's omniscient export (every hidden card, seeds and
deck orders), given only for finished matches; with `--player` it is what that member saw.
Errors are printed translated (`error.history_*`) with exit code 2.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.history.model import HistoryFile

COMMANDS = ("history", "replay")


def add_parsers(sub: argparse._SubParsersAction[Any]) -> None:
    """Register `history` and `replay` on the `deucebot` parser."""
    history = sub.add_parser(
        "history", help="export hand histories from a database (JSON, or PHH for hold'em)"
    )
    history.add_argument(
        "--db", default=None, help="SQLite file or postgresql:// URL (default: the bot's)"
    )
    history.add_argument("--match", type=int, default=None, help="one match id (default: all)")
    history.add_argument(
        "--player", default=None, help="only what this player id saw (default: everything)"
    )
    history.add_argument("--format", choices=("json", "phh"), default="json")
    history.add_argument("--out", default=None, help="write to this file (default: stdout)")

    replay = sub.add_parser("replay", help="step through a deal of a history file")
    replay.add_argument("file", help="a JSON history (from `deucebot history` or /history)")
    replay.add_argument(
        "--seat", type=int, default=None, help="whose hidden cards (1-based; omniscient files)"
    )
    replay.add_argument("--match", type=int, default=None, help="match id (default: the first)")
    replay.add_argument("--deal", type=int, default=None, help="deal number (default: the first)")


def render(history: HistoryFile, fmt: str) -> str:
    """A history file as text: indented JSON, or PHH for its hold'em deals."""
    if fmt == "phh":
        from bot.history.phh import history_to_phhs

        return history_to_phhs(history)
    return history.model_dump_json(indent=2) + "\n"


async def _export(args: argparse.Namespace, db: str) -> HistoryFile:
    from bot.history.build import export_matches
    from storage import CannotOpenDatabase, is_postgres_url, open_storage
    from storage.migrate import latest_version
    from storage.postgres import redact

    # An export never writes (nor waits on a writer).
    storage = await open_storage(db, read_only=True)
    try:
        if storage.schema != latest_version():  # its deals and secrets are not where we read
            raise CannotOpenDatabase(
                f"{redact(db) if is_postgres_url(db) else db} has an old schema "
                f"(version {storage.schema}): run `deucebot play` or "
                "the bot on it once to upgrade it"
            )
        return await export_matches(storage, match_id=args.match, player_id=args.player)
    finally:
        await storage.close()


def _history(args: argparse.Namespace, lang: str, db: str) -> int:
    from bot.i18n import t
    from storage import is_postgres_url

    if not is_postgres_url(db) and not Path(db).exists():
        print(t("console.board.no_db", lang, path=db), file=sys.stderr)
        return 2
    history = asyncio.run(_export(args, db))
    if not history.matches:
        # An empty export says why (the file or output stays a valid, empty history).
        key = "history.none_finished" if args.player is None else "history.none_player"
        from storage.postgres import redact

        path = redact(db) if is_postgres_url(db) else db
        print(t(key, lang, path=path, player=args.player), file=sys.stderr)
    text = render(history, args.format)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def main(args: argparse.Namespace) -> int:
    """Run `history` or `replay`; refusals are printed in the configured language."""
    from bot.history.build import HistoryError
    from bot.i18n import explain, normalise_language
    from bot.process.settings import load_settings

    settings = load_settings()
    lang = normalise_language(settings.language)
    try:
        if args.command == "history":
            return _history(args, lang, args.db or settings.db)
        from bot.history.replay import run

        seat = args.seat - 1 if args.seat is not None else None
        return run(
            args.file,
            seat=seat,
            match_id=args.match,
            deal=args.deal,
            lang=lang,
            stdin=sys.stdin,
            out=sys.stdout,
        )
    except HistoryError as error:
        print(f"deucebot: {explain(error, lang)}", file=sys.stderr)
        return 2
