"""`deucebot bench runtime [--db postgresql://...]`: many concurrent all-AI Big Two tables
on one event loop.

Every table runs on the real runtime and a real SQLite file with durable commits (WAL,
group commit; an action is handed to the front only after its transaction committed);
with `--db URL` the same runs are repeated on that PostgreSQL database (each run's
tables get places of their own there) and the PostgreSQL/SQLite ratios are reported.
Reported: accepted actions per second, action latency p50/p99 (engine accept -> commit ->
handed to the front), the worst event-loop lag, and peak memory per table. The reference
in the same run is the bare engine + the same AI policy with no runtime and no storage.
Then what a restart costs: `deucebot_dev.bench.replay` (start-up replay against snapshots).
"""

from __future__ import annotations

import asyncio
import gc
import random
import secrets
import tempfile
import time
from pathlib import Path
from typing import Any, Literal

from bot.commands.simulate import percentile
from bot.runtime import NullFront, RuntimeConfig, TableManager, tune_gc
from deucebot_dev.bench import replay
from deucebot_dev.bench.report import publish
from engines.play import play_out
from engines.registry import get_game
from storage import SqliteStorage, StorageError, is_postgres_url, open_storage
from storage.backend import AnyStorage
from storage.postgres import redact

START_CONCURRENCY = 32
"""Tables started at once (a start deals the cards: 500 in one burst would be one long
stall that no real deployment sees)."""

POLICY = "greedy"
"""A cheap AI, so the figures measure the runtime and storage rather than the AI's search."""


def _rss_kib(field: str = "VmRSS") -> int:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def reference(tables: int, deals: int) -> tuple[float, int]:
    """Actions/s of the bare engine and policy playing the same matches in a loop."""
    spec = get_game("bigtwo")
    config = spec.make_config(deals=deals)
    done = 0
    start = time.perf_counter()
    for i in range(tables):
        state = spec.new_state(config, random.Random(i))
        policies = [spec.make_policy(POLICY, random.Random(i * 4 + s)) for s in range(4)]
        done += play_out(state, policies).actions
    return done / (time.perf_counter() - start), done


async def run_tables(
    tables: int,
    deals: int,
    *,
    synchronous: Literal["NORMAL", "FULL"] = "FULL",
    ai_in_thread: bool = False,
    tune: bool = True,
    db: str | None = None,
) -> dict[str, Any]:
    """Play `tables` all-AI matches at once; return the measured figures. With `db` (a
    `postgresql://` URL) the tables live there instead of in a fresh SQLite file."""
    latencies: list[float] = []
    thresholds = gc.get_threshold()
    run = secrets.token_hex(4)  # places of this run's own in a database that is kept
    with tempfile.TemporaryDirectory(prefix="deucebot-bench-") as tmp:
        storage: AnyStorage
        if db is None:
            storage = SqliteStorage(str(Path(tmp) / "bench.sqlite3"), synchronous=synchronous)
            await storage.open()
        else:
            storage = await open_storage(db)
        config = RuntimeConfig(
            ai_delay=0.0, ai_in_thread=ai_in_thread, timers=False, latency_sink=latencies.append
        )
        manager = TableManager(storage, NullFront(), config=config)
        gc.collect()
        rss_before = _rss_kib()
        created = [
            await manager.create(
                guild="bench",
                place=f"bench-{run}-{i}",
                game="bigtwo",
                settings={"deals": deals},
                options={"ai_policy": POLICY},
            )
            for i in range(tables)
        ]
        lag = 0.0
        rss_peak = rss_before
        running = True

        async def monitor() -> None:
            nonlocal lag, rss_peak
            loop = asyncio.get_running_loop()
            while running:
                tick = loop.time()
                await asyncio.sleep(0.01)
                lag = max(lag, loop.time() - tick - 0.01)
                rss_peak = max(rss_peak, _rss_kib())

        watcher = asyncio.create_task(monitor())
        batches_before = storage.batches
        start = time.perf_counter()
        gate = asyncio.Semaphore(START_CONCURRENCY)

        async def begin(i: int) -> None:
            async with gate:
                await created[i].start(seed=i)

        await asyncio.gather(*(begin(i) for i in range(tables)))
        if tune:
            tune_gc()  # what the bot does once its tables are restored
        await manager.idle()
        elapsed = time.perf_counter() - start
        running = False
        await watcher
        rss_peak = max(_rss_kib(), rss_peak)
        unfinished = sum(not t.finished for t in created)
        batches = storage.batches - batches_before
        await manager.close()
        await storage.close()
    # Leave the collector as it was for the next run.
    gc.unfreeze()
    gc.set_threshold(*thresholds)
    actions = len(latencies)
    return {
        "tables": tables,
        "actions": actions,
        "seconds": elapsed,
        "rate": actions / elapsed,
        "p50_ms": percentile(latencies, 50) * 1000,
        "p99_ms": percentile(latencies, 99) * 1000,
        "lag_ms": lag * 1000,
        "kib_per_table": (rss_peak - rss_before) / tables,
        "per_commit": actions / max(1, batches),
        "unfinished": unfinished,
        "synchronous": synchronous if db is None else "PostgreSQL",
        "thread": ai_in_thread,
    }


