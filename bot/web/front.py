"""`WebFront`: the runtime's `Front` for browser tables.

The runtime hands it committed events under the table's lock; it keeps them, in log order,
in a bounded journal per place (each entry stamped with the turn it was committed at and
its audience: public, or one seat), and wakes the connections watching that place. Each
connection (`bot.web.server`) then takes the committed snapshot of its own seat and sends
its viewer the journal's entries it has not seen (only its audience's) and the new state.
So the front itself never touches a socket, never waits on a slow client, and hands no view
out: a connection can only read the events of its own seat and the public ones, and a frame
built for another page (`FrameCache`) only when it is the frame of its own snapshot.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections import Counter, deque
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.web.frames import (
    Pictured,
    addressed,
    encode,
    event_lines,
    log_frame,
    out_choice,
    page_names,
    pictured,
    seconds_left,
    state_frame,
)
from engines.base import DealSettled, DealStarted, Event

if TYPE_CHECKING:
    from bot.runtime.seats import Player
    from bot.runtime.snapshot import TableSnapshot

JOURNAL_SIZE = 512
"""Entries kept per place: a page that comes back further behind gets a fresh state."""
COUNT_LANG = "en"
"""The language the journal counts an entry's lines in: a line is shown in every language
or in none (`tests/bot/web/test_web_log_numbers.py`), so any would do."""


@dataclass(frozen=True, slots=True)
class Entry:
    """Events committed at `turn` (the turn of the state that shows them) for `to` (None:
    everyone at the place; else that seat's owner then, the player `owner`), with the names
    they read with."""

    turn: int
    to: int | None
    game: str
    names: tuple[str, ...]
    events: tuple[Event, ...]
    owner: str | None = None

    @property
    def deal_end(self) -> bool:
        """True when a deal's result is among the events."""
        return any(isinstance(e, DealSettled) for e in self.events)


def line_counts(entry: Entry) -> dict[Hashable, int]:
    """How many lines `entry` shows each audience: a public entry each seat's pages (its
    lines said to that seat, who may see one of them in a line of their own) and the
    spectators'; a private entry the pages of its seat's owner then."""
    if entry.to is not None:
        lines = event_lines(entry.game, entry.events, addressed(entry.names, entry.to), COUNT_LANG)
        return {("private", entry.to, entry.owner): len(lines)}
    return {
        ("public", seat): len(
            event_lines(entry.game, entry.events, addressed(entry.names, seat), COUNT_LANG)
        )
        for seat in (None, *range(len(entry.names)))
    }


def deals(events: Sequence[Event]) -> list[tuple[Event, ...]]:
    """`events` cut before each deal's start (every run non-empty)."""
    runs: list[list[Event]] = []
    for event in events:
        if not runs or isinstance(event, DealStarted):
            runs.append([])
        runs[-1].append(event)
    return [tuple(run) for run in runs]


class Journal:
    """One place's recent entries, and the turn from which it holds every one; and how many
    lines each audience was shown before each entry (forgotten entries counted too), so an
    entry's lines have the same numbers on every page of one audience, whenever it opened."""

    def __init__(self, floor: int, table_id: int | None = None) -> None:
        """Start empty, complete for turns after `floor`, for the table `table_id`."""
        self.entries: deque[Entry] = deque()
        self.floor = floor
        self.table_id = table_id
        self._lines: Counter[Hashable] = Counter()
        self._before: dict[int, Mapping[Hashable, int]] = {}
        """`id` of each held entry -> the lines each audience was shown before it."""

    def add(self, entry: Entry) -> None:
        """Keep `entry`, forgetting the oldest past `JOURNAL_SIZE` (the floor rises)."""
        self.entries.append(entry)
        self._before[id(entry)] = dict(self._lines)
        self._lines.update(line_counts(entry))
        while len(self.entries) > JOURNAL_SIZE:
            gone = self.entries.popleft()
            self.floor = gone.turn
            del self._before[id(gone)]

    def first_line(self, entry: Entry, seat: int | None, owner: str | None) -> int | None:
        """The number of `entry`'s first line on the pages of `seat` held by the player
        `owner` (None: the spectators'): one more than the lines they were shown before it,
        their seat's public lines and its private ones while `owner` held it, never another
        audience's. None when `entry` is not held."""
        # Held entries are alive, so no other object has their id.
        before = self._before.get(id(entry))
        if before is None:
            return None
        private = 0 if seat is None else before.get(("private", seat, owner), 0)
        return 1 + before.get(("public", seat), 0) + private

    def since(
        self, turn: int, upto: int, seat: int | None, owner: str | None = None
    ) -> list[Entry] | None:
        """The entries of `seat`'s audience committed after `turn` up to `upto`; None when
        some were forgotten (or never seen: before this process started). A seat's private
        entry reaches only the player who owned the seat when it was committed (`owner`): a
        seat changes hands between matches, and its earlier owner's cards stay theirs."""
        if turn < self.floor:
            return None
        found: list[Entry] = []
        # From the newest back: entries are in turn order, and every page of the place asks
        # at every change for the last few, not for all `JOURNAL_SIZE`.
        for e in reversed(self.entries):
            if e.turn <= turn:
                break
            if e.turn <= upto and (
                e.to is None or (seat is not None and e.to == seat and e.owner == owner)
            ):
                found.append(e)
        found.reverse()
        return found


def same_view(a: Any, b: Any) -> bool:
    """True when the views `a` and `b` hold the same values: equal, or (a view class compared
    by identity, built afresh for every snapshot) of one dataclass with equal fields."""
    if a is b or a == b:
        return True
    if type(a) is not type(b) or not dataclasses.is_dataclass(a):
        return False
    return all(getattr(a, f.name) == getattr(b, f.name) for f in dataclasses.fields(a))


def same_table(a: TableSnapshot, b: TableSnapshot) -> bool:
    """True when the snapshots `a` and `b` hold the same values (their views included), so
    every frame built from one is the frame built from the other."""
    return (
        a._replace(public_view=None, seat_view=None) == b._replace(public_view=None, seat_view=None)
        and same_view(a.public_view, b.public_view)
        and same_view(a.seat_view, b.seat_view)
    )


class FrameCache:
    """One place's frames as last built for its pages, so a turn is worded and encoded once
    per audience and language, not once per page: the spectators' state, each seat's, the
    picture's words they share, and each journal entry's lines.

    A state is served only for a snapshot equal to the one it was built from (`same_table`:
    the same seat, view and all), in the same language at the same second left; a log frame
    only for the same journal entry (the object itself), seat and language. So a page gets
    exactly the frame it would have built, and never one of another seat's view."""

    SIZE = 64
    """Frames kept of each kind (the oldest go first): a few turns of every audience."""

    def __init__(self) -> None:
        """Nothing built yet."""
        self._pictured: dict[Hashable, tuple[TableSnapshot, Pictured]] = {}
        self._states: dict[Hashable, tuple[TableSnapshot, dict[str, Any], str]] = {}
        self._logs: dict[Hashable, tuple[Entry, str | None]] = {}

    @staticmethod
    def _keep(store: dict[Hashable, Any], key: Hashable, value: Any) -> None:
        store.pop(key, None)
        store[key] = value
        while len(store) > FrameCache.SIZE:
            del store[next(iter(store))]

    def _shared(self, table: TableSnapshot, lang: str, now: float) -> Pictured | None:
        """`pictured` of `table`'s spectator view (None before the first deal)."""
        if not table.started:
            return None
        public = table._replace(seat=None, seat_view=None)
        key = (table.id, table.match, table.turn, lang, seconds_left(table, now))
        held = self._pictured.get(key)
        if held is not None and same_table(held[0], public):
            return held[1]
        made = pictured(table, lang, now)
        self._keep(self._pictured, key, (public, made))
        return made

    def state(
        self,
        table: TableSnapshot,
        seat: int | None,
        lang: str,
        now: float,
        fresh: bool,
        restarts: bool = False,
    ) -> tuple[dict[str, Any], str]:
        """`state_frame(table, seat, lang, now)` with ``out`` (`out_choice`, offering a new
        match when the page's server `restarts`) and ``fresh`` added, and its text. The frame
        is shared with other pages: never change it."""
        left = seconds_left(table, now)
        key = (table.id, table.match, table.turn, seat, lang, left, fresh, restarts)
        held = self._states.get(key)
        if held is not None and same_table(held[0], table):
            return held[1], held[2]
        named = page_names(table, lang)
        frame = state_frame(named, seat, lang, now, self._shared(named, lang, now))
        frame["out"] = out_choice(table, seat, lang, restarts=restarts)
        frame["fresh"] = fresh
        text = encode(frame)
        self._keep(self._states, key, (table, frame, text))
        return frame, text

    def log(
        self, entry: Entry, seat: int | None, lang: str, fresh: bool, first: int | None = None
    ) -> str | None:
        """The text of the log frame of `entry` for `seat`'s pages in `lang` (names as they
        read to that seat), its first line numbered `first` (`WebFront.first_line`: the
        same for every page of the audience), None when its events say nothing."""
        key = (id(entry), seat, lang, fresh, first)
        held = self._logs.get(key)
        if held is not None and held[0] is entry:  # held, so its id is not another's
            return held[1]
        lines = event_lines(entry.game, entry.events, addressed(entry.names, seat), lang)
        text = None
        if lines:
            frame = log_frame(entry.turn, lines, deal_end=entry.deal_end)
            text = encode({**frame, "fresh": fresh, "first": first})
        self._keep(self._logs, key, (entry, text))
        return text


class WebFront:
    """Journals committed events per place and wakes the connections watching it."""

    def __init__(self) -> None:
        """No place watched yet."""
        self._journals: dict[str, Journal] = {}
        self._watchers: dict[str, set[asyncio.Event]] = {}
        self._frames: dict[str, FrameCache] = {}

    def watch(self, place: str) -> asyncio.Event:
        """A flag set at every delivery to `place` (a connection waits on it)."""
        flag = asyncio.Event()
        self._watchers.setdefault(place, set()).add(flag)
        return flag

    def unwatch(self, place: str, flag: asyncio.Event) -> None:
        """Stop setting `flag` (its connection closed): nothing is kept for it."""
        flags = self._watchers.get(place)
        if flags is not None:
            flags.discard(flag)
            if not flags:
                del self._watchers[place]
                self._frames.pop(place, None)

    def frames(self, place: str) -> FrameCache:
        """The frames built for `place`'s pages (kept while some page watches it)."""
        cache = self._frames.get(place)
        if cache is None:
            cache = self._frames[place] = FrameCache()
        return cache

    def watchers(self, place: str) -> int:
        """How many connections watch `place`."""
        return len(self._watchers.get(place, ()))

    def since(
        self,
        place: str,
        turn: int,
        upto: int,
        seat: int | None,
        owner: str | None = None,
        table_id: int | None = None,
    ) -> list[Entry] | None:
        """The entries a connection of `seat` (held by the player `owner`) at `place` has not
        seen after `turn` (None: the journal does not reach back that far, or is another
        table's than `table_id` when given: a fresh state is due)."""
        journal = self._journals.get(place)
        if journal is None or (table_id is not None and journal.table_id != table_id):
            return None
        return journal.since(turn, upto, seat, owner)

    def first_line(
        self, place: str, entry: Entry, seat: int | None, owner: str | None = None
    ) -> int | None:
        """`Journal.first_line` of `place`'s journal (None: it holds `entry` no more)."""
        journal = self._journals.get(place)
        return None if journal is None else journal.first_line(entry, seat, owner)

    def _journal(self, table: TableSnapshot, *, events: bool) -> Journal:
        journal = self._journals.get(table.place)
        if journal is None or journal.table_id != table.id:
            # Complete from this delivery on: its events belong to `table.turn`. A new table
            # at the place starts a new journal (its turns count from 0 again).
            journal = Journal(table.turn - 1 if events else table.turn, table.id)
            self._journals[table.place] = journal
        return journal

    def _wake(self, place: str) -> None:
        for flag in self._watchers.get(place, ()):
            flag.set()

    async def public(self, table: TableSnapshot, events: Sequence[Event]) -> None:
        """Journal public events for everyone at the place: a deal's start begins an entry
        of its own, so a deal's result is never shown with the next deal's opening."""
        journal = self._journal(table, events=True)
        for run in deals(events):
            journal.add(Entry(table.turn, None, table.game, tuple(table.names), run))

    async def private(
        self, table: TableSnapshot, seat: int, player: Player, events: Sequence[Event]
    ) -> None:
        """Journal `seat`'s private events, for its owner's connections only."""
        names = tuple(table.names)
        entry = Entry(table.turn, seat, table.game, names, tuple(events), player.id)
        self._journal(table, events=True).add(entry)

    async def refresh(self, table: TableSnapshot) -> None:
        """The table changed: wake its watchers (each reads its own committed snapshot)."""
        self._journal(table, events=False)
        self._wake(table.place)

    async def caught_up(self, table_id: int, turn: int, within: float) -> None:
        """Connections read the committed state themselves: never behind."""
