"""`deucebot bench scale`: Discord under its enforced request budget, and sharding.

The stand-in enforces Discord's limits (50 REST requests per second per bot token,
interaction answers exempt; 5 messages or edits per 5 s per channel) and answers 429s as
Discord does. Paced Big Two tables (one person clicking as in `bench discord`, thinking
0.25-0.75 s; three greedy AIs waiting the production 1 s, so AI CPU does not hide the
front's cost) play for a fixed window; then the bot stops and the figures are read:

- our own processing per interaction, p99 (stand-in writes INTERACTION_CREATE -> the
  bot hands its answer to HTTP; see `deucebot_dev.bench.discord`);
- board staleness: for every committed action, seconds from its commit (its `at` in the
  action log) to the first board version in its channel showing that turn (the footer's
  turn number), p50 and p99, and the actions never shown before the bot stopped; the
  same for the actions after which a person was to act (the next action in the log is
  a human's: someone was waiting for that board); and to the first version showing
  its picture as well (a board does not wait past `bot.discord.board_pictures.PICTURE_WAIT` for
  a picture: when the picture follows by a later edit, that edit is when it showed);
- the share of the members' hand versions (ephemeral answers and their edits, with cards
  in the menu) that went out without the hand's picture (drawn later than
  `bot.discord.board.HAND_PICTURE_WAIT`; it follows by an edit);
- the share of board versions (posts and edits) that came through interactions (a
  member's token: follow-ups and their edits, callbacks; outside the global limit)
  rather than the bot's budgeted REST routes (see `bot.discord.tokens`);
- REST calls per deal (everything but interaction answers, including each table's
  lobby board), and the 429s the stand-in sent (goal 0 at steady load);
- actions committed per second in the window, and how long an AI seat takes: seconds from
  the action before its move (in the deal) to its move's commit (the production wait of
  1 s, the board catching up, and the loop-pressure gate, which holds AI moves while the
  loop is late: `bot.discord.loop_pressure`);
- the members stuck: whose simulated person gave up, an answer never having come
  (a deferred `/table create` still "thinking" after 30 s, say): their table never
  played, so the other figures would look better than they are;
- the bot's CPU per action (main thread, whole process) and main-thread CPU per
  interaction (`deucebot_dev.bench.cpu`; see `deucebot_dev.bench.discord`): what bounds
  the actions per second one process can show; and the main thread's CPU per action once every table
  has started (the opening burst of `/table create` and `/table start` left out: in a
  short window its fixed cost, divided by however many actions the load let through,
  made the whole-window figure vary from run to run).

Configurations: 100, 300 and 1,000 tables in one process (SQLite); then 300 tables on
PostgreSQL in one process, and split over two shard processes (two guilds, one per shard,
`DEUCEBOT_SHARD_COUNT=2`), each with half the request budget (the global limit is per
bot token, shared by all its processes): the scaling ratio is two processes' figures
against one's in the same run; and 1,000 tables on two shard processes.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import re
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

from bot.commands.simulate import percentile
from bot.i18n import t
from bot.runtime.worker_process import batch_scheduling
from deucebot_dev.bench.cpu import Cpu, cpu_of, per_unit
from deucebot_dev.bench.discord import (
    _POLICY,
    _READY,
    _SINK,
    ROOT,
    STANDIN_NICENESS,
    _latencies,
    _play_table,
    _spawn,
    _stop,
    run_apart,
)
from deucebot_dev.bench.report import publish, run_each
from deucebot_dev.discord_standin import INTERACTION, FakeDiscord, Message, iter_components
from storage.backend import open_storage

TURN = re.compile(r"turn (\d+)")
"""The turn number in a board's footer (English)."""


def _footer_turn(msg: Message) -> int | None:
    for embed in msg.embeds:
        found = TURN.search((embed.get("footer") or {}).get("text", ""))
        if found:
            return int(found.group(1))
    return None


