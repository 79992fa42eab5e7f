"""Hold'em levels against the sparring pool, on duplicate deals.

`duplicate` seats one player (seat 0) against copies of one opponent and plays the same
hands once per button position: one match per position, every match dealt from the same
seed, so hand k brings the same cards in every match and the player holds, over the
matches, the cards of every position against the same boards (duplicate, mirrored deals:
the luck of the cards mostly cancels). Stacks are restored to 50 big blinds every hand.
A hand's figure is the player's mean over the positions, in big blinds per 100 hands, and
the interval is the 95% normal interval over those per-hand means.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.commands.holdem_allin import HandTally
from bot.commands.simulate import Interval, TimedPolicy, percentile
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


def duplicate(
    player: str,
    opponent: str,
    seats: int,
    deals: int,
    seed: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Lineup:
    """`player` in seat 0 against `seats - 1` copies of `opponent` (levels or policy names),
    `deals` hands each played once per button position (`deals * seats` hands in all)."""
    policy, against = _policy(player), _policy(opponent)
    per_deal = [0.0] * deals
    raw = [0.0] * deals
    times: list[float] = []
    master = random.Random(seed)
    for button in range(seats):
        agents: list[Policy[HoldemView, BettingAction]] = [
            TimedPolicy(SPEC.make_policy(policy, random.Random(master.getrandbits(64))), times)
        ]
        agents += [
            SPEC.make_policy(against, random.Random(master.getrandbits(64)))
            for _ in range(seats - 1)
        ]
        # Its own generator, so the players' generators stay those of the raw measurement.
        tally = HandTally(0, random.Random(f"holdem-allin/{seed}/{button}"))
        _match(agents, button, deals, seed, tally, progress)
        scale = 100.0 / HoldemConfig(seats=seats).big_blind / seats
        for hand in range(deals):
            per_deal[hand] += tally.adjusted[hand] * scale
            raw[hand] += tally.raw[hand] * scale
    return Lineup(
        player,
        opponent,
        seats,
        Interval.of(per_deal),
        deals * seats,
        _p99(times),
        Interval.of(raw),
    )


def _policy(name: str) -> str:
    """The policy of a level name (`easy`, `normal`, `hard`), else the name itself."""
    return SPEC.level_policy(name) if name in LEVEL_NAMES else name


def _match(
    agents: list[Policy[HoldemView, BettingAction]],
    button: int,
    deals: int,
    seed: int,
    tally: HandTally,
    progress: Callable[[int], None] | None,
) -> None:
    """Play `deals` hands of one match from `seed`, every event fed to `tally`."""
    config = HoldemConfig(seats=len(agents), reset_stacks=True, max_hands=deals, button=button)

    def record(seat: int, action: object, events: list[Event]) -> bool:
        before = len(tally.raw)
        tally.feed(events)
        if progress is not None and len(tally.raw) > before:
            progress(len(tally.raw) - before)
        return len(tally.raw) >= deals

    state = HoldemState(config, random.Random(seed))
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
        import json

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
        print(json.dumps(data, indent=2))
    else:
        print(table(lineups))
    return 0
