"""Ratings: the standings a match is rated by, the OpenSkill updates, the credit rule, the
fixed AI ratings, seasons, the rows stored (chained, append-only) with each result on both
backends, and `rebuild_ratings` giving exactly what the running storage holds."""

from __future__ import annotations

import asyncio
import itertools
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deucebot_dev.pg_server import TempPostgres
from engines.registry import LEVELS, available_games, get_game
from storage import (
    ActionCommit,
    ActionRecord,
    ChipEntry,
    DealRecord,
    MatchPlayer,
    MatchResult,
    PenaltyEntry,
    SeatRecord,
    Settlement,
)
from storage.backend import AnyStorage, open_storage
from storage.ratings import (
    AI_RATINGS,
    ALL_TIME,
    Rating,
    SeasonRecord,
    SeatOutcome,
    ai_rating,
    month_of,
    rate_match,
    season_of,
    standings,
)

NOW = 1_790_000_000.0  # 2026-09-21
_databases = itertools.count()


def seat(i: int, pid: str, total: int, *, credited: bool = True, last: int = 0) -> SeatOutcome:
    return SeatOutcome(i, pid, pid.startswith("ai:"), credited, total, last)


def test_big_two_standings_rank_by_lowest_penalty_and_share_ties() -> None:
    seats = [seat(0, "a", 12), seat(1, "b", 3), seat(2, "c", 12), seat(3, "d", 40)]
    assert standings("penalty", seats) == {0: 2, 1: 1, 2: 2, 3: 4}


def test_chip_standings_rank_by_chips_then_who_busted_last() -> None:
    seats = [seat(0, "a", 0, last=7), seat(1, "b", 900), seat(2, "c", 0, last=3)]
    assert standings("chips", seats) == {0: 2, 1: 1, 2: 3}
    # Two seats busted in the same hand share their place.
    tied = [seat(0, "a", 0, last=5), seat(1, "b", 600), seat(2, "c", 0, last=5)]
    assert standings("chips", tied) == {0: 2, 1: 1, 2: 2}


def rate(seats: Sequence[SeatOutcome], scoring: str = "penalty", **priors: Rating) -> Any:
    return rate_match(
        guild="g",
        game="bigtwo",
        scoring=scoring,  # type: ignore[arg-type]
        match_id=1,
        at=NOW,
        seats=seats,
        season="s1",
        priors={(track, p): r for p, r in priors.items() for track in (ALL_TIME, "s1")},
    )


def test_the_winner_gains_and_the_loser_loses_on_both_tracks() -> None:
    entries = rate([seat(0, "a", 5), seat(1, "b", 30)])
    assert {(e.season, e.player_id) for e in entries} == {
        (ALL_TIME, "a"),
        ("s1", "a"),
        (ALL_TIME, "b"),
        ("s1", "b"),
    }
    by = {(e.season, e.player_id): e for e in entries}
    assert by[(ALL_TIME, "a")].after.mu > Rating().mu > by[(ALL_TIME, "b")].after.mu
    assert by[(ALL_TIME, "a")].rank == 1 and by[(ALL_TIME, "b")].rank == 2
    assert all(e.after.sigma < e.before.sigma and e.after.matches == 1 for e in entries)


def test_beating_a_strong_ai_counts_more_than_beating_a_random_one() -> None:
    over_strong = rate([seat(0, "a", 1), seat(1, "ai:strong", 20)])
    over_random = rate([seat(0, "a", 1), seat(1, "ai:random", 20)])
    # The AI seats get no row: their rating is fixed.
    assert {e.player_id for e in over_strong} == {"a"}
    assert over_strong[0].after.mu > over_random[0].after.mu > Rating().mu
    assert ai_rating("ai:strong").mu > ai_rating("ai:random").mu


def test_every_ai_level_of_every_game_has_its_rating_and_harder_is_higher() -> None:
    for game in map(get_game, available_games()):
        policies = [game.level_policy(level) for level in LEVELS]
        assert all(policy in AI_RATINGS for policy in policies), (game.name, policies)
        mus = [ai_rating(f"ai:{policy}").mu for policy in policies]
        assert mus == sorted(mus) and mus[0] < mus[-1], (game.name, policies, mus)


