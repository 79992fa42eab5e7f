"""The web front's journal: a page that comes back gets exactly the entries of its audience
it missed, or a fresh state when the journal no longer reaches back."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.web import front
from bot.web.front import Entry, Journal, deals
from engines.base import DealSettled, DealStarted, Event

AUDIENCES = st.one_of(st.none(), st.integers(0, 3))


def entry(turn: int, to: int | None) -> Entry:
    return Entry(turn, to, "holdem", ("a", "b", "c", "d"), ())


@given(
    steps=st.lists(st.tuples(st.integers(0, 2), AUDIENCES), max_size=40),
    since=st.integers(-1, 60),
    seat=AUDIENCES,
    size=st.integers(1, 8),
    ahead=st.integers(0, 3),
)
def test_a_page_gets_exactly_what_it_missed(
    steps: list[tuple[int, int | None]], since: int, seat: int | None, size: int, ahead: int
) -> None:
    keep = front.JOURNAL_SIZE
    front.JOURNAL_SIZE = size
    try:
        journal = Journal(floor=4)
        turn = 5
        added: list[Entry] = []
        for gap, to in steps:
            turn += gap
            added.append(entry(turn, to))
            journal.add(added[-1])
        forgotten = added[: max(0, len(added) - size)]
        floor = forgotten[-1].turn if forgotten else 4
        # The page's snapshot may be `ahead` turns behind the journal's newest entries.
        upto = turn - ahead
        got = journal.since(since, upto, seat)
        if since < floor:
            assert got is None
        else:
            assert got == [
                e
                for e in added
                if since < e.turn <= upto and (e.to is None or e.to == seat) and e not in forgotten
            ]
            # Nothing it may not see: another seat's entries never reach it.
            assert all(e.to in (None, seat) for e in got)
    finally:
        front.JOURNAL_SIZE = keep


def test_a_deals_result_and_the_next_deals_opening_are_apart() -> None:
    settled = DealSettled(deal=1)
    started = DealStarted(deal=2, dealer=0)
    other: Event = DealStarted(deal=3, dealer=1)
    assert deals([settled, started]) == [(settled,), (started,)]
    assert deals([started, other]) == [(started,), (other,)]
    assert deals([]) == []
