"""The measuring pieces the benchmarks share: timed policies, the engine clock, replay costs."""

from __future__ import annotations

import json
import random
import time
from typing import Any

from bot.commands.simulate import TimedPolicy, simulate
from deucebot_dev.bench.replay import replay_cost
from deucebot_dev.bench.report import EngineClock, engine_rate
from engines.base import Event
from engines.bigtwo import SPEC as BIGTWO
from engines.bigtwo import BigTwoConfig
from engines.duel import SPEC as DUEL
from engines.duel import DuelConfig, new_state
from engines.fair import DealSource
from engines.play import play_out
from engines.registry import get_game


def test_a_timed_policy_decides_as_the_wrapped_one_and_times_every_decision() -> None:
    times: list[float] = []
    timed = TimedPolicy(BIGTWO.make_policy("random", random.Random(1)), times)
    plain = BIGTWO.make_policy("random", random.Random(1))
    state = BIGTWO.new_state(BigTwoConfig(deals=1), random.Random(2))
    view = state.view(state.to_act)
    for _ in range(5):
        assert timed.decide(view) == plain.decide(view)
    assert timed.name == "random"
    assert len(times) == 5 and all(t >= 0 for t in times)


def test_simulate_times_each_decision_of_the_match_play_out_plays() -> None:
    spec = get_game("bigtwo")
    names = ["greedy", "random", "random", "random"]
    result = simulate(spec, names, n=1, seed=7)
    # The same match by hand: simulate draws the policies' RNGs, then the match's.
    master = random.Random(7)
    agents = [spec.make_policy(name, random.Random(master.getrandbits(64))) for name in names]
    state = spec.new_state(spec.sim.config(4), random.Random(master.getrandbits(64)))
    actions = [0, 0, 0, 0]

    def until_one_unit(seat: int, action: object, events: list[Event]) -> bool:
        actions[seat] += 1
        return any(isinstance(e, spec.sim.unit_event) for e in events)

    play_out(state, agents, on_action=until_one_unit)
    assert [len(times) for times in result.decision_ms] == actions
    assert all(t >= 0 for times in result.decision_ms for t in times)


def test_the_engine_clock_changes_nothing_in_the_play_and_counts_only_engine_time() -> None:
    players = [DUEL.make_policy("random", random.Random(s)) for s in (1, 2)]
    clocked = EngineClock(new_state(DuelConfig(), random.Random(9)))
    start = time.perf_counter()
    timed = play_out(clocked, players)
    wall = time.perf_counter() - start
    players = [DUEL.make_policy("random", random.Random(s)) for s in (1, 2)]
    bare = new_state(DuelConfig(), random.Random(9))
    assert play_out(bare, players).events == timed.events
    assert clocked.snapshot() == bare.snapshot() and clocked.finished
    assert 0 < clocked.seconds < wall


def test_engine_rate_plays_whole_matches_for_about_the_time_asked() -> None:
    players = [DUEL.make_policy("random", random.Random(s)) for s in (1, 2)]
    start = time.perf_counter()
    per_second, engine_us = engine_rate(lambda rng: new_state(DuelConfig(), rng), players, 0.2)
    elapsed = time.perf_counter() - start
    assert 0.2 <= elapsed < 5
    assert per_second > 0 and 0 < engine_us < 1e6 / per_second  # the engine's share of one


def test_replay_cost_rebuilds_the_match_it_played_and_honours_the_cap() -> None:
    cost = replay_cost("bigtwo", {"deals": 1}, "greedy", None, "one deal", rounds=1)
    assert cost.game == "bigtwo" and cost.actions > 13  # at least 13 plays of one card
    assert cost.replay_ms > 0 and cost.restore_ms > 0
    # The same match: a stored match (table 1, number 1) of seed 1.
    state = BIGTWO.new_state(
        BigTwoConfig(deals=1),
        random.Random(DealSource.rng_seed(1)),
        DealSource.for_match(1, table=1, match=1),
    )
    players: list[Any] = [BIGTWO.make_policy("greedy", random.Random(s)) for s in range(4)]
    assert play_out(state, players).actions == cost.actions
    assert cost.snapshot_bytes == len(json.dumps(state.snapshot()))
    capped = replay_cost("holdem", {}, "calling", 40, "cut", rounds=1)
    assert capped.actions == 40


