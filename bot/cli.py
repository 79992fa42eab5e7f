"""The `deucebot` command: play | simulate | bench | bot | leaderboard.

    deucebot play bigtwo [--deals N] [--seed S] [--db PATH]   you against AI players
    deucebot play bigtwo --web [--port P]                     the same in the browser
    deucebot simulate GAME -n N --seed S --players a,b,c,d [--rotate] [--json]
    deucebot bench TARGET [--quick] [--write]                 figures for docs/benchmarks.md
    deucebot bot                                              the Discord bot
    deucebot leaderboard GAME --db PATH [--period all|week|month] [--by rating [--season S]]
    deucebot ratings rebuild --db PATH                        ratings from stored results
    deucebot stats PLAYER --db PATH [--game G] [--chart out.png]
    deucebot history --db PATH [--match N] [--player ID] [--format json|phh] [--out FILE]
    deucebot replay FILE [--seat N]                           step through a deal
    deucebot migrate-db --from PATH --to postgresql://... [--append]

`--db` (and DEUCEBOT_DB) is a SQLite file path or a postgresql:// URL.

Each sub-command imports its module lazily so `deucebot play` starts fast (the trainers
`deucebot train` offers are looked up only when it is asked for). A refusal
(a bad flag or setting, a database that cannot be opened or reached) is one line on stderr
and exit code 2, never a traceback; a copy `migrate-db` refuses or whose check fails is one
line and exit code 1.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Annotated, Any, NoReturn

from pydantic import ValidationError

from bot.history import command as history_command
from bot.i18n import normalise_language, t
from bot.process.settings import (
    AiDelay,
    TurnSeconds,
    bounded,
    cli_type,
    describe_error,
    load_settings,
)
from engines.registry import (
    LEVELS,
    GameSpec,
    UnknownName,
    available_games,
    built_in_games,
    get_game,
)
from storage.base import CannotOpenDatabase, StorageError

BENCH_TARGETS = (*built_in_games(), "runtime", "discord", "scale", "ratings", "web")
"""The product's games (one benchmark module each) and the other targets."""

DEV_PACKAGE = "deucebot_dev"
"""The development package that holds the benchmarks (`deucebot_dev.bench.<target>`): never
in the bot's wheel, so `deucebot bench` loads it by name, only when asked, and says how to
install it when it is missing."""

