"""`deucebot bench holdem`: engine speed against pokerkit, ranking overhead, `strong` latency.

1. Four-player hands per second with everyone checking and calling to the showdown, our
   engine and pokerkit's own engine side by side in the same run (same policy), and the ratio.
2. The overhead of `engines.poker.ranking` over calling eval7 directly on the same 7-card hands
   (eval7 on cards already converted to its own type).
3. The `strong` AI's decision latency (p50, p99, max) at a four-seat table against the baselines.
4. Strength: `strong` against three of each baseline, seats rotated, bb/100 with 95% intervals
   (20,000 hands per opponent type; several minutes, run it with `nice`).
5. The levels `hard` and `normal` against the sparring pool (`bot.commands.holdem_pool`) at 2,
   6 and 9 seats on duplicate deals, and `hard`'s decision latency (p99).
"""

from __future__ import annotations

import random
import time

import eval7

from bot.commands.holdem_pool import LEVELS, POOL, Lineup, duplicate
from bot.commands.holdem_pool import table as pool_table
from bot.commands.simulate import Interval, TimedPolicy, percentile, simulate
from deucebot_dev.bench.report import publish, rate
from engines.base import DealSettled, Event
from engines.cards import FULL_DECK
from engines.holdem import SPEC, HoldemConfig, HoldemState
from engines.play import play_out
from engines.poker.actions import CALL, CHECK, Check
from engines.poker.ranking import hand_value, rank_hand, to_eval7


def ours_hands(seconds: float) -> tuple[float, int]:
    """Our engine: hands/s with four players checking and calling to the showdown."""
    state = HoldemState(HoldemConfig(seats=4, reset_stacks=True), random.Random(1))

    def work() -> int:
        done = 0
        for _ in range(50):
            settled = False
            while not settled:
                seat = state.round.to_act
                assert seat is not None
                legal = state.legal_actions(seat)
                action = CHECK if isinstance(legal[0], Check) else CALL
                for event in state.apply(seat, action):
                    if isinstance(event, DealSettled):
                        settled = True
            done += 1
        return done

    per_second, hands, _ = rate(work, seconds)
    return per_second, hands


def pokerkit_hands(seconds: float) -> tuple[float, int]:
    """pokerkit's engine: the same hands (four players, 1000 chips, blinds 10/20, check/call)."""
    from pokerkit import Automation, Mode, NoLimitTexasHoldem

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.RUNOUT_COUNT_SELECTION,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )

    def work() -> int:
        for _ in range(5):
            state = NoLimitTexasHoldem.create_state(
                automations, True, 0, (10, 20), 20, (1000,) * 4, 4, mode=Mode.CASH_GAME
            )
            while state.status:
                state.check_or_call()
        return 5

    per_second, hands, _ = rate(work, seconds)
    return per_second, hands


def ranking_overhead(hands: int) -> tuple[float, float, float, float]:
    """Hands/s on the same 7-card hands: eval7 on eval7 cards, eval7 with an inline conversion
    from our cards, `rank_hand`, `hand_value`.

    The four are timed in turns on chunks of 1,000 hands, seven rounds, keeping each one's
    fastest time per chunk, so that load from other processes hits them alike."""
    rng = random.Random(7)
    ours = [rng.sample(FULL_DECK, 7) for _ in range(hands)]
    theirs = [to_eval7(h) for h in ours]
    evaluate = eval7.evaluate
    lookup = {card: to_eval7([card])[0] for card in FULL_DECK}.__getitem__

    def direct(chunk: int) -> None:
        for cards in theirs[chunk : chunk + 1000]:
            evaluate(cards)

    def inline(chunk: int) -> None:
        for cards in ours[chunk : chunk + 1000]:
            evaluate(list(map(lookup, cards)))

    def ranked(chunk: int) -> None:
        for cards in ours[chunk : chunk + 1000]:
            rank_hand(cards)

    def valued(chunk: int) -> None:
        for cards in ours[chunk : chunk + 1000]:
            hand_value(cards)

    runs = (direct, inline, ranked, valued)
    totals = [0.0] * len(runs)
    for chunk in range(0, hands, 1000):
        best = [float("inf")] * len(runs)
        for _ in range(7):
            for index, run in enumerate(runs):
                start = time.perf_counter()
                run(chunk)
                best[index] = min(best[index], time.perf_counter() - start)
        for index in range(len(runs)):
            totals[index] += best[index]
    rates = [hands / total for total in totals]
    return rates[0], rates[1], rates[2], rates[3]


def strong_latency(hands: int) -> tuple[list[float], int]:
    """Decision times (ms) of `strong` in seat 0 against random, calling and tight players."""
    state = HoldemState(HoldemConfig(seats=4, reset_stacks=True), random.Random(3))
    names = ["strong", "random", "calling", "tight"]
    agents = [SPEC.make_policy(name, random.Random(i)) for i, name in enumerate(names)]
    times: list[float] = []
    played = 0

    def count(seat: int, action: object, events: list[Event]) -> bool:
        nonlocal played
        played += sum(isinstance(e, DealSettled) for e in events)
        return played >= hands

    play_out(state, [TimedPolicy(agents[0], times), *agents[1:]], on_action=count)
    return times, played


