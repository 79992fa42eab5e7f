"""The terminal front: `deucebot play GAME` (you against AI players) and `deucebot leaderboard`.

It runs on the same runtime and storage as the Discord bot: the table lives at the place
``terminal:<game>`` in a SQLite file (`--db`, or a temporary file), so killing the process
at any moment and running the same command again resumes the match at the last accepted
action. Generic over games: it only uses the game's `SPEC` and its renderer
(`bot.render.<game>.RENDERER`); only that game's table is resumed from the database (another
game's unfinished table there is left as saved). A line typed while it is not your turn is
answered at once or refused, never kept for a later prompt; a file on stdin is a script (a
line read at each prompt). Colour only when stdout is a terminal. Ctrl-C ends it at once
(stdin is read without a thread, see `bot.terminal.lines`), saying whether the match is saved. A
resumed match keeps its saved settings; flags that ask for others are named. `deucebot
leaderboard` opens the database read-only.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import math
import random
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple, TextIO

from bot.errors import AnyRefusal, Refusal
from bot.i18n import Addressee, explain, normalise_language, pretty_cards, t
from bot.levels import level_text
from bot.process.settings import load_settings
from bot.render import GameRenderer, get_renderer
from bot.render.fair import fair_line
from bot.render.runtime_events import RuntimeWording, runtime_line
from bot.render.words import UNREAD, closest, move_words
from bot.runtime import (
    Clock,
    MatchStarted,
    Player,
    SystemClock,
    Table,
    TableError,
    TableManager,
    TableSnapshot,
)
from bot.terminal.lines import LineReader
from bot.terminal.opening import HUMAN_ID as HUMAN_ID
from bot.terminal.opening import open_table, play_config, play_database, player_name
from bot.terminal.opening import place_of as place_of
from engines.base import DealSettled, DealStarted, Event, IllegalAction
from engines.cards import CardParseError
from engines.registry import get_game
from storage import ChipRow, Leaderboard, PenaltyRow, Storage, is_postgres_url, open_storage
from storage.opening import is_memory

INTERRUPTED = 130
"""Exit code after Ctrl-C (128 + SIGINT, as shells report it)."""
BOLD, DIM, RESET = "\x1b[1m", "\x1b[2m", "\x1b[0m"
WATCHED = frozenset({"deal_started", "showdown", "pot_awarded", "eliminated", "match_ended"})
"""The kinds of event printed while you watch after being knocked out: a summary per deal."""
DEAL_PAUSE = 3.0
"""The longest pause between two deals, to read the result (twice the AI delay below that)."""
QUIT = frozenset({"quit", "exit", "q"})
WATCH = frozenset({"watch", "w"})
NEW = frozenset({"new", "n"})
OUT_SHOWN = -2
"""The shown turn once the choices of a knocked-out player are printed (and their prompt)."""
AWAY = -3
"""The away notice's prompt (your turn's prompt is its turn number)."""
HELP = frozenset({"help", "?", "h"})
BOARD = frozenset({"board", "hand", "show"})
HURRY_AT = 10.0
"""Seconds left on your turn's timer when you are warned (a third of a shorter timer)."""
ECHO = 40
"""The most characters of a typed line a message repeats (then "…")."""


def echoed(text: str) -> str:
    """What a message may repeat of a typed `text`: at most `ECHO` characters, then "…"."""
    return text if len(text) <= ECHO else text[:ECHO] + "…"


def short_refusal(error: AnyRefusal | CardParseError) -> AnyRefusal | CardParseError:
    """`error` with the typed text it quotes cut to `echoed` (a pasted page is never
    printed back whole)."""
    if isinstance(error, CardParseError):
        return error if len(error.token) <= ECHO else CardParseError(echoed(error.token))
    params = {k: echoed(v) if isinstance(v, str) else v for k, v in error.params.items()}
    kind = Refusal if isinstance(error, Refusal) else IllegalAction
    return kind(echoed(error.message), code=error.code, **params)


def _seat_name(names: Sequence[str], seat: int, name: str) -> str:
    """The seat's current name (an `Addressee` for you) when it is still the same person,
    else the name the event carries."""
    same = seat < len(names) and names[seat] == name
    return names[seat] if same else name