def test_a_seat_the_ai_played_for_counts_for_nobody() -> None:
    entries = rate([seat(0, "a", 1), seat(1, "b", 20, credited=False), seat(2, "c", 9)])
    assert {e.player_id for e in entries} == {"a", "c"}
    # With only one seat left taking part, nobody is rated.
    assert rate([seat(0, "a", 1), seat(1, "b", 20, credited=False)]) == []
    assert rate([seat(0, "ai:greedy", 1), seat(1, "ai:strong", 2)]) == []


def test_priors_carry_over() -> None:
    strong = Rating(35.0, 2.0, 40)
    entries = rate([seat(0, "a", 1), seat(1, "b", 20)], b=strong)
    by = {(e.season, e.player_id): e for e in entries}
    assert by[(ALL_TIME, "b")].before == strong and by[(ALL_TIME, "b")].after.matches == 41
    # An upset: the favourite loses more than a newcomer would.
    fresh = {(e.season, e.player_id): e for e in rate([seat(0, "a", 1), seat(1, "b", 20)])}
    assert (by[(ALL_TIME, "a")].after.mu - 25) > (fresh[(ALL_TIME, "a")].after.mu - 25)


def test_seasons_are_monthly_unless_an_admin_started_one() -> None:
    assert month_of(NOW) == "2026-09"
    decided = [SeasonRecord("g", "spring", NOW + 10), SeasonRecord("g", None, NOW + 20)]
    assert season_of(decided, NOW) == "2026-09"
    assert season_of(decided, NOW + 15) == "spring"
    assert season_of(decided, NOW + 25) == "2026-09"


# ------------------------------------------------------------------ stored


async def play(
    store: AnyStorage,
    *,
    guild: str,
    game: str,
    players: Sequence[str],
    totals: Sequence[int],
    void: Sequence[bool] = (),
    at: float = NOW,
    place: str | None = None,
    held: bool = False,
    end: str = "finish",
) -> int:
    """A match: one move per seat (the AI's for AI seats and `void` ones), a chip 'hand'
    row per seat for chip games, then the result (`end` "finish"). `held`: the match
    records who held each seat at the start (as the bot does since migration 012; else an
    older row: a match started before the upgrade). `end` "stop" or "restart": no
    result, the match is settled by a stop or a restart on its deal (penalty rows for Big
    Two, chips as `totals` for chip games); "abandon": stopped before any deal settled."""
    seats = [
        SeatRecord(i, None if p.startswith("ai:") else p, p, "greedy")
        for i, p in enumerate(players)
    ]
    credits = [
        MatchPlayer(i, p, p.upper(), p.startswith("ai:"), p if held else None, p.startswith("ai:"))
        for i, p in enumerate(players)
    ]
    table = await store.create_table(
        guild=guild,
        place=place or f"{guild}-{at}-{game}",
        game=game,
        settings={},
        options={},
        seats=seats,
        now=at,
    )
    match = await store.start_match(
        table_id=table.id,
        number=1,
        seed=7,
        config={},
        first_seq=0,
        players=credits,
        seats=seats,
        deals=[],
        chips=[],
        deadline=None,
        deadline_turn=None,
        now=at,
    )
    void = list(void) + [False] * len(players)
    finish = end == "finish"
    for i, p in enumerate(players):
        actor = "ai" if p.startswith("ai:") or void[i] else "human"
        last = i == len(players) - 1
        chips, penalties = [], []
        if game != "bigtwo" and last and end != "abandon":
            chips = [
                ChipEntry(guild, game, match.id, 1 + (j if totals[j] <= 0 else 9), j, q,
                          q.startswith("ai:"), 1 if finish else totals[j], "hand", at)
                for j, q in enumerate(players)
            ]  # fmt: skip
        if game == "bigtwo" and last and end in ("stop", "restart"):
            penalties = [
                PenaltyEntry(guild, game, match.id, 1, j, q, q.startswith("ai:"), totals[j], at)
                for j, q in enumerate(players)
            ]
        await store.commit_action(
            ActionCommit(
                table_id=table.id,
                action=ActionRecord(match.id, i, 1, i, "pass", actor, at),  # type: ignore[arg-type]
                chips=chips,
                penalties=penalties,
                result=MatchResult(match.id, at, (0,), tuple(totals)) if last and finish else None,
                status="finished" if last and finish else None,
            )
        )
    settle = None if finish else Settlement(match.id, at)
    if end == "restart":
        await store.start_match(
            table_id=table.id,
            number=2,
            seed=8,
            config={},
            first_seq=len(players) + 1,
            players=credits,
            seats=seats,
            deals=[DealRecord(0, 1, 0, None, len(players) + 1)],
            chips=[],
            deadline=None,
            deadline_turn=None,
            now=at,
            settle=settle,
        )
        settle = None  # the new match: stopped before any deal
    await store.set_status(table.id, "stopped", settle)
    return match.id