async def traced_kib_per_table(tables: int = 100) -> float:
    """Python memory held per started table (tracemalloc): table, seats, engine state, AI."""
    import tracemalloc

    with tempfile.TemporaryDirectory(prefix="deucebot-bench-") as tmp:
        storage = SqliteStorage(str(Path(tmp) / "mem.sqlite3"))
        await storage.open()
        manager = TableManager(storage, NullFront(), config=RuntimeConfig(timers=False))
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for i in range(tables):
            table = await manager.create(
                guild="bench", place=f"mem-{i}", game="bigtwo", options={"ai_policy": POLICY}
            )
            await table.start(seed=i)
            await manager.close()  # cancel the AI tasks before they run: measure at the deal
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
        await storage.close()
    return held / tables / 1024


def _met(r: dict[str, Any]) -> bool:
    return bool(r["rate"] >= 1000 and r["p99_ms"] <= 50 and r["lag_ms"] <= 100)


def _header(first: str) -> list[str]:
    """The figures table's header, its first column named `first`."""
    return [
        f"| {first} | tables | actions | actions/s | x ref | p50 ms | p99 ms | worst loop "
        "lag ms | peak KiB/table | actions/commit | goals met |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]


def _row(label: str, r: dict[str, Any], ref_rate: float) -> str:
    return (
        f"| {label} | {r['tables']} | {r['actions']} | {r['rate']:,.0f} "
        f"| {r['rate'] / ref_rate:.2f} "
        f"| {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | {r['lag_ms']:.0f} | {r['kib_per_table']:.0f} "
        f"| {r['per_commit']:.1f} | {'yes' if _met(r) else 'NO'} |"
    )


Runs = list[tuple[str, dict[str, Any]]]


def _postgres_runs(db: str, tables: int, deals: int) -> Runs:
    """The runtime runs again on the PostgreSQL database at `db`."""
    return [
        ("PostgreSQL, AI inline", asyncio.run(run_tables(tables, deals, db=db))),
        (
            "PostgreSQL, AI in a thread",
            asyncio.run(run_tables(tables, deals, ai_in_thread=True, db=db)),
        ),
    ]


def _postgres_lines(db: str, runs: Runs, sqlite_runs: Runs, ref: float) -> list[str]:
    """The PostgreSQL rows, with their ratios to SQLite's (same run, same machine)."""
    lines = [
        "",
        f"The same tables on PostgreSQL (`{redact(db)}`, asyncpg, group commit, server "
        "default `synchronous_commit = on`: every acknowledged action is flushed to the "
        "server's WAL), and the ratios to this run's SQLite rows:",
        "",
        *_header("backend, AI"),
    ]
    lines += [_row(label, r, ref) for label, r in runs]
    lines += [
        "",
        "| PostgreSQL run | against SQLite run | actions/s ratio | p99 ratio |",
        "| --- | --- | --- | --- |",
    ]
    # FULL rows: SQLite's default, with PostgreSQL's durability (a sync per commit batch);
    # NORMAL: SQLite's faster setting.
    pairs = [(runs[0], sqlite_runs[0]), (runs[1], sqlite_runs[1]), (runs[0], sqlite_runs[2])]
    for (label, pg), (lite_label, lite) in pairs:
        lines.append(
            f"| {label} | {lite_label} | {pg['rate'] / lite['rate']:.2f} "
            f"| {pg['p99_ms'] / lite['p99_ms']:.2f} |"
        )
    return lines


def main(quick: bool, write: bool, db: str | None = None) -> int:
    """Run the benchmark, print it and (with `write`) publish it to docs/benchmarks.md;
    with `db` (a postgresql:// URL) also on PostgreSQL, with the ratios."""
    tables, deals = (100, 1) if quick else (500, 2)
    if db is not None and not is_postgres_url(db):
        raise StorageError(
            f"bench runtime --db takes a postgresql:// URL, not {db!r} (SQLite is always measured)"
        )
    ref_rate, ref_actions = reference(min(tables, 100), deals)
    asyncio.run(run_tables(20, 1))  # warm-up: one-time allocations stay out of the figures
    traced = asyncio.run(traced_kib_per_table())
    runs = [
        ("FULL, AI inline", asyncio.run(run_tables(tables, deals))),
        ("FULL, AI in a thread", asyncio.run(run_tables(tables, deals, ai_in_thread=True))),
        ("NORMAL, AI inline", asyncio.run(run_tables(tables, deals, synchronous="NORMAL"))),
        (
            "FULL, AI in a thread, default GC",
            asyncio.run(run_tables(tables, deals, ai_in_thread=True, tune=False)),
        ),
    ]
    lines = [
        f"{tables} concurrent all-AI Big Two tables ({deals} deal(s) each, `{POLICY}` AI, zero AI "
        "delay) on one event loop and one SQLite file in WAL mode. Latency is engine accept -> "
        "commit -> handed to the front. Reference: the bare engine and the same AI in a plain "
        f"loop, {ref_rate:,.0f} actions/s ({ref_actions} actions); `x ref` is the runtime's rate "
        "divided by it. Memory is the peak resident-set growth (sampled every 10 ms) divided by "
        "the tables.",
        "",
        *_header("synchronous, AI"),
    ]
    lines += [_row(label, r, ref_rate) for label, r in runs]
    lines += [
        "",
        "Goals: >= 1,000 durable actions/s, p99 <= 50 ms, worst loop lag <= 100 ms. The "
        "runtime's defaults are `synchronous=FULL` and AI decisions in a worker thread "
        "(second row); inline AI suits cheap policies. AI turns are admitted "
        f"{RuntimeConfig().ai_concurrency} at a time across the process "
        "(`RuntimeConfig.ai_concurrency`) and the benchmark starts tables "
        f"{START_CONCURRENCY} at a time. Once the tables are started it calls "
        "`bot.runtime.tune_gc()` (freeze start-up objects, rarer full collections), as the "
        "bot should after restoring its tables; the last row runs without it. Default "
        "full collections over hundreds of tables are the main source of loop lag: single "
        "pauses of 75-175 ms were seen in other runs on this machine (it varies with load).",
        "",
        f"Memory per table measured with tracemalloc (table, seats, engine state, AI "
        f"policies, after the deal): {traced:.1f} KiB. The resident-set column is only "
        "indicative: later runs reuse memory the first run freed.",
    ]
    lines += [
        "",
        "Durability: an action is handed to the front only after the transaction holding it "
        "committed, so killing the process never loses an acknowledged action (group commit "
        "only batches actions that nobody has seen yet). The default, `synchronous=FULL`, syncs "
        "the WAL at every commit batch, so nothing acknowledged is lost even on a power cut or "
        "OS crash. `DEUCEBOT_DB_SYNCHRONOUS=normal` (the third row) syncs the WAL only at "
        "checkpoints (every 1000 pages, about 4 MB of log): faster, but a power cut can lose "
        "what the OS had not yet written back, typically up to its ~30 s dirty-page delay of "
        "play. The database stays consistent either way (WAL frames are checksummed; a torn "
        "tail is dropped), and each table resumes at its last surviving action.",
    ]
    if db is not None:
        pg_runs = _postgres_runs(db, tables, deals)
        lines += _postgres_lines(db, pg_runs, runs, ref_rate)
        runs += pg_runs
    unfinished = sum(r["unfinished"] for _, r in runs)
    if unfinished:
        lines.append(f"\nWARNING: {unfinished} table(s) did not finish their match.")
    publish("Runtime: concurrent tables", "\n".join(lines), write)
    replay.main(quick, write)  # what a restart costs: its own section
    return 0 if not unfinished else 1