def test_the_levels_table_has_a_row_per_level_and_a_column_per_sparring_partner() -> None:
    from deucebot_dev.bench import bigtwo

    pool = ("greedy", "pg")
    saved, bigtwo.POOL = bigtwo.POOL, pool
    try:
        table = bigtwo.levels_table({"easy": 1, "normal": 1}, seed=1).splitlines()
    finally:
        bigtwo.POOL = saved
    assert table[0] == "| level (policy) | vs 3x `greedy` | vs 3x `pg` | p50 / p99 ms |"
    rows = table[2:]
    assert [row.split(" | ")[0] for row in rows] == ["| easy (`easy`)", "| normal (`strong`)"]
    assert all(row.count("(1)") == 2 for row in rows)  # one duplicate deal per line-up
    assert set(bigtwo.POOL) == {"greedy", "net", "pg", "strong2", "hard3"}


def test_greedy_never_breaks_the_reads_strong_makes_and_net_often_does() -> None:
    from deucebot_dev.bench.bigtwo import read_breaks
    from engines.ai.bigtwo_net import shipped_net
    from engines.ai.bigtwo_train import argmax_agent, greedy_agent

    assert read_breaks(greedy_agent, 30, seed=5) == (0.0, 0.0)
    leads, answers = read_breaks(argmax_agent(shipped_net()), 30, seed=5)
    assert 0.1 < leads < 0.6 and 0.1 < answers < 0.6, (leads, answers)


def test_the_net_speed_figures_time_decisions_and_whole_deals() -> None:
    from deucebot_dev.bench.bigtwo import net_speed

    per_decision, per_deal, decisions = net_speed(3, seed=6)
    assert decisions > 20  # the decisions between two or more moves of three deals
    assert 0 < per_decision < 1e6 and 0 < per_deal < 1e5


def test_the_discord_bench_reports_each_games_picture_render_time_and_size() -> None:
    from deucebot_dev.bench.discord import _pictures_section, picture_figures

    figures = picture_figures(5)
    most_seats = {"bigtwo": 4, "holdem": 9, "draw": 6, "duel": 2}
    assert {f["game"]: f["seats"] for f in figures} == most_seats
    assert len(figures) == len(most_seats)
    for figure in figures:
        assert figure["states"] == 5
        assert 0 < figure["p50"] <= figure["p99"]
        assert 0 < figure["size_p50"] <= figure["size_max"] <= 150
    section = _pictures_section(figures)
    assert section.count("\n| ") == 2 + 4  # the header, its rule and one row per game


def test_the_cpu_probe_counts_a_processs_main_thread_its_other_threads_and_its_children() -> None:
    import os
    import subprocess
    import sys
    import threading

    from deucebot_dev.bench.cpu import cpu_of, per_unit

    def burn(seconds: float) -> None:
        end = time.thread_time() + seconds
        while time.thread_time() < end:
            pass

    before = cpu_of(os.getpid())
    burn(0.3)  # the main thread
    helper = threading.Thread(target=burn, args=(0.3,))
    helper.start()
    helper.join()
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "t = time.process_time() + 0.3\n"
            "while time.process_time() < t: pass\n"
            "sys.stdin.read()",
        ],
        stdin=subprocess.PIPE,
    )
    try:
        for _ in range(100):
            if cpu_of(os.getpid()).workers - before.workers >= 0.25:
                break
            time.sleep(0.05)
        spent = cpu_of(os.getpid()) - before
    finally:
        child.communicate(b"")
    assert 0.25 <= spent.main < 0.6  # the helper thread's work is not the main thread's
    assert spent.process >= spent.main + 0.25  # ...but the process's
    assert spent.workers >= 0.25  # the child's, while it lives
    figures = per_unit(spent, actions=10, interactions=5)
    assert figures["cpu_main_action"] == 1000 * spent.main / 10
    assert figures["cpu_main_interaction"] == 1000 * spent.main / 5


def test_run_each_reports_a_failed_configuration_and_runs_the_others() -> None:
    from deucebot_dev.bench.report import run_each

    def run(n: int) -> dict[str, Any]:
        if n == 2:
            raise RuntimeError("bench run failed:\nTraceback ...\n" + "x" * 2000 + "\nthe cause")
        return {"n": n}

    results, failed = run_each([1, 2, 3], run, lambda n: f"{n} tables")
    assert results == [{"n": 1}, {"n": 3}]
    assert len(failed) == 1 and failed[0].startswith("2 tables: ...")
    assert failed[0].endswith("the cause") and "Traceback" not in failed[0]  # its end kept
