"""`deucebot train bigtwo`: self-play training of Big Two's `net` player (declared by Big
Two's `GameFace.trainers`); `train_and_save`, which `bigtwo-pg` runs too."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from engines.ai.bigtwo_train import TrainReport


class _Saved(Protocol):
    def save(self, path: Path) -> None: ...


def train_and_save(
    args: argparse.Namespace,
    trainer: Callable[..., tuple[_Saved, TrainReport]],
    shipped: Path,
    deals: int,
) -> int:
    """Run `trainer(seed, deals, log=...)` with `args.seed` and `args.deals` (`deals` when not
    given), printing its progress, and write the weights to `args.out` (else `shipped`)."""
    out = Path(args.out) if args.out else shipped
    count = args.deals if args.deals is not None else deals
    weights, report = trainer(args.seed, count, log=lambda line: print(line, flush=True))
    weights.save(out)
    print(f"{report.deals} deals in {report.seconds:.0f} s; weights written to {out}")
    return 0


def train(args: argparse.Namespace) -> int:
    """Train the network from `args.seed` over `args.deals` self-play deals (150,000)."""
    from engines.ai.bigtwo_net import WEIGHTS_PATH
    from engines.ai.bigtwo_train import train as train_net

    return train_and_save(args, train_net, WEIGHTS_PATH, 150_000)