WebPort = Annotated[int, bounded(int, 0, 65535, zero="a free port")]
"""`deucebot play --web --port`: a TCP port, 0 for a free one."""


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (and where to get help), not usage + error;
    `describe` gives a description worked out only when the help is shown."""

    def __init__(
        self, *args: Any, describe: Callable[[], str] | None = None, **kwargs: Any
    ) -> None:
        """As `argparse.ArgumentParser`, plus `describe`."""
        super().__init__(*args, **kwargs)
        self.describe = describe

    def format_help(self) -> str:
        """The help, with the description `describe` gives now."""
        if self.describe is not None:
            self.description = self.describe()
        return super().format_help()

    def error(self, message: str) -> NoReturn:
        """Print `message` on one line and exit with code 2."""
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every sub-command."""
    parser = Parser(prog="deucebot", description="Card tables for friends, on Discord or here.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = sub.add_parser("play", help="play a game in the terminal against AI players")
    play.add_argument("game", help=", ".join(built_in_games()) + " or a registered game")
    play.add_argument(
        "--deals",
        type=int,
        default=None,
        help="deals in the match, for a game with that option (its default otherwise)",
    )
    play.add_argument("--seats", type=int, default=None, help="players at the table, you included")
    play.add_argument("--seed", type=int, default=None, help="seed for a reproducible match")
    play.add_argument(
        "--db",
        default=None,
        help="SQLite file or postgresql:// URL: the match is saved and resumed from it",
    )
    play.add_argument(
        "--ai-delay",
        type=cli_type(AiDelay),
        default=None,
        help="seconds between AI moves (0 to 60)",
    )
    play.add_argument(
        "--turn-seconds",
        type=cli_type(TurnSeconds),
        default=None,
        help="turn timer for you in seconds (0 to 3600; off by default)",
    )
    play.add_argument(
        "--ai",
        default=None,
        help="AI level of the other seats: easy, normal (default) or hard; or a policy name",
    )
    play.add_argument(
        "--name", default=None, help="your name at the table (default: You, in its language)"
    )
    play.add_argument(
        "--web",
        action="store_true",
        help="play in the browser: serve the table on 127.0.0.1 and print its address",
    )
    play.add_argument(
        "--port",
        type=cli_type(WebPort),
        default=0,
        help="with --web: the port on 127.0.0.1 (a free one by default)",
    )

    sim = sub.add_parser("simulate", help="all-AI play, figures with 95%% intervals")
    sim.add_argument("game")
    sim.add_argument("-n", type=int, default=1000, help="deals, hands or matches, by game")
    sim.add_argument("--seed", type=int, default=None, help="the run's seed (0 by default)")
    sim.add_argument(
        "--seeds",
        default=None,
        metavar="SEEDS",
        help="--levels: pool several seeds' runs, e.g. 4-8 or 4,5,9 (each seed's first -n "
        "deals; one line-up per level and opponent over all of them)",
    )
    sim.add_argument("--players", default=None, help="comma-separated AI policies, one per seat")
    sim.add_argument("--rotate", action="store_true", help="rotate seats every match")
    sim.add_argument(
        "--against",
        default=None,
        help="comma-separated pool; --players names one candidate, measured against it on "
        "the game's sparring deals (Big Two: each seat in turn against three of each, "
        "paired seeds; hold'em: against --seats - 1 of each, duplicate deals; draw: "
        "duplicate deals)",
    )
    sim.add_argument(
        "--seats", type=int, default=6, help="hold'em --against: players at the table (2-9)"
    )
    sim.add_argument(
        "--levels",
        nargs="?",
        const=",".join(LEVELS),
        default=None,
        metavar="LEVELS",
        help="Big Two: each AI level (easy, normal, hard; or those named, comma-separated) "
        "against each member of the pool (--against, else greedy,net,pg,strong2,hard3), "
        "every deal played in every seat",
    )
    sim.add_argument(
        "--cpu-time",
        action="store_true",
        help="--levels: time decisions in the process's CPU time, not wall time (a shared "
        "machine's load inflates wall time)",
    )
    sim.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="--levels: line-ups run at once, each in a process of its own (the same figures "
        "as one at a time; 2 on a 2-core machine halves the wait)",
    )
    sim.add_argument(
        "--json", action="store_true", help="print the JSON contract (docs/simulate.md)"
    )

    bench = sub.add_parser(
        "bench", help="measure speed and strength; figures for docs/benchmarks.md"
    )
    bench.add_argument("target", choices=BENCH_TARGETS)
    bench.add_argument(
        "--quick", action="store_true", help="smaller runs (a smoke test, not for the docs)"
    )
    bench.add_argument(
        "--write", action="store_true", help="append the figures to docs/benchmarks.md"
    )
    bench.add_argument(
        "--db",
        default=None,
        help="runtime: also measure on this postgresql:// database (its tables are added to);"
        " ratings: also time the reads on a copy in this empty postgresql:// database",
    )
    bench.add_argument(
        "--tables",
        default=None,
        help="scale: only the configurations of these table counts (100,300,1000)",
    )

    # The trainers are looked up only when `train` is parsed or its help shown: finding
    # them imports every game's face, which no other command needs.
    train = sub.add_parser(
        "train",
        help="train or solve an AI level (each game declares its trainers; see train --help)",
        describe=lambda: "Trainers the games declare: " + ", ".join(_trainers()) + ".",
    )
    train.add_argument("game", type=_trainer_name, help="the trainer to run (listed above)")
    train.add_argument("--seed", type=int, default=1)
    train.add_argument(
        "--deals",
        type=int,
        default=None,
        help="self-play deals (150,000 for bigtwo, 30,000 for bigtwo-pg, 110,000 for bigtwo-hands)",
    )
    train.add_argument(
        "--samples",
        type=int,
        default=100_000,
        help="holdem: Monte Carlo boards per pair of starting-hand classes",
    )
    train.add_argument(
        "--iterations", type=int, default=None, help="duel: CFR+ iterations per stack"
    )
    train.add_argument(
        "--report",
        action="store_true",
        help="duel: no training; the shipped tables' exploitability and every level's",
    )
    train.add_argument(
        "--out", default=None, help="weights file (default: the shipped one, overwritten)"
    )

    sub.add_parser("bot", help="run the Discord bot (settings from the environment and .env)")

    board = sub.add_parser("leaderboard", help="print a game's leaderboard from a database")
    board.add_argument("game")
    board.add_argument("--db", default=None, help="SQLite file or postgresql:// URL")
    board.add_argument(
        "--guild", default="terminal", help="guild id (the terminal's is 'terminal')"
    )
    board.add_argument("--period", choices=("all", "week", "month"), default="all")
    from bot.commands import ratings_args

    ratings_args.add_board_options(board)
    ratings_args.add_parsers(sub)
    history_command.add_parsers(sub)

    copy = sub.add_parser(
        "migrate-db", help="copy a SQLite database with its whole history into PostgreSQL"
    )
    copy.add_argument("--from", dest="source", required=True, help="the SQLite file")
    copy.add_argument("--to", dest="target", required=True, help="a postgresql:// URL")
    copy.add_argument(
        "--append",
        action="store_true",
        help="copy into a database that already holds tables (ids are moved past its own)",
    )

    from bot.commands.backup import add_parser as add_backup
    from bot.commands.verify import add_parser as add_verify

    add_verify(sub)
    add_backup(sub)
    gallery = sub.add_parser(
        "gallery", help="draw every game's key moments (2, 4, 6, 9 seats) to PNG files in DIR"
    )
    gallery.add_argument("dir", help="the folder to write into (created)")
    gallery.add_argument("--game", action="append", help="only this game (repeatable)")
    gallery.add_argument("--seed", type=int, default=7)
    gallery.add_argument("--lang", choices=("en", "fr", "uk"), default="en")
    return parser