def strength(hands: int) -> list[tuple[str, Interval, Interval, float]]:
    """(baseline, strong's bb/100, each baseline seat's pooled bb/100, hands/s) per baseline."""
    rows = []
    for opponent in ("calling", "random", "tight"):
        result = simulate(
            SPEC, ["strong", opponent, opponent, opponent], hands, seed=1, rotate=True
        )
        theirs = [v for slot in result.samples[1:] for v in slot["bb_per_100"]]
        rows.append(
            (
                opponent,
                Interval.of(result.samples[0]["bb_per_100"]),
                Interval.of(theirs),
                result.n / result.seconds,
            )
        )
    return rows


def pool(deals: int, seats: tuple[int, ...]) -> list[Lineup]:
    """Each level against copies of each pool style at each seat count, `deals` duplicate
    deals (each played once per button position)."""
    return [
        duplicate(level, opponent, n, deals, seed=1)
        for n in seats
        for level in LEVELS
        for opponent in POOL
    ]


def main(quick: bool, write: bool) -> int:
    """Run the measurements, print them and, with `write`, record them in docs/benchmarks.md."""
    seconds = 1.5 if quick else 8.0
    ours_rate, ours_n = ours_hands(seconds)
    kit_rate, kit_n = pokerkit_hands(seconds)
    direct, inline, ranked, valued = ranking_overhead(10_000 if quick else 50_000)
    times, played = strong_latency(40 if quick else 600)
    rows = strength(300 if quick else 20_000)
    lineups = pool(10 if quick else 400, (2, 6) if quick else (2, 6, 9))
    table = "\n".join(
        f"| 3 x `{name}` | {ours.mean:+.1f} [{ours.low:+.1f}, {ours.high:+.1f}] | "
        f"{theirs.mean:+.1f} | {ours.n:,} | {speed:,.0f} |"
        for name, ours, theirs, speed in rows
    )
    levels = pool_table(lineups)
    body = f"""
Four players, 1000 chips, blinds 10/20, everyone checks or calls to the showdown; both engines
in the same run.

| engine | hands/s | hands timed |
| --- | ---: | ---: |
| deucebot `engines.holdem` | {ours_rate:,.0f} | {ours_n:,} |
| pokerkit `NoLimitTexasHoldem` | {kit_rate:,.0f} | {kit_n:,} |
| **ratio** | **{ours_rate / kit_rate:.1f}x** | goal >= 10x |

Hand ranking, 7-card hands (timed in turns, fastest of 7 per chunk of 1,000):

| call | hands/s | overhead vs eval7 |
| --- | ---: | ---: |
| `eval7.evaluate` on eval7 cards | {direct:,.0f} | 1.00x |
| `eval7.evaluate(list(map(convert, cards)))` inline | {inline:,.0f} | {direct / inline:.2f}x |
| `rank_hand` (value + name) | {ranked:,.0f} | {direct / ranked:.2f}x |
| `hand_value` (bare int) | {valued:,.0f} | {direct / valued:.2f}x |

Our `Card` carries the `mask` attribute eval7 reads, so `rank_hand` passes our cards to
eval7 as they are; what remains is one Python call (and, for `rank_hand`, the `HandRank`
int). The inline row shows what converting to eval7's cards would cost. Goal: <= 1.5x.

`strong` decision latency (seat 0 against random, calling and tight; {played} hands,
{len(times)} decisions): p50 {percentile(times, 50):.2f} ms, p99 {percentile(times, 99):.2f} ms,
max {max(times):.2f} ms (budget p99 <= 100 ms).

Strength: `strong` in one seat against three copies of a baseline at a four-seat table,
1000 chips (50 big blinds) restored every hand, seats rotated every 100 hands
(`deucebot simulate holdem -n N --players strong,X,X,X --rotate --seed 1`); bb/100 with
its 95% interval (normal approximation over hands):

| opponents | `strong` bb/100 [95% interval] | each baseline, bb/100 | hands | hands/s |
| --- | ---: | ---: | ---: | ---: |
{table}

Levels against the sparring pool: the level in one seat against copies of one style,
50 big blinds restored every hand, duplicate deals (every deal played once per button
position, in independent blocks of 50 deals with fresh players, `bot.commands.holdem_pool`),
a hand all-in before the river counted at its expected share of the pot
(`bot.commands.holdem_allin`); bb/100 with its 95% interval over the blocks and
(hands played); p99 is the level's decision latency in that row's matches:

{levels}
"""
    publish("holdem" + (" (quick)" if quick else ""), body, write and not quick)
    return 0