def _hands_without_picture(fake: FakeDiscord) -> tuple[int, int]:
    """How many versions of members' ephemeral hands (with cards in their menu) went out
    without the hand's picture, of how many."""
    without = total = 0
    for msg in fake.messages.values():
        if not msg.ephemeral:
            continue
        for version in msg.history:
            menus = [
                c
                for c in iter_components(version.get("components") or [])
                if str(c.get("custom_id", "")).startswith("db:sel:") and c.get("options")
            ]
            if not menus:
                continue
            total += 1
            attachments = version.get("attachments") or []
            without += not any(str(a).startswith("hand-") for a in attachments)
    return without, total


async def _run(
    tables: int,
    seconds: float,
    processes: int,
    database: str,
    think: float = 0.5,
    ai_delay: float = 1.0,
    yield_cpu: bool = False,
) -> dict[str, Any]:
    """`tables` paced tables for `seconds` on `processes` shard processes (1: unsharded)
    and `database` ("sqlite" or "postgres", a throwaway server)."""
    fake = FakeDiscord(channels=tables // processes, guilds=processes, shard_count=processes)
    fake.strict = False
    boards: dict[int, Message] = {}
    moved: dict[int, asyncio.Event] = {}
    shown: list[tuple[float, int, int]] = []
    """(when, channel, turn) of every board version."""
    images: list[str] = []
    """The picture each of them shows (its embed's image URL), in the same order."""
    via: dict[str, int] = {}
    """Board versions by how they came (`Message.via`: "interaction" or "rest")."""

    def seen(msg: Message) -> None:
        if not any(c.startswith("db:hand:") for c in msg.custom_ids()):
            return
        turn = _footer_turn(msg)
        if turn is not None:
            shown.append((time.time(), msg.channel_id, turn))
            images.append(str(((msg.embeds or [{}])[0].get("image") or {}).get("url", "")))
            via[msg.via] = via.get(msg.via, 0) + 1
        if msg.channel_id not in boards or boards[msg.channel_id].id <= msg.id:
            boards[msg.channel_id] = msg
            moved.setdefault(msg.channel_id, asyncio.Event()).set()

    fake.public_hook = seen
    await fake.start()
    users = [fake.owner] + [fake.add_user(f"P{i}") for i in range(1, tables)]
    server = None
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        if database == "postgres":
            from deucebot_dev.pg_server import TempPostgres

            server = TempPostgres()
            server.start()
            db = server.create_database("bench")
        else:
            db = str(tmp / "bench.sqlite3")
        base = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("DISCORD_", "DEUCEBOT_", "DEV_"))
        }
        base.update(fake.env())
        if processes > 1:
            del base["DEV_GUILD_ID"]  # commands for every guild
        base.update(
            PYTHONPATH=str(ROOT),
            DEUCEBOT_DB=db,
            DEUCEBOT_AI_DELAY=str(ai_delay),
            DEUCEBOT_AI_PROCESSES="1",
            DEUCEBOT_TURN_SECONDS="0",
            DEUCEBOT_MAX_TABLES_PER_SERVER="0",
            DEUCEBOT_LOG_LEVEL="WARNING",
            DEUCEBOT_REST_PER_SECOND=str(45 // processes),
            **{_READY: "0.05", _POLICY: "greedy"},
        )
        procs = []
        for shard in range(processes):
            env = dict(base, **{_SINK: str(tmp / f"sink{shard}.json")})
            if processes > 1:
                env.update(DEUCEBOT_SHARD_COUNT=str(processes), DEUCEBOT_SHARD_IDS=str(shard))
            (tmp / f"p{shard}").mkdir()
            procs.append(await _spawn(env, tmp / f"p{shard}"))
        if yield_cpu and hasattr(os, "nice"):
            os.nice(STANDIN_NICENESS)
            batch_scheduling()
        try:
            await fake.wait_ready(120, shards=list(range(processes)) if processes > 1 else None)
            await asyncio.sleep(0.5)
            login_calls = len(fake.rest_calls)
            cpu_start = [cpu_of(proc.pid) for proc in procs]
            for channel in fake.channel_ids:
                moved.setdefault(channel, asyncio.Event())
            finished = t("discord.board.finished", "en")
            seated: list[float] = []
            players = [
                asyncio.create_task(
                    _play_table(
                        fake,
                        boards,
                        moved,
                        finished,
                        users[i],
                        fake.channel_ids[i],
                        100,
                        think,
                        seated,
                        random.Random(i),
                    )
                )
                for i in range(tables)
            ]
            steady: dict[str, Any] = {}
            sampler = asyncio.create_task(_when_all_started(seated, tables, procs, steady))
            started = time.time()
            await asyncio.sleep(seconds)
            ended, ended_perf = time.time(), time.perf_counter()
            steady_end = [cpu_of(proc.pid) for proc in procs]
            sampler.cancel()
            stuck = [p for p in players if p.done() and not p.cancelled() and p.exception()]
            await _cancel_all(players)
            await asyncio.sleep(3.0)  # the last coalesced edits
            spent = sum(
                (cpu_of(proc.pid) - start for proc, start in zip(procs, cpu_start, strict=True)),
                Cpu(0.0, 0.0, 0.0),
            )
            bot_calls = sum(
                1
                for _, path in fake.rest_calls[login_calls:]
                if "/interactions/" not in path and "/webhooks/" not in path
            )
        except BaseException:
            for proc in procs:
                await _stop(proc)
            raise
        samples: dict[str, Any] = {"actions": [], "answered": {}}
        for shard, proc in enumerate(procs):
            sink = tmp / f"sink{shard}.json"
            await _stop(proc, sink)
            if sink.exists():
                data = json.loads(sink.read_text())
                samples["actions"] += data.get("actions", [])
                samples["answered"].update(data.get("answered", {}))
        logs = "".join((tmp / f"p{s}" / "bot.log").read_text() for s in range(processes))
        commits, deals, ai_gaps = await _committed(db, fake.channel_ids)
        if server is not None:
            server.stop()
    hands_bare, hands = _hands_without_picture(fake)
    await fake.stop()
    if "Traceback" in logs:
        raise RuntimeError("the bot misbehaved:\n" + logs[-3000:])
    answered = {int(iid): at for iid, at in samples["answered"].items()}
    inside, inside_steady = _latencies(fake.sent_at, answered, max(seated, default=0.0))
    stale, unseen = _staleness([c[:3] for c in commits], shown, ended)
    waited, _ = _staleness([c[:3] for c in commits if c[3]], shown, ended)
    drawn, _ = _staleness([c[:3] for c in commits], _pictured(shown, images), ended)
    in_window = sum(1 for at, *_ in commits if started <= at <= ended)
    nan = float("nan")
    steady_figures = {"cpu_steady_main_action": nan, "cpu_steady_main_interaction": nan}
    if steady:
        steady_spent = sum(
            (end - start for end, start in zip(steady_end, steady["cpu"], strict=True)),
            Cpu(0.0, 0.0, 0.0),
        )
        steady_actions = sum(1 for at, *_ in commits if steady["at"] <= at <= ended)
        steady_clicks = sum(1 for at in fake.sent_at.values() if steady["perf"] <= at <= ended_perf)
        steady_figures = {
            "cpu_steady_main_action": 1000 * steady_spent.main / max(steady_actions, 1),
            "cpu_steady_main_interaction": 1000 * steady_spent.main / max(steady_clicks, 1),
        }
    versions = sum(via.values())
    return {
        "tables": tables,
        "processes": processes,
        "database": database,
        "seconds": seconds,
        "actions_per_second": in_window / (ended - started),
        "deals": deals,
        "own_p50": percentile(inside, 50),
        "own_p99": percentile(inside, 99),
        "own_steady_p99": percentile(inside_steady, 99),
        "late": len(fake.late),
        "stuck": len(stuck),
        "stale_p50": percentile(stale, 50),
        "stale_p99": percentile(stale, 99),
        "stale_picture_p50": percentile(drawn, 50),
        "stale_picture_p99": percentile(drawn, 99),
        "stale_human_p50": percentile(waited, 50),
        "stale_human_p99": percentile(waited, 99),
        "ai_gap_p50": percentile(ai_gaps, 50),
        "ai_gap_p99": percentile(ai_gaps, 99),
        "board_versions": versions,
        "hands_without_picture": hands_bare / max(hands, 1),
        "hand_versions": hands,
        "through_interactions": via.get(INTERACTION, 0) / max(versions, 1),
        "unseen": unseen,
        "commits": len(commits),
        "calls_per_deal": bot_calls / max(deals, 1),
        "refused": len(fake.limits.refused),
        "refused_global": sum(1 for *_, is_global in fake.limits.refused if is_global),
        **per_unit(spent, len(samples["actions"]), len(fake.sent_at)),
        **steady_figures,
    }


async def _when_all_started(
    seated: list[float], tables: int, procs: list[Any], steady: dict[str, Any]
) -> None:
    """Once every table has started (the opening burst of commands over), note when (both
    clocks) and the bot processes' CPU so far in `steady`: the figures of steady play."""
    while len(seated) < tables:
        await asyncio.sleep(0.2)
    steady.update(at=time.time(), perf=time.perf_counter(), cpu=[cpu_of(p.pid) for p in procs])


async def _cancel_all(tasks: list[asyncio.Task[None]]) -> None:
    """Cancel `tasks` and wait for them, cancelling again those that swallowed it
    (Python 3.11's `wait_for` can, when its inner wait ends at the same moment)."""
    pending = set(tasks)
    while pending:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=1.0)


