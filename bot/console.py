"""The terminal front: `deucebot play GAME` (you against AI players) and `deucebot leaderboard`.

It runs on the same runtime and storage as the Discord bot: the table lives at the place
``terminal:<game>`` in a SQLite file (`--db`, or a temporary file), so killing the process
at any moment and running the same command again resumes the match at the last accepted
action. Generic over games: it only uses the game's `SPEC` and its renderer
(`bot.render.<game>.RENDERER`). Works with a pipe on stdin (scriptable); colour only when
stdout is a terminal. Ctrl-C ends it at once (stdin is read without a thread, see
`bot.lines`), saying whether the match is saved. A resumed match keeps its saved settings;
flags that ask for others are named. `deucebot leaderboard` opens the database read-only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import signal
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from bot.i18n import Addressee, explain, normalise_language, pretty_cards, t
from bot.levels import level_text
from bot.lines import LineReader
from bot.render import GameRenderer, get_renderer
from bot.render.fair import fair_line
from bot.runtime import (
    MatchStarted,
    Player,
    PlayerJoined,
    PlayerLeft,
    RuntimeConfig,
    SeatAway,
    SeatBack,
    Table,
    TableError,
    TableManager,
    TableSnapshot,
    TurnTimedOut,
)
from bot.settings import load_settings
from engines.base import Event, IllegalAction
from engines.cards import CardParseError
from engines.registry import LEVELS
from storage import ChipRow, Leaderboard, PenaltyRow, Storage, is_postgres_url, open_storage
from storage.opening import is_memory

INTERRUPTED = 130
"""Exit code after Ctrl-C (128 + SIGINT, as shells report it)."""
HUMAN_ID = "terminal"
GUILD = "terminal"
BOLD, DIM, RESET = "\x1b[1m", "\x1b[2m", "\x1b[0m"


def addressed_names(table: Table | TableSnapshot) -> list[str]:
    """The table's names with yours as an `Addressee`, so lines about you read "You sit down"
    (the catalogs' second-person forms)."""
    mine = table.seat_of(HUMAN_ID)
    return [Addressee(name) if seat == mine else name for seat, name in enumerate(table.names)]


def place_of(game: str) -> str:
    """Where the terminal's table of `game` lives in storage."""
    return f"terminal:{game}"


class ConsoleFront:
    """Prints event lines as the runtime hands them over (after they are committed)."""

    def __init__(self, renderer: GameRenderer, out: TextIO, lang: str, colour: bool) -> None:
        """Write to `out` in `lang`; `colour` adds ANSI styling (terminals only)."""
        self.renderer = renderer
        self.out = out
        self.lang = lang
        self.colour = colour

    def line(self, text: str, style: str = "") -> None:
        """Print one line (styled when colour is on)."""
        if self.colour and style:
            text = f"{style}{text}{RESET}"
        print(text, file=self.out, flush=True)

    def _runtime_event(self, event: Event, names: Sequence[str]) -> str | None:
        lang = self.lang
        if isinstance(event, MatchStarted):
            return t("console.event.match_started", lang, number=event.number)
        if isinstance(event, TurnTimedOut):
            return t("console.event.timed_out", lang, name=names[event.seat], action=event.action)
        if isinstance(event, (SeatAway, SeatBack, PlayerJoined, PlayerLeft)):
            key = {
                SeatAway: "console.event.away",
                SeatBack: "console.event.back",
                PlayerJoined: "console.event.joined",
                PlayerLeft: "console.event.left",
            }[type(event)]
            # The seat's current name (an Addressee for you) when it is still the same person.
            same = event.seat < len(names) and names[event.seat] == event.name
            return t(key, lang, name=names[event.seat] if same else event.name)
        return None

    def show(self, table: TableSnapshot, events: Sequence[Event]) -> None:
        """Print a line for each event worth one."""
        names = addressed_names(table)
        for event in events:
            text = self._runtime_event(event, names)
            if text is None:
                text = self.renderer.event(event, names, self.lang)
            for line in (text, fair_line(event, self.lang)):
                if line:
                    self.line(line, DIM if event.to is not None else "")

    async def public(self, table: TableSnapshot, events: Sequence[Event]) -> None:
        """Public events: one line each."""
        self.show(table, events)

    async def private(
        self, table: TableSnapshot, seat: int, player: Player, events: Sequence[Event]
    ) -> None:
        """Your private events (your cards)."""
        self.show(table, events)

    async def refresh(self, table: TableSnapshot) -> None:
        """The board is printed when it is your turn, not at every change."""


class Console:
    """One terminal session: a table, your seat, and the prompt loop."""

    def __init__(
        self,
        args: argparse.Namespace,
        stdin: TextIO,
        out: TextIO,
        *,
        colour: bool | None = None,
    ) -> None:
        """Read commands from `stdin`, write to `out`."""
        settings = load_settings()
        self.args = args
        self.stdin = stdin
        self.lines = LineReader(stdin)
        self.out = out
        self.lang = normalise_language(getattr(args, "lang", None) or settings.language)
        self.colour = out.isatty() if colour is None else colour
        self.settings = settings
        self.renderer = get_renderer(args.game)
        self.front = ConsoleFront(self.renderer, out, self.lang, self.colour)

    @property
    def saved(self) -> bool:
        """Whether the match outlives this process (a --db file, not :memory:)."""
        return bool(self.args.db) and not is_memory(self.args.db)

    @property
    def _goodbye(self) -> str:
        """The catalog key said on quitting: saved with --db, else a hint to use it."""
        return "console.saved" if self.saved else "console.unsaved"

    def interrupted(self) -> None:
        """After Ctrl-C: end the prompt's line and say whether the match is saved."""
        self.front.line("")
        self.say(self._goodbye)

    def say(self, key: str, style: str = "", **params: Any) -> None:
        """Print a catalog message."""
        self.front.line(t(key, self.lang, **params), style)

    async def run(self) -> int:
        """Play until the match ends, you quit, stdin closes or Ctrl-C (exit code 130, once
        the runtime and the database are closed). Returns the exit code. Ctrl-C is handled
        on the loop, so it works even where SIGINT was ignored at start (a background job)."""
        task = asyncio.current_task()
        assert task is not None
        pressed: list[bool] = []

        def ctrl_c() -> None:
            pressed.append(True)
            task.cancel()

        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signal.SIGINT, ctrl_c)
        try:
            return await self._open_and_play()
        except asyncio.CancelledError:
            if not pressed:
                raise
            task.uncancel()
            self.interrupted()
            return INTERRUPTED
        finally:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(signal.SIGINT)

    async def _open_and_play(self) -> int:
        with tempfile.TemporaryDirectory(prefix="deucebot-") as tmp:
            path = self.args.db or str(Path(tmp) / "play.sqlite3")
            storage = await open_storage(path, synchronous=self.settings.db_synchronous)
            try:
                return await self._run(storage)
            finally:
                await storage.close()

    async def _run(self, storage: Storage) -> int:
        args = self.args
        delay = self.settings.ai_delay if args.ai_delay is None else args.ai_delay
        turn_seconds = args.turn_seconds or 0
        manager = TableManager(
            storage,
            self.front,
            config=RuntimeConfig(ai_delay=delay, ai_in_thread=True, timers=turn_seconds > 0),
        )
        try:
            await manager.restore()
            table = await self._table(manager, turn_seconds)
            return await self._loop(table)
        finally:
            await manager.close()

    async def _table(self, manager: TableManager, turn_seconds: int) -> Table:
        args = self.args
        place = place_of(manager.spec(args.game).name)
        table = manager.find(place)
        if table is not None:
            self._name_ignored_flags(table)
        if table is not None and table.status == "playing":
            self.say("console.resumed", BOLD, turn=table.turn)
            return table
        if table is not None:
            if table.status == "finished":
                self.say("console.new_match", BOLD)
            await table.restart(seed=args.seed) if table.match else await table.start(args.seed)
            return table
        spec = manager.spec(args.game)
        fields = spec.config_type.model_fields
        settings: dict[str, Any] = {}
        if args.deals is not None and "deals" in fields:
            settings["deals"] = args.deals
        if args.seats is not None and "seats" in fields:
            settings["seats"] = args.seats
        options: dict[str, Any] = {"turn_seconds": turn_seconds, "lang": self.lang}
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
            owner=Player(HUMAN_ID, args.name),
        )
        await table.start(seed=args.seed)
        return table

    def _name_ignored_flags(self, table: Table) -> None:
        """A saved table keeps its settings: name each flag asking for another value."""
        args = self.args
        config = table.spec.make_config(**table.settings)
        policy = table.options.ai_policy or table.options.ai_level
        asked: list[tuple[str, object, object]] = [
            ("--seats", args.seats, len(table.seats)),
            ("--deals", args.deals, getattr(config, "deals", args.deals)),
            ("--ai", args.ai, policy),
            ("--turn-seconds", args.turn_seconds, table.options.turn_seconds),
        ]
        ignored = [
            t("console.kept_setting", self.lang, flag=flag, saved=saved, asked=wanted)
            for flag, wanted, saved in asked
            if wanted is not None and wanted != saved
        ]
        if ignored:
            self.say("console.kept_settings", settings="; ".join(ignored))

    async def _wait_for_you(self, table: Table, seat: int) -> None:
        """Let the AI play until it is your turn or the match is over."""
        while not table.finished and table.status == "playing":
            if table.to_act == seat and not table.seats[seat].away:
                return
            if table.seats[seat].away:
                return
            await table.idle()
            if table.to_act != seat:
                await asyncio.sleep(0.01)

    async def _readline(self) -> str | None:
        line = await self.lines.readline()
        return None if line is None else line.strip()

    def _board(self, table: Table, seat: int) -> None:
        self.front.line("")
        self.front.line(
            self.renderer.board(table.view(None), addressed_names(table), self.lang), BOLD
        )
        self.front.line(level_text(table.options, self.lang))
        self.front.line(self.renderer.hand(table.view(seat), self.lang))

    async def _loop(self, table: Table) -> int:
        seat = table.seat_of(HUMAN_ID)
        if seat is None:
            seat = await table.join(Player(HUMAN_ID, self.args.name))
        hint_rng = random.Random(self.args.seed)
        shown_turn = -1
        while True:
            await self._wait_for_you(table, seat)
            if table.finished:
                self.front.line(
                    self.renderer.board(table.view(None), addressed_names(table), self.lang), BOLD
                )
                self.say("console.finished", BOLD)
                return 0
            away = table.seats[seat].away
            if away:
                self.say("console.you_are_away")
            elif shown_turn != table.turn:
                self._board(table, seat)
                shown_turn = table.turn
            if self.colour:
                print(t("console.prompt", self.lang), end="", file=self.out, flush=True)
            else:
                self.say("console.prompt")
            text = await self._readline()
            if text is None:
                self.say(self._goodbye)
                return 0
            command = text.lower()
            if not command:
                continue
            if command in ("quit", "exit", "q"):
                self.say(self._goodbye)
                return 0
            if command in ("help", "?", "h"):
                self.front.line(self.renderer.input_help(self.lang))
                self.say("console.help")
                continue
            if command in ("back",):
                try:
                    await table.back(HUMAN_ID)
                except TableError as error:
                    self.say("console.refused", error=explain(error, self.lang))
                shown_turn = -1
                continue
            if command in ("board", "hand", "show"):
                shown_turn = -1
                continue
            if away:
                self.say("console.you_are_away")
                continue
            view = table.view(seat)
            if command == "hint":
                policy = table.spec.make_policy(table.spec.default_policy, hint_rng)
                suggestion = await asyncio.to_thread(policy.decide, view)
                self.say("console.hint", action=pretty_cards(str(suggestion)))
                continue
            try:
                action = self.renderer.parse_input(text, view)
                await table.act(HUMAN_ID, action, turn=table.turn)
            except (IllegalAction, CardParseError) as error:
                self.say("console.refused", error=explain(error, self.lang))
                continue


