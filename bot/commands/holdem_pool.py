"""Hold'em levels against the sparring pool, on duplicate deals.

`duplicate` seats one player (seat 0) against copies of one opponent in many short blocks
of `BLOCK` deals. A block plays the same hands once per button position: one match per
position with fresh players, every match dealt from the block's seed, so hand k brings the
same cards in every match and the player holds, over the matches, the cards of every
position against the same boards (duplicate, mirrored deals: the luck of the cards mostly
cancels). Stacks are restored to 50 big blinds every hand. A hand's figure is the player's
mean over the positions, in big blinds per 100 hands.

The players remember what each seat did for a whole match, so the hands of one match need
not be independent samples; the blocks are (their own seeds, their own players), whatever
the players remember. The 95% interval is therefore taken over blocks (`clustered`), not
over hands (docs/benchmarks.md shows it calibrated on self-matches).
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.commands.holdem_allin import HandTally
from bot.commands.simulate import Z95, Interval, TimedPolicy, percentile
from engines.base import Event, Policy
from engines.holdem import SPEC, HoldemConfig, HoldemState, HoldemView
from engines.play import play_out
from engines.poker.actions import BettingAction
from engines.registry import LEVELS as LEVEL_NAMES
from engines.registry import UnknownName, get_game

LEVELS = ("hard", "normal")
"""The levels measured (rows of the report)."""
POOL = ("tag", "lag", "maniac", "station", "rock", "frozen")
"""The sparring pool (columns of the report)."""
BLOCK = 50
"""Deals per block: each block is one independent sample of the interval."""


@dataclass(frozen=True)
class Lineup:
    """One player against copies of one opponent: bb/100 with its interval, decision times."""

    player: str
    opponent: str
    seats: int
    result: Interval
    hands: int
    p99_ms: float
    raw: Interval | None = None
    """The same hands without the all-in adjustment (the chips the engine paid)."""
    blocks: tuple[tuple[float, ...], ...] = ()
    """The adjusted bb/100 of each deal, block by block (for `margin`)."""


def margin(first: Lineup, second: Lineup) -> Interval:
    """`first` minus `second` deal by deal, with the 95% interval over their blocks: two
    line-ups of the same seed, opponent, seats and deals (the same cards), so the paired
    difference cancels the luck both met."""
    if (first.opponent, first.seats, first.hands) != (second.opponent, second.seats, second.hands):
        raise ValueError("margin: the line-ups were not played on the same deals")
    return clustered(
        [
            [a - b for a, b in zip(mine, theirs, strict=True)]
            for mine, theirs in zip(first.blocks, second.blocks, strict=True)
        ]
    )


def duplicate(
    player: str,
    opponent: str,
    seats: int,
    deals: int,
    seed: int = 1,
    progress: Callable[[int], None] | None = None,
    block: int = BLOCK,
) -> Lineup:
    """`player` in seat 0 against `seats - 1` copies of `opponent` (levels or policy names),
    `deals` hands each played once per button position (`deals * seats` hands in all), in
    blocks of `block` deals (the last may be shorter) with fresh players and seeds."""
    adjusted: list[list[float]] = []
    raw: list[list[float]] = []
    times: list[float] = []
    for index, start in enumerate(range(0, deals, block)):
        size = min(block, deals - start)
        per_deal, raw_deal = _block(player, opponent, seats, size, seed, index, times, progress)
        adjusted.append(per_deal)
        raw.append(raw_deal)
    return Lineup(
        player,
        opponent,
        seats,
        clustered(adjusted),
        deals * seats,
        _p99(times),
        clustered(raw),
        tuple(tuple(b) for b in adjusted),
    )


def _block(
    player: str,
    opponent: str,
    seats: int,
    deals: int,
    seed: int,
    index: int,
    times: list[float],
    progress: Callable[[int], None] | None,
) -> tuple[list[float], list[float]]:
    """One block: `deals` hands once per button position, the player's bb/100 per deal
    (its mean over the positions), all-in adjusted and raw."""
    policy, against = _policy(player), _policy(opponent)
    per_deal = [0.0] * deals
    raw = [0.0] * deals
    scale = 100.0 / HoldemConfig(seats=seats).big_blind / seats
    # Named streams: the cards, the players and the adjustment never share a generator.
    name = f"holdem-pool/{seed}/{index}"
    players = random.Random(f"{name}/players")
    for button in range(seats):
        agents: list[Policy[HoldemView, BettingAction]] = [
            TimedPolicy(SPEC.make_policy(policy, random.Random(players.getrandbits(64))), times)
        ]
        agents += [
            SPEC.make_policy(against, random.Random(players.getrandbits(64)))
            for _ in range(seats - 1)
        ]
        tally = HandTally(0, random.Random(f"{name}/allin/{button}"))
        _match(agents, button, deals, random.Random(f"{name}/deal"), tally, progress)
        for hand in range(deals):
            per_deal[hand] += tally.adjusted[hand] * scale
            raw[hand] += tally.raw[hand] * scale
    return per_deal, raw


def clustered(blocks: Sequence[Sequence[float]]) -> Interval:
    """The mean of every value of `blocks` with its 95% interval over the blocks: each block
    is one sample (the cluster-robust standard error of a mean, blocks of any sizes), so
    values that depend on each other within a block do not narrow it. Infinite with one
    block."""
    sizes = [len(b) for b in blocks if b]
    sums = [math.fsum(b) for b in blocks if b]
    n, count = sum(sizes), len(sizes)
    if n == 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    mean = math.fsum(sums) / n
    if count < 2:
        return Interval(mean, -math.inf, math.inf, count)
    spread = math.fsum((total - size * mean) ** 2 for total, size in zip(sums, sizes, strict=True))
    half = t95(count - 1) * math.sqrt(spread * count / (count - 1)) / n
    return Interval(mean, mean - half, mean + half, count)


def t95(df: int) -> float:
    """Student's t two-sided 95% quantile for `df` degrees of freedom: few blocks need the
    wider t, not the normal's 1.96 (exact to 3 decimals up to 6 degrees of freedom, then
    the Cornish-Fisher expansion around 1.96, within 0.002)."""
    if df < 7:
        return (math.inf, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447)[max(df, 0)]
    z = Z95
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
    )


def _policy(name: str) -> str:
    """The policy of a level name (`easy`, `normal`, `hard`), else the name itself."""
    return SPEC.level_policy(name) if name in LEVEL_NAMES else name


def _match(
    agents: list[Policy[HoldemView, BettingAction]],
    button: int,
    deals: int,
    rng: random.Random,
    tally: HandTally,
    progress: Callable[[int], None] | None,
) -> None:
    """Play `deals` hands of one match dealt from `rng`, every event fed to `tally`."""
    config = HoldemConfig(seats=len(agents), reset_stacks=True, max_hands=deals, button=button)

    def record(seat: int, action: object, events: list[Event]) -> bool:
        before = len(tally.raw)
        tally.feed(events)
        if progress is not None and len(tally.raw) > before:
            progress(len(tally.raw) - before)
        return len(tally.raw) >= deals

    state = HoldemState(config, rng)
    tally.feed(state.opening_events)
    play_out(state, agents, on_action=record)


def _p99(times: list[float]) -> float:
    return percentile(times, 99) if times else float("nan")


def table(lineups: Sequence[Lineup]) -> str:
    """A markdown table: one row per (level, seats), one column per opponent."""
    opponents = list(dict.fromkeys(line.opponent for line in lineups))
    rows: dict[tuple[str, int], dict[str, Lineup]] = {}
    for line in lineups:
        rows.setdefault((line.player, line.seats), {})[line.opponent] = line
    head = "| level | seats | " + " | ".join(f"`{o}`" for o in opponents) + " | p99 ms |"
    rule = "| --- | ---: | " + " | ".join("---:" for _ in opponents) + " | ---: |"
    body = []
    for (player, seats), cells in rows.items():
        values = []
        for name in opponents:
            cell = cells.get(name)
            if cell is None:
                values.append("-")
            else:
                r = cell.result
                values.append(f"{r.mean:+.1f} [{r.low:+.1f}, {r.high:+.1f}] ({cell.hands:,})")
        worst = max(c.p99_ms for c in cells.values())
        body.append(f"| `{player}` | {seats} | " + " | ".join(values) + f" | {worst:.1f} |")
    return "\n".join([head, rule, *body])


def simulate_against(args: argparse.Namespace, candidate: str, pool: list[str]) -> int:
    """`simulate holdem --players C --against P,Q --seats N`: duplicate deals per opponent."""
    refusal = get_game("holdem").seats_refusal(args.seats)
    if refusal:
        raise UnknownName(f"{refusal} (--seats)")
    lineups = [duplicate(candidate, name, args.seats, args.n, seed=args.seed) for name in pool]
    if args.json:
        from bot.commands.simulate import json_text

        rows = [
            {
                "opponent": line.opponent,
                "seats": line.seats,
                "hands": line.hands,
                "bb_per_100": {
                    "mean": line.result.mean,
                    "low": line.result.low,
                    "high": line.result.high,
                },
                "bb_per_100_raw": line.raw.to_json() if line.raw else None,
                "decision_ms_p99": line.p99_ms,
            }
            for line in lineups
        ]
        data = {"candidate": candidate, "seed": args.seed, "n": args.n, "lineups": rows}
        print(json_text(data))
    else:
        print(table(lineups))
    return 0
