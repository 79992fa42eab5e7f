"""The numbers of the web page's log lines, at the journal and frame level: every audience
(the spectators, each seat's owner) numbers the lines it is shown 1, 2, 3..., in every
language, whenever its page opened (forgotten entries still counted), and no audience's
numbers move with another's private lines."""

from __future__ import annotations

import json
import random

import pytest

from bot.runtime.replay import new_match_state, opening_events
from bot.web import front
from bot.web.frames import addressed, event_lines
from bot.web.front import Entry, FrameCache, Journal
from engines.base import Event
from engines.play import play_out
from engines.registry import get_game

GAMES = ["bigtwo", "holdem", "draw", "duel"]


def played(game: str, seed: int) -> list[list[Event]]:
    """The events of one all-random match of `game`, action by action (the opening first)."""
    spec = get_game(game)
    state = new_match_state(spec, spec.make_config(), seed, table=1, number=1)
    rng = random.Random(seed)
    runs = [opening_events(state)]
    policies = [spec.make_policy("random", rng) for _ in range(spec.default_seats)]

    def keep(seat: int, action: object, events: list[Event]) -> bool:
        runs.append(events)
        return len(runs) > 120  # enough lines for a page, in a fraction of a second

    play_out(state, policies, on_action=keep)
    return runs


def journal_of(game: str, seed: int) -> tuple[Journal, int]:
    """A journal of a match, as the runtime delivers it: each action's public events one
    entry, each seat's private ones an entry for its owner; seat 0 changes hands halfway."""
    runs = played(game, seed)
    names = tuple(f"P{i}" for i in range(get_game(game).default_seats))
    journal = Journal(floor=0)
    for turn, events in enumerate(runs, start=1):
        public = tuple(e for e in events if e.to is None)
        if public:
            journal.add(Entry(turn, None, game, names, public))
        for seat in sorted({e.to for e in events if e.to is not None}):
            owner = f"p{seat}" if seat or turn < len(runs) // 2 else "q0"
            private = tuple(e for e in events if e.to == seat)
            journal.add(Entry(turn, seat, game, names, private, owner))
    return journal, len(runs)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
def test_each_audience_numbers_its_own_lines_one_by_one(
    game: str, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A short journal: most entries are forgotten, and the numbers go on from them.
    monkeypatch.setattr(front, "JOURNAL_SIZE", 25)
    full, turns = journal_of(game, seed=7)
    monkeypatch.setattr(front, "JOURNAL_SIZE", 10**6)
    whole, _ = journal_of(game, seed=7)
    names = whole.entries[0].names
    audiences = [(None, None), *((s, f"p{s}") for s in range(len(names))), (0, "q0")]
    checked = 0
    for seat, owner in audiences:
        mine = whole.since(0, turns, seat, owner)
        assert mine is not None
        expected: list[int] = []
        number = 1
        for entry in mine:
            expected.append(number)
            number += len(event_lines(game, entry.events, addressed(entry.names, seat), lang))
        assert [whole.first_line(e, seat, owner) for e in mine] == expected
        # The short journal holds the last entries only, numbered as the whole one does.
        kept = full.since(full.floor, turns, seat, owner)
        assert kept is not None and kept
        numbers = [full.first_line(e, seat, owner) for e in kept]
        assert numbers == expected[len(expected) - len(kept) :]
        checked += number - 1
    assert checked > 50


def test_another_audiences_private_lines_never_move_a_number() -> None:
    journal = Journal(floor=0)
    names = ("Ann", "Bob")
    opening = played("duel", seed=3)[0]
    public = tuple(e for e in opening if e.to is None)
    private = tuple(e for e in opening if e.to == 1)
    assert public and private
    journal.add(Entry(1, None, "duel", names, public))
    journal.add(Entry(1, 1, "duel", names, private, "bob"))
    journal.add(Entry(1, 1, "duel", names, private, "bob"))
    last = Entry(2, None, "duel", names, public)
    journal.add(last)
    lines = len(event_lines("duel", public, list(names), "en"))
    # The spectators, Ann, and whoever holds Bob's seat now: only their own lines count.
    assert journal.first_line(last, None, None) == 1 + lines
    assert journal.first_line(last, 0, "ann") == 1 + lines
    assert journal.first_line(last, 1, "carl") == 1 + lines
    mine = len(event_lines("duel", private, addressed(names, 1), "en"))
    assert journal.first_line(last, 1, "bob") == 1 + lines + 2 * mine
    assert journal.first_line(Entry(2, None, "duel", names, public), None, None) is None


def test_a_log_frame_carries_its_number_and_is_kept_per_number() -> None:
    names = ("Ann", "Bob")
    public = tuple(e for e in played("duel", seed=3)[0] if e.to is None)
    entry = Entry(1, None, "duel", names, public)
    frames = FrameCache()
    one = frames.log(entry, 1, "en", False, 3)
    other = frames.log(entry, 1, "en", False, 5)
    assert one is not None and other is not None
    assert json.loads(one)["first"] == 3 and json.loads(other)["first"] == 5
    assert frames.log(entry, 1, "en", False, 3) is one  # built once per audience