async def _committed(
    db: str, channels: list[int]
) -> tuple[list[tuple[float, int, int, bool]], int, list[float]]:
    """Every committed action as (at, channel, turn after it, whether a person acts next),
    the deals dealt, and each AI move's gap: seconds from the action before it (in its
    deal) to its commit (the production wait, the board catching up, the loop's gate)."""
    storage = await open_storage(db, read_only=True)
    out: list[tuple[float, int, int, bool]] = []
    deals = 0
    gaps: list[float] = []
    try:
        for channel in channels:
            table = await storage.table_at(str(channel))
            if table is None:
                continue
            match = await storage.current_match(table.id)
            if match is None:
                continue
            deals += len(await storage.deals(match.id))
            actions = await storage.actions(match.id)
            out += [
                (a.at, channel, a.seq + 1, n + 1 < len(actions) and actions[n + 1].actor == "human")
                for n, a in enumerate(actions)
            ]
            gaps += [
                a.at - before.at
                for before, a in itertools.pairwise(actions)
                if a.actor == "ai" and a.deal == before.deal
            ]
    finally:
        await storage.close()
    return out, deals, gaps


def _pictured(
    shown: list[tuple[float, int, int]], images: list[str]
) -> list[tuple[float, int, int]]:
    """The board versions that showed their turn's picture too: all but those sent before
    it (`bot.discord.board_pictures.PICTURE_WAIT`), told by a later version of the same turn
    bringing another picture."""
    last: dict[int, tuple[int, list[int]]] = {}
    """Channel -> the turn of its latest versions and their indexes."""
    early: set[int] = set()
    for index, (_, channel, turn) in enumerate(shown):
        seen_turn, same = last.get(channel, (-1, []))
        if seen_turn != turn:
            last[channel] = (turn, [index])
            continue
        same.append(index)
        if images[index] != images[same[0]]:
            early.update(i for i in same if images[i] == images[same[0]])
    return [version for index, version in enumerate(shown) if index not in early]


