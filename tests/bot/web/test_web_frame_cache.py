"""Frames built once per turn for all of a place's pages (`bot.web.front.FrameCache`): each
page still gets exactly the frame of its own seat's snapshot, byte for byte, and never one
of another seat or of another state at the same turn."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
from collections.abc import Sequence
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bot.web.frames
from bot.runtime import RuntimeConfig, Table, TableManager
from bot.runtime.snapshot import TableSnapshot
from bot.web.frames import encode, out_choice, state_frame
from bot.web.front import FrameCache, WebFront
from storage import open_storage
from tests.bot.web.harness import web_table

LANGS = ("en", "fr", "uk")
TURNS = 12
"""Turns of a match whose snapshots the property draws from."""


class Recording(WebFront):
    """`WebFront` keeping, at each refresh, the snapshot of every seat and the spectator's."""

    def __init__(self) -> None:
        super().__init__()
        self.table: Table | None = None
        self.turns: list[dict[int | None, TableSnapshot]] = []

    async def refresh(self, table: TableSnapshot) -> None:
        await super().refresh(table)
        if self.table is not None and table.started and len(self.turns) < TURNS:
            seats = (None, *range(len(table.seats)))
            self.turns.append({seat: self.table.snapshot(seat) for seat in seats})


async def _record(game: str) -> list[dict[int | None, TableSnapshot]]:
    with TemporaryDirectory() as tmp:
        storage = await open_storage(str(Path(tmp) / "cache.sqlite3"))
        front = Recording()
        manager = TableManager(storage, front, config=RuntimeConfig(ai_delay=0, timers=False))
        try:
            policy = "greedy" if game == "bigtwo" else "random"
            table = await manager.create(
                guild="g", place="p", game=game, settings={}, options={"ai_policy": policy}
            )
            front.table = table
            await table.start(seed=3)
            while len(front.turns) < TURNS and not table.finished:
                await asyncio.sleep(0.01)
        finally:
            await manager.close()
            await storage.close()
        return front.turns


@functools.cache
def match_snapshots(game: str) -> list[dict[int | None, TableSnapshot]]:
    """Every seat's snapshot (and the spectator's) at the first turns of an AI match."""
    return asyncio.run(_record(game))


def variant(snapshot: TableSnapshot, kind: str) -> TableSnapshot:
    """`snapshot` changed at the same turn as the runtime changes a table between moves: a
    seat gone away, a turn clock set; or a copy of it (equal, another object)."""
    if kind == "away":
        seats = tuple(dataclasses.replace(s, away=s.index == 0) for s in snapshot.seats)
        return snapshot._replace(seats=seats)
    if kind == "clock":
        return snapshot._replace(deadline=1030.5, deadline_turn=snapshot.turn)
    return snapshot._replace()


Request = tuple[int, int, str, bool, str, float, bool]


def requests(game: str) -> st.SearchStrategy[list[Request]]:
    turns = match_snapshots(game)
    seats = len(turns[0]) - 1
    one = st.tuples(
        st.integers(0, len(turns) - 1),
        st.integers(-1, seats - 1),
        st.sampled_from(LANGS),
        st.booleans(),
        st.sampled_from(("copy", "away", "clock")),
        st.sampled_from((1000.0, 1000.9, 1001.2)),
        st.booleans(),
    )
    return st.lists(one, min_size=1, max_size=16)


def check_pages(game: str, asked: Sequence[Request]) -> None:
    turns = match_snapshots(game)
    cache = FrameCache()
    for turn, seat_or_spectator, lang, fresh, kind, now, restarts in asked:
        seat = None if seat_or_spectator < 0 else seat_or_spectator
        snapshot = variant(turns[turn][seat], kind)
        frame, text = cache.state(snapshot, seat, lang, now, fresh, restarts)
        out = out_choice(snapshot, seat, lang, restarts=restarts)
        own = {**state_frame(snapshot, seat, lang, now), "out": out, "fresh": fresh}
        assert text == encode(own)
        assert frame == own
        assert json.loads(text)["seat"] == seat


@pytest.mark.parametrize("game", ["bigtwo", "holdem", "draw", "duel"])
def test_a_cached_state_is_always_the_frame_of_the_pages_own_seat_and_snapshot(
    game: str,
) -> None:
    # Big Two's views compare by identity, the others' by value: both are served from the
    # cache only when equal, so a seat's frame never reaches another seat, nor a state
    # changed at the same turn (a seat away, a clock) an older frame.
    @settings(max_examples=40, deadline=None, derandomize=True)
    @given(requests(game))
    def pages(asked: list[Request]) -> None:
        check_pages(game, asked)

    pages()


def test_the_cache_serves_a_second_page_without_building_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    turns = match_snapshots("holdem")
    built: list[int | None] = []
    real = bot.web.front.state_frame

    def counted(table: TableSnapshot, seat: int | None, *args: Any) -> dict[str, Any]:
        built.append(seat)
        return real(table, seat, *args)

    monkeypatch.setattr(bot.web.front, "state_frame", counted)
    cache = FrameCache()
    for seat in (None, None, 1, 1, None):
        first = cache.state(turns[-1][seat], seat, "fr", 1000.0, False)[1]
        again = cache.state(variant(turns[-1][seat], "copy"), seat, "fr", 1000.0, False)[1]
        assert first == again
    assert built == [None, 1]


async def test_the_pages_of_a_turn_share_one_picture_and_a_seats_pages_get_the_same_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    models = 0
    real = bot.web.frames._model

    def counted(*args: Any) -> Any:
        nonlocal models
        models += 1
        return real(*args)

    async with web_table(tmp_path, "holdem", 5) as web:
        # Seat 0 (the page's player) is to act: the table waits for it, the state stays.
        first = await web.open()
        await first.until("state", to_act=0, status="playing")
        monkeypatch.setattr(bot.web.frames, "_model", counted)
        watchers = [await web.open(watch="1") for _ in range(3)]
        second = await web.open()
        texts = [await page.ws.receive_str() for page in (*watchers, second)]
        while not texts[-1].startswith('{"t":"state"'):
            texts[-1] = await second.ws.receive_str()
        for i, page in enumerate(watchers):
            while not texts[i].startswith('{"t":"state"'):
                texts[i] = await page.ws.receive_str()
        state = json.loads(texts[-1])
        assert state["seat"] == 0 and state["to_act"] == 0 and state["hand"]
        assert {**state, "fresh": None} == {**first.states()[-1], "fresh": None}
        assert texts[0] == texts[1] == texts[2] != texts[-1]
        assert json.loads(texts[0])["hand"] == [] and json.loads(texts[0])["seat"] is None
        assert json.loads(texts[0])["picture"] == state["picture"]
        # The picture was drawn for the first page only: four pages opened since, none drew
        # it again (each used to draw it twice: its alt text and its plates).
        assert models == 0
