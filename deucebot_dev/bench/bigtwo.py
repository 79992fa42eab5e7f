"""`deucebot bench bigtwo`: engine speed, `strong` decision latency, and the strength table.

1. Greedy all-AI deals per second through the full engine surface (view ->
   decide -> apply, with events), next to a straightforward list-based greedy
   deal (`deucebot_dev.bench.bigtwo_reference`) measured in the same run, and the
   bitmask play-outs the `strong` player searches with.
2. `strong` against three `greedy` players over rotated deals: win rate,
   penalty per deal (and its ratio to the greedy players'), decision latency.
3. For scale: `greedy` against three `random` players.
4. Each AI level (`easy`, `normal` = `strong`, `hard`) against three of each sparring
   partner of the pool (`bot.commands.pool.BIGTWO_POOL`: `greedy`, the trained `net`, the
   policy-gradient `pg`, the frozen `strong2` and `hard3`), every deal played with the level
   in each seat (duplicate deals, the same for every line-up): penalty ratio with its 95%
   interval, levels as rows and opponents as columns, decision p50 / p99. Strength uses
   fixed sample counts, so the ratios hold on a loaded machine; decision times do not.
5. How often `net` breaks the greedy habits `strong` (and `hard`) read the other seats by
   (`read_breaks`): how far those reads are from the truth against it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from bot.commands.pool import BIGTWO_POOL, levels_against_pool, levels_markdown
from bot.commands.simulate import SimulationResult, percentile, simulate
from deucebot_dev.bench.bigtwo_reference import play_deal
from deucebot_dev.bench.report import publish, rate
from engines.ai import bigtwo_fast
from engines.ai.bigtwo_net import choose, net_play_out, shipped_net
from engines.ai.bigtwo_strong import forget_plans
from engines.ai.bigtwo_train import Agent, argmax_agent, greedy_agent
from engines.ai.bigtwo_train import play_deal as fast_deal
from engines.base import Policy
from engines.bigtwo import SPEC, BigTwoConfig, prime_caches
from engines.bigtwo_combos import Combo
from engines.play import play_out
from engines.registry import LEVELS


def engine_deals(rng: random.Random, policies: Sequence[Policy[Any, Any]]) -> int:
    """Play one greedy deal through the engine surface; returns 1."""
    play_out(SPEC.new_state(BigTwoConfig(deals=1), random.Random(rng.getrandbits(64))), policies)
    return 1


def fast_deals(rng: random.Random) -> int:
    """Play one greedy deal with the bitmask play-out; returns 1."""
    hands = bigtwo_fast.deal_unseen(rng, list(range(52)), [13, 13, 13, 13], [0, 0, 0, 0], -1)
    first = next(s for s in range(4) if hands[s] & 1)
    bigtwo_fast.play_out(hands, first, None, first, 0)
    return 1


def _figures(result: SimulationResult) -> dict[str, float]:
    data = result.to_json()
    seats = data["seats"]
    me = seats[0]
    others = sum(s["penalty_per_deal"]["mean"] for s in seats[1:]) / (len(seats) - 1)
    return {
        "win": me["win_rate"]["mean"],
        "win_low": me["win_rate"]["low"],
        "win_high": me["win_rate"]["high"],
        "pen": me["penalty_per_deal"]["mean"],
        "others": others,
        "ratio": me["penalty_per_deal"]["mean"] / others if others else float("nan"),
        "edge_low": me["edge"]["low"],
        "edge": me["edge"]["mean"],
        "p50": percentile(result.decision_ms[0], 50),
        "p99": percentile(result.decision_ms[0], 99),
        "n": data["n"],
        "seconds": data["seconds"],
    }


def read_breaks(agent: Agent, deals: int, seed: int) -> tuple[float, float]:
    """How often `agent`, playing `deals` bitmask deals against copies of itself, breaks
    the greedy habits: (the share of its free leads made while holding a card lower than
    the lead's lowest, the share of its single answers made while holding a lower single
    that beats the table). Greedy players break neither."""
    leads = [0, 0]
    answers = [0, 0]

    def watched(seat: int, *situation: Any) -> int:
        index = agent(seat, *situation)
        hand: int = situation[0]
        moves: list[int] = situation[1]
        table: Combo | None = situation[2]
        move = moves[index]
        if len(moves) > 1 and move:
            if table is None and not hand & 1:  # 3♦ leads are forced to hold it
                leads[0] += 1
                leads[1] += bool(hand & ((move & -move) - 1))
            elif table is not None and table.size == 1:
                answers[0] += 1
                answers[1] += bool(hand & (move - 1) & ~((2 << table.power) - 1))
        return index

    rng = random.Random(seed)
    for _ in range(deals):
        fast_deal(rng, [watched] * 4)
    return leads[1] / max(leads[0], 1), answers[1] / max(answers[0], 1)


def net_speed(deals: int, seed: int) -> tuple[float, float, int]:
    """`net`'s cost: (microseconds per decision between two or more moves, its features and
    forward pass, on the situations of `deals` bitmask self-play deals; milliseconds per
    whole deal played by `net_play_out` for every seat, the play-out `hard` runs), and how
    many decisions were timed. Remembered plans are forgotten first, as in a search whose
    sampled hands are new."""
    net = shipped_net()
    seen: list[tuple[Any, ...]] = []

    def watched(seat: int, *situation: Any) -> int:
        if len(situation[1]) > 1:
            seen.append(situation)
        return choose(net, *situation)

    rng = random.Random(seed)
    for _ in range(deals):
        fast_deal(rng, [watched] * 4)
    forget_plans()
    started = time.perf_counter()
    for situation in seen:
        choose(net, *situation)
    per_decision = (time.perf_counter() - started) / max(len(seen), 1) * 1e6
    forget_plans()
    started = time.perf_counter()
    for _ in range(deals):
        hands = bigtwo_fast.deal_unseen(rng, list(range(52)), [13] * 4, [0] * 4, -1)
        first = next(s for s in range(4) if hands[s] & 1)
        net_play_out(net, hands, first, None, first, 0)
    per_deal = (time.perf_counter() - started) / max(deals, 1) * 1000
    return per_decision, per_deal, len(seen)


POOL = BIGTWO_POOL
"""The sparring partners every level is measured against."""


def levels_table(deals_by_level: dict[str, int], seed: int = 4) -> str:
    """The markdown table of every level (rows) against the pool (`POOL`, columns), on
    `deals_by_level[level]` duplicate deals per line-up."""
    return levels_markdown(SPEC, levels_against_pool(SPEC, deals_by_level, POOL, seed=seed))


def main(quick: bool, write: bool) -> int:
    """Run the measurements, print them and (with `write`) record them in docs/benchmarks.md."""
    seconds = 2.0 if quick else 10.0
    deals = 200 if quick else 2000
    started = time.perf_counter()
    primed = prime_caches()
    prime_s = time.perf_counter() - started
    rng = random.Random(1)
    greedy_players = [SPEC.make_policy("greedy", rng) for _ in range(4)]
    for _ in range(50):
        engine_deals(rng, greedy_players)
    engine_rate, engine_n, _ = rate(lambda: engine_deals(rng, greedy_players), seconds)
    reference_rate, reference_n, _ = rate(lambda: (play_deal(rng), 1)[1], seconds)
    fast_rate, _, _ = rate(lambda: fast_deals(rng), seconds)

    strong = _figures(
        simulate(SPEC, ["strong", "greedy", "greedy", "greedy"], deals, seed=2, rotate=True)
    )
    greedy = _figures(
        simulate(SPEC, ["greedy", "random", "random", "random"], deals, seed=3, rotate=True)
    )
    # 500 duplicate deals are 2,000 plays of a deal per line-up, the bar.
    level_deals = {"easy": 2, "normal": 2, "hard": 2} if quick else dict.fromkeys(LEVELS, 500)
    levels = levels_table(level_deals)
    read_deals = 20 if quick else 300
    net_leads, net_answers = read_breaks(argmax_agent(shipped_net()), read_deals, seed=5)
    greedy_leads, greedy_answers = read_breaks(greedy_agent, read_deals, seed=5)
    net_us, net_deal_ms, net_decisions = net_speed(read_deals, seed=6)
    win_goal = "met" if strong["win"] >= 0.45 else "NOT met"
    ratio_goal = "met" if strong["ratio"] <= 0.65 else "NOT met"
    latency_goal = "met" if strong["p50"] <= 20 and strong["p99"] <= 100 else "NOT met"
    speed_goal = "met" if engine_rate >= 2000 else "NOT met"
    body = f"""