def _staleness(
    commits: list[tuple[float, int, int]], shown: list[tuple[float, int, int]], ended: float
) -> tuple[list[float], int]:
    """Seconds from each commit (made before `ended`) to the first board showing its turn
    or a later one; and how many were never shown."""
    by_channel: dict[int, list[tuple[float, int]]] = {}
    for when, channel, turn in shown:
        by_channel.setdefault(channel, []).append((when, turn))
    stale: list[float] = []
    unseen = 0
    for at, channel, turn in commits:
        if at > ended:
            continue
        first = next(
            (when for when, seen in by_channel.get(channel, []) if seen >= turn and when >= at),
            None,
        )
        if first is None:
            unseen += 1
        else:
            stale.append(first - at)
    return stale, unseen


def _row(r: dict[str, Any]) -> str:
    where = f"{r['processes']} process{'es' if r['processes'] > 1 else ''}, {r['database']}"
    return (
        f"| {r['tables']} | {where} | {r['actions_per_second']:.0f} | {r['own_p99']:.0f} ms"
        f" | {r['ai_gap_p50']:.1f} / {r['ai_gap_p99']:.1f} s"
        f" | {r['stale_p50']:.1f} / {r['stale_p99']:.1f} s"
        f" | {r['stale_human_p50']:.1f} / {r['stale_human_p99']:.1f} s"
        f" | {r['stale_picture_p50']:.1f} / {r['stale_picture_p99']:.1f} s"
        f" | {r['through_interactions']:.0%}"
        f" | {r.get('hands_without_picture', float('nan')):.1%} of {r.get('hand_versions', 0)}"
        f" | {r['unseen']} of {r['commits']}"
        f" | {r['calls_per_deal']:.1f} | {r['refused']} ({r['refused_global']} global)"
        f" | {r['late']} | {r['stuck']} | {r.get('cpu_main_action', float('nan')):.2f}"
        f" / {r.get('cpu_process_action', float('nan')):.2f} ms"
        f" | {r.get('cpu_main_interaction', float('nan')):.2f} ms"
        f" | {r.get('cpu_steady_main_action', float('nan')):.2f} ms |"
    )


