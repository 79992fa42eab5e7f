"""Ratings measured: `deucebot bench ratings [--quick] [--write]`.

1. Simulated seasons: AI policies of known strength play as members (Big Two: two
   members each of random, greedy and strong1, four drawn per 4-deal match, two seeds;
   Deuce Duel: random, honest and strong head to head), each match rated by
   `storage.ratings.rate_match` exactly as the bot rates it. After every match the
   members' order by conservative rating is compared with their true order (Kendall
   tau-b; members of one policy are tied), and the report gives the tau at the end and
   the matches after which it stayed at or above 0.8 and at the best possible.
2. Reads at scale: a SQLite database with `matches` finished Big Two matches in one guild
   (4 seats, rated, a deal row per seat and an action per seat, the leaderboards' running
   sums rebuilt from them as migration 011 does), then the reads of `/leaderboard`
   (totals of all time and of this week, and by rating) and `/stats` (one person's totals,
   rating line, history, per-deal results) timed, and the chart render's p50/p99; and
   the match summary picture's replay and drawing.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.charts.figures import stats_figures
from bot.charts.stats import stats_chart
from deucebot_dev.bench.report import publish
from engines.base import MatchEnded
from engines.play import play_out
from engines.registry import get_game
from storage.board import rebuild_statements
from storage.ratings import ALL_TIME, Rating, SeatOutcome, rate_match


def kendall_tau_b(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Kendall's tau-b of two rankings of the same items (ties allowed in both)."""
    concordant = discordant = ties_x = ties_y = 0
    n = len(xs)
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = xs[i] - xs[j], ys[i] - ys[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    denominator = ((concordant + discordant + ties_x) * (concordant + discordant + ties_y)) ** 0.5
    return (concordant - discordant) / denominator if denominator else 0.0


@dataclass(frozen=True)
class Season:
    """One simulated season's outcome."""

    game: str
    seed: int
    members: list[tuple[str, str, int]]
    """(member, policy, true strength: higher is stronger)."""
    matches: int
    taus: list[float]
    final: dict[str, Rating]

    @property
    def best(self) -> float:
        """The highest tau-b a ranking without ties can reach against the true order
        (below 1 when members share a policy: their true order is a tie)."""
        truth = [float(s) for _, _, s in self.members]
        untied = [s + i * 1e-6 for i, s in enumerate(truth)]
        return kendall_tau_b(untied, truth)

    def settled_after(self, level: float) -> int | None:
        """The number of matches after which tau stayed at or above `level` (None: never)."""
        for i in range(len(self.taus)):
            if all(t >= level for t in self.taus[i:]):
                return i + 1
        return None


def simulated_season(
    game: str,
    members: Sequence[tuple[str, str, int]],
    seats: int,
    matches: int,
    seed: int,
    deals: int | None = None,
) -> Season:
    """Play `matches` matches of `game` among `members` (`seats` drawn per match, seats
    shuffled; `deals` per match, else the simulations' match), rate each one, and track
    Kendall tau against the true strengths."""
    spec = get_game(game)
    rng = random.Random(seed)
    policies = {m: spec.make_policy(p, random.Random(rng.getrandbits(64))) for m, p, _ in members}
    strength = {m: s for m, _, s in members}
    held: dict[str, Rating] = {}
    taus: list[float] = []
    config = spec.sim.config(seats)
    if deals is not None:
        config = config.model_copy(update={"deals": deals})
    for number in range(1, matches + 1):
        table = rng.sample([m for m, _, _ in members], seats)
        state = spec.new_state(config, random.Random(rng.getrandbits(64)))
        played = play_out(state, [policies[m] for m in table])
        ended = next(e for e in reversed(played.events) if isinstance(e, MatchEnded))
        outcome = [SeatOutcome(s, m, False, True, ended.totals[s], 0) for s, m in enumerate(table)]
        for entry in rate_match(
            guild="bench",
            game=game,
            scoring=spec.scoring,
            match_id=number,
            at=float(number),
            seats=outcome,
            season="bench",
            priors={(ALL_TIME, m): r for m, r in held.items()},
        ):
            if entry.season == ALL_TIME:
                held[entry.player_id] = entry.after
        names = [m for m, _, _ in members]
        taus.append(
            kendall_tau_b(
                [held.get(m, Rating()).conservative for m in names],
                [float(strength[m]) for m in names],
            )
        )
    return Season(game, seed, list(members), matches, taus, held)


BIG_TWO = [
    ("rand-1", "random", 0), ("rand-2", "random", 0),
    ("greedy-1", "greedy", 1), ("greedy-2", "greedy", 1),
    ("strong-1", "strong1", 2), ("strong-2", "strong1", 2),
]  # fmt: skip
"""`strong1` searches without a time budget (`strong` stops at 60 ms a decision): its play,
and so the season, is the same on a loaded machine as on a quiet one."""
BIG_TWO_DEALS = 4
"""Big Two seasons play the tables' match: 4 deals."""
SEEDS = (24, 25)
DUEL = [("rand", "random", 0), ("honest", "honest", 1), ("strong", "strong", 2)]


def season_rows(seasons: Sequence[Season]) -> list[str]:
    """The report's table of simulated seasons."""
    rows = [
        "| game | seed | members | matches | tau-b at the end (best possible) | "
        "stays >= 0.8 after | stays at the best after | final order (conservative rating) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for s in seasons:
        order = sorted(s.final, key=lambda m: -s.final[m].conservative)
        members = ", ".join(f"{m}" for m, _, _ in s.members)
        rows.append(
            f"| {s.game} | {s.seed} | {members} | {s.matches} | {s.taus[-1]:.3f} ({s.best:.3f}) | "
            f"{s.settled_after(0.8) or '-'} | {s.settled_after(s.best - 1e-9) or '-'} | "
            f"{' > '.join(order)} |"
        )
    return rows


# ------------------------------------------------------------------- reads at scale


def build_database(path: Path, matches: int, members: int = 40, seed: int = 1) -> str:
    """A SQLite database with `matches` finished, rated Big Two matches in guild "g"."""
    import sqlite3

    from storage.sqlite import SqliteStorage

    async def create() -> None:
        store = SqliteStorage(str(path))
        await store.open()
        await store.close()

    asyncio.run(create())
    rng = random.Random(seed)
    people = [f"p{i}" for i in range(members)]
    held: dict[str, Rating] = {}
    db = sqlite3.connect(path)
    db.execute("INSERT INTO tables (id, guild, place, game, settings, options, status, created_at)"
               " VALUES (1, 'g', 'c', 'bigtwo', '{}', '{}', 'finished', 0)")  # fmt: skip
    at = 1_700_000_000.0
    batch: dict[str, list[tuple[object, ...]]] = {
        k: [] for k in ("matches", "players", "actions", "penalty", "rating")
    }

    def flush() -> None:
        db.executemany(
            "INSERT INTO matches (id, table_id, number, config, first_seq, started_at,"
            " finished_at, winners, totals, chained) VALUES (?, 1, ?, '{}', 0, ?, ?, ?, ?, 1)",
            batch["matches"],
        )
        db.executemany(
            "INSERT INTO match_players (match_id, seat, player_id, name, is_ai)"
            " VALUES (?, ?, ?, ?, 0)",
            batch["players"],
        )
        db.executemany(
            "INSERT INTO actions (match_id, seq, deal, seat, action, actor, at)"
            " VALUES (?, ?, 1, ?, 'pass', 'human', ?)",
            batch["actions"],
        )
        db.executemany(
            "INSERT INTO penalty_ledger (guild, game, match_id, deal, seat, player_id, is_ai,"
            " penalty, at) VALUES ('g', 'bigtwo', ?, 1, ?, ?, 0, ?, ?)",
            batch["penalty"],
        )
        db.executemany(
            "INSERT INTO rating_updates (match_id, seq, guild, game, season, seat, player_id,"
            " rank, mu_before, sigma_before, mu, sigma, at)"
            " VALUES (?, 3, 'g', 'bigtwo', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            batch["rating"],
        )
        db.commit()
        for rows in batch.values():
            rows.clear()

    for m in range(1, matches + 1):
        at += 60.0
        table = rng.sample(people, 4)
        totals = [rng.randint(0, 39) for _ in table]
        seats = [SeatOutcome(s, p, False, True, totals[s]) for s, p in enumerate(table)]
        batch["matches"].append(
            (m, m, at, at, json.dumps([totals.index(min(totals))]), json.dumps(totals))
        )
        for s, p in enumerate(table):
            batch["players"].append((m, s, p, p.upper()))
            batch["actions"].append((m, s, s, at))
            batch["penalty"].append((m, s, p, totals[s], at))
        for e in rate_match(
            guild="g", game="bigtwo", scoring="penalty", match_id=m, at=at, seats=seats,
            season="s", priors={(ALL_TIME, p): r for p, r in held.items()},
        ):  # fmt: skip
            if e.season == ALL_TIME:
                held[e.player_id] = e.after
                batch["rating"].append(
                    (m, e.season, e.seat, e.player_id, e.rank, e.before.mu, e.before.sigma,
                     e.after.mu, e.after.sigma, at)
                )  # fmt: skip
        if m % 5000 == 0:
            flush()
    flush()
    # The leaderboards' running sums, as migration 011 computes them from the raw rows.
    for sql, params in rebuild_statements("sqlite"):
        db.execute(sql, params)
    db.commit()
    db.close()
    return str(path)


SCALE_TABLES = ("tables", "matches", "match_players", "actions", "penalty_ledger", "rating_updates")
"""The tables `build_database` fills (before the running sums)."""


async def copy_to_postgres(path: str, url: str) -> None:
    """The scale database's rows into the empty PostgreSQL database at `url` (migrated
    here), with the running sums computed there, for the same reads on PostgreSQL."""
    import sqlite3

    from storage.postgres import PostgresStorage, pg_sql

    store = PostgresStorage(url)
    await store.open()
    try:
        source = sqlite3.connect(path)
        async with store.pool.acquire() as conn, conn.transaction():
            for name in SCALE_TABLES:
                cursor = source.execute(f"SELECT * FROM {name}")
                columns = [d[0] for d in cursor.description]
                if name == "matches":  # the seed lives in match_secrets on PostgreSQL too
                    columns = [c for c in columns if c != "seed"]
                    cursor = source.execute(f"SELECT {', '.join(columns)} FROM matches")
                await conn.copy_records_to_table(name, records=cursor, columns=columns)
            for sql, params in rebuild_statements("postgres"):
                await conn.execute(pg_sql(sql), *params)
            await conn.execute("ANALYZE")
        source.close()
    finally:
        await store.close()


async def time_reads(path: str, repeats: int) -> dict[str, list[float]]:
    """Seconds each command's reads take on the database at `path`."""
    from storage.backend import open_storage

    store = await open_storage(path, read_only=True)
    last = float((await store._all("SELECT max(finished_at) FROM matches"))[0][0])
    timings: dict[str, list[float]] = {"leaderboard totals": [], "leaderboard totals, week": [],
                                       "leaderboard rating": [], "stats": [],
                                       "chart render": []}  # fmt: skip
    try:
        for _ in range(repeats):
            tick = time.perf_counter()
            await store.leaderboard(
                guild="g", game="bigtwo", scoring="penalty", period="all", now=time.time()
            )
            timings["leaderboard totals"].append(time.perf_counter() - tick)
            tick = time.perf_counter()
            await store.leaderboard(
                guild="g", game="bigtwo", scoring="penalty", period="week", now=last
            )
            timings["leaderboard totals, week"].append(time.perf_counter() - tick)
            tick = time.perf_counter()
            await store.rating_board(guild="g", game="bigtwo")
            timings["leaderboard rating"].append(time.perf_counter() - tick)
            tick = time.perf_counter()
            await store.leaderboard(
                guild="g", game="bigtwo", scoring="penalty", period="all", now=time.time(),
                min_deals=0, player_id="p1",
            )  # fmt: skip
            await store.ratings_of("g", "bigtwo", [ALL_TIME], ["p1"])
            figures = await stats_figures(
                store, guild="g", game="bigtwo", player_id="p1", name="P1",
                title="Big Two", penalties=True,
            )  # fmt: skip
            timings["stats"].append(time.perf_counter() - tick)
            tick = time.perf_counter()
            await asyncio.to_thread(stats_chart, figures, "en")
            timings["chart render"].append(time.perf_counter() - tick)
    finally:
        await store.close()
    return timings


def time_summaries(repeats: int) -> dict[str, list[float]]:
    """Seconds to replay and draw a match summary picture (`bot.charts.match`): a seeded
    4-deal Big Two match and a 6-seat hold'em match played out by random AI."""
    from bot.charts.match import draw_summary, summary_of
    from bot.runtime.replay import match_state
    from storage.base import MatchRecord

    timings: dict[str, list[float]] = {}
    for game, options, seats in (("bigtwo", {}, 4), ("holdem", {"seats": 6}, 6)):
        spec = get_game(game)
        match = MatchRecord(1, 1, 1, 777, options, 0, 0.0)
        state = match_state(spec, match)
        policies = [spec.make_policy("random", random.Random(s)) for s in range(seats)]
        texts: list[str] = []
        while state.to_act is not None:
            seat = state.to_act
            action = policies[seat].decide(state.view(seat))
            texts.append(str(action))
            state.apply(seat, action)
        names = [f"P{s}" for s in range(seats)]
        key = f"match summary, {game} ({len(texts)} moves): replay + draw"
        timings[key] = []
        for _ in range(repeats):
            tick = time.perf_counter()
            summary = summary_of(spec, match, texts, names)
            if summary is not None:
                draw_summary(summary, "en")
            timings[key].append(time.perf_counter() - tick)
    return timings


def _p(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(
    quick: bool, write: bool, matches: int | None = None, note: str = "", db: str | None = None
) -> int:
    """Run both parts, print them and (with `write`) put them in docs/benchmarks.md;
    `matches` sizes the database (default 100,000; quick 2,000), `note` is printed first;
    with `db`, an empty PostgreSQL database (postgresql:// URL), the reads are also timed
    on a copy of the database there."""
    from storage.backend import is_postgres_url

    if db is not None and not is_postgres_url(db):
        raise ValueError(f"bench ratings --db takes an empty postgresql:// database, not {db!r}")
    big_two_matches, duel_matches = (10, 40) if quick else (120, 300)
    seasons = [
        simulated_season("bigtwo", BIG_TWO, 4, big_two_matches, seed, deals=BIG_TWO_DEALS)
        for seed in SEEDS[: 1 if quick else None]
    ]
    seasons.append(simulated_season("duel", DUEL, 2, duel_matches, seed=24))
    size = matches or (2_000 if quick else 100_000)
    with tempfile.TemporaryDirectory() as tmp:
        tick = time.perf_counter()
        path = build_database(Path(tmp) / "scale.sqlite3", size)
        built = time.perf_counter() - tick
        timings = asyncio.run(time_reads(path, 5 if quick else 20))
        if db is not None:
            asyncio.run(copy_to_postgres(path, db))
            on_pg = asyncio.run(time_reads(db, 5 if quick else 20))
            timings.update({f"{k} (PostgreSQL)": v for k, v in on_pg.items() if "render" not in k})
    timings.update(time_summaries(5 if quick else 50))
    rows = [note, ""] if note else []
    rows += [
        f"Simulated seasons (`storage.ratings.rate_match`, seeds {', '.join(map(str, SEEDS))}"
        f" for Big Two, 24 for the duel): Big Two draws 4 of 6 members per {BIG_TWO_DEALS}-deal"
        " match (the tables' match), the duel plays 2 of 3 head to head. True order: strong1 >"
        " greedy > random (Big Two), strong > honest > random (duel). Members of one policy"
        " are tied in the true order, so the best tau-b a ranking can reach is below 1.",
        "",
    ]
    rows += season_rows(seasons)
    rows += [
        "",
        f"Reads on a SQLite database of {size:,} finished, rated Big Two matches in one guild "
        f"(40 members, built in {built:.0f} s); seconds per command's reads, then per match "
        "summary picture (replayed from the log and drawn, as a match result is):",
        "",
        "| read | p50 | p99 | max |",
        "| --- | --- | --- | --- |",
    ]
    for name, values in timings.items():
        rows.append(
            f"| {name} | {statistics.median(values):.4f} | {_p(values, 0.99):.4f} | "
            f"{max(values):.4f} |"
        )
    publish("Ratings: simulated seasons and reads at scale", "\n".join(rows), write)
    return 0