def _gallery(args: argparse.Namespace) -> int:
    from pathlib import Path

    from bot.pictures.gallery import games as gallery_games
    from bot.pictures.gallery import write

    known = gallery_games()
    games = args.game or known
    for game in games:
        if game not in known:
            raise UnknownName(f"no pictures of {game!r}; choose one of: {', '.join(known)}")
    for path in write(Path(args.dir), games, seed=args.seed, lang=args.lang):
        print(path)
    return 0


def _migrate_db(args: argparse.Namespace) -> int:
    import asyncio

    from storage import is_postgres_url
    from storage.transfer import copy_sqlite_to_postgres

    if not is_postgres_url(args.target):
        raise StorageError(f"--to must be a postgresql:// URL, not {args.target!r}")
    report = asyncio.run(copy_sqlite_to_postgres(args.source, args.target, append=args.append))
    for name, rows in report.rows.items():
        print(f"{name:<15} {rows:>9} rows copied, counts checked")
    for ledger, sums in report.sums.items():
        total = sum(value for _, value in sums.values())
        print(f"{ledger:<15} sums checked for {len(sums)} guild/game pair(s), total {total}")
    if any(report.shifted.values()):
        print(
            "ids moved past the target's own: "
            + ", ".join(f"{name} +{shift}" for name, shift in report.shifted.items())
        )
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from bot.commands.progress import terminal_bar
    from bot.commands.simulate import dumps, simulate

    spec = get_game(args.game)
    if args.seeds is not None and not args.levels:
        raise UnknownName("--seeds pools the runs of --levels: add --levels, or use --seed")
    if args.seeds is not None and args.seed is not None:
        raise UnknownName("--seeds names every seed of the run: leave out --seed")
    if args.seed is None:
        args.seed = 0
    if args.jobs != 1 and not args.levels:
        raise UnknownName("--jobs runs the line-ups of --levels side by side: add --levels")
    if args.levels:
        return _simulate_levels(args, spec)
    if args.players is None:
        raise UnknownName("--players is needed (comma-separated AI policies), or --levels")
    policies = _policy_names(spec, args.players)
    pool = _policy_names(spec, args.against)
    if args.n < 1:
        raise UnknownName("-n must be at least 1")
    if args.against is not None:
        return _simulate_pool(args, spec, policies, pool)
    refusal = spec.seats_refusal(len(policies))
    if refusal:
        raise UnknownName(f"{refusal} (--players a,b,...)")
    # Minutes of play show their progress on a terminal, never in --json output.
    bar = terminal_bar(sys.stderr, args.n, spec.sim.unit, wanted=not args.json)
    result = simulate(
        spec,
        policies,
        args.n,
        seed=args.seed,
        rotate=args.rotate,
        progress=None if bar is None else bar.update,
    )
    if bar is not None:
        bar.finish()
    print(dumps(result) if args.json else result.to_table())
    return 0


