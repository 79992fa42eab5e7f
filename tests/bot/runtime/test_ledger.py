"""`ledger_rows`: events -> deal, chip and penalty rows, a pure function (no asyncio)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.runtime.ledger import LedgerIds, ledger_rows
from engines.base import ChipsBought, DealSettled, DealStarted, Event, MatchEnded
from storage.base import ChipEntry, DealRecord, MatchPlayer, PenaltyEntry

IDS = LedgerIds(guild="g1", game="holdem", match_id=7, at=123.5)
CREDITS = [
    MatchPlayer(0, "42", "Ana", False),
    MatchPlayer(1, "ai:greedy", "greedy AI 2", True),
    MatchPlayer(2, "43", "Bo", False),
]


def test_a_deal_start_gives_its_commitment_row_and_moves_the_deal_on() -> None:
    started = DealStarted(deal=3, dealer=1, commitment="c0" * 32)
    rows = ledger_rows([started], CREDITS, IDS, next_seq=10, deal=2)
    assert rows.deals == [DealRecord(7, 3, 1, "c0" * 32, 10)]
    assert rows.deal == 3
    assert rows.chips == [] and rows.penalties == []


def test_a_buy_in_is_credited_to_the_seat_in_the_deal_in_progress() -> None:
    events: list[Event] = [
        ChipsBought(seat=2, amount=500, reason="rebuy"),
        DealStarted(deal=5, dealer=0, commitment="ab" * 32),
        ChipsBought(seat=1, amount=200, reason="buy-in"),
    ]
    rows = ledger_rows(events, CREDITS, IDS, next_seq=0, deal=4)
    assert rows.chips == [
        ChipEntry("g1", "holdem", 7, 4, 2, "43", False, 500, "rebuy", 123.5),
        ChipEntry("g1", "holdem", 7, 5, 1, "ai:greedy", True, 200, "buy-in", 123.5),
    ]


def test_a_settled_deal_gives_hand_rows_for_seats_dealt_in_even_at_zero() -> None:
    settled = DealSettled(deal=2, chips=(30, 0, -30), dealt=(0, 1, 2))
    rows = ledger_rows([settled], CREDITS, IDS, next_seq=0, deal=2)
    assert [(c.seat, c.delta, c.reason) for c in rows.chips] == [
        (0, 30, "hand"),
        (1, 0, "hand"),
        (2, -30, "hand"),
    ]


def test_a_seat_left_out_appears_only_when_chips_came_back_to_it() -> None:
    nothing_back = DealSettled(deal=2, chips=(10, 0, -10), dealt=(0, 2))
    some_back = DealSettled(deal=3, chips=(0, 25, -25), dealt=(0, 2))
    rows = ledger_rows([nothing_back, some_back], CREDITS, IDS, next_seq=0, deal=2)
    assert [(c.hand, c.seat, c.delta, c.reason) for c in rows.chips] == [
        (2, 0, 10, "hand"),
        (2, 2, -10, "hand"),
        (3, 0, 0, "hand"),
        (3, 1, 25, "returned"),
        (3, 2, -25, "hand"),
    ]


def test_penalties_give_one_row_per_seat_credited_to_its_player() -> None:
    ids = LedgerIds(guild="g1", game="bigtwo", match_id=8, at=1.0)
    rows = ledger_rows(
        [DealSettled(deal=1, penalties=(0, 12, 3))], CREDITS, ids, next_seq=0, deal=1
    )
    assert rows.penalties == [
        PenaltyEntry("g1", "bigtwo", 8, 1, 0, "42", False, 0, 1.0),
        PenaltyEntry("g1", "bigtwo", 8, 1, 1, "ai:greedy", True, 12, 1.0),
        PenaltyEntry("g1", "bigtwo", 8, 1, 2, "43", False, 3, 1.0),
    ]
    assert rows.chips == []


def test_other_events_write_nothing() -> None:
    rows = ledger_rows(
        [MatchEnded(winners=(0,), totals=(1, 2, 3))], CREDITS, IDS, next_seq=0, deal=6
    )
    assert rows.deals == [] and rows.chips == [] and rows.penalties == [] and rows.deal == 6


@given(
    deltas=st.lists(st.integers(-1000, 1000), min_size=3, max_size=3),
    dealt=st.sets(st.integers(0, 2)),
)
def test_hand_rows_keep_every_chip_of_a_settled_deal(deltas: list[int], dealt: set[int]) -> None:
    event = DealSettled(deal=1, chips=tuple(deltas), dealt=tuple(sorted(dealt)))
    rows = ledger_rows([event], CREDITS, IDS, next_seq=0, deal=1)
    assert sum(c.delta for c in rows.chips) == sum(deltas)
    assert {c.seat for c in rows.chips} >= dealt
    for entry in rows.chips:
        assert entry.player_id == CREDITS[entry.seat].player_id
        assert entry.reason == ("hand" if entry.seat in dealt else "returned")
