"""How ratings read, in the terminal and on Discord: one line per person, the board as a
text table, which track a board is, and the `deucebot ratings` / `stats` commands."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from bot.charts.stats import decimal
from bot.i18n import normalise_language, t
from bot.process.settings import load_settings
from storage import is_postgres_url, open_storage
from storage.rating_reads import RatingBoard, RatingLine
from storage.ratings import ALL_TIME, Rating, month_of


def rating_line(line: RatingLine, lang: str) -> str:
    """``Ann: 18.2 (mu 27.1 ± 3.0, 12 matches)``."""
    r = line.rating
    return t(
        "ratings.line",
        lang,
        name=line.name,
        rating=decimal(r.conservative, lang),
        mu=decimal(r.mu, lang),
        sigma=decimal(r.sigma, lang),
        matches=r.matches,
    )


def stats_rating_line(rating: Rating, lang: str) -> str:
    """``Rating: 18.2 (skill 27.1 ± 3.0, 12 rated matches)`` (`/stats`, `deucebot stats`)."""
    return t(
        "ratings.stats.rating",
        lang,
        rating=decimal(rating.conservative, lang),
        mu=decimal(rating.mu, lang),
        sigma=decimal(rating.sigma, lang),
        matches=rating.matches,
    )


def track_name(season: str, lang: str) -> str:
    """What a track is called: "all time" or "season 2026-12"."""
    if season == ALL_TIME:
        return t("ratings.track.all", lang)
    return t("ratings.track.season", lang, season=season)


def resolve_season(choice: str | None, now: float, current: str | None = None) -> str:
    """The track a `season` option names: nothing or "all" -> all time; "current" -> the
    season running now (`current`, else this month); anything else is a season's name."""
    if choice is None or choice in ("", "all"):
        return ALL_TIME
    if choice == "current":
        return current or month_of(now)
    return choice


def format_rating_board(board: RatingBoard, lang: str, title: str) -> str:
    """A rating board as a text table: the ranked, then those with too few matches."""
    lines = [t("ratings.board.title", lang, game=title, track=track_name(board.season, lang))]
    for key, rows in (
        ("ratings.board.ranked", board.ranked),
        ("ratings.board.unranked", board.unranked),
    ):
        if rows:
            lines += ["", t(key, lang, min_matches=board.min_matches)]
            lines += [f"{i:>3}. {rating_line(r, lang)}" for i, r in enumerate(rows, 1)]
    if not (board.ranked or board.unranked):
        lines.append(t("ratings.board.empty", lang))
    return "\n".join(lines)


def _db(args: argparse.Namespace) -> tuple[str, str]:
    settings = load_settings()
    lang = normalise_language(getattr(args, "lang", None) or settings.language)
    return args.db or settings.db, lang


def _missing(path: str) -> bool:
    return not is_postgres_url(path) and path != ":memory:" and not Path(path).exists()


async def _board(args: argparse.Namespace) -> str:
    import time

    from engines.registry import get_game

    path, lang = _db(args)
    spec = get_game(args.game)
    if _missing(path):
        return t("console.board.no_db", lang, path=path)
    storage = await open_storage(path, read_only=True)
    try:
        now = time.time()
        current = None
        if args.season == "current":
            from storage.ratings import season_of

            current = season_of(await storage.seasons(args.guild), now)
        board = await storage.rating_board(
            guild=args.guild,
            game=spec.name,
            season=resolve_season(args.season, now, current),
            min_matches=args.min_matches,
        )
    finally:
        await storage.close()
    return format_rating_board(board, lang, spec.title)


def print_rating_board(args: argparse.Namespace) -> int:
    """`deucebot leaderboard GAME --db PATH --by rating [--season S]`."""
    print(asyncio.run(_board(args)))
    return 0


async def _rebuild(args: argparse.Namespace) -> int:
    path, lang = _db(args)
    storage = await open_storage(path, read_only=True)
    try:
        held = await storage.current_ratings()
        rebuilt = await storage.rebuild_ratings()
    finally:
        await storage.close()
    keys = sorted(set(held) | set(rebuilt))
    differ = [k for k in keys if held.get(k) != rebuilt.get(k)]
    if getattr(args, "show", False):
        for key in keys:
            r = rebuilt.get(key)
            if r is not None:
                guild, game, season, player = key
                fields = (guild, game, season or "all", player, repr(r.mu), repr(r.sigma))
                print("\t".join((*fields, str(r.matches))))
    for guild, game, season, player in differ[:20]:
        print(
            t("ratings.rebuild.differs", lang, guild=guild, game=game,
              track=track_name(season, lang), player=player)
        )  # fmt: skip
    print(t("ratings.rebuild.summary", lang, tracks=len(keys), differ=len(differ)))
    return 1 if differ else 0


def ratings_main(args: argparse.Namespace) -> int:
    """`deucebot ratings rebuild --db PATH`: every rating recomputed from the stored
    results, compared with the ratings stored; exit 1 if any differs."""
    return asyncio.run(_rebuild(args))


async def _stats(args: argparse.Namespace) -> int:
    from bot.charts.figures import stats_figures
    from bot.charts.stats import stats_chart
    from engines.registry import get_game

    path, lang = _db(args)
    spec = get_game(args.game)
    if _missing(path):
        print(t("console.board.no_db", lang, path=path))
        return 0
    storage = await open_storage(path, read_only=True)
    try:
        held = await storage.ratings_of(args.guild, spec.name, [ALL_TIME], [args.player])
        names = await storage._names_of(args.guild, [args.player])
        name = names.get(args.player, args.player)
        figures = await stats_figures(
            storage,
            guild=args.guild,
            game=spec.name,
            player_id=args.player,
            name=name,
            title=spec.title,
            penalties=spec.scoring == "penalty",
        )
    finally:
        await storage.close()
    rating = held.get((ALL_TIME, args.player))
    print(f"{name} · {spec.title}")
    if rating is not None:
        print(stats_rating_line(rating, lang))
    if args.chart:
        png, alt = await asyncio.to_thread(stats_chart, figures, lang)
        Path(args.chart).write_bytes(png)
        print(alt)
    return 0


def stats_main(args: argparse.Namespace) -> int:
    """`deucebot stats PLAYER --db PATH [--game G] [--chart out.png]`."""
    return asyncio.run(_stats(args))