def main(quick: bool = False, write: bool = False, tables: tuple[int, ...] = ()) -> int:
    """Run the configurations and publish them (see the module docstring); only those of
    `tables` table counts when given (with `quick`: that many tables, 20 s each)."""
    # (tables, seconds, processes, database)
    runs: list[tuple[int, float, int, str]] = (
        [(20, 20.0, 1, "sqlite"), (20, 20.0, 2, "postgres")]
        if quick
        else [
            (100, 60.0, 1, "sqlite"),
            (300, 60.0, 1, "sqlite"),
            (1000, 60.0, 1, "sqlite"),
            (300, 60.0, 1, "postgres"),
            (300, 60.0, 2, "postgres"),
            (1000, 60.0, 2, "postgres"),
        ]
    )
    if tables:
        runs = (
            [(n, 20.0, p, db) for n in tables for (_, _, p, db) in runs]
            if quick
            else [run for run in runs if run[0] in tables]
        )
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    results, failed = run_each(
        runs,
        partial(run_apart, "deucebot_dev.bench.scale"),
        lambda run: f"{run[0]} tables, {run[2]} process(es), {run[3]}",
    )
    load_after = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    table = "\n".join(_row(r) for r in results)
    one = next((r for r in results if r["processes"] == 1 and r["database"] == "postgres"), None)
    two = next((r for r in results if r["processes"] == 2), None)
    ratio = ""
    if one is not None and two is not None and one["tables"] == two["tables"]:
        ratio = (
            f"\nTwo shard processes against one, same {one['tables']} tables on PostgreSQL: "
            f"actions/s x{two['actions_per_second'] / one['actions_per_second']:.2f}, "
            f"own-processing p99 x{two['own_p99'] / one['own_p99']:.2f}, "
            f"board staleness p99 x{two['stale_p99'] / max(one['stale_p99'], 1e-9):.2f}.\n"
        )
    body = (
        "Paced Big Two tables (one person each, thinking 0.25-0.75 s; three greedy AIs with\n"
        "the production AI delay of 1 s) under Discord's enforced limits in the stand-in (50\n"
        "requests/s per bot token, interaction answers exempt; 5 per 5 s per channel). Each\n"
        "row plays for the window given, then stops the bot. Budget: 45 requests/s per bot,\n"
        "split between shard processes. The machine is shared: load average (1 min)\n"
        f"{load_before:.1f} before the runs, {load_after:.1f} after.\n\n"
        "| tables | bot | actions/s | own processing p99 | an AI's move after the one before,"
        " p50 / p99 | board staleness p50 / p99 |"
        " staleness, a person to act, p50 / p99 | the board's picture too, p50 / p99 |"
        " board versions through interactions |"
        " hand versions without their picture (it follows) |"
        " actions never shown | REST calls per deal | 429s | answers > 3 s |"
        " members stuck (an answer never came) |"
        " bot CPU per action, main thread / process | main thread CPU per interaction |"
        " main thread CPU per action once every table has started |\n"
        + "| --- " * 18
        + "|\n"
        + table
        + "\n"
        + ratio
        + "".join(f"\nFailed: {line}\n" for line in failed)
    )
    publish("Discord under the request budget, and shards", body, write)
    for r in results:
        print(_row(r))
    if ratio:
        print(ratio.strip())
    return 0