async def test_ratings_are_stored_with_the_result_chained_and_append_only(
    store: AnyStorage,
) -> None:
    match_id = await play(store, guild="g", game="bigtwo", players=["a", "b", "ai:strong"],
                          totals=[3, 20, 9])  # fmt: skip
    board = await store.rating_board(guild="g", game="bigtwo", min_matches=1)
    assert [line.player_id for line in board.ranked] == ["a", "b"]
    assert board.ranked[0].name == "A" and board.ranked[0].rating.matches == 1
    assert await store.verify_chain() == []
    month = await store.rating_board(guild="g", game="bigtwo", season=month_of(NOW), min_matches=1)
    assert [line.rating for line in month.ranked] == [line.rating for line in board.ranked]
    with pytest.raises(Exception, match="append-only"):
        await store._group.submit([("DELETE FROM rating_updates WHERE match_id = ?", (match_id,))])
    # A second match starts from the first one's rating.
    await play(store, guild="g", game="bigtwo", players=["b", "a"], totals=[0, 13], at=NOW + 1)
    history = await store.rating_history(guild="g", game="bigtwo", player_id="b")
    assert [p.rank for p in history] == [3, 1] and history[1].rating.mu > history[0].rating.mu
    assert await store.rebuild_ratings() == await store.current_ratings()


async def test_a_changed_rating_row_breaks_the_chain(tmp_path: Path) -> None:
    store = await open_storage(str(tmp_path / "r.sqlite3"))
    try:
        await play(store, guild="g", game="duel", players=["a", "b"], totals=[0, 400])
    finally:
        await store.close()
    import sqlite3

    db = sqlite3.connect(tmp_path / "r.sqlite3")
    db.execute("DROP TRIGGER rating_updates_no_update")
    db.execute("UPDATE rating_updates SET mu = 99 WHERE player_id = 'a'")
    db.commit()
    db.close()
    store = await open_storage(str(tmp_path / "r.sqlite3"))
    try:
        problems = await store.verify_chain()
        assert len(problems) == 1 and "rating_updates" in problems[0].where
    finally:
        await store.close()


async def test_an_admin_season_starts_fresh_while_all_time_stays(store: AnyStorage) -> None:
    await play(store, guild="g", game="bigtwo", players=["a", "b"], totals=[0, 30])
    await store.start_season("g", "cup", "admin", now=NOW + 5)
    await play(store, guild="g", game="bigtwo", players=["a", "b"], totals=[30, 0], at=NOW + 10)
    cup = await store.rating_board(guild="g", game="bigtwo", season="cup", min_matches=1)
    ever = await store.rating_board(guild="g", game="bigtwo", min_matches=1)
    assert {line.rating.matches for line in cup.ranked} == {1}
    assert {line.rating.matches for line in ever.ranked} == {2}
    assert [line.player_id for line in cup.ranked] == ["b", "a"]
    assert (await store.seasons("g"))[0].name == "cup"
    assert await store.rebuild_ratings() == await store.current_ratings()


async def test_a_season_started_at_the_instant_of_a_result_is_rebuilt_as_it_was_held(
    store: AnyStorage,
) -> None:
    # Found by the random histories below: the result came first, then the season, at the
    # same instant; the result was rated for the month and the rebuild must say so too.
    await play(store, guild="g", game="bigtwo", players=["a", "b"], totals=[0, 30], at=NOW)
    await store.start_season("g", "cup", "admin", now=NOW)
    await play(store, guild="g", game="bigtwo", players=["a", "b"], totals=[30, 0], at=NOW + 1)
    cup = await store.rating_board(guild="g", game="bigtwo", season="cup", min_matches=1)
    assert {line.rating.matches for line in cup.ranked} == {1}
    assert await store.rebuild_ratings() == await store.current_ratings()


