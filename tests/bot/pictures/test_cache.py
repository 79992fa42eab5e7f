"""The picture cache: boards and results share one room of `CACHE_SIZE` pictures; hands
have their own, bounded by their PNG bytes, so that a burst of boards at a busy bot does
not push out the hand its owner is about to see again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import bot.pictures as pictures
from bot.pictures import CACHE_SIZE, Picture, cached, clear_cache, remember


def _picture(size: int, kind: str) -> Picture:
    return Picture(png=b"\0" * size, alt=kind, faces=(), width=1, height=1, kind=kind)


@pytest.fixture(autouse=True)
def _empty() -> Iterator[None]:
    clear_cache()
    yield
    clear_cache()


def test_a_hand_outlives_more_boards_than_the_shared_cache_holds() -> None:
    hand = _picture(8_000, "hand")
    remember(("hand", 1), "hand", hand)
    for turn in range(CACHE_SIZE + 50):
        remember(("board", turn), "table", _picture(100, "table"))
    assert cached(("hand", 1), "hand") is hand
    assert cached(("board", 0), "table") is None  # the boards still take turns
    assert cached(("board", CACHE_SIZE + 49), "table") is not None


def test_hands_are_kept_by_their_bytes_the_least_recently_seen_going_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pictures, "HAND_CACHE_BYTES", 10_000)
    first, second, third = (_picture(4_000, "hand") for _ in range(3))
    remember("first", "hand", first)
    remember("second", "hand", second)
    assert cached("first", "hand") is first  # seen again: now the most recent
    remember("third", "hand", third)  # 12,000 bytes: one hand must go
    assert cached("second", "hand") is None
    assert cached("first", "hand") is first and cached("third", "hand") is third
    # The same hand remembered again counts its bytes once.
    for _ in range(5):
        remember("third", "hand", third)
    assert cached("first", "hand") is first


def test_a_hand_larger_than_the_room_is_still_kept_until_the_next() -> None:
    big = _picture(pictures.HAND_CACHE_BYTES + 1, "hand")
    remember("big", "hand", big)
    assert cached("big", "hand") is big  # its owner is about to see it
    remember("small", "hand", _picture(10, "hand"))
    assert cached("big", "hand") is None and cached("small", "hand") is not None


def test_a_hand_and_a_board_of_one_model_are_two_pictures() -> None:
    hand, board = _picture(10, "hand"), _picture(10, "table")
    remember("same", "hand", hand)
    remember("same", "table", board)
    assert cached("same", "hand") is hand and cached("same", "table") is board