def _policy_names(spec: GameSpec, text: str | None) -> list[str]:
    """`--players a,b` or `--against c,d`: the policy names, each one of `spec`'s (none
    for an empty or missing list)."""
    names = [p.strip() for p in text.split(",") if p.strip()] if text else []
    for name in names:
        if name not in spec.policies:
            raise UnknownName(
                f"{spec.name} has no AI policy {name!r}; "
                f"choose one of: {', '.join(sorted(spec.policies))}"
            )
    return names


def _simulate_pool(
    args: argparse.Namespace, spec: GameSpec, policies: list[str], pool: list[str]
) -> int:
    """`simulate GAME --players C --against P,Q`: the game's sparring runner (its `GameFace`
    names the module), which prints the candidate's figures against each opponent."""
    import importlib

    from bot.render import get_face

    runner = get_face(spec.name).sparring
    if runner is None:
        with_pool = ", ".join(g for g in available_games() if get_face(g).sparring is not None)
        raise UnknownName(
            f"--against: {spec.name} has no sparring pool (games with one: {with_pool})"
        )
    if len(policies) != 1 or not pool:
        raise UnknownName("--against needs one candidate in --players and a pool of one or more")
    module = importlib.import_module(runner)
    code: int = module.simulate_against(args, policies[0], pool)
    return code


def _trainers() -> dict[str, str]:
    """Every trainer the registered games declare (`GameFace.trainers`): name -> module."""
    from bot.render import get_face

    found: dict[str, str] = {}
    for game in available_games():
        found.update(get_face(game).trainers)
    return dict(sorted(found.items()))


def _trainer_name(name: str) -> str:
    """`deucebot train NAME`: `name` if a registered game declares that trainer."""
    trainers = _trainers()
    if name not in trainers:
        choices = ", ".join(map(repr, trainers))
        raise argparse.ArgumentTypeError(f"invalid choice: {name!r} (choose from {choices})")
    return name


def _simulate_levels(args: argparse.Namespace, spec: GameSpec) -> int:
    from bot.commands.pool import (
        BIGTWO_POOL,
        levels_against_pool,
        levels_markdown,
        levels_over_seeds,
        seed_list,
        seeds_line,
    )

    if spec.scoring != "penalty":
        raise UnknownName(f"--levels measures penalties per deal: {spec.name} scores chips")
    if args.players is not None:
        raise UnknownName("--levels measures the levels: leave out --players")
    pool = _policy_names(spec, args.against)
    if args.n < 1:
        raise UnknownName("-n must be at least 1")
    levels = args.levels.split(",")
    for level in levels:
        if level not in LEVELS:
            raise UnknownName(f"no level {level!r} (choose from {', '.join(LEVELS)})")
    if args.jobs < 1:
        raise UnknownName(f"--jobs must be at least 1, not {args.jobs}")
    seeds = None if args.seeds is None else seed_list(args.seeds)
    deals = dict.fromkeys(levels, args.n)
    clock = time.process_time if args.cpu_time else time.perf_counter
    pool = pool or list(BIGTWO_POOL)
    if seeds is None:
        results = levels_against_pool(spec, deals, pool, args.seed, clock, args.jobs)
    else:
        results = levels_over_seeds(spec, deals, pool, seeds, clock, args.jobs)
    if args.json:
        from bot.commands.simulate import json_text

        data = {
            level: [lineup.to_json() for lineup in lineups] for level, lineups in results.items()
        }
        run = {"seed": args.seed} if seeds is None else {"seeds": seeds}
        print(json_text({**run, "n": args.n, "levels": data}))
    else:
        if seeds is not None:
            print(seeds_line(seeds, args.n))
        print(levels_markdown(spec, results))
    return 0