async def test_a_member_who_held_the_seat_is_rated_whoever_finished_it(store: AnyStorage) -> None:
    # The AI played every move of a's seat (a left at once): a is rated as the loser, and
    # the winner's rating stands. Rows from before migration 012 keep the older rule.
    match_id = await play(store, guild="g", game="duel", players=["a", "b"], totals=[0, 40],
                          void=[True], held=True)  # fmt: skip
    rows = {(e.season, e.player_id): e for e in await rating_rows(store, match_id)}
    assert {(season, pid) for season, pid in rows} == {
        (season, pid) for season in (ALL_TIME, month_of(NOW)) for pid in "ab"
    }
    assert rows[(ALL_TIME, "a")].rank == 2 and rows[(ALL_TIME, "a")].mu < Rating().mu
    assert rows[(ALL_TIME, "b")].rank == 1 and rows[(ALL_TIME, "b")].mu > Rating().mu
    older = await play(store, guild="g", game="duel", players=["a", "b"], totals=[0, 40],
                       void=[True], at=NOW + 1)  # fmt: skip
    assert await rating_rows(store, older) == []
    assert await store.rebuild_ratings() == await store.current_ratings()


async def test_a_stop_or_restart_settles_the_match_on_its_deals_once(store: AnyStorage) -> None:
    stopped = await play(store, guild="g", game="bigtwo", players=["a", "b", "ai:strong"],
                         totals=[3, 20, 9], end="stop")  # fmt: skip
    rows = await rating_rows(store, stopped)
    assert {(e.player_id, e.rank) for e in rows} == {("a", 1), ("b", 3)}
    restarted = await play(store, guild="g", game="holdem", players=["a", "c"],
                           totals=[10, 30], end="restart", at=NOW + 1)  # fmt: skip
    assert {(e.player_id, e.rank) for e in await rating_rows(store, restarted)} == {
        ("a", 2),
        ("c", 1),
    }
    # The match the restart began was stopped before any deal: not rated, not settled.
    found = await store._all("SELECT id, settled_at FROM matches ORDER BY id")
    assert [(int(r["id"]), r["settled_at"]) for r in found][-2:] == [
        (restarted, NOW + 1),
        (restarted + 1, None),
    ]
    abandoned = await play(store, guild="g", game="bigtwo", players=["a", "b"],
                           totals=[0, 30], end="abandon", at=NOW + 2)  # fmt: skip
    assert await rating_rows(store, abandoned) == []
    # Settled once: a second stop or restart of a settled match settles nothing.
    assert await store.rate_settlement(Settlement(stopped, NOW + 3)) is None
    # A settled match is no result: the totals boards do not count it.
    board = await store.leaderboard(
        guild="g", game="bigtwo", scoring="penalty", period="all", now=NOW, min_deals=0
    )
    assert all(r.matches == 0 for r in board.humans + board.unranked)
    assert await store.verify_chain() == []
    assert await store.rebuild_ratings() == await store.current_ratings()


class RatingRow(NamedTuple):
    season: str
    player_id: str
    rank: int
    mu: float


async def rating_rows(store: AnyStorage, match_id: int) -> list[RatingRow]:
    rows = await store._all(
        "SELECT season, player_id, rank, mu FROM rating_updates WHERE match_id = ? ORDER BY id",
        (match_id,),
    )
    return [RatingRow(r["season"], r["player_id"], int(r["rank"]), r["mu"]) for r in rows]


# --------------------------------------------------------- random histories

POOL = ["a", "b", "c", "d", "ai:random", "ai:strong", "ai:greedy"]

match_strategy = st.fixed_dictionaries(
    {
        "guild": st.sampled_from(["g", "g", "h"]),
        "game": st.sampled_from(["bigtwo", "bigtwo", "holdem", "duel"]),
        "players": st.tuples(st.permutations(POOL), st.integers(2, 4)).map(
            lambda drawn: list(drawn[0][: drawn[1]])
        ),
        "totals": st.lists(st.integers(0, 40), min_size=4, max_size=4),
        "void": st.lists(st.booleans(), min_size=4, max_size=4),
        "gap": st.sampled_from([0.0, 1.0, 3600.0, 20 * 86400.0]),
        "season": st.sampled_from([None, None, None, "cup", "monthly"]),
        "held": st.booleans(),
        "end": st.sampled_from(["finish", "finish", "stop", "restart", "abandon"]),
    }
)