Speed, greedy all-AI deals per second ({seconds:.0f} s each, caches primed first:
{primed} combinations in {prime_s:.2f} s):

| implementation | deals/s | ratio |
| --- | ---: | ---: |
| engine surface: view -> greedy decide -> apply, with events | {engine_rate:,.0f} | {engine_rate / reference_rate:.2f} |
| straightforward list-based greedy deal (reference, no views or events) | {reference_rate:,.0f} | 1.00 |
| bitmask play-out used by `strong`'s search | {fast_rate:,.0f} | {fast_rate / reference_rate:.2f} |

Goal >= 2,000 engine deals/s: {speed_goal} ({engine_n} engine deals, {reference_n} reference deals).

Strength over {strong["n"]} deals, seats rotated every deal
(`deucebot simulate bigtwo -n {deals} --seed 2 --players strong,greedy,greedy,greedy --rotate`,
{strong["seconds"]:.0f} s):

| player | win rate (95% interval) | penalty per deal | vs greedy's | edge (low bound) | decision p50 / p99 |
| --- | --- | ---: | ---: | ---: | --- |
| strong vs 3 greedy | {strong["win"]:.3f} [{strong["win_low"]:.3f}, {strong["win_high"]:.3f}] | {strong["pen"]:.2f} (greedy {strong["others"]:.2f}) | {strong["ratio"]:.2f} | {strong["edge"]:.2f} ({strong["edge_low"]:.2f}) | {strong["p50"]:.1f} / {strong["p99"]:.1f} ms |
| greedy vs 3 random | {greedy["win"]:.3f} [{greedy["win_low"]:.3f}, {greedy["win_high"]:.3f}] | {greedy["pen"]:.2f} (random {greedy["others"]:.2f}) | {greedy["ratio"]:.2f} | {greedy["edge"]:.2f} ({greedy["edge_low"]:.2f}) | {greedy["p50"]:.3f} / {greedy["p99"]:.3f} ms |

