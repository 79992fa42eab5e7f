"""All-AI play for measurement: `deucebot simulate GAME -n N --players a,b,c,d [--rotate] [--json]`.

One harness serves every game. The game's `SimHooks` say what `-n` counts
and turn its settlement events into per-seat samples; this module plays,
times every decision, rotates seats and reports each figure as a mean with
its 95% interval: the Wilson score interval for a rate (a figure named
``*_rate``, whose samples are 0 or 1), mean ± 1.96 standard errors for any
other average. The JSON shape is the contract documented in docs/simulate.md.
"""

from __future__ import annotations

import json
import math
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from engines.base import Event, Policy
from engines.play import play_out
from engines.registry import GameSpec

Z95 = 1.96
"""The standard normal quantile of a two-sided 95% interval (to two decimals, as documented)."""


def is_rate(figure: str) -> bool:
    """Whether `figure` is a proportion (named ``*_rate``: samples are 0 or 1 per unit)."""
    return figure.endswith("_rate")


V = TypeVar("V")
A = TypeVar("A")


class TimedPolicy(Generic[V, A]):
    """A policy that appends the milliseconds each decision took to `times` (the view is
    built before the clock starts: only the policy's own work is timed)."""

    def __init__(
        self,
        policy: Policy[V, A],
        times: list[float],
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        """Wrap `policy`; every `decide` appends its duration in ms to `times`, by `clock`
        in seconds (wall time unless told: `time.process_time` for CPU time)."""
        self.policy = policy
        self.name = policy.name
        self.times = times
        self.clock = clock

    def decide(self, view: V) -> A:
        """The wrapped policy's decision, timed."""
        tick = self.clock()
        action = self.policy.decide(view)
        self.times.append((self.clock() - tick) * 1000)
        return action


@dataclass(frozen=True)
class Interval:
    """A sample mean with its 95% confidence interval."""

    mean: float
    low: float
    high: float
    n: int

    @classmethod
    def of(cls, samples: list[float], *, rate: bool = False) -> Interval:
        """The mean of `samples` with its 95% interval: for a `rate` the Wilson score interval
        (always inside [0, 1], sensible for tiny runs and rates of 0 or 1), otherwise mean ±
        1.96 standard errors (infinite for a single sample)."""
        n = len(samples)
        if n == 0:
            return cls(math.nan, math.nan, math.nan, 0)
        mean = math.fsum(samples) / n
        if rate:
            return cls(mean, *wilson(mean, n), n)
        half = Z95 * statistics.stdev(samples) / math.sqrt(n) if n > 1 else math.inf
        return cls(mean, mean - half, mean + half, n)

    def to_json(self, digits: int = 4) -> dict[str, float]:
        """``{"mean", "low", "high"}`` rounded."""
        return {
            "mean": round(self.mean, digits),
            "low": round(self.low, digits),
            "high": round(self.high, digits),
        }


def wilson(rate: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (low, high) of a proportion `rate` observed over `n` trials."""
    z2n = z * z / n
    centre = (rate + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(rate * (1 - rate) / n + z2n / (4 * n))
    # Exact at 0 and 1 (the formula leaves rounding crumbs there).
    return max(0.0, min(rate, centre - half)), min(1.0, max(rate, centre + half))


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by nearest rank; nan for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))
    return ordered[index]


@dataclass
class SimulationResult:
    """Raw samples of a run: per policy slot, figure name -> samples; decision times in ms."""

    game: str
    unit: str
    n: int
    seconds: float
    policies: list[str]
    samples: list[dict[str, list[float]]]
    decision_ms: list[list[float]]
    seed: int
    rotate: bool

    def to_json(self) -> dict[str, Any]:
        """The documented JSON contract."""
        seats = []
        for slot, policy in enumerate(self.policies):
            entry: dict[str, Any] = {"seat": slot, "policy": policy}
            for figure, values in sorted(self.samples[slot].items()):
                entry[figure] = Interval.of(values, rate=is_rate(figure)).to_json()
            times = self.decision_ms[slot]
            entry["decision_ms"] = {
                "p50": round(percentile(times, 50), 3),
                "p99": round(percentile(times, 99), 3),
                "max": round(max(times), 3) if times else math.nan,
                "decisions": len(times),
            }
            seats.append(entry)
        return {
            "game": self.game,
            "unit": self.unit,
            "n": self.n,
            "seconds": round(self.seconds, 3),
            "seed": self.seed,
            "rotate": self.rotate,
            "seats": seats,
        }

    def to_table(self) -> str:
        """A readable table, one row per seat."""
        data = self.to_json()
        figures = sorted(
            {
                k
                for seat in data["seats"]
                for k in seat
                if k not in {"seat", "policy", "decision_ms"}
            }
        )
        header = ["seat", "policy", *figures, "ms p50", "ms p99"]
        rows = []
        for seat in data["seats"]:
            row = [str(seat["seat"]), seat["policy"]]
            for figure in figures:
                iv = seat.get(figure)
                row.append(f"{iv['mean']:.3f} [{iv['low']:.3f}, {iv['high']:.3f}]" if iv else "-")
            row += [f"{seat['decision_ms']['p50']:.2f}", f"{seat['decision_ms']['p99']:.2f}"]
            rows.append(row)
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
        lines = [
            "  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True))
            for r in [header, *rows]
        ]
        lines.insert(1, "  ".join("-" * w for w in widths))
        unit = data["unit"] + ("es" if data["unit"].endswith("ch") else "s")
        title = (
            f"{data['game']}: {data['n']} {unit} in {data['seconds']:.1f} s (seed {data['seed']}"
        )
        title += ", seats rotated)" if self.rotate else ")"
        return "\n".join([title, *lines])


def simulate(
    spec: GameSpec,
    policies: list[str],
    n: int,
    seed: int = 0,
    rotate: bool = False,
    progress: Callable[[int], None] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> SimulationResult:
    """Play `n` units of `spec` with one AI policy per seat and collect the figures.

    With `rotate`, every new match moves each policy one seat on, so position
    luck cancels out over the run. Samples are indexed by policy slot, not seat.
    `progress` is told the units played so far after each one (a progress bar).
    `clock` times the decisions (`TimedPolicy`).
    """
    seats = len(policies)
    refusal = spec.seats_refusal(seats)
    if refusal:
        raise ValueError(refusal)
    master = random.Random(seed)
    decision_ms: list[list[float]] = [[] for _ in policies]
    agents = [
        TimedPolicy(spec.make_policy(name, random.Random(master.getrandbits(64))), times, clock)
        for name, times in zip(policies, decision_ms, strict=True)
    ]
    samples: list[dict[str, list[float]]] = [defaultdict(list) for _ in policies]
    config = spec.sim.config(seats)
    units = 0
    session = 0
    slot_of_seat = list(range(seats))

    def record(seat: int, action: object, events: list[Event]) -> bool:
        """Turn the public events of one action into samples; True once `n` units are in."""
        nonlocal units
        for event in events:
            if event.to is not None:
                continue
            for figure, per_seat in spec.sim.figures(event, state).items():
                for s, value in enumerate(per_seat):
                    samples[slot_of_seat[s]][figure].append(float(value))
            if isinstance(event, spec.sim.unit_event):
                units += 1
                if progress is not None:
                    progress(min(units, n))
        return units >= n

    started = time.perf_counter()
    while units < n:
        offset = session % seats if rotate else 0
        slot_of_seat = [(seat + offset) % seats for seat in range(seats)]
        state = spec.new_state(config, random.Random(master.getrandbits(64)))
        session += 1
        play_out(state, [agents[slot] for slot in slot_of_seat], on_action=record)
    return SimulationResult(
        game=spec.name,
        unit=spec.sim.unit,
        n=units,
        seconds=time.perf_counter() - started,
        policies=list(policies),
        samples=[dict(s) for s in samples],
        decision_ms=decision_ms,
        seed=seed,
        rotate=rotate,
    )


def finite(data: Any) -> Any:
    """`data` (JSON-shaped: dicts, lists, numbers, text) with every infinite or NaN number
    as None: an interval of a single sample is unbounded, and JSON has no word for that
    but null (``Infinity`` and ``NaN`` are Python's, which strict parsers refuse)."""
    if isinstance(data, float) and not math.isfinite(data):
        return None
    if isinstance(data, dict):
        return {key: finite(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [finite(value) for value in data]
    return data


def json_text(data: Any) -> str:
    """`data` as the JSON every `simulate --json` prints: indented, strict (`finite`)."""
    return json.dumps(finite(data), indent=2, allow_nan=False)


def dumps(result: SimulationResult) -> str:
    """The JSON contract as text."""
    return json_text(result.to_json())
