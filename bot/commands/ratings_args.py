"""The `deucebot` options of ratings (`ratings rebuild`, `stats`, `leaderboard --by`):
argparse only, so building the parser imports nothing heavy (`bot.commands.ratings_view`
runs them)."""

from __future__ import annotations

import argparse
from typing import Any

from engines.registry import DEFAULT_GAME

MIN_MATCHES = 5
"""Rated matches a person needs to be ranked by rating."""


def add_parsers(sub: argparse._SubParsersAction[Any]) -> None:
    """`deucebot ratings rebuild` and `deucebot stats PLAYER`."""
    ratings = sub.add_parser("ratings", help="skill ratings: rebuild them from stored results")
    action = ratings.add_subparsers(dest="ratings_command", required=True, metavar="ACTION")
    rebuild = action.add_parser(
        "rebuild", help="recompute every rating from the results and compare with those stored"
    )
    rebuild.add_argument("--db", default=None, help="SQLite file or postgresql:// URL")
    rebuild.add_argument("--show", action="store_true", help="print every rebuilt rating")
    stats = sub.add_parser("stats", help="a player's rating and results, optionally as a chart")
    stats.add_argument("player", help="player id (the terminal's is 'terminal')")
    stats.add_argument("--db", default=None, help="SQLite file or postgresql:// URL")
    stats.add_argument("--game", default=DEFAULT_GAME)
    stats.add_argument(
        "--guild", default="terminal", help="guild id (the terminal's is 'terminal')"
    )
    stats.add_argument("--chart", default=None, help="write the chart image (PNG) to this file")
    stats.add_argument("--lang", default=None, help="en, fr or uk")


def add_board_options(board: argparse.ArgumentParser) -> None:
    """`--by rating|totals`, `--season`, `--min-matches` on `deucebot leaderboard`."""
    board.add_argument("--by", choices=("totals", "rating"), default="totals")
    board.add_argument(
        "--season", default=None, help="with --by rating: all, current, or a season's name"
    )
    board.add_argument("--min-matches", type=int, default=MIN_MATCHES)