Goals for strong vs 3 greedy: win rate >= 0.45: {win_goal}; penalty <= 65% of greedy's:
{ratio_goal}; decision p50 <= 20 ms and p99 <= 100 ms: {latency_goal}.

AI levels (rows) against the pool (columns): each level against three of each sparring
partner, every deal played once with the level in each seat, the same deals for every
line-up (seed 4; `deucebot simulate bigtwo --levels -n N --seed 4`). A cell: the level's
penalty per deal over the opponents', its 95% interval over whole deals, and the deals
(each played four times). Goals: hard <= 0.55 vs `greedy`; decision p99 <= 100 ms for
normal, <= 500 ms for hard, on a quiet machine.

{levels}

How often a player breaks the greedy habits `strong` reads its opponents by, over
{read_deals} bitmask deals against copies of itself (seed 5): `net` leads while holding a
lower card in {net_leads:.0%} of its free leads and answers a single over a lower one it
holds in {net_answers:.0%} of its single answers (greedy: {greedy_leads:.0%} and
{greedy_answers:.0%}).

`net`'s cost (what a play-out by it costs `hard`): {net_us:.0f} µs per decision between two
or more moves (features and forward pass; {net_decisions} decisions of {read_deals}
self-play deals, seed 6, plans of hands not remembered), {net_deal_ms:.1f} ms per whole deal
played by it in every seat (`net_play_out`).
"""
    title = "Big Two (quick run)" if quick else "Big Two"
    publish(title, body, write and not quick)
    return 0