def _train(args: argparse.Namespace) -> int:
    """`deucebot train NAME`: the declared trainer's `train(args)`."""
    import importlib

    code: int = importlib.import_module(_trainers()[args.game]).train(args)
    return code


def _table_counts(text: str) -> tuple[int, ...]:
    """`--tables 100,300`: the table counts, each a positive whole number."""
    parts = [part.strip() for part in text.split(",")]
    if not parts or not all(part.isdigit() and int(part) > 0 for part in parts):
        raise UnknownName(f"--tables takes table counts separated by commas, not {text!r}")
    return tuple(int(part) for part in parts)


def _bench_module(target: str) -> ModuleType | None:
    """The benchmark module of `target`, or None when the development package is missing."""
    try:
        return importlib.import_module(f"{DEV_PACKAGE}.bench.{target}")
    except ModuleNotFoundError as error:
        if error.name in (DEV_PACKAGE, f"{DEV_PACKAGE}.bench"):
            return None
        raise


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `deucebot` console script."""
    args = build_parser().parse_args(argv)
    try:
        if args.command == "simulate":
            return _simulate(args)
        if args.command == "play":
            get_game(args.game)
            if args.web:
                from bot.web.play import run_web

                return run_web(args)
            from bot.terminal.console import run_console

            return run_console(args)
        if args.command == "bench":
            module = _bench_module(args.target)
            if module is None:
                lang = normalise_language(load_settings().language)
                print(f"deucebot: {t('console.no_dev_package', lang)}", file=sys.stderr)
                return 2
            if args.db is not None:
                if args.target not in ("runtime", "ratings"):
                    raise UnknownName("--db only applies to `deucebot bench runtime` and `ratings`")
                return int(module.main(quick=args.quick, write=args.write, db=args.db))
            if args.tables is not None:
                if args.target != "scale":
                    raise UnknownName("--tables only applies to `deucebot bench scale`")
                counts = _table_counts(args.tables)
                return int(module.main(quick=args.quick, write=args.write, tables=counts))
            return int(module.main(quick=args.quick, write=args.write))
        if args.command == "train":
            return _train(args)
        if args.command == "bot":
            from bot.__main__ import main as bot_main

            return bot_main()
        if args.command == "verify":
            from bot.commands.verify import main as verify_main

            return verify_main(args)
        if args.command == "backup":
            from bot.commands.backup import main as backup_main

            return backup_main(args)
        if args.command == "leaderboard" and args.by == "rating":
            from bot.commands.ratings_view import print_rating_board

            return print_rating_board(args)
        if args.command in ("ratings", "stats"):
            from bot.commands.ratings_view import ratings_main, stats_main

            return ratings_main(args) if args.command == "ratings" else stats_main(args)
        if args.command == "leaderboard":
            from bot.terminal.console import print_leaderboard

            return print_leaderboard(args)
        if args.command in history_command.COMMANDS:
            return history_command.main(args)
        if args.command == "migrate-db":
            return _migrate_db(args)
        if args.command == "gallery":
            return _gallery(args)
    except (UnknownName, CannotOpenDatabase) as error:
        print(f"deucebot: {error}", file=sys.stderr)
        return 2
    except ValidationError as error:
        print(f"deucebot: {describe_error(error)}", file=sys.stderr)
        return 2
    except StorageError as error:  # a copy refused or failing its check (migrate-db)
        print(f"deucebot: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - keeps the exit quiet
        return 0
    print(f"deucebot: unknown command; games: {', '.join(available_games())}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