TERMINAL = RuntimeWording(
    keys={
        "match_started": "console.event.match_started",
        "turn_timed_out": "console.event.timed_out",
        "seat_away": "console.event.away",
        "seat_back": "console.event.back",
        "player_joined": "console.event.joined",
        "player_left": "console.event.left",
    },
    seat_name=_seat_name,
    public=False,
)
"""The runtime's events as the terminal says them (yours in the second person)."""


def addressed_names(table: Table | TableSnapshot) -> list[str]:
    """The table's names with yours as an `Addressee`, so lines about you read "You sit down"
    (the catalogs' second-person forms)."""
    mine = table.seat_of(HUMAN_ID)
    return [Addressee(name) if seat == mine else name for seat, name in enumerate(table.names)]


class ConsoleFront:
    """Prints event lines as the runtime hands them over (after they are committed)."""

    def __init__(
        self,
        place: str,
        out: TextIO,
        lang: str,
        colour: bool,
        deal_pause: float = 0.0,
        verifiable: bool = True,
    ) -> None:
        """Print the table in `place` (deliveries of any other table are not shown) to `out`
        in `lang`; `colour` adds ANSI styling (terminals only); between two deals the
        standings are printed, then a pause of `deal_pause` seconds. Each table is read
        with its own game's renderer, never another game's. `verifiable`: the match is
        saved (--db), so the match end's reveal may point at `deucebot verify`."""
        self.place = place
        self.out = out
        self.lang = lang
        self.colour = colour
        self.deal_pause = deal_pause
        self.verifiable = verifiable
        self.watching = False
        """Set once you are out and watch: only each deal's outcome is printed."""
        self.quiet = False
        """Set while you are out and have not chosen yet: nothing is printed meanwhile."""
        self.changed = asyncio.Event()
        """Set at every delivery (the console waits on it for the table to move)."""

    def line(self, text: str, style: str = "") -> None:
        """Print one line (styled when colour is on)."""
        if self.colour and style:
            text = f"{style}{text}{RESET}"
        print(text, file=self.out, flush=True)

    def _runtime_event(
        self, event: Event, names: Sequence[str], renderer: GameRenderer
    ) -> str | None:
        return runtime_line(event, names, self.lang, renderer, TERMINAL)

    async def show(self, table: TableSnapshot, events: Sequence[Event]) -> None:
        """Print a line for each event worth one (while watching, only the outcomes). When a
        deal ends and the match goes on: the standings, then the pause, before the next
        deal's lines."""
        if self.quiet or table.place != self.place:
            return
        renderer = get_renderer(table.game)
        names = addressed_names(table)
        settled = False
        for event in events:
            if isinstance(event, DealStarted) and settled:
                await self._between_deals(table, names, renderer)
                settled = False
            if isinstance(event, DealSettled):
                settled = True
            if self.watching and event.kind not in WATCHED:
                continue
            text = self._runtime_event(event, names, renderer)
            if text is None:
                text = renderer.event(event, names, self.lang)
            fair = (
                None
                if self.watching
                else fair_line(event, self.lang, table.game, verifiable=self.verifiable)
            )
            # Who you play against is said as the match starts, not only at your turn.
            level = (
                level_text(table.options, self.lang) if isinstance(event, MatchStarted) else None
            )
            for line in (text, level, fair):
                if line:
                    self.line(line, DIM if event.to is not None else "")
        if settled and not table.finished and table.to_act is not None:
            await self._between_deals(table, names, renderer)

    async def _between_deals(
        self, table: TableSnapshot, names: Sequence[str], renderer: GameRenderer
    ) -> None:
        self.line(renderer.standings(table.view(None), names, self.lang))
        if self.deal_pause > 0:
            await asyncio.sleep(self.deal_pause)

    async def public(self, table: TableSnapshot, events: Sequence[Event]) -> None:
        """Public events: one line each."""
        await self.show(table, events)
        self.changed.set()

    async def private(
        self, table: TableSnapshot, seat: int, player: Player, events: Sequence[Event]
    ) -> None:
        """Your private events (your cards)."""
        await self.show(table, events)

    async def refresh(self, table: TableSnapshot) -> None:
        """The board is printed when it is your turn, not at every change; a delivery ends
        here (the console looks again)."""
        if table.place == self.place:
            self.changed.set()

    async def caught_up(self, table_id: int, turn: int, within: float) -> None:
        """Every move is printed as it is made: never behind."""


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
        self.place = place_of(get_game(args.game).name)
        delay = settings.ai_delay if args.ai_delay is None else args.ai_delay
        self.front = ConsoleFront(
            self.place,
            out,
            self.lang,
            self.colour,
            deal_pause=min(DEAL_PAUSE, 2 * delay),
            verifiable=self.saved,
        )
        self.inbox = Inbox()
        self.clock: Clock = SystemClock()
        """The runtime's clock (the turn timer's), once the runtime runs."""
        self.timers = False
        """Whether turn timers run in this session (`--turn-seconds`)."""

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
        with play_database(self.args.db) as path:
            storage = await open_storage(path, synchronous=self.settings.db_synchronous)
            try:
                return await self._run(storage)
            finally:
                await storage.close()

    async def _run(self, storage: Storage) -> int:
        config = play_config(self.args, self.settings)
        manager = TableManager(storage, self.front, config=config)
        self.clock, self.timers = manager.clock, config.timers
        try:
            # Only this game's table: another game's unfinished table in the same database
            # stays as it was saved (no AI moves nobody watches) until its own `play`.
            await manager.restore(places={self.place})
            table = await self._table(manager)
            return await self._loop(table)
        finally:
            await manager.close()

    async def _table(self, manager: TableManager) -> Table:
        opened = await open_table(manager, self.args, self.lang)
        news = opened.news(self.lang)
        for line, style in ((opened.kept, ""), (news, BOLD)):
            if line:
                self.front.line(line, style)
        if opened.was == "playing":
            self.front.line(level_text(opened.table.options, self.lang))
        return opened.table

    async def _wait_for_you(
        self, table: Table, seat: int
    ) -> tuple[TableSnapshot, int | None] | None:
        """Let the AI play until it is your turn, you are away or out, or the match is over,
        and return the table then, as delivered, with the prompt due (`_due`); None once you
        quit. Lines typed meanwhile are answered as they come (`_out_of_turn`): none is kept
        for a later prompt."""
        while True:
            self.front.changed.clear()
            head = self.inbox.peek()
            if head is not None and (head.text is None or head.text.lower() in QUIT):
                self.say(self._goodbye)  # at once, even in the pause between two deals
                return None
            # The table once every delivery in flight is printed (it runs under the table's
            # lock): a deal's opening lines and the pause between deals come before the
            # board and prompt they lead to, never after (the live state is ahead of them).
            now = await table.committed(seat)
            due = self._due(table, now, seat)
            if now.status != "playing":
                return now, due
            head = self.inbox.peek()
            if head is not None and (due is None or head.prompt != due):
                self.inbox.pop()
                if await self._out_of_turn(table, seat, now, head.text):
                    return None
                continue
            if due is not None:
                return now, due
            self.inbox.prompt = None
            known = self.inbox.arrived
            # Shielded: cancelling idle() would cancel the AI turn it waits for.
            idle = asyncio.ensure_future(asyncio.shield(table.idle()))
            typed = asyncio.ensure_future(self.inbox.arrival(known))
            moved = asyncio.ensure_future(self.front.changed.wait())
            waits: set[asyncio.Future[Any]] = {idle, typed, moved}
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            for task in waits:
                task.cancel()
            if table.to_act != seat:
                await asyncio.sleep(0.01)

    def _due(self, table: Table, now: TableSnapshot, seat: int) -> int | None:
        """The prompt due at `now`: `OUT_SHOWN` (out of the match, not watching), `AWAY`, or
        your turn's (its turn number; unless auto-pass plays it); None: no prompt."""
        out = bool(self.renderer.eliminated(now.view(seat)))
        if out and not self.front.watching:
            return OUT_SHOWN
        if now.seats[seat].away:
            return OUT_SHOWN if out else AWAY
        if now.to_act == seat and not table.will_autopass(seat):
            return OUT_SHOWN if out else now.turn
        return None

    async def _out_of_turn(
        self, table: Table, seat: int, now: TableSnapshot, text: str | None
    ) -> bool:
        """Answer a line typed while no prompt waited for it (the AI playing, or before the
        prompt it would answer): quit, help, board, autopass and (watching) new are done at
        once; any other line is refused as not your turn and dropped, never played later.
        True once you quit (or the input closed)."""
        command = (text or "").lower()
        if text is None or command in QUIT:
            self.say(self._goodbye)
            return True
        if not command:
            return False
        if command in HELP:
            self._help(table, seat, bool(self.renderer.eliminated(now.view(seat))))
        elif command in BOARD:
            self._board(now, seat)
        elif self.front.watching and command in NEW:
            await self._new_match(table)
        elif self._autopass(table, command):
            pass
        elif self.front.watching:
            self.say("console.out.watching")
        else:
            self.say("console.turn.not_yours", text=echoed(text))
        return False

    async def _new_match(self, table: Table) -> None:
        """`new` once you are out: a new match with fresh stacks, printed again."""
        self.front.watching = self.front.quiet = False
        self.say("console.out.new", BOLD)
        await table.restart(seed=None)

    def _board(self, now: TableSnapshot, seat: int) -> None:
        self.front.line("")
        self.front.line(self.renderer.board(now.view(None), addressed_names(now), self.lang), BOLD)
        self.front.line(self.renderer.hand(now.view(seat), self.lang))

    def _show(self, now: TableSnapshot, seat: int, out: bool, away: bool, shown_turn: int) -> int:
        """Before a prompt: the choices once you are out, the away notice, or the table when
        it moved since it was last shown, and the time left on your turn; then the prompt.
        Returns the turn shown."""
        if out:
            if shown_turn != OUT_SHOWN:
                self.front.quiet = not self.front.watching
                self.say("console.out.choices", BOLD)
                shown_turn = OUT_SHOWN
        elif away:
            self.say("console.you_are_away")
        else:
            if shown_turn != now.turn:
                self._board(now, seat)
                shown_turn = now.turn
            left = self._time_left(now)
            if left is not None:
                self.say("console.turn.time_left", seconds=math.ceil(left))
        self._prompt()
        return shown_turn

    def _prompt(self) -> None:
        if self.colour:
            print(t("console.prompt", self.lang), end="", file=self.out, flush=True)
        else:
            self.say("console.prompt")

    def _time_left(self, now: TableSnapshot) -> float | None:
        """Seconds left on the turn timer of `now`'s turn (None: no timer runs for it)."""
        if not self.timers or now.deadline is None or now.deadline_turn != now.turn:
            return None
        return max(0.0, now.deadline - self.clock.now())

    async def _answer(self, table: Table, now: TableSnapshot | None) -> Typed | None:
        """The next line typed at the prompt. For your turn's prompt (`now` given): None once
        the turn moved on without you (your time ran out: the next turn gets its board and
        prompt), and a warning when little time is left."""
        hurry: float | None = None  # when (clock time) you are warned, if still to come
        if now is not None and now.deadline is not None and self._time_left(now) is not None:
            hurry = now.deadline - min(HURRY_AT, now.options.turn_seconds / 3)
            if hurry <= self.clock.now():
                hurry = None  # the time left shown with the prompt says it already
        while True:
            if self.inbox.pending or self.inbox.scripted:
                return await self.inbox.get()
            self.front.changed.clear()
            if now is not None and table.turn != now.turn:
                return None
            known = self.inbox.arrived
            typed = asyncio.ensure_future(self.inbox.arrival(known))
            moved = asyncio.ensure_future(self.front.changed.wait())
            waits: set[asyncio.Future[Any]] = {typed, moved}
            warning = None
            if hurry is not None:
                warning = asyncio.ensure_future(asyncio.sleep(max(0.0, hurry - self.clock.now())))
                waits.add(warning)
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            for task in waits:
                task.cancel()
            if warning is not None and warning.done() and not warning.cancelled():
                hurry = None
                assert now is not None
                left = self._time_left(now)
                if table.turn == now.turn and left is not None:
                    self.say("console.turn.hurry", seconds=math.ceil(left))
                    self._prompt()

    def _help(self, table: Table, seat: int, out: bool) -> None:
        """What can be typed now: the game's moves when it is your turn, and the commands
        that do something at this moment (`back` only while away)."""
        if out:
            self.say("console.out.choices")
            return
        away = table.seats[seat].away
        if not away:
            self.front.line(self.renderer.input_help(self.lang, table.view(seat)))
        self.say("console.help.away" if away else "console.help")
        if self._has_pass and not away:
            state = "on" if table.autopasses(HUMAN_ID) else "off"
            self.say("console.help.autopass", state=t(f"console.autopass.{state}", self.lang))

    def _near_command(self, text: str, out: bool) -> str | None:
        """`text` with its first word made the command it nearly is (``wtach``, ``autopas
        on``), among those that do something now; None when it is no near miss."""
        words = text.split()
        if not words:
            return None
        if out:
            commands = ["watch", "new", "quit", "help", "board"]
        else:
            commands = ["quit", "help", "hint", "board", "back"]
            commands += ["autopass"] if self._has_pass else []
        found = closest(words[0], commands)
        return None if found is None else " ".join([found, *words[1:]])

    def _did_you_mean(self, text: str, out: bool) -> bool:
        """Say "did you mean ...?" when `text` nearly is a command; True when said."""
        meant = self._near_command(text, out)
        if meant is None:
            return False
        self.say("console.did_you_mean", text=echoed(text), meant=echoed(meant))
        return True

    @property
    def _has_pass(self) -> bool:
        """Whether the game has a pass (Big Two): auto-pass is offered then."""
        return "pass" in move_words(self.renderer.move_areas, "en")

    def _autopass(self, table: Table, command: str) -> bool:
        """`autopass on` / `autopass off`: True when `command` was one (answered)."""
        words = command.split()
        if not words or words[0] != "autopass" or not self._has_pass:
            return False
        if words[1:] not in (["on"], ["off"]):
            self.say("console.autopass.how")
            return True
        on = words[1] == "on"
        table.set_autopass(HUMAN_ID, on)
        self.say("console.autopass.set", state=t(f"console.autopass.{words[1]}", self.lang))
        return True

    async def _loop(self, table: Table) -> int:
        seat = table.seat_of(HUMAN_ID)
        if seat is None:
            seat = await table.join(Player(HUMAN_ID, player_name(self.args, self.lang)))
        self.inbox.start(self.lines)
        try:
            return await self._prompts(table, seat)
        finally:
            self.inbox.stop()

    async def _prompts(self, table: Table, seat: int) -> int:
        hint_rng = random.Random(self.args.seed)
        shown_turn = -1
        while True:
            waited = await self._wait_for_you(table, seat)
            if waited is None:
                return 0
            now, due = waited
            if now.finished:
                self.front.line(
                    self.renderer.board(now.view(None), addressed_names(now), self.lang), BOLD
                )
                self.say("console.finished", BOLD)
                return 0
            if due is None:
                continue
            out, away = due == OUT_SHOWN, due == AWAY
            shown_turn = self._show(now, seat, out, away, shown_turn)
            self.inbox.prompt = due
            typed = await self._answer(table, None if out or away else now)
            if typed is None:  # the turn moved on without you (your time ran out)
                continue
            text = typed.text
            if typed.prompt != due:  # typed before this prompt: it does not answer it
                if await self._out_of_turn(table, seat, now, text):
                    return 0
                continue
            if text is None:
                self.say(self._goodbye)
                return 0
            command = text.lower()
            if not command:
                continue
            if command in QUIT:
                self.say(self._goodbye)
                return 0
            if command in HELP:
                self._help(table, seat, out)
                continue
            if command in BOARD:
                shown_turn = -1
                continue
            if out:
                if command in WATCH:
                    self.front.watching, self.front.quiet = True, False
                    self.say("console.out.watching")
                elif command in NEW:
                    await self._new_match(table)
                    shown_turn = -1
                elif not self._did_you_mean(text, out):
                    self.say("console.out.choices")
                continue
            if command in ("back",):
                try:
                    await table.back(HUMAN_ID)
                except TableError as error:
                    self.say("console.refused", error=explain(error, self.lang))
                shown_turn = -1
                continue
            if self._autopass(table, command):
                continue
            if away:
                self.say("console.you_are_away")
                continue
            view = now.view(seat)
            if command == "hint":
                policy = table.spec.make_policy(table.spec.default_policy, hint_rng)
                suggestion = await asyncio.to_thread(policy.decide, view)
                self.say("console.hint", action=pretty_cards(str(suggestion)))
                continue
            try:
                action = self.renderer.parse_input(text, view)
                # Made for this prompt's turn: if the table moved on meanwhile (your time
                # ran out), the runtime refuses it rather than play it at another turn.
                await table.act(HUMAN_ID, action, turn=now.turn)
            except (IllegalAction, Refusal, CardParseError) as error:
                unread = isinstance(error, CardParseError) or error.code in UNREAD
                if unread and self._did_you_mean(text, out):
                    continue
                self.say("console.refused", error=explain(short_refusal(error), self.lang))
                continue