async def write_random_history(store: AnyStorage, history: list[dict[str, Any]]) -> None:
    at = NOW
    for n, m in enumerate(history):
        at += m["gap"]
        if m["season"] is not None:
            name = None if m["season"] == "monthly" else m["season"]
            await store.start_season(m["guild"], name, "admin", now=at)
        players = m["players"] if m["game"] != "duel" else m["players"][:2]
        await play(
            store,
            guild=m["guild"],
            game=m["game"],
            players=players,
            totals=m["totals"][: len(players)],
            void=m["void"],
            at=at,
            place=f"p{n}",
            held=m["held"],
            end=m["end"],
        )


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(history=st.lists(match_strategy, min_size=1, max_size=8))
def test_a_rebuild_gives_exactly_the_ratings_held_on_both_backends(
    pg_server: TempPostgres, history: list[dict[str, Any]]
) -> None:
    url = pg_server.create_database(f"rt_{os.getpid()}_{next(_databases)}")

    async def both() -> list[tuple[Any, Any]]:
        out = []
        with tempfile.TemporaryDirectory() as tmp:
            for target in (str(Path(tmp) / "r.sqlite3"), url):
                store = await open_storage(target)
                try:
                    await write_random_history(store, history)
                    out.append((await store.current_ratings(), await store.rebuild_ratings()))
                    assert await store.verify_chain() == []
                finally:
                    await store.close()
        return out

    (lite_held, lite_rebuilt), (pg_held, pg_rebuilt) = asyncio.run(both())
    assert lite_rebuilt == lite_held
    assert pg_rebuilt == pg_held
    assert pg_held == lite_held

    def rated(m: dict[str, Any]) -> bool:
        if m["end"] == "abandon":
            return False
        seats = m["players"][: 2 if m["game"] == "duel" else 4]
        legacy = not m["held"]  # started before migration 012 (maybe stopped after it)
        part = [
            p for i, p in enumerate(seats) if p.startswith("ai:") or not m["void"][i] or not legacy
        ]
        return len(part) >= 2 and any(not p.startswith("ai:") for p in part)

    # Not trivially equal: a credited person in a match of two or more seats is rated.
    assert bool(lite_held) == any(rated(m) for m in history)


async def test_one_players_lines_are_their_lines_of_the_whole_board(store: AnyStorage) -> None:
    """`/stats` reads a person's totals by player (indexed); they equal that person's
    lines of the whole leaderboard, AI seats and the credit rule included."""
    await play(store, guild="g", game="bigtwo", players=["a", "b", "ai:strong"], totals=[3, 20, 9])
    await play(store, guild="g", game="bigtwo", players=["b", "a"], totals=[0, 13], at=NOW + 1)
    await play(store, guild="g", game="bigtwo", players=["a", "c"], totals=[5, 1],
               void=[True], at=NOW + 2)  # fmt: skip
    await play(store, guild="g", game="holdem", players=["a", "c"], totals=[0, 40], at=NOW + 3)
    for game, scoring in (("bigtwo", "penalty"), ("holdem", "chips")):
        whole = await store.leaderboard(
            guild="g", game=game, scoring=scoring, period="all", now=NOW, min_deals=0
        )
        for pid in ("a", "b", "c", "nobody"):
            mine = await store.leaderboard(
                guild="g", game=game, scoring=scoring, period="all", now=NOW, min_deals=0,
                player_id=pid,
            )  # fmt: skip
            expected = [r for r in whole.humans + whole.unranked if r.player_id == pid]
            assert mine.humans + mine.unranked == expected and mine.ai == []
    a = await store.leaderboard(
        guild="g", game="bigtwo", scoring="penalty", period="all", now=NOW, min_deals=0,
        player_id="a",
    )  # fmt: skip
    assert a.humans[0].matches == 2  # the match the AI played a move of counts for nobody