def run_console(args: argparse.Namespace) -> int:
    """`deucebot play GAME`: entry point called by bot.cli."""
    console = Console(args, sys.stdin, sys.stdout)
    try:
        return asyncio.run(console.run())
    except TableError as error:
        print(f"deucebot: {explain(error, console.lang)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C where the loop cannot catch it (Windows)
        console.interrupted()
        return INTERRUPTED


def format_leaderboard(board: Leaderboard, lang: str) -> str:
    """The leaderboard as a text table (humans ranked, then unranked, then AI seats)."""
    lines = [
        t(
            "console.board.title",
            lang,
            game=board.game,
            period=t(f"console.period.{board.period}", lang),
        )
    ]
    if board.scoring == "penalty":
        header = t("console.board.penalty_header", lang)

        def row(r: PenaltyRow) -> str:
            best = "-" if r.best_match is None else str(r.best_match)
            return (
                f"{r.name[:20]:<20} {r.matches:>7} {r.wins:>5} {r.deals:>6} "
                f"{r.average_penalty:>8.2f} {best:>5}"
            )
    else:
        header = t("console.board.chip_header", lang)

        def row(r: ChipRow) -> str:  # type: ignore[misc]
            return f"{r.name[:20]:<20} {r.matches:>7} {r.wins:>5} {r.net_chips:>9} {r.hands:>6}"

    sections = [("console.board.humans", board.humans), ("console.board.unranked", board.unranked)]
    sections.append(("console.board.ai", board.ai))
    empty = True
    for key, rows in sections:
        if not rows:
            continue
        empty = False
        lines.append("")
        lines.append(t(key, lang, min_deals=board.min_deals))
        lines.append(header)
        for rank, r in enumerate(rows, 1):
            lines.append(f"{rank:>3}. {row(r)}")
    if empty:
        lines.append(t("console.board.empty", lang))
    return "\n".join(lines)


async def _leaderboard(args: argparse.Namespace) -> str:
    settings = load_settings()
    lang = normalise_language(getattr(args, "lang", None) or settings.language)
    from engines.registry import get_game

    spec = get_game(args.game)
    scoring = spec.scoring
    path = args.db or settings.db
    if not is_postgres_url(path) and not is_memory(path) and not Path(path).exists():
        return t("console.board.no_db", lang, path=path)
    storage = await open_storage(path, read_only=True)
    try:
        board = await storage.leaderboard(
            guild=args.guild, game=spec.name, scoring=scoring, period=args.period, now=time.time()
        )
    finally:
        await storage.close()
    return format_leaderboard(board, lang)


def print_leaderboard(args: argparse.Namespace) -> int:
    """`deucebot leaderboard GAME --db PATH`: entry point called by bot.cli."""
    print(asyncio.run(_leaderboard(args)))
    return 0