class Typed(NamedTuple):
    """A line as it came in, and the prompt that was open then."""

    text: str | None
    """The line, stripped (None: the input is closed)."""
    prompt: int | None
    """`Inbox.prompt` when it arrived: the prompt it answers (None: no prompt was open)."""


class Inbox:
    """The lines you type, read as they come (also while the AI plays), so `quit` is
    answered at once; each is stamped with the prompt open when it arrived, so a line typed
    before a prompt is never taken for its answer. A script (a file, not a terminal or a
    pipe) is read a line at a time, as prompts ask."""

    def __init__(self) -> None:
        """An empty inbox; `start` begins reading."""
        self._lines: collections.deque[Typed] = collections.deque()
        self._arrived = 0
        self._changed = asyncio.Condition()
        self._task: asyncio.Task[None] | None = None
        self._script: LineReader | None = None
        self.prompt: int | None = None
        """The prompt open now (`Console._due`), None while none is: what lines are
        stamped with as they arrive."""

    def start(self, reader: LineReader) -> None:
        """Read `reader` in the background until it ends (None is queued then); a script
        is read only when a line is asked for."""
        if reader.live:
            self._task = asyncio.ensure_future(self._read(reader))
        else:
            self._script = reader

    @property
    def scripted(self) -> bool:
        """True for a script: lines are read when asked for, never in the background."""
        return self._script is not None

    def stop(self) -> None:
        """Stop reading."""
        if self._task is not None:
            self._task.cancel()

    async def _read(self, reader: LineReader) -> None:
        while True:
            line = await reader.readline()
            await self._arrive(line)
            if line is None:
                return

    async def _arrive(self, line: str | None) -> None:
        self._lines.append(Typed(None if line is None else line.strip(), self.prompt))
        self._arrived += 1
        async with self._changed:
            self._changed.notify_all()

    @property
    def pending(self) -> bool:
        """True when a line is waiting."""
        return bool(self._lines)

    def peek(self) -> Typed | None:
        """The next line waiting, left in place (None: none is)."""
        return self._lines[0] if self._lines else None

    def pop(self) -> Typed:
        """Take the next line waiting (there must be one)."""
        typed = self._lines.popleft()
        if typed.text is None:
            self._lines.appendleft(typed)  # closed for good: every later read sees it too
        return typed

    @property
    def arrived(self) -> int:
        """How many lines have arrived so far."""
        return self._arrived

    async def arrival(self, known: int) -> None:
        """Wait until more than `known` lines have arrived."""
        async with self._changed:
            await self._changed.wait_for(lambda: self._arrived > known)

    async def get(self) -> Typed:
        """The next line (its text None: the input is closed)."""
        if self._script is not None and not self._lines:
            await self._arrive(await self._script.readline())
        while not self._lines:
            await self.arrival(self._arrived)
        return self.pop()


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
        # Without --db the default file; `play` saves only where --db says.
        key = "console.board.no_db" if args.db else "console.board.no_db.default"
        return t(key, lang, path=path)
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
